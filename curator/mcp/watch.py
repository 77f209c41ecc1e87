"""Whether anything may have changed in a vault's folders since the last look, from Linux's inotify,
so that a server holding the vault need not stat every page before each call: on 10,000 pages that
scan took most of a search's time (benchmarks/mcp_session.py). Where inotify is missing or refuses
(another system, the watch limit reached) `Folders.open` gives None and the caller scans each time.

A watch misses nothing in the folders it watches, but a folder made since is watched only once the
caller arms it, so the caller scans again after arming new folders (`arm` says when it did)."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import struct
import sys
import weakref
from collections.abc import Iterable
from pathlib import Path

from curator.core.read.scan import installed

_IN_MODIFY, _IN_ATTRIB, _IN_CLOSE_WRITE = 0x2, 0x4, 0x8
_IN_MOVED_FROM, _IN_MOVED_TO, _IN_CREATE, _IN_DELETE = 0x40, 0x80, 0x100, 0x200
_IN_DELETE_SELF, _IN_MOVE_SELF, _IN_Q_OVERFLOW, _IN_IGNORED = 0x400, 0x800, 0x4000, 0x8000
_IN_ONLYDIR = 0x01000000
_MASK = (
    _IN_MODIFY
    | _IN_ATTRIB
    | _IN_CLOSE_WRITE
    | _IN_MOVED_FROM
    | _IN_MOVED_TO
    | _IN_CREATE
    | _IN_DELETE
    | _IN_DELETE_SELF
    | _IN_MOVE_SELF
    | _IN_ONLYDIR
)
_GONE = _IN_Q_OVERFLOW | _IN_IGNORED | _IN_DELETE_SELF | _IN_MOVE_SELF  # the watch itself no longer answers
_EVENT = struct.Struct("iIII")  # wd, mask, cookie, length of the name that follows
_CONFIG = b".curator.toml"


class Folders:
    """inotify watches on a vault's folders (its dot-folders left out: `.git`, `.curator`)."""

    def __init__(self, root: Path, fd: int, libc: ctypes.CDLL) -> None:
        self.root = root
        self._fd = fd
        self._libc = libc
        self._watched: dict[str, int] = {}  # folder (POSIX, "" for the root) -> watch descriptor
        weakref.finalize(self, os.close, fd)

    @classmethod
    def open(cls, root: Path) -> Folders | None:
        if not sys.platform.startswith("linux"):
            return None
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
            fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        except (OSError, AttributeError):
            return None
        return cls(root, fd, libc) if fd >= 0 else None

    def arm(self, folders: Iterable[str]) -> bool | None:
        """Watch each of `folders` not watched yet; whether any was new (None: a watch was refused,
        so this watch can no longer be relied on)."""
        added = False
        for folder in folders:
            if folder in self._watched:
                continue
            path = os.fsencode(self.root / folder if folder else self.root)
            wd = self._libc.inotify_add_watch(self._fd, path, _MASK)
            if wd < 0:
                if ctypes.get_errno() == 2:  # gone already: its removal is an event of its parent
                    continue
                return None
            self._watched[folder] = wd
            added = True
        return added

    def changed(self) -> bool:
        """Whether anything happened in a watched folder since the last call (a page, an attachment,
        a folder or the config); everything pending is read."""
        changed = False
        while True:
            try:
                data = os.read(self._fd, 64 * 1024)
            except BlockingIOError:
                return changed
            offset = 0
            while offset < len(data):
                wd, mask, _cookie, length = _EVENT.unpack_from(data, offset)
                name = data[offset + _EVENT.size : offset + _EVENT.size + length].rstrip(b"\0")
                offset += _EVENT.size + length
                if mask & _GONE:
                    self._forget(wd)
                    changed = True
                elif not name.startswith(b".") or name == _CONFIG:
                    changed = True

    def _forget(self, wd: int) -> None:
        self._watched = {folder: w for folder, w in self._watched.items() if w != wd}


def folders_in(root: Path) -> list[str]:
    """Every folder of the vault (vault-relative POSIX, "" for the root), empty ones included, its
    dot-folders, symbolic links and installed software left out (the scan walks none of them)."""
    found = [""]
    for top, dirs, _files in os.walk(root):
        dirs[:] = [
            d
            for d in dirs
            if not d.startswith(".")
            and not os.path.islink(os.path.join(top, d))
            and not installed(os.path.join(top, d), d)
        ]
        base = Path(top).relative_to(root).as_posix()
        found += [d if base == "." else f"{base}/{d}" for d in dirs]
    return found
