"""Every file curator writes goes through here: the bytes go to a temporary file in the same
folder, are fsynced, and the temporary file is renamed over the target, so a reader or a crash
sees the old file or the new one, never half of either.

Used for the user's pages (changes.py), the journal, the derived cache and the trust list.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

# Creating, writing and fsyncing a file release the GIL, and the file system batches concurrent
# fsyncs into one journal commit: see write_all.
SYNC_THREADS = 16
TEMPORARY_SUFFIX = ".curator-tmp"
_TEMPORARY = re.compile(rf"\.[0-9a-f]{{8}}\.[0-9a-f]{{8}}{re.escape(TEMPORARY_SUFFIX)}")
STALE = 3600.0  # seconds: no write of curator's takes an hour, so an older temporary file is a killed writer's


def write_atomic(path: Path, data: bytes, mode: int | None = None, sync_folder: bool = False) -> None:
    """Replace `path` with `data` (see the module's docstring). `mode`: the new file's
    permissions (default: as for any new file, under the umask); `sync_folder`: also fsync the
    folder, so the rename itself survives a crash."""
    write_atomic_with(path, _writer(data), mode, sync_folder)


def write_atomic_with(
    path: Path, write: Callable[[BinaryIO], object], mode: int | None = None, sync_folder: bool = False
) -> None:
    """`write_atomic` for data that `write` streams into the file (a large array, without a copy)."""
    tmp = _temporary_name(path)
    try:
        _write_synced(tmp, write, mode)
        os.replace(tmp, path)
    except BaseException:
        _discard(tmp)
        raise
    if sync_folder:
        fsync_dir(path.parent)


def write_all(
    files: list[tuple[Path, bytes, int | None]],
    before_replace: Callable[[Path], None] | None = None,
    after_replace: Callable[[Path], None] | None = None,
) -> None:
    """Write many files atomically, each as `write_atomic` does, the temporary files written and
    synced by a pool of threads.

    Every temporary file is written and synced before the first rename, so a failure while
    writing leaves every target untouched. `before_replace(path)` runs right before each rename
    and `after_replace(path)` right after it (the crash tests stop there; an error raised by
    either stops the renames there). The caller syncs the folders (`fsync_dir`) once all are in
    place."""
    from concurrent.futures import ThreadPoolExecutor  # with logging: 6 ms a read-only command need not pay

    temporaries = [_temporary_name(path) for path, _, _ in files]
    replaced = 0
    try:
        with ThreadPoolExecutor(min(SYNC_THREADS, len(files) or 1)) as pool:
            list(pool.map(lambda tmp, file: _write_synced(tmp, _writer(file[1]), file[2]), temporaries, files))
        for (path, _, _), tmp in zip(files, temporaries, strict=True):
            if before_replace is not None:
                before_replace(path)
            os.replace(tmp, path)
            replaced += 1
            if after_replace is not None:
                after_replace(path)
    finally:
        for tmp in temporaries[replaced:]:  # after an error: those not renamed
            _discard(tmp)


def fsync_dir(folder: Path) -> None:
    """Make the renames in `folder` durable (a no-op where the system cannot sync a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _temporary_name(path: Path) -> Path:
    """A name beside `path` no other file has, as long whatever the name of `path` (a page's name
    may take all 255 bytes a file name has): a hash of that name, then a random part."""
    return path.with_name(f"{_temporary_prefix(path)}{os.urandom(4).hex()}{TEMPORARY_SUFFIX}")


def _temporary_prefix(path: Path) -> str:
    """What the temporary files of `path` start with: a checksum of its name (hashlib would cost a
    warm lint its import)."""
    return f".{zlib.crc32(path.name.encode('utf-8', 'surrogateescape')):08x}."


def temporaries_of(path: Path) -> list[Path]:
    """The temporary files a writer of `path` left behind (it was killed before its rename)."""
    return list(path.parent.glob(f"{_temporary_prefix(path)}*{TEMPORARY_SUFFIX}"))


def discard_stale_temporaries(folder: Path) -> None:
    """Remove the temporary files that writers killed before their rename left anywhere under
    `folder` (curator's state folder), once they are STALE: a live writer's own is younger."""
    now = time.time()
    for tmp in folder.rglob(f"*{TEMPORARY_SUFFIX}") if folder.is_dir() else ():  # "**" follows no symbolic link
        with contextlib.suppress(OSError):
            info = tmp.lstat()
            if _TEMPORARY.fullmatch(tmp.name) and stat.S_ISREG(info.st_mode) and now - info.st_mtime >= STALE:
                tmp.unlink()


def _write_synced(tmp: Path, write: Callable[[BinaryIO], object], mode: int | None) -> None:
    """Create `tmp` (never an existing file), write it, set its mode and fsync it."""
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 if mode is None else 0o600)
    with os.fdopen(fd, "wb") as handle:
        write(handle)
        handle.flush()
        if mode is not None:
            os.fchmod(handle.fileno(), mode)
        os.fsync(handle.fileno())


def _writer(data: bytes) -> Callable[[BinaryIO], object]:
    return lambda handle: handle.write(data)


def _discard(tmp: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)
