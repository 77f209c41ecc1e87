"""Typed relations: a frontmatter key whose values are links (`broader: "[[SOLID]]"`) is an edge of
that kind, as SKOS has them. `narrower` is read as the inverse of `broader` (and `has_part` of
`part_of`), `related` both ways; any other key (`owner`, `depends_on`, ...) is an edge of its own
kind, one way. A page's scheme is its `scheme` frontmatter value, else its top folder.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator

from curator.core.read.vault import Vault

INVERSE = {"broader": "narrower", "narrower": "broader", "part_of": "has_part", "has_part": "part_of"}
SYMMETRIC = frozenset({"related"})
HIERARCHICAL = ("broader", "part_of")  # a chain of these back to its start is a cycle


class Relations:
    """Every typed edge of a vault, as declared and with inverses and symmetric edges added."""

    def __init__(self, declared: Iterable[tuple[str, str, str]]) -> None:
        """`declared`: (source, kind, target) of each edge as written (one written twice counts once)."""
        self._out: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self._in: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        out, into = self._out, self._in
        for source, kind, target in declared:
            out[kind][source].add(target)
            into[kind][target].add(source)
            back = INVERSE.get(kind) or (kind if kind in SYMMETRIC else None)  # the edge read from the other end
            if back is not None:
                out[back][target].add(source)
                into[back][source].add(target)

    @classmethod
    def of(cls, vault: Vault) -> Relations:
        """The vault's relations, worked out once per load."""
        return vault.once(
            "relations",
            lambda: cls(
                (rl.source, rl.link.key, rl.resolution.path)
                for rl in vault.links
                if rl.link.key and rl.resolution.kind == "page" and rl.resolution.path is not None
            ),
        )

    def kinds(self) -> list[str]:
        return sorted(self._out)

    def targets(self, kind: str, page: str) -> set[str]:
        """The pages `page` has a `kind` edge to."""
        return self._out.get(kind, {}).get(page, set())

    def sources(self, kind: str, page: str) -> set[str]:
        """The pages with a `kind` edge to `page`."""
        return self._in.get(kind, {}).get(page, set())

    def reaching(self, kind: str, page: str) -> set[str]:
        """Every page with a chain of `kind` edges to `page` (`broader+`: everything under it)."""
        found: set[str] = set()
        todo = [page]
        while todo:
            for source in self.sources(kind, todo.pop()):
                if source not in found:
                    found.add(source)
                    todo.append(source)
        found.discard(page)
        return found

    def edges(self, kind: str) -> Iterator[tuple[str, str]]:
        """Each `kind` edge once: a symmetric one as one unordered pair."""
        for source, targets in sorted(self._out.get(kind, {}).items()):
            for target in sorted(targets):
                if kind in SYMMETRIC and target < source and source in self.targets(kind, target):
                    continue
                yield source, target

    def cycles(self) -> list[tuple[str, list[str]]]:
        """(kind, pages in order) for each chain of hierarchical edges that leads back to its start."""
        found: list[tuple[str, list[str]]] = []
        if not any(self._out.get(kind) for kind in HIERARCHICAL):
            return found  # without importing networkx (0.1 s of a lint)
        import networkx as nx

        for kind in HIERARCHICAL:
            graph = nx.DiGraph((s, t) for s, targets in self._out.get(kind, {}).items() for t in targets)
            for component in nx.strongly_connected_components(graph):
                start = min(component)
                if len(component) > 1 or graph.has_edge(start, start):  # a page broader than itself, at once
                    cycle = nx.find_cycle(graph.subgraph(component), start)
                    found.append((kind, [source for source, _ in cycle]))
        return sorted(found, key=lambda item: item[1][0])


def scheme_of(vault: Vault, path: str) -> str:
    """A page's scheme: its `scheme` frontmatter value, else its top folder ("" at the root)."""
    value = vault.pages[path].frontmatter.get("scheme")
    if isinstance(value, str) and value.strip():
        return value.strip()
    return path.split("/", 1)[0] if "/" in path else ""
