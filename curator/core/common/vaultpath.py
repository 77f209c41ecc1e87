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


def link_target(root: Path, rel: str) -> str | None:
    """The vault path a page that is a symbolic link stands for (`CLAUDE.md -> docs/agent.md`:
    "docs/agent.md"), or None for a file itself or a link leading out of the vault."""
    if not os.path.islink(Path(root, rel)):
        return None
    real = inside_vault(root, rel)
    return None if real is None else real.relative_to(os.path.realpath(root)).as_posix()


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


_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def read_in_vault(root: Path, path: str, real_root: str | None = None) -> bytes:
    """The bytes of the page at `path` (POSIX, relative to `root`), read so that nothing swapped in
    since the vault was scanned leads out of it or blocks: each folder on the way is opened from
    the one before without following a symbolic link, the page itself without blocking and only as
    a regular file. A page that is a link (the scan keeps one whose target is in the vault) is read
    at its target, checked the same way. NotRegularFile (an OSError) for anything else.
    `real_root`: the root's real path, when the caller knows it already."""
    parts = path.split("/")
    if not path or path.startswith("/") or ".." in parts or "" in parts or in_git(parts):
        raise NotRegularFile(f"{path} is not a path inside the vault")
    if os.open not in os.supports_dir_fd or not _NOFOLLOW:  # Windows: by the real path, checked
        real = inside_vault(root, path)
        if real is None:
            raise NotRegularFile(f"{path} leads outside the vault")
        return read_regular(real, follow_links=False)
    real_root = real_root or os.path.realpath(root)
    try:
        try:
            return _read_below(real_root, parts)
        except NotRegularFile:
            if not os.path.islink(os.path.join(real_root, *parts)):
                raise
        target = os.path.realpath(os.path.join(real_root, *parts))
        if not target.startswith(real_root + os.sep) or in_git(Path(target[len(real_root) + 1 :]).parts):
            raise NotRegularFile("it is a symbolic link out of the vault")
        return _read_below(real_root, target[len(real_root) + 1 :].split(os.sep))
    except NotRegularFile as exc:
        raise NotRegularFile(f"{path}: {exc}; not read") from exc


def _read_below(real_root: str, parts: list[str]) -> bytes:
    """The regular file `parts` below `real_root`, no link followed on the way (see read_in_vault)."""
    folder = os.open(real_root, _DIR_FLAGS)
    try:
        for part in parts[:-1]:
            try:
                inner = os.open(part, _DIR_FLAGS | _NOFOLLOW, dir_fd=folder)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise NotRegularFile(f"{part} on the way to the page is not a folder of the vault") from exc
                raise
            os.close(folder)
            folder = inner
        try:
            fd = os.open(parts[-1], os.O_RDONLY | _NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.EMLINK):
                raise NotRegularFile("it is a symbolic link") from exc
            raise
    finally:
        os.close(folder)
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile("it is not a regular file")
        os.set_blocking(fd, True)
        return file.read()


def glob_problem(glob: str) -> str | None:
    """Why a glob of a vault's settings is no gitignore pattern (as scan.py reads them), or None."""
    import re

    import pathspec  # only vaults with ignore globs need it

    try:
        pathspec.GitIgnoreSpec.from_lines([glob])
    except (ValueError, TypeError, re.error) as exc:  # GitIgnorePatternError is a ValueError; [z-a] a bad range
        return str(exc)
    return None
