"""One writer at a time per vault: an OS advisory lock on `.curator/lock`.

Held around check, plan and write (apply, undo, merge, accepting a suggestion, recovery). The
kernel releases it when the process dies, so a crashed writer never blocks the next one; while it
is held, a journal entry in `applying` belongs to the live writer, and recovery (which takes the
lock too) never touches it. A second writer waits, says once who holds the lock, and gives up with
a clear error after `timeout` seconds. Re-entrant within a process: apply() inside a planning
section that already holds the lock just goes on.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from curator.core.cache import ensure_state_dir
from curator.core.errors import VaultBusy
from curator.core.statefiles import UnsafeState, open_regular, read_regular

LOCK_NAME = "lock"
LOCK_TIMEOUT = 120.0  # seconds a writer waits for another before it gives up

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
        info = json.loads(read_regular(root / ".curator" / LOCK_NAME) or b"")
        return f"pid {info['pid']} ({info['command']}), for {time.time() - float(info['since']):.0f} s"
    except (OSError, ValueError, KeyError, TypeError):
        return "another curator process"


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
