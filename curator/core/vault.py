"""Load a vault: scan it, read and parse its pages (reusing the cache), resolve every link."""

from __future__ import annotations

import contextlib
import gc
import os
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from curator.core import cache
from curator.core.config import Config, load_config
from curator.core.page import Link, Page, content_hash, has_aliases, page_from_row, page_to_row
from curator.core.parse import parse_page
from curator.core.resolve import Resolution, Resolver
from curator.core.scan import FileEntry, ScanProblem, ScanResult, check_vault_root, scan_vault

if TYPE_CHECKING:
    import networkx as nx

PAGES_CACHE = "pages.json"
DEFAULT_INDEX_PAGE = "MEMORY.md"
Progress = Callable[[int, int], None]


class ResolvedLink(NamedTuple):
    """A link and what it resolves to (a NamedTuple: there is one per link in the vault)."""

    source: str  # the page the link is written in
    link: Link
    resolution: Resolution

    @property
    def target_path(self) -> str | None:
        return self.resolution.path


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
    memo: dict[str, Any] = field(default_factory=dict)  # results derived from this load, kept for reuse

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
    def graph(self) -> nx.DiGraph:
        from curator.core.graph import build_graph

        return build_graph(self)


def load_vault(
    root: Path | str,
    config: Config | None = None,
    use_cache: bool = True,
    progress: Progress | None = None,
    scan: ScanResult | None = None,
) -> Vault:
    """Read the vault at `root`; pages unchanged since the last run come from the cache."""
    root = check_vault_root(root)
    if config is None:
        config = load_config(root)
    cached, stored_ns = _load_page_cache(root, config) if use_cache else ({}, 0)
    if scan is None:
        scan = scan_vault(root, config.ignore, sizes=bool(cached))  # nothing cached: nothing to compare
    with gc_paused():
        return _load(root, config, scan, cached, stored_ns, use_cache, progress)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Loading makes many small acyclic objects; the cycle collector only slows that down.

    Afterwards they are frozen out of its reach too, so later collections do not walk the whole
    vault again (the objects are still freed by reference counting).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def _load(
    root: Path,
    config: Config,
    scan: ScanResult,
    cached: dict[str, list],  # type: ignore[type-arg]
    cached_ns: int,  # when the cached rows were stored
    use_cache: bool,
    progress: Progress | None,
) -> Vault:
    started_ns = time.time_ns()
    loaded: dict[str, Page] = {}
    to_read: list[tuple[FileEntry, list | None]] = []  # type: ignore[type-arg]
    rows: dict[str, list] = {}  # type: ignore[type-arg]  # cache rows at hand: reused, or made by workers
    for entry in scan.pages:
        previous = cached.get(entry.path)
        if previous is not None and _still_valid(previous, entry, cached_ns, started_ns):
            rows[entry.path] = previous
            loaded[entry.path] = page_from_row(entry.path, previous)
        else:
            to_read.append((entry, previous))
    reused = len(loaded)
    total = len(scan.pages)
    for path, page, row in _read_pages(root, to_read, config.max_page_bytes):
        loaded[path] = page
        if row is not None:
            rows[path] = row
        if progress is not None and len(loaded) % 500 == 0:
            progress(len(loaded), total)
    if progress is not None:
        progress(total, total)
    pages = {entry.path: loaded[entry.path] for entry in scan.pages}
    notes: list[str] = []
    wait_for_store = None
    if use_cache and (reused != total or len(cached) != total):
        # One time for every row, taken after every page was read: a row reused from the last store
        # passed the racy check against an earlier time, so it passes against this one too.
        table = {path: rows.get(path) or page_to_row(page) for path, page in pages.items()}
        settings = {
            "format": cache.FORMAT,
            "config": _parse_settings(config),
            "stored_ns": time.time_ns(),
            "pages": table,
        }
        wait_for_store = cache.write_json_in_background(root, PAGES_CACHE, settings)  # while links resolve
        del settings, table  # encoded now: the rows' memory is free for what comes next
    rows.clear()
    aliases = {p.path: p.aliases for p in pages.values() if has_aliases(p.frontmatter)}
    resolver = Resolver(pages, scan.attachments, aliases, config.resolve_aliases)
    links = [
        ResolvedLink(page.path, link, resolver.resolve(page.path, link.target, link.syntax == "markdown"))
        for page in pages.values()
        for link in page.links
    ]
    problem = wait_for_store() if wait_for_store is not None else None
    if problem:
        notes.append(problem)
    return Vault(root, config, pages, scan.attachments, scan.problems, resolver, links, notes, use_cache)


