"""Narrow the page index as a person types: fuzzy over title, path and aliases, best first."""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter

from rapidfuzz import fuzz, process, utils

from curator.core.read.vault import Vault


@dataclass(frozen=True)
class PageIndex:
    """Search keys for every page, built once per vault load."""

    paths: tuple[str, ...]
    keys: tuple[str, ...]

    @classmethod
    def of(cls, vault: Vault) -> PageIndex:
        paths = tuple(vault.pages)
        keys = tuple(
            utils.default_process(" ".join([page.shown_title, page.path, *page.aliases, _provenance(page.frontmatter)]))
            for page in vault.pages.values()
        )
        return cls(paths, keys)

    def filter(self, query: str, cutoff: float = 60) -> list[str]:
        """Pages matching `query`, best match first; every page, in order, for an empty query."""
        query = utils.default_process(query)
        if not query:
            return list(self.paths)
        hits = process.extract(
            query, self.keys, scorer=fuzz.partial_ratio, processor=None, limit=None, score_cutoff=cutoff
        )
        hits.sort(key=itemgetter(2))  # path order (the paths are sorted) ...
        hits.sort(key=itemgetter(1), reverse=True)  # ... under best score first; both sorts are stable
        return [self.paths[index] for _, _, index in hits]


def _provenance(frontmatter: dict[str, object]) -> str:
    """`source manual` (or agent, or a name): typing "source manual" narrows the index to those pages."""
    source = frontmatter.get("source")
    return f"source {source}" if isinstance(source, str) else ""
