"""Load a vault: scan it, read and parse its pages (reusing the cache of parsed pages), resolve every link."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from itertools import chain
from operator import attrgetter
from pathlib import Path
from typing import Any

from curator.core.common.fast import gc_paused, tuple_maker
from curator.core.read.link_order import dendron_files, label_first, settled
from curator.core.read.page import Link, Page, has_aliases, page_from_row
from curator.core.read.resolve import Resolution, Resolver
from curator.core.read.scan import FileEntry, ScanResult, check_vault_root, scan_vault
from curator.core.read.vault import ResolvedLink, Vault
from curator.core.state import cache
from curator.core.state.config import Config, load_config

PAGES_CACHE = "pages.json"
ROW_FIELDS = len(Page._fields) - 1  # a cached row holds every field of a Page but its path
Progress = Callable[[int, int], None]


def load_vault(
    root: Path | str,
    config: Config | None = None,
    use_cache: bool = True,
    progress: Progress | None = None,
    scan: ScanResult | None = None,
    typed_links_only: bool = False,
) -> Vault:
    """Read the vault at `root`; pages unchanged since the last run come from the cache.

    `typed_links_only`: resolve only the frontmatter's typed edges (`Vault.links` holds no other),
    for a caller that reads frontmatter and typed edges only (`curator query`: 0.1 s less at 10k
    pages); such a vault is for that caller alone (lint, graph and edits need every link)."""
    root = check_vault_root(root)
    if config is None:
        config = load_config(root)
    # From the stored rows on: with the collector running, a 100k-page store took 1.0 s to read, not 0.25.
    with gc_paused():
        cached, stored_ns = _load_page_cache(root, config) if use_cache else ({}, 0)
        if scan is None:
            scan = scan_vault(root, config.ignore, sizes=bool(cached))  # nothing cached: nothing to compare
        return _load(root, config, scan, cached, stored_ns, use_cache, progress, typed_links_only)


def _load(
    root: Path,
    config: Config,
    scan: ScanResult,
    cached: dict[str, list],  # type: ignore[type-arg]
    cached_ns: int,  # when the cached rows were stored
    use_cache: bool,
    progress: Progress | None,
    typed_links_only: bool = False,
) -> Vault:
    started_ns = time.time_ns()
    marked = dendron_files(root)  # the loaded vault's config says how its links and names read
    order = settled(config.link_order, marked)
    config = config._replace(link_order=order, hierarchy=order == "label|target" or marked)
    loaded: dict[str, Page] = {}
    to_read: list[tuple[FileEntry, list | None]] = []  # type: ignore[type-arg]
    reused: dict[str, list] = {}  # type: ignore[type-arg]  # cache rows still valid, by page
    # Links are resolved as their pages arrive, while workers still parse (the names of every page
    # and file are known from the scan); aliases, known only once every page is read, can only
    # change what was dead, and those links are resolved again at the end. The resolver is made
    # when the first page arrives, so that workers start parsing without waiting for it.
    resolver: Resolver | None = None
    resolved: dict[str, list[ResolvedLink]] = {}
    aliases: dict[str, tuple[str, ...]] = {}
    permalinks: dict[str, str] = {}  # the same for a page's own site address
    with_dead_links: list[str] = []  # pages an alias or a permalink may yet answer a link of

    def resolver_now() -> Resolver:
        nonlocal resolver
        if resolver is None:
            resolver = Resolver([entry.path for entry in scan.pages], scan.attachments, {}, config.resolve_aliases)
        return resolver

    def arrived(path: str, page: Page) -> None:
        if config.label_first:  # a Dendron vault: the parse (and its cache) read [[a|b]] as Obsidian does
            page = loaded[path] = page._replace(links=label_first(page.links))
        links = resolved[path] = _links_of(resolver_now(), page, typed_links_only)
        if has_aliases(page.frontmatter):
            aliases[path] = page.aliases
        if page.permalink is not None:
            permalinks[path] = page.permalink
        if "dead" in map(_kind, links) or any(map(_from_site_root, page.links)):
            with_dead_links.append(path)

    for entry in scan.pages:
        previous = cached.get(entry.path)
        if not isinstance(previous, list) or len(previous) != ROW_FIELDS:
            previous = None  # none, or damaged by hand: the page is read again
        elif _still_valid(previous, entry, cached_ns, started_ns):
            try:
                page = page_from_row(entry.path, previous)
            except (TypeError, ValueError):  # a field damaged by hand
                previous = None
            else:
                loaded[entry.path], reused[entry.path] = page, previous
                arrived(entry.path, page)
                continue
        to_read.append((entry, previous))
    total = len(scan.pages)
    store = use_cache and (len(reused) != total or len(cached) != total)
    from curator.core.read.reading import read_pages  # with its parser: not needed when every row is reused

    stored_rows = [_rows_json(reused)] if store and reused else []  # JSON of rows; each chunk read adds its own
    for chunk, rows in read_pages(root, to_read, config.max_page_bytes, rows=store):
        for page in chunk:
            loaded[page.path] = page
            arrived(page.path, page)
        if rows:
            stored_rows.append(rows)
        if progress is not None:
            progress(len(loaded), total)
    if progress is not None:
        progress(total, total)
    pages = {entry.path: loaded[entry.path] for entry in scan.pages}
    notes: list[str] = []
    if not pages and config.ignore and scan_vault(root, (), sizes=False).pages:
        # A vault's own settings (`.curator.toml`, a zk notebook's `.zk/config.toml`) left out every page.
        notes.append("every page is left out by the ignore globs of the vault's settings: nothing was checked")
    wait_for_store = None
    if store:
        # One time for every row, taken after every page was read: a row reused from the last store
        # passed the racy check against an earlier time, so it passes against this one too.
        settings = {"format": cache.FORMAT, "config": _parse_settings(config), "stored_ns": time.time_ns()}
        wait_for_store = cache.write_in_background(root, PAGES_CACHE, _pages_json(settings, stored_rows), sealed=True)
        del stored_rows  # the thread writes them while links are gathered, and frees them then
    reused.clear()
    resolver = resolver_now()  # made already unless the vault has no page
    titles = named_titles(pages)
    if aliases or permalinks or titles:
        resolver.add_aliases(aliases)
        resolver.add_permalinks(permalinks.items())
        resolver.add_titles(titles)
        for path in with_dead_links:  # a permalink is answered before a page's path (`_from_site_root`)
            resolved[path] = [
                rl._replace(resolution=_resolution(resolver, path, rl.link))
                if rl.resolution.kind == "dead" or (permalinks and _from_site_root(rl.link))
                else rl
                for rl in resolved[path]
            ]
    links = list(chain.from_iterable(resolved[entry.path] for entry in scan.pages))
    problem = wait_for_store() if wait_for_store is not None else None
    if problem:
        notes.append(problem)
    return Vault(
        root, config, pages, scan.attachments, scan.problems, resolver, links, notes, use_cache, left_out=scan.left_out
    )


def _resolved(
    pages: dict[str, Page], scan: ScanResult, config: Config, typed_links_only: bool
) -> tuple[Resolver, list[ResolvedLink]]:
    """The resolver over the vault's pages and attachments, and every link resolved (only the
    frontmatter's typed edges with `typed_links_only`)."""
    resolver = Resolver(pages, scan.attachments, _aliases(pages), config.resolve_aliases)
    resolver.add_permalinks((p.path, p.permalink) for p in pages.values() if p.permalink is not None)
    resolver.add_titles(named_titles(pages))
    return resolver, [rl for page in pages.values() for rl in _links_of(resolver, page, typed_links_only)]


