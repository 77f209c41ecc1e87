"""Obsidian-compatible link resolution over a vault's pages and attachments.

A path-like target (`./x`, `../x`, `/x`) is a path; a target with a folder (`folder/Page`) is a
path from the root, then from the linking page's folder, then any path ending with it; a bare
name is a title, matched case-insensitively and NFC-normalised, nearest page first.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from typing import NamedTuple

from curator.core.read.page import FOLDER_PAGES, INDEX_NAMES

_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,8}$")
_NON_WORD = re.compile(r"[\W_]+")


def fold(text: str) -> str:
    """The key two names are compared by: NFC-normalised and case-folded."""
    return unicodedata.normalize("NFC", text).casefold()


def anchor_key(text: str) -> str:
    """Heading text or a heading slug reduced to its letters and digits, for loose matching;
    accents dropped, as docs sites' slugs drop them ("abhängige" is `#abhangige`)."""
    key = fold(text)
    if not key.isascii():
        key = "".join(ch for ch in unicodedata.normalize("NFKD", key) if not unicodedata.combining(ch))
    return _NON_WORD.sub("", key)


class Resolution(NamedTuple):
    """What a link names (a NamedTuple: there is one per distinct target in the vault)."""

    kind: str  # "page", "attachment" or "dead"
    path: str | None = None
    candidates: tuple[str, ...] = ()  # every page the target could name, when more than one
    alias_of: tuple[str, ...] = ()  # pages that have the target as an alias (when unresolved)
    outside: bool = False  # the target points outside the vault


DEAD = Resolution("dead")
OUTSIDE = Resolution("dead", outside=True)


