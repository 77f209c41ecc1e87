"""Paths a vault's settings name, checked against the vault after resolving symlinks, and small files
read so that neither a symlink nor a FIFO or device can stand in for them: a vault is data."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


def inside_vault(root: Path, path: Path | str) -> Path | None:
    """The real path of `path` (a relative one is taken from `root`) when it lies in the vault and
    not in its `.git/`; None when it resolves anywhere else."""
    real_root = Path(os.path.realpath(root))
    real = Path(os.path.realpath(Path(root, path)))
    if real != real_root and not real.is_relative_to(real_root):
        return None
    if in_git(real.relative_to(real_root).parts):
        return None
    return real


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (a symbolic link and its target; two spellings on a
    case-insensitive disk); False when either cannot be reached."""
    try:
        return a.samefile(b)
    except OSError:
        return False


def in_git(parts: list[str] | tuple[str, ...]) -> bool:
    """Whether a path with these parts lies in a `.git` folder (Windows and macOS file systems
    also take `.GIT` and `.git.` for `.git`)."""
    return any(part.casefold().rstrip(". ") == ".git" for part in parts)


class NotRegularFile(OSError):
    """A file that must be a plain file is a symlink, a FIFO, a device or a folder."""


def open_regular(path: Path, flags: int = os.O_RDONLY, mode: int = 0o644, follow_links: bool = False) -> int | None:
    """A descriptor of `path` when it is a regular file, else None: a FIFO or device is refused
    without blocking on it (the open does not wait for a writer), and so is a symbolic link unless
    `follow_links`. OSError for what the file system refuses otherwise (a missing file is
    FileNotFoundError)."""
    nofollow = 0 if follow_links else getattr(os, "O_NOFOLLOW", 0)
    nonblock = getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags | nofollow | nonblock | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0), mode)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK, errno.ENXIO):  # a symbolic link; a FIFO opened for writing
            return None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    if nonblock:
        os.set_blocking(fd, True)
    return fd


def read_regular(path: Path, follow_links: bool = True) -> bytes:
    """The bytes of the regular file at `path` (see `open_regular`); NotRegularFile when it is a
    FIFO, a device, a folder, or a symbolic link while `follow_links` is False; FileNotFoundError
    when there is no file."""
    if not follow_links and os.path.islink(path):
        raise NotRegularFile("it is a symbolic link")
    try:
        fd = open_regular(path, follow_links=follow_links)
    except IsADirectoryError as exc:
        raise NotRegularFile("it is not a regular file") from exc
    if fd is None:
        raise NotRegularFile("it is a symbolic link" if os.path.islink(path) else "it is not a regular file")
    with os.fdopen(fd, "rb") as file:
        return file.read()
