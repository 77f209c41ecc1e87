"""One writer at a time per vault: an OS advisory lock on `.curator/lock`.

Held around check, plan and write (apply, undo, merge, accepting a suggestion, recovery). The
kernel releases it when the process dies, so a crashed writer never blocks the next one; while it
is held, a journal entry in `applying` belongs to the live writer, and recovery (which takes the
lock too) never touches it. A second writer waits, says once who holds the lock, and gives up with
a clear error after `timeout` seconds. Re-entrant within a process: apply() inside a planning
section that already holds the lock just goes on.

Readers (lint, search, the TUI's loading) do not take the lock: they read between writes
(`between_writes`), so they never see half a change.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from curator.core.common.errors import VaultBusy
from curator.core.state.cache import ensure_state_dir
from curator.core.state.statefiles import STATE_DIR, UnsafeState, open_regular, read_regular

LOCK_NAME = "lock"
LOCK_TIMEOUT = 120.0  # seconds a writer waits for another before it gives up
READ_PATIENCE = 2.0  # seconds a reader waits for a writer before it says that it waits

Read = TypeVar("Read")

_held: dict[str, int] = {}  # vault (real path) -> depth, for this process
_guard = threading.RLock()  # threads of one process (the TUI's workers) take turns too


def _try_lock(fd: int) -> bool:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


def _unlock(fd: int) -> None:
    if sys.platform == "win32":  # pragma: no cover
        import msvcrt

        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_UN)


def holder(root: Path) -> str:
    """Who holds (or last held) the vault's lock, as the lock file says: 'pid N, for S s'."""
    try:
        info = json.loads(read_regular(root / STATE_DIR / LOCK_NAME) or b"")
        return f"pid {info['pid']} ({info['command']}), for {time.time() - float(info['since']):.0f} s"
    except (OSError, ValueError, KeyError, TypeError, ArithmeticError, RecursionError):  # whatever the file holds
        return "another curator process"


def writing(root: Path) -> str | None:
    """Who is writing to the vault now ('pid N'), or None while no process holds
    its lock (the kernel drops the lock of a process that dies)."""
    state = _lock_state(root)
    return None if state is None or not state[0] else _who(state[1])


def between_writes(
    root: Path,
    read: Callable[[], Read],
    on_wait: Callable[[str], None] | None = None,
    patience: float = READ_PATIENCE,
    timeout: float = LOCK_TIMEOUT,
) -> Read:
    """`read()`, run while no change is being written to the vault, so that it sees each change
    whole or not at all: it waits for a live writer (quietly for `patience` seconds, then saying
    so once through `on_wait`), and reads again when a writer took the lock while it read.
    VaultBusy once a writer is still at it after `timeout` seconds."""
    if _held.get(os.path.realpath(root)):
        return read()  # this process is the writer: it reads what it has written
    deadline = time.monotonic() + timeout
    quiet_until = time.monotonic() + patience
    told = False
    while True:
        before = _lock_state(root)
        if before is None or not before[0]:
            result = read()
            if _lock_state(root) == before:  # every writer takes the lock and writes its name in it
                return result
            continue
        who, now = _who(before[1]), time.monotonic()
        if now >= deadline:
            raise VaultBusy(
                f"a change is being applied ({who}) and is not done after {timeout:.0f} s; "
                "nothing was read, try again when it is done"
            )
        if not told and now >= quiet_until and on_wait is not None:
            on_wait(f"a change is being applied ({who}); waiting for it to finish before reading the vault")
            told = True
        time.sleep(0.05)


def _lock_state(root: Path) -> tuple[bool, bytes] | None:
    """Whether a process holds the vault's lock, and what the lock file says; None without one.

    Tested by taking a shared lock and dropping it at once, which blocks no one: a writer that
    tries at that very moment tries again 50 ms later."""
    flags = (os.O_RDWR if sys.platform == "win32" else os.O_RDONLY) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(root / STATE_DIR / LOCK_NAME, flags | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None  # a lock file is never anything else; this one was not made by curator
        return not _free(fd), os.pread(fd, 4096, 0) if hasattr(os, "pread") else os.read(fd, 4096)
    except OSError:
        return None
    finally:
        os.close(fd)


def _free(fd: int) -> bool:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        if not _try_lock(fd):
            return False
        _unlock(fd)
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    fcntl.flock(fd, fcntl.LOCK_UN)
    return True


def _who(info: bytes) -> str:
    """'pid N' from what the lock file says (only the number: the file lies in the vault)."""
    try:
        return f"pid {int(json.loads(info)['pid'])}"
    except (ValueError, KeyError, TypeError):
        return "another curator process"


@contextmanager
def state_lock(root: Path, name: str) -> Iterator[None]:
    """Hold `.curator/<name>` exclusively for the block, waiting for whoever holds it (another
    thread or process building the same derived store): one builder at a time, and the next one
    finds the store built."""
    try:
        found = open_regular(ensure_state_dir(root) / name, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise VaultBusy(f"cannot create {root / '.curator' / name}: {exc.strerror or exc}") from exc
    if found is None:
        raise UnsafeState(f"{root / '.curator' / name} is not a regular file; remove it and run again")
    try:
        while not _try_lock(found):
            time.sleep(0.05)
        try:
            yield
        finally:
            _unlock(found)
    finally:
        os.close(found)


@contextmanager
def vault_lock(
    root: Path, timeout: float = LOCK_TIMEOUT, on_wait: Callable[[str], None] | None = None
) -> Iterator[None]:
    """Hold the vault's write lock for the block; wait for another writer, up to `timeout` seconds."""
    key = os.path.realpath(root)
    with _guard:
        if _held.get(key):
            _held[key] += 1
            try:
                yield
            finally:
                _held[key] -= 1
            return
        try:
            found = open_regular(ensure_state_dir(root) / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise VaultBusy(f"cannot create the vault's lock in {root / '.curator'}: {exc.strerror or exc}") from exc
        if found is None:
            raise UnsafeState(
                f"{root / '.curator' / LOCK_NAME} is not a regular file (a symbolic link, FIFO or device); "
                "remove it and run again"
            )
        fd = found
        try:
            deadline = time.monotonic() + timeout
            told = False
            while not _try_lock(fd):
                if not told and on_wait is not None:
                    on_wait(f"waiting for {holder(root)}, which is writing to this vault")
                    told = True
                if time.monotonic() >= deadline:
                    raise VaultBusy(
                        f"gave up after {timeout:.0f} s: {holder(root)} is still writing to this vault; "
                        "try again when it is done"
                    )
                time.sleep(0.05)
            info = {"pid": os.getpid(), "since": time.time(), "command": " ".join(sys.argv[:2]) or "curator"}
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, json.dumps(info).encode())
            _held[key] = 1
            try:
                yield
            finally:
                _held.pop(key, None)
                _unlock(fd)
        finally:
            os.close(fd)