class Resolver:
    """Answers "which file does this link name?" for links written in a given page."""

    def __init__(
        self,
        pages: Iterable[str],
        attachments: Iterable[str],
        aliases: dict[str, tuple[str, ...]],
        resolve_aliases: bool = False,
    ) -> None:
        self.resolve_aliases = resolve_aliases
        self._pages: set[str] = set()
        self._files: set[str] = set()  # pages and attachments as named on disk: an exact name wins over a folded one
        self._by_path: dict[str, str] = {}  # folded path -> path, pages and attachments
        self._by_title: dict[str, list[str]] = defaultdict(list)  # folded page title -> pages
        self._by_name: dict[str, list[str]] = defaultdict(list)  # folded file name -> attachments
        self._by_alias: dict[str, list[str]] = defaultdict(list)
        # Bare names that resolve the same from every folder (one page or none), by the target as written.
        self._bare_memo: dict[str, Resolution] = {}
        self._site: dict[str, list[str]] | None = None  # a docs site's URL paths, built on the first one asked
        by_path, by_title = self._by_path, self._by_title
        for path in pages:
            self._pages.add(path)
            self._files.add(path)
            key = fold(path)
            by_path.setdefault(key, path)
            by_title[key.rsplit("/", 1)[-1][:-3]].append(path)  # ".md" folds to itself
        for path in attachments:
            self._files.add(path)
            key = fold(path)
            by_path.setdefault(key, path)
            self._by_name[key.rsplit("/", 1)[-1]].append(path)
        self.add_aliases(aliases)
        self.permalinks: dict[str, str] = {}  # a page's own site address (`permalink: /tables/agency/`), folded
        self._claims: dict[str, list[str]] = defaultdict(list)  # every page giving one address
        self._by_named_title: dict[str, list[str]] = defaultdict(list)  # `title:`, where links name it (`add_titles`)
        self.named_title: dict[str, str] = {}  # page -> its `title:` as written, where links name it

    def add_permalinks(self, permalinks: Iterable[tuple[str, str]]) -> None:
        """Learn pages' own site addresses ((page, its `permalink:`) pairs): the site serves the
        page there. Of pages giving one address, the first by path answers it, whatever order
        they came in, and a link to it is ambiguous."""
        for path, link in permalinks:  # (links from the site's root only: no bare name's answer changes)
            if (key := permalink_key(link)) and path in self._pages and path not in self._claims[key]:
                self._claims[key].append(path)
                self.permalinks[key] = min(self._claims[key])

    def permalink_claims(self) -> list[tuple[str, str]]:
        """(page, address) for every page giving an address, the pages sharing one included."""
        return [(path, key) for key, paths in self._claims.items() for path in paths]

    def add_titles(self, titles: Iterable[tuple[str, str]]) -> None:
        """Learn pages' frontmatter titles ((page, its `title:`) pairs) in a vault whose links name
        them (basic-memory's `[[Step 3 Decisions 2026-07-09]]` for `2026-07-09-step-03-decisions.md`):
        like aliases they name only what no page or file does."""
        for path, title in titles:
            if path in self._pages and title.strip():
                self._by_named_title[fold(title.strip())].append(path)
                self.named_title[path] = title.strip()
        self._bare_memo = {target: found for target, found in self._bare_memo.items() if found.kind != "dead"}

    def titled(self, title: str) -> list[str]:
        """The pages whose `title:` is `title`, where links name pages by it (`add_titles`)."""
        return sorted(set(self._by_named_title.get(fold(title.strip()), ())))

    def add_aliases(self, aliases: dict[str, tuple[str, ...]]) -> None:
        """Learn pages' aliases (page -> its aliases): they name only what no page or file does,
        so only answers that were dead can change."""
        for path, names in aliases.items():
            for alias in names:
                self._by_alias[fold(alias)].append(path)
        if aliases:
            self._bare_memo = {target: found for target, found in self._bare_memo.items() if found.kind != "dead"}

    def titles(self) -> dict[str, list[str]]:
        """Folded page title -> pages with that title."""
        return self._by_title

    def resolve(self, source: str, target: str, markdown: bool = False) -> Resolution:
        """Resolve `target` as written in page `source`; markdown links are paths first."""
        if not markdown:
            found = self._bare_memo.get(target)  # by the target as written: most links name a page seen before
            if found is not None:
                return found
        written = target
        target = target.strip().replace("\\", "/")
        if not target:
            return Resolution("page", source)
        if "/" not in target and not markdown:  # a bare name, as most links are
            found = self._by_bare_name(source, target)
            if not found.candidates:
                self._bare_memo[written] = found
            return found
        folder = _folder_of(source)
        if target.startswith(("./", "../", "/")):
            return self._by_exact_path(folder, target)
        if markdown:
            found = self._by_exact_path(folder, target)
            if found.kind != "dead":
                return found
        if "/" in target:
            return self._by_partial_path(folder, target)
        return self._by_bare_name(source, target)

    def _by_exact_path(self, folder: str, target: str) -> Resolution:
        joined = target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target)
        normal = posixpath.normpath(joined)
        if normal == ".." or normal.startswith("../") or normal.startswith("/"):
            return OUTSIDE
        if normal == ".":  # the vault's root (`../` from a folder at the root, `/`): its own page
            return self._folder_page("") or DEAD
        # A page's own site address first: the site serves it there, whatever page's path it also is.
        key = permalink_key(normal) if target.startswith("/") else ""
        if (at := self.permalinks.get(key)) is not None:
            claims = self._claims[key]
            return Resolution("page", at, tuple(sorted(claims)) if len(claims) > 1 else ())
        found = self._lookup_path(normal)
        if found is None and target.startswith("/"):
            found = self._by_site_path(normal)
        return found or DEAD

    def _lookup_path(self, path: str) -> Resolution | None:
        # A docs site publishes `x.md` as `x.html` (mdBook, Jekyll, Sphinx): a page where no such file is.
        built = path[: -len(".html")] + ".md" if path.lower().endswith(".html") else path
        for exact in dict.fromkeys((path, path + ".md", built)):  # Notes/MaaS.md and Notes/MAAS.md may both exist
            if exact in self._files:
                return Resolution("page" if exact in self._pages else "attachment", exact)
        for candidate in dict.fromkeys((fold(path), fold(path) + ".md", fold(built))):
            found = self._by_path.get(candidate)
            if found is not None:
                return Resolution("page" if found in self._pages else "attachment", found)
        if posixpath.basename(built).lower() == "index.md":  # a folder's README is built as its index.html
            return self._folder_page(posixpath.dirname(path))
        return self._folder_page(path)

    def _folder_page(self, folder: str) -> Resolution | None:
        """A folder's own page, as docs sites link it (`../dienste/gitea/` is its `index.md`)."""
        for name in FOLDER_PAGES:
            path = posixpath.join(folder, name) if folder else name
            if path in self._pages:
                return Resolution("page", path)
        return None

    def _by_partial_path(self, folder: str, target: str) -> Resolution:
        normal = posixpath.normpath(target)
        if normal.startswith("../"):
            return OUTSIDE
        found = self._lookup_path(normal) or self._lookup_path(posixpath.join(folder, normal))
        if found is not None:
            return found
        key = fold(normal)
        name = key.rsplit("/", 1)[-1]
        # Files named `name` or `name.md`: attachments by name, pages by title.
        titles = (name, name[:-3]) if name.endswith(".md") else (name,)
        candidates = [*self._by_name.get(name, ()), *(p for t in titles for p in self._by_title.get(t, ()))]
        suffix_hits = [p for p in candidates if ("/" + fold(p)).endswith(("/" + key, "/" + key + ".md"))]
        if suffix_hits:
            return self._choose(folder, suffix_hits)
        return self._by_site_path(normal) or self._unresolved(target)

    def _by_site_path(self, path: str) -> Resolution | None:
        """The one page a docs site serves at a URL path (`/docs/datapack/introduction/actions`):
        whose path ends with the same folders and name, once the number and date prefixes that
        order a site's files and leave its URLs (`01-introduction/05-actions.md`,
        `blog/2026-08-22-kubejs.md`) and an `index` page's name are left out, and a language
        segment before them (`/de/...`) when no page's path holds it. Two folders or more, so that
        a lone name does not guess."""
        wanted = _site_segments(path)
        if len(wanted) < 2:
            return None
        if self._site is None:
            self._site = defaultdict(list)
            for page in self._pages:
                segments = _site_segments(page)
                for start in range(len(segments) - 1):
                    self._site["/".join(segments[start:])].append(page)
        hits = self._site.get("/".join(wanted), [])
        if not hits and len(wanted) > 2 and _LOCALE.fullmatch(wanted[0]):  # Wiki.js's `/de/...`: the page's language
            # not a page of another language's folder (`en/ops/backup.md` for `/de/ops/backup`)
            hits = [p for p in self._site.get("/".join(wanted[1:]), []) if not _LOCALE.fullmatch(_site_segments(p)[0])]
        return Resolution("page", hits[0]) if len(hits) == 1 else None

    def _by_bare_name(self, source: str, target: str) -> Resolution:
        key = fold(target)
        hits = self._by_title.get(key)
        if not hits and key.endswith(".md"):
            hits = self._by_title.get(key[:-3])
        if hits:  # titles are pages
            if len(hits) == 1:
                return Resolution("page", hits[0])
            written = unicodedata.normalize("NFC", target.strip().removesuffix(".md"))
            exact = [p for p in hits if unicodedata.normalize("NFC", p.rsplit("/", 1)[-1][:-3]) == written]
            if len(exact) == 1 and len({fold(p) for p in hits}) == 1:
                return Resolution("page", exact[0])  # MaaS and MAAS in one folder: the spelling written
            return self._choose(_folder_of(source), hits)
        if _EXTENSION.search(target):
            files = self._by_name.get(key)
            if files:
                return self._choose(_folder_of(source), files)
        return self._unresolved(target)

    def _unresolved(self, target: str) -> Resolution:
        if titled := self.titled(target):
            return self._choose("", titled)
        owners = tuple(sorted(set(self._by_alias.get(fold(target), ()))))
        if owners and self.resolve_aliases:
            return self._choose("", list(owners))
        return Resolution("dead", alias_of=owners)

    def _choose(self, folder: str, hits: list[str]) -> Resolution:
        if len(hits) == 1:
            return Resolution("page" if hits[0] in self._pages else "attachment", hits[0])
        pages = [p for p in hits if p in self._pages] or hits
        kind = "page" if pages[0] in self._pages else "attachment"
        if len(pages) == 1:
            return Resolution(kind, pages[0])
        ranked = sorted(pages, key=lambda p: (folder_distance(folder, p), len(p), p))
        return Resolution(kind, ranked[0], candidates=tuple(ranked))


