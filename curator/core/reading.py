"""Read and parse a vault's pages: one at a time, or shared with forked workers when there are many."""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from curator.core.credentials import may_hold_credential
from curator.core.page import Page, content_hash, page_from_row, page_to_row, title_of
from curator.core.parse import parse_page
from curator.core.scan import NOT_STATED, FileEntry
from curator.core.titles import STATUS_CHARS, only_logs_an_event

PARALLEL_MIN_PAGES = 2000  # below this, starting worker processes costs more than it saves
_CHUNK = 200  # pages a worker (or the parent) takes at a time
_PARENT_WORKS = True  # the parent parses chunks too (tests switch it off to force the workers' path)


def read_pages(
    root: Path,
    items: list[tuple[FileEntry, list | None]],  # type: ignore[type-arg]
    max_bytes: int,
) -> Iterator[tuple[str, Page, list | None]]:  # type: ignore[type-arg]
    """Read and parse pages, sharing the work with forked workers when there are many and more than one core.

    Yields (path, page, cache row or None): when workers share the work, every page comes with its
    cache row (theirs arrive as rows), made while the others still parse.
    """
    helpers = min(os.cpu_count() or 1, 4) - 1
    if len(items) >= PARALLEL_MIN_PAGES and helpers >= 1 and _may_fork():
        yield from _read_pages_forked(root, items, max_bytes, helpers)
        return
    yield from _read_serially(root, items, max_bytes)


def _may_fork() -> bool:
    """Whether this process can fork safely now: the platform forks, and this is its only thread,
    Python's (the TUI loads in a thread) or native (onnxruntime's pool, once a model has run): a
    child inherits every lock another thread held at that moment, and no thread to free it."""
    if not hasattr(os, "fork") or threading.active_count() != 1:
        return False
    if sys.platform.startswith("linux"):
        try:
            return len(os.listdir("/proc/self/task")) == 1
        except OSError:
            return False
    return True


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
            for path, page, _ in _read_serially(root, chunks[number], max_bytes):
                yield path, page, page_to_row(page)  # the cache row, made while the workers still parse
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


def _read_open_file(fd: int, expected: int, max_bytes: int) -> bytes:
    """The file's bytes, read in one system call when it still has the size expected (no buffered
    file object: half the cost for a small page, and no second call to see the end); stops once
    past `max_bytes`."""
    parts = [os.read(fd, expected + 1)]
    total = len(parts[0])
    if total == expected:
        return parts[0]
    while parts[-1] and total <= max_bytes:  # it grew since the scan, or a short read
        parts.append(os.read(fd, 1 << 20))
        total += len(parts[-1])
    return parts[0] if len(parts) == 2 and not parts[1] else b"".join(parts)


def read_page(root: Path | str, entry: FileEntry, max_bytes: int, previous: list | None = None) -> Page:  # type: ignore[type-arg]
    """Read and parse one page; a page that cannot be read comes back marked `unreadable`."""
    size, mtime_ns = entry.size, entry.mtime_ns  # NOT_STATED: the open file tells
    if size > max_bytes:
        return _too_large(entry.path, size, mtime_ns, max_bytes)
    path = os.path.join(root, entry.path)
    try:
        fd = os.open(path, _READ_FLAGS)
        try:
            if size == NOT_STATED:
                st = os.fstat(fd)
                size, mtime_ns = st.st_size, st.st_mtime_ns
                if size > max_bytes:
                    return _too_large(entry.path, size, mtime_ns, max_bytes)
            data = _read_open_file(fd, size, max_bytes)
        finally:
            os.close(fd)
    except OSError as exc:
        if size == NOT_STATED:
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
    parsed = parse_page(text)
    status = parsed.body_chars <= STATUS_CHARS and only_logs_an_event(title_of(entry.path), text)
    # Positionally: the parse's fields are the page's from `frontmatter` to `body_chars` (a test holds them so).
    secret = may_hold_credential(text if bad_encoding else data)
    return Page(entry.path, size, mtime_ns, sha, *parsed, None, bad_encoding, secret, status)


_READ_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0)


def _too_large(path: str, size: int, mtime_ns: int, max_bytes: int, read: int | None = None) -> Page:
    reason = (
        f"page is {(read or size) / 1_048_576:.1f} MB, over the {max_bytes / 1_048_576:g} MB limit; "
        "not parsed (raise max_page_bytes to read it)"
    )
    return _unreadable(path, size, mtime_ns, reason)


def _unreadable(path: str, size: int, mtime_ns: int, reason: str, sha: str = "") -> Page:
    """A page that is not parsed: it still exists (as a title) and says why it was not read."""
    return Page(path=path, size=size, mtime_ns=mtime_ns, sha=sha, frontmatter={}, unreadable=reason)
