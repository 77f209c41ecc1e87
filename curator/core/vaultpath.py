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
    parts = real.relative_to(real_root).parts
    if parts and parts[0].casefold() == ".git":
        return None
    return real


class NotRegularFile(OSError):
    """A file that must be a plain file is a symlink, a FIFO, a device or a folder."""


def read_regular(path: Path, follow_links: bool = True) -> bytes:
    """The bytes of the regular file at `path`. A FIFO, device or folder is refused without
    blocking on it (the open does not wait for a writer), and so is a symlink when `follow_links`
    is False. FileNotFoundError when there is no file."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    if not follow_links:
        if os.path.islink(path):
            raise NotRegularFile("it is a symbolic link")
        flags |= getattr(os, "O_NOFOLLOW", 0)  # a link put there after the check is refused too
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if not follow_links and exc.errno in (errno.ELOOP, errno.EMLINK):
            raise NotRegularFile("it is a symbolic link") from exc
        raise
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile("it is not a regular file")
        return file.read()