PARALLEL_MIN_PAGES = 2000  # below this, starting worker processes costs more than it saves
_CHUNK = 200  # pages a worker (or the parent) takes at a time
_PARENT_WORKS = True  # the parent parses chunks too (tests switch it off to force the workers' path)


def _read_pages(
    root: Path,
    items: list[tuple[FileEntry, list | None]],  # type: ignore[type-arg]
    max_bytes: int,
) -> Iterator[tuple[str, Page, list | None]]:  # type: ignore[type-arg]
    """Read and parse pages, sharing the work with forked workers when there are many and more than one core.

    Yields (path, page, cache row or None): pages from workers arrive as cache rows already.
    """
    helpers = min(os.cpu_count() or 1, 4) - 1
    if len(items) >= PARALLEL_MIN_PAGES and helpers >= 1:
        import multiprocessing as mp  # a small vault never needs it
        import threading

        # fork is cheap and safe only while this is the only thread (the TUI loads in a thread: serial).
        if threading.active_count() == 1 and "fork" in mp.get_all_start_methods():
            yield from _read_pages_forked(root, items, max_bytes, helpers)
            return
    yield from _read_serially(root, items, max_bytes)


def _read_serially(
    root: Path,
    items: list[tuple[FileEntry, list | None]],  # type: ignore[type-arg]
    max_bytes: int,
) -> Iterator[tuple[str, Page, None]]:
    for entry, previous in items:
        yield entry.path, read_page(root, entry, max_bytes, previous), None


def _read_pages_forked(
    root: Path,
    items: list[tuple[FileEntry, list | None]],  # type: ignore[type-arg]
    max_bytes: int,
    helpers: int,
) -> Iterator[tuple[str, Page, list | None]]:  # type: ignore[type-arg]
    """The parent and `helpers` forked workers take chunks from one shared counter until none are left.

    Workers inherit `items` through fork and send back cache rows by a queue (its feeder thread lets
    them go on parsing while the parent is busy); the parent parses its own chunks and collects
    between them, so no core waits. Chunks a worker took but never delivered (it died) are parsed
    by the parent at the end.
    """
    import multiprocessing as mp
    import queue

    context = mp.get_context("fork")
    chunks = [items[i : i + _CHUNK] for i in range(0, len(items), _CHUNK)]  # inherited by the workers
    counter = context.Value("i", 0)
    results: Any = context.Queue()
    workers = [
        context.Process(target=_worker, args=(root, chunks, max_bytes, counter, results), daemon=True)
        for _ in range(helpers)
    ]
    for worker in workers:
        worker.start()
    done: set[int] = set()
    finished = 0  # workers that said they are through

    def delivered(message: tuple[int, list[tuple[str, list]]] | None) -> Iterator[tuple[str, Page, list]]:  # type: ignore[type-arg]
        nonlocal finished
        if message is None:
            finished += 1
            return
        number, rows = message
        done.add(number)
        for path, row in rows:
            yield path, page_from_row(path, row), row

    complete = False
    try:
        while _PARENT_WORKS and (number := _take(counter)) < len(chunks):
            yield from _read_serially(root, chunks[number], max_bytes)
            done.add(number)
            while True:  # collect what the workers have sent meanwhile
                try:
                    message = results.get_nowait()
                except queue.Empty:
                    break
                yield from delivered(message)
        while finished < len(workers):
            try:
                message = results.get(timeout=0.5)
            except queue.Empty:
                if all(not w.is_alive() for w in workers) and results.empty():
                    break  # a worker died without saying so
                continue
            yield from delivered(message)
        complete = True
    finally:
        for worker in workers:  # stopped at once when the caller gave up (an error, ctrl-c)
            worker.join(timeout=5 if complete else 0)
            if worker.is_alive():
                worker.terminate()
    for number in sorted(set(range(len(chunks))) - done):  # taken by a worker that never delivered it
        yield from _read_serially(root, chunks[number], max_bytes)


def _take(counter: Any) -> int:
    with counter.get_lock():
        number: int = counter.value
        counter.value = number + 1
    return number


def _worker(
    root: Path,
    chunks: list[list[tuple[FileEntry, list | None]]],  # type: ignore[type-arg]
    max_bytes: int,
    counter: Any,
    results: Any,
) -> None:
    gc.disable()  # a worker makes only acyclic data and exits
    try:
        while (number := _take(counter)) < len(chunks):
            rows = [(e.path, page_to_row(read_page(root, e, max_bytes, prev))) for e, prev in chunks[number]]
            results.put((number, rows))
    finally:
        results.put(None)
        results.close()
        results.join_thread()


