"""A loaded vault: its pages, attachments, every link resolved, and what is derived from them.

Loading lives in loading.py (with the cache of parsed pages), reading and parsing the pages in
reading.py."""

from __future__ import annotations

import os
import posixpath
import re
import tomllib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from curator.core.read.page import Link, Page
from curator.core.read.resolve import Resolution, Resolver
from curator.core.read.scan import ScanProblem
from curator.core.state.config import Config

if TYPE_CHECKING:
    from collections.abc import Callable

T = TypeVar("T")

DEFAULT_INDEX_PAGE = "MEMORY.md"
BOOK_SETTINGS = "book.toml"  # an mdBook's: its `[book] src` folder holds the pages and SUMMARY.md
BOOK_SETTINGS_BYTES = 1 << 20  # settings larger are no book's own: read as its defaults


def book_escaped(text: str) -> str:
    """Text as an mdBook page may hold it: a "{{ #include ...}}" escaped, which the book's next
    build would run (its escape takes no blank before the "#")."""
    return re.sub(r"\\?\{\{\s*#", r"\\{{#", text)


class ResolvedLink(NamedTuple):
    """A link and what it resolves to (a NamedTuple: there is one per link in the vault)."""

    source: str  # the page the link is written in
    link: Link
    resolution: Resolution

    @property
    def target_path(self) -> str | None:
        return self.resolution.path


TEMPLATE_FOLDERS = frozenset({"templates", "template", "_templates", "vorlagen"})
OWN_TYPE_PAGES = 3  # pages that make a `type` value part of a vault's vocabulary, when its config names none
DAILY_PAGES = 5  # dated pages that make a folder a journal, when they are
DAILY_SHARE = 0.8  # this share of its pages