def named_titles(pages: dict[str, Page]) -> list[tuple[str, str]]:
    """Each page's frontmatter `title:` where links name pages by it (`reads_titles`)."""
    if not reads_titles(pages.values()):
        return []
    return [(p.path, title) for p in pages.values() if isinstance(title := p.frontmatter.get("title"), str)]


def reads_titles(pages: Iterable[Page]) -> bool:
    """Whether links name pages by their `title:`: a basic-memory vault, half of whose pages or
    more carry the `type:` and `permalink:` it writes, a path from no site root
    (`malus/specs/comment-syntax`), resolves `[[Comment Syntax]]` by the title. A Jekyll site's
    permalinks start at its root (`/specs/`) and its links are addresses; Obsidian Publish's carry
    no type."""
    count = stored = 0
    for page in pages:
        count += 1
        address = page.permalink
        if address and not address.startswith("/") and "://" not in address and page.type is not None:
            stored += 1
    return stored >= max(2, count / 2)


def _aliases(pages: dict[str, Page]) -> dict[str, tuple[str, ...]]:
    return {p.path: p.aliases for p in pages.values() if has_aliases(p.frontmatter)}


def _from_site_root(link: Link) -> bool:
    """A Markdown link to an address from the site's root (`/tables/agency/`), which a page's
    permalink may answer."""
    return link.syntax == "markdown" and link.target.startswith("/")


def _links_of(resolver: Resolver, page: Page, typed_links_only: bool) -> list[ResolvedLink]:
    """The page's links, resolved (only the frontmatter's typed edges with `typed_links_only`)."""
    path, resolve = page.path, resolver.resolve
    return [
        _resolved_link((path, link, resolve(path, link.target, link.syntax == "markdown")))
        for link in page.links
        if link.key or not typed_links_only
    ]


# Every link of the vault becomes a ResolvedLink, made without a Python call each: that call is a
# third of the time to resolve a page's links as it arrives (the main process does that while
# workers parse).
_resolved_link = tuple_maker(ResolvedLink)
_kind = attrgetter("resolution.kind")


def _resolution(resolver: Resolver, source: str, link: Link) -> Resolution:
    return resolver.resolve(source, link.target, link.syntax == "markdown")