def _still_valid(row: list, entry: FileEntry, stored_ns: int, now_ns: int) -> bool:  # type: ignore[type-arg]
    """A cached row holds when size and mtime match and the file was not modified racily close to
    the moment the row was stored (or to now), when a later change could share its timestamp."""
    return (
        row[0] == entry.size
        and row[1] == entry.mtime_ns
        and stored_ns - entry.mtime_ns > cache.RACY_NS
        and now_ns - entry.mtime_ns > cache.RACY_NS
    )


def _parse_settings(config: Config) -> list[int]:
    return [config.max_page_bytes]


def _load_page_cache(root: Path, config: Config) -> tuple[dict[str, list], int]:  # type: ignore[type-arg]
    """The stored rows by page and when they were stored; nothing when the store does not fit."""
    data = cache.read_large_json(cache.cache_path(root, PAGES_CACHE))
    if not isinstance(data, dict) or data.get("format") != cache.FORMAT:
        return {}, 0
    pages, stored_ns = data.get("pages"), data.get("stored_ns")
    if data.get("config") != _parse_settings(config) or not isinstance(pages, dict) or not isinstance(stored_ns, int):
        return {}, 0
    return pages, stored_ns


def _read_open_file(fd: int, expected: int, max_bytes: int) -> bytes:
    """The file's bytes, read in one system call when it still has the size expected (no buffered
    file object: half the cost for a small page); stops once past `max_bytes`."""
    parts = [os.read(fd, expected + 1)]
    total = len(parts[0])
    while parts[-1] and total <= max_bytes:  # it grew since the scan, or a short read
        parts.append(os.read(fd, 1 << 20))
        total += len(parts[-1])
    return parts[0] if len(parts) == 2 and not parts[1] else b"".join(parts)


def read_page(root: Path | str, entry: FileEntry, max_bytes: int, previous: list | None = None) -> Page:  # type: ignore[type-arg]
    """Read and parse one page; a page that cannot be read comes back marked `unreadable`."""
    size, mtime_ns = entry.size, entry.mtime_ns  # -1 when the scan did not stat: the open file tells
    if size > max_bytes:
        return _too_large(entry.path, size, mtime_ns, max_bytes)
    path = os.path.join(root, entry.path)
    try:
        fd = os.open(path, _READ_FLAGS)
        try:
            if size < 0:
                st = os.fstat(fd)
                size, mtime_ns = st.st_size, st.st_mtime_ns
                if size > max_bytes:
                    return _too_large(entry.path, size, mtime_ns, max_bytes)
            data = _read_open_file(fd, size, max_bytes)
        finally:
            os.close(fd)
    except OSError as exc:
        if size < 0:
            with contextlib.suppress(OSError):
                st = os.stat(path)
                size, mtime_ns = st.st_size, st.st_mtime_ns
        return _unreadable(entry.path, size, mtime_ns, f"cannot be read: {exc.strerror or exc}")
    if len(data) > max_bytes:  # it grew since the scan
        return _too_large(entry.path, size, mtime_ns, max_bytes, read=len(data))
    sha = content_hash(data)
    if previous is not None and previous[2] == sha:
        # Same bytes under a new timestamp (a checkout, a touch): the parse still holds.
        row = list(previous)
        row[0], row[1] = size, mtime_ns
        return page_from_row(entry.path, row)
    if data.find(b"\x00", 0, 8192) >= 0:
        return _unreadable(entry.path, size, mtime_ns, "binary data, not a text page", sha)
    try:
        text = data.decode("utf-8")
        bad_encoding = False
    except UnicodeDecodeError:
        text = data.decode("utf-8", "replace")
        bad_encoding = True
    # Parsed holds Page's fields from `frontmatter` to `body_chars`, in the same order.
    return Page(entry.path, size, mtime_ns, sha, *parse_page(text), None, bad_encoding)


_READ_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0)


def _too_large(path: str, size: int, mtime_ns: int, max_bytes: int, read: int | None = None) -> Page:
    reason = (
        f"page is {(read or size) / 1_048_576:.1f} MB, over the {max_bytes / 1_048_576:g} MB limit; "
        "not parsed (raise max_page_bytes to read it)"
    )
    return _unreadable(path, size, mtime_ns, reason)


def _unreadable(path: str, size: int, mtime_ns: int, reason: str, sha: str = "") -> Page:
    """A page that is not parsed: it still exists (as a title) and says why it was not read."""
    return Page(path, size, mtime_ns, sha, {}, unreadable=reason)
