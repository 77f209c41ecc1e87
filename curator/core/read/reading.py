"""Read and parse a vault's pages: one at a time, or shared with forked workers when there are many."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from curator.core.common.fast import collector_off, pickled_as_tuple
from curator.core.read.credentials import may_hold_credential
from curator.core.read.page import Heading, Link, Page, content_hash, page_from_row, rows_json, title_of
from curator.core.read.parse import parse_page
from curator.core.read.scan import NOT_STATED, FileEntry
from curator.core.read.titles import STATUS_CHARS, only_logs_an_event

PARALLEL_MIN_PAGES = 2000  # below this, starting worker processes costs more than it saves
_CHUNK = 200  # pages a worker (or the parent) takes at a time
_PARENT_WORKS = True  # the parent parses chunks too (tests switch it off to force the workers' path)


Chunk = tuple[list[Page], bytes]  # pages read, and their cache rows as JSON (page.rows_json) or b""


UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")  # a UTF-16 text opens with one: its NUL bytes are no binary data


def read_pages(
    root: Path,
    items: list[tuple[FileEntry, list | None]],  # type: ignore[type-arg]
    max_bytes: int,
    rows: bool = True,
) -> Iterator[Chunk]:
    """Read and parse pages, sharing the work with forked workers when there are many and more than one core.

    Yields the pages a chunk at a time, with their cache rows as JSON when `rows` (each process
    writes those of the pages it parsed, so no process makes every row at the end).
    """
    helpers = min(os.cpu_count() or 1, 4) - 1
    if len(items) >= PARALLEL_MIN_PAGES and helpers >= 1 and _may_fork():
        yield from _read_pages_forked(root, items, max_bytes, rows, helpers)
        return
    for start in range(0, len(items), _CHUNK):
        yield _read_chunk(root, items[start : start + _CHUNK], max_bytes, rows)


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


def _read_chunk(
    root: Path,
    items: list[tuple[FileEntry, list | None]],  # type: ignore[type-arg]
    max_bytes: int,
    rows: bool,
) -> Chunk:
    within = os.path.join(root, "")  # the root and a separator, which each page's path completes
    pages = [read_page(within, entry, max_bytes, previous) for entry, previous in items]
    return pages, rows_json(pages) if rows else b""


def _read_pages_forked(
    root: Path,
    items: list[tuple[FileEntry, list | None]],  # type: ignore[type-arg]
    max_bytes: int,
    rows: bool,
    helpers: int,
) -> Iterator[Chunk]:
    """The parent and `helpers` forked workers take chunks of pages until none are left.

    The chunks' numbers wait in a pipe, four bytes each, written before the workers start: each
    process reads one to take a chunk, and an empty read says none is left. Workers inherit
    `items` through fork and send back each chunk, pickled, through a pipe of their own (a thread
    writes it, so a worker goes on parsing while the parent is busy); the parent parses its own
    chunks and collects between them, so no core waits. Chunks a worker took but never delivered
    (it died) are parsed by the parent at the end.
    """
    import pickle
    import select
    import signal

    size = max(_CHUNK, -(-len(items) // _MAX_CHUNKS))
    chunks = [items[i : i + size] for i in range(0, len(items), size)]  # inherited by the workers
    jobs, jobs_in = os.pipe()
    os.write(jobs_in, b"".join(n.to_bytes(4, "little") for n in range(len(chunks))))  # fits: _MAX_CHUNKS
    os.close(jobs_in)
    workers: dict[int, int] = {}  # the read end of a worker's pipe -> its process id
    inbox: dict[int, bytearray] = {}
    done: set[int] = set()
    try:
        for _ in range(helpers):
            read_end, write_end = os.pipe()
            try:
                pid = os.fork()
            except OSError:  # no process to be had (a limit): fewer workers, or the parent alone
                os.close(read_end)
                os.close(write_end)
                break
            if pid == 0:  # the worker: it parses, then leaves without the parent's exit handlers
                code = 1
                try:
                    os.close(read_end)
                    _worker(root, chunks, max_bytes, rows, jobs, write_end)
                    code = 0
                finally:
                    os._exit(code)
            os.close(write_end)
            workers[read_end], inbox[read_end] = pid, bytearray()

        polled = select.poll()  # not select.select: it refuses a descriptor numbered past 1023
        for fd in inbox:
            polled.register(fd, select.POLLIN)

        def collect(wait: bool) -> Iterator[Chunk]:
            """Everything the workers have sent by now (with `wait`, after waiting for more or for
            their end). A pipe holds less than a chunk, so one read a turn let the chunks pile up
            in the workers while the parent parsed: it took them in at the end, alone, for up to
            a tenth of the read."""
            while inbox and (ready := polled.poll(None if wait else 0)):
                wait = False
                for fd, _ in ready:
                    data = os.read(fd, 1 << 20)
                    if not data:  # the worker is through (or died)
                        del inbox[fd]
                        polled.unregister(fd)
                        continue
                    buffer = inbox[fd]
                    buffer += data
                    while len(buffer) >= 8 and len(buffer) >= 8 + (length := int.from_bytes(buffer[:8], "little")):
                        number, chunk = pickle.loads(buffer[8 : 8 + length])  # from our own worker
                        del buffer[: 8 + length]
                        done.add(number)
                        yield chunk

        while _PARENT_WORKS and (number := _take(jobs)) is not None:
            yield _read_chunk(root, chunks[number], max_bytes, rows)
            done.add(number)
            yield from collect(wait=False)
        while inbox:
            yield from collect(wait=True)
    finally:
        for fd, pid in workers.items():  # stopped at once when the caller gave up (an error, ctrl-c)
            if fd in inbox:
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(fd)
        os.close(jobs)
    for number in sorted(set(range(len(chunks))) - done):  # taken by a worker that never delivered it
        yield _read_chunk(root, chunks[number], max_bytes, rows)


_MAX_CHUNKS = 4096  # chunk numbers in the pipe: 16 KiB, what any pipe holds before it is read


def _take(jobs: int) -> int | None:
    """The number of the next chunk to parse, or None when none is left."""
    token = os.read(jobs, 4)  # a pipe serves one reader at a time, and every number is 4 bytes
    return int.from_bytes(token, "little") if token else None


def _worker(
    root: Path,
    chunks: list[list[tuple[FileEntry, list | None]]],  # type: ignore[type-arg]
    max_bytes: int,
    rows: bool,
    jobs: int,
    out: int,
) -> None:
    """Parse chunks until none is left; a thread writes each one to `out` as it comes."""
    import copyreg
    import io
    import pickle
    import queue

    collector_off()
    outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
    # Pages, links and headings pickled as tuples of their type, which unpickle without a Python
    # call each (the parent unpickles every page a worker reads).
    as_tuple = copyreg.dispatch_table | {cls: pickled_as_tuple for cls in (Page, Link, Heading)}

    def send() -> None:
        with os.fdopen(out, "wb") as pipe:
            while (message := outbox.get()) is not None:
                pipe.write(message)
                pipe.flush()

    writer = threading.Thread(target=send)
    writer.start()
    try:
        while (number := _take(jobs)) is not None:
            buffer = io.BytesIO()
            pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
            pickler.dispatch_table = as_tuple
            pickler.dump((number, _read_chunk(root, chunks[number], max_bytes, rows)))
            data = buffer.getvalue()
            outbox.put(len(data).to_bytes(8, "little") + data)
    finally:
        outbox.put(None)
        writer.join()


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


def read_page(within: str, entry: FileEntry, max_bytes: int, previous: list | None = None) -> Page:  # type: ignore[type-arg]
    """Read and parse one page (`within`: the vault's root and a separator); a page that cannot be
    read comes back marked `unreadable`."""
    size, mtime_ns = entry.size, entry.mtime_ns  # NOT_STATED: the open file tells
    if size > max_bytes:
        return _too_large(entry.path, size, mtime_ns, max_bytes)
    path = within + entry.path
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
        # Same bytes under a new timestamp (a checkout, a touch): the parse still holds, unless its
        # row was damaged by hand (then the page is read like any other).
        row = list(previous)
        row[0], row[1] = size, mtime_ns
        with contextlib.suppress(TypeError, ValueError):
            return page_from_row(entry.path, row)
    if data.startswith(UTF16_BOMS):  # its NUL bytes would call it binary
        return _unreadable(entry.path, size, mtime_ns, "UTF-16 text, not read: save it as UTF-8", sha)
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


# A FIFO swapped in for a page since the scan reads as empty at once instead of waiting for a writer.
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)


def _too_large(path: str, size: int, mtime_ns: int, max_bytes: int, read: int | None = None) -> Page:
    reason = (
        f"page is {(read or size) / 1_048_576:.1f} MB, over the {max_bytes / 1_048_576:g} MB limit; "
        "not parsed (raise max_page_bytes to read it)"
    )
    return _unreadable(path, size, mtime_ns, reason)


def _unreadable(path: str, size: int, mtime_ns: int, reason: str, sha: str = "") -> Page:
    """A page that is not parsed: it still exists (as a title) and says why it was not read."""
    return Page(path=path, size=size, mtime_ns=mtime_ns, sha=sha, frontmatter={}, unreadable=reason)