def _still_valid(row: list, entry: FileEntry, stored_ns: int, now_ns: int) -> bool:  # type: ignore[type-arg]
    """A cached row holds when size and mtime match and the file was not modified racily close to
    the moment the row was stored (or to now), when a later change could share its timestamp; nor
    changed since (its inode's time: an edit that put size and time back, `cp -p`, `rsync -t`)."""
    return (
        row[0] == entry.size
        and row[1] == entry.mtime_ns
        and stored_ns - entry.mtime_ns > cache.RACY_NS
        and now_ns - entry.mtime_ns > cache.RACY_NS
        and entry.ctime_ns < stored_ns
    )


def _rows_json(rows: dict[str, list]) -> bytes:  # type: ignore[type-arg]
    """Cache rows as JSON object members (as page.rows_json writes those of pages)."""
    import orjson

    return orjson.dumps(rows)[1:-1]


def _pages_json(settings: dict[str, Any], rows: list[bytes]) -> list[bytes]:
    """The store of parsed pages, in parts to write one after the other: `settings`, then
    `pages`, an object of `rows` (each JSON object members)."""
    import orjson

    parts = [orjson.dumps(settings)[:-1] + b',"pages":{']
    for i, members in enumerate(rows):
        parts += (b"," if i else b"", members)
    parts.append(b"}}")
    return parts


def _parse_settings(config: Config) -> list[int]:
    return [config.max_page_bytes]


def _load_page_cache(root: Path, config: Config) -> tuple[dict[str, list], int]:  # type: ignore[type-arg]
    """The stored rows by page and when they were stored; nothing when the store does not fit."""
    data = cache.read_large_json(cache.cache_path(root, PAGES_CACHE), sealed=True)
    if not isinstance(data, dict) or data.get("format") != cache.FORMAT:
        return {}, 0
    pages, stored_ns = data.get("pages"), data.get("stored_ns")
    if data.get("config") != _parse_settings(config) or not isinstance(pages, dict) or not isinstance(stored_ns, int):
        return {}, 0
    return pages, stored_ns


FIELDS_CACHE = "fields.json"


def load_fields(root: Path | str, config: Config | None = None) -> Vault:
    """A vault of frontmatter and typed edges only, for `curator query`: its pages carry path, size,
    time, frontmatter and typed links (no sha, headings or other links), and `Vault.links` holds
    the typed edges. Such a vault is for that caller alone (lint, graph and edits need the rest).

    When no page changed, the pages come from their own store (`fields.json`, two fifths of
    `pages.json` on a synthetic vault): a warm query at 10k pages takes 0.2 s instead of 0.3 s.
    Otherwise they come from `load_vault`, and are stored for the next query."""
    root = check_vault_root(root)
    if config is None:
        config = load_config(root)
    scanned_ns = time.time_ns()  # before the scan: a row is trusted only for files older than this
    scan = scan_vault(root, config.ignore)
    with gc_paused():
        pages = _fields_from_store(
            cache.read_large_json(cache.cache_path(root, FIELDS_CACHE), sealed=True), config, scan
        )
        if pages is None:
            vault = load_vault(root, config, scan=scan, typed_links_only=True)
            rows = {
                p.path: [p.size, p.mtime_ns, p.frontmatter, [tuple(lk) for lk in p.links if lk.key]]
                for p in vault.pages.values()
            }
            stored = {"format": cache.FORMAT, "config": _parse_settings(config), "stored_ns": scanned_ns, "pages": rows}
            problem = cache.write_json(root, FIELDS_CACHE, stored, sealed=True)
            if problem:
                vault.notes.append(problem)
            return vault
        resolver, links = _resolved(pages, scan, config, typed_links_only=True)
    return Vault(root, config, pages, scan.attachments, scan.problems, resolver, links, left_out=scan.left_out)


def _fields_from_store(stored: Any, config: Config, scan: ScanResult) -> dict[str, Page] | None:
    """The stored pages, when the store fits and holds every scanned page unchanged; else None."""
    if not isinstance(stored, dict) or stored.get("format") != cache.FORMAT:
        return None
    rows, stored_ns = stored.get("pages"), stored.get("stored_ns")
    if stored.get("config") != _parse_settings(config) or not isinstance(rows, dict) or not isinstance(stored_ns, int):
        return None
    if len(rows) != len(scan.pages):
        return None
    now_ns = time.time_ns()
    pages: dict[str, Page] = {}
    try:
        for entry in scan.pages:
            row = rows.get(entry.path)
            if not isinstance(row, list) or len(row) != 4 or not _still_valid(row, entry, stored_ns, now_ns):
                return None
            size, mtime_ns, frontmatter, links = row
            if not isinstance(frontmatter, dict):
                return None
            typed = tuple(map(Link._make, links))
            pages[entry.path] = Page(entry.path, size, mtime_ns, "", frontmatter, None, None, typed)
    except (TypeError, ValueError):  # a row damaged by hand: the store is rebuilt
        return None
    return pages