@dataclass
class Vault:
    root: Path
    config: Config
    pages: dict[str, Page]
    attachments: tuple[str, ...]
    problems: tuple[ScanProblem, ...]
    resolver: Resolver
    links: list[ResolvedLink]
    notes: list[str] = field(default_factory=list)  # non-fatal remarks (e.g. cache not writable)
    use_cache: bool = True  # derived stores (parsed pages, vectors) may be read and written
    # what is computed from this load and kept for the rest of its life, under a key of the module
    # that computes it (which alone knows its type): see `once`
    derived: dict[str, Any] = field(default_factory=dict)
    left_out: tuple[tuple[str, int], ...] = ()  # what the ignore globs leave out, as the scan found it

    def once(self, key: str, make: Callable[[], T]) -> T:
        """`make()`, worked out once for this load and kept under `key`."""
        if key not in self.derived:
            self.derived[key] = make()
        value: T = self.derived[key]
        return value

    @cached_property
    def _outgoing(self) -> dict[str, list[ResolvedLink]]:
        table: dict[str, list[ResolvedLink]] = defaultdict(list)
        for rl in self.links:
            table[rl.source].append(rl)
        return table

    @cached_property
    def _incoming(self) -> dict[str, list[ResolvedLink]]:
        table: dict[str, list[ResolvedLink]] = defaultdict(list)
        for rl in self.links:
            if rl.resolution.path is not None:
                table[rl.resolution.path].append(rl)
        return table

    def outlinks(self, path: str) -> list[ResolvedLink]:
        return self._outgoing.get(path, [])

    def backlinks(self, path: str) -> list[ResolvedLink]:
        """Links from other pages that resolve to `path`."""
        return [rl for rl in self._incoming.get(path, []) if rl.source != path]

    def text_of(self, path: str) -> str:
        """The page's text as it is on disk now (bytes that are not UTF-8 replaced); OSError when it
        cannot be read as a page of the vault now (a folder or the page swapped for a link or a FIFO)."""
        from curator.core.common.vaultpath import read_in_vault

        return read_in_vault(self.root, path, self._real_root).decode("utf-8", "replace")

    @cached_property
    def _real_root(self) -> str:
        return os.path.realpath(self.root)

    @property
    def index_page(self) -> str | None:
        """The configured index page, or MEMORY.md at the root when the vault has one."""
        name = self.config.index_page
        if name == "":
            return None
        if name is None:
            return DEFAULT_INDEX_PAGE if DEFAULT_INDEX_PAGE in self.pages else None
        return name if name in self.pages else None

    @cached_property
    def book_contents(self) -> str | None:
        """An mdBook's table of contents (`SUMMARY.md` in the source folder that `book.toml` at the
        root names, `src` unless it says otherwise), or None: the book shows only the pages it
        lists and prints a page's frontmatter as text."""
        from curator.core.common.vaultpath import read_in_vault

        settings_file = self.root / BOOK_SETTINGS
        try:
            if settings_file.stat().st_size > BOOK_SETTINGS_BYTES and not settings_file.is_symlink():
                raw = b""  # larger than settings are: not read whole, the book's defaults
            else:
                raw = read_in_vault(self.root, BOOK_SETTINGS, self._real_root)
        except OSError:  # no book.toml, or one that is no regular file in the vault
            return None
        try:
            settings = tomllib.loads(raw.decode("utf-8")) if len(raw) <= BOOK_SETTINGS_BYTES else {}
        except (ValueError, RecursionError):  # not UTF-8, not TOML, nested or a number too deep to read
            settings = {}  # a book still, whose settings mdBook would refuse: its default folder
        book = settings.get("book")
        source = book.get("src", "src") if isinstance(book, dict) else "src"
        contents = posixpath.normpath(posixpath.join(source if isinstance(source, str) else "src", "SUMMARY.md"))
        return contents if contents in self.pages else None

    def in_book(self, path: str) -> bool:
        """Whether the page lies in an mdBook's source folder, where the book prints frontmatter as
        text and runs `{{#include ...}}` (`book_escaped`) on its next build."""
        contents = self.book_contents
        folder = posixpath.dirname(contents) if contents is not None else None
        return folder is not None and (not folder or path.startswith(folder + "/"))

    @cached_property
    def daily_notes(self) -> frozenset[str]:
        """Pages of a dated series, whose dated titles are meant: those in a journal folder the
        settings name, and those titled with a date in a folder where DAILY_SHARE of the pages are
        (daily notes whose folder the settings do not name, or name wrongly). In a Dendron vault
        every dated note is one: a journal there is a hierarchy of dates (`daily.journal.2021.07.08`)."""
        from curator.core.read.titles import dated

        found = {path for path in self.pages if self.config.in_journal_folder(path)}
        if self.config.hierarchy:
            return frozenset(found | {path for path, page in self.pages.items() if dated(page.title)})
        in_folder: dict[str, list[str]] = defaultdict(list)
        for page in self.pages.values():
            in_folder[page.folder].append(page.path)
        for paths in in_folder.values():
            titled = [path for path in paths if dated(self.pages[path].title)]
            if len(titled) >= DAILY_PAGES and len(titled) >= DAILY_SHARE * len(paths):
                found.update(titled)
        return frozenset(found)

    @cached_property
    def types(self) -> tuple[str, ...]:
        """The vault's vocabulary of page types: the config's when it names them; else the default
        ones and each type OWN_TYPE_PAGES or more pages carry (a vault that types 600 pages
        "Uni Note" has that type), most used first."""
        if self.config.types_configured:
            return self.config.types
        used = Counter(
            value.strip()
            for page in self.pages.values()
            if isinstance(value := page.frontmatter.get("type"), str) and value.strip()
        )
        known = {t.casefold() for t in self.config.types}
        own = [t for t, n in used.most_common() if n >= OWN_TYPE_PAGES and t.casefold() not in known]
        return (*self.config.types, *own)

    @cached_property
    def templates(self) -> frozenset[str]:
        """Pages that are templates to fill in, not content: in a template folder the settings name
        or in a folder named so (`templates/`, `_templates/`, `Vorlagen/`)."""
        return frozenset(
            path
            for path in self.pages
            if self.config.in_template_folder(path)
            or any(part.lower() in TEMPLATE_FOLDERS for part in path.split("/")[:-1])
        )