# A site's language segment (`de`, `en`, `pt-br`): the languages docs sites are kept in, not any two
# letters (`go/`, `js/` are folders).
_LOCALE = re.compile(
    r"(?:ar|bg|cs|da|de|el|en|es|et|fi|fr|he|hr|hu|id|it|ja|ko|lt|lv|nb|nl|no|pl|pt|ro|ru|sk|sl|sr|sv|th|tr|uk|vi|zh)"
    r"(?:-[a-z]{2,4})?"
)
_ORDER_PREFIX = re.compile(r"^(?:\d{4}-\d\d-\d\d-|\d+[-_.]\s*)")  # `01-introduction`, a blog's `2026-08-22-`


def permalink_key(address: str) -> str:
    """A site address as a permalink gives it and a link writes it: folded, without the slashes
    around it or a `.html` or `index.html` end (`/tables/agency/`, `/tables/agency.html`)."""
    return _BUILT_END.sub("", fold(address.strip()).strip("/")).rstrip("/")


_BUILT_END = re.compile(r"(?:(?<=/)|^)index\.html$|\.html$")  # `a/index.html`, `a.html`; not `windex.html`'s "w"


def _site_segments(path: str) -> list[str]:
    """A path as a docs site's URL names it: folded, without `.md`, order prefixes or a folder's
    `index` page."""
    parts = [_ORDER_PREFIX.sub("", fold(part)) for part in path.removesuffix(".md").split("/") if part not in ("", ".")]
    return parts[:-1] if parts and parts[-1] in INDEX_NAMES else parts


def _folder_of(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


def folder_distance(folder: str, path: str) -> int:
    """Steps up and down the folder tree from `folder` to the folder holding `path`."""
    a = folder.split("/") if folder else []
    b = path.split("/")[:-1]
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return (len(a) - common) + (len(b) - common)
