"""A resident process that keeps one vault loaded, so that `curator search` as a new process answers
in a fraction of a second instead of loading 13,000 pages, the word index and the model again.

The first search of a vault answers itself and then starts the resident (server.py) in the
background; later searches hand their question to it over a Unix socket (client.py) and print its
answer. It leaves after RESIDENT_IDLE seconds without a question. It is the same code as the
command, run by the same user: the socket lives in a folder only this user can enter, its name
derives from the vault's real path, curator's code and the user's settings (a changed install or
config talks to a new resident), and each side checks that the other runs as this user. Anything
that goes wrong on the way (no resident, a dead one, a refused folder) falls back to answering in
the process, as before. `CURATOR_RESIDENT=0` turns it off.

This module is imported by every search before it knows whether a resident answers: standard
library only, nothing curator loads for a vault.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
from pathlib import Path

RESIDENT_IDLE = 900.0  # seconds without a question after which the resident leaves
SETTINGS_VARIABLES = ("CURATOR_CONFIG_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "HOME")  # where curator's are
READY, GO = b"ready\n", b"go\n"  # the resident is free to run the command; the caller still wants it run
MAX_MESSAGE = 4 << 20  # bytes of one question or answer; more is no message of curator's


def enabled() -> bool:
    """Whether a search may use a resident: on by default where Unix sockets exist."""
    return os.environ.get("CURATOR_RESIDENT", "1") != "0" and os.name == "posix" and hasattr(os, "getuid")


def idle_seconds() -> float:
    """RESIDENT_IDLE, or `CURATOR_RESIDENT_IDLE` seconds (at least one)."""
    try:
        return max(float(os.environ.get("CURATOR_RESIDENT_IDLE", RESIDENT_IDLE)), 1.0)
    except ValueError:
        return RESIDENT_IDLE


def runtime_folder() -> Path | None:
    """This user's folder for residents' sockets, made if missing; None when it is not this
    user's alone (another owner, open to others, a symbolic link): then no resident is used."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    if base and os.path.isabs(base):
        folder = Path(base) / "curator"
    else:
        folder = Path(tempfile.gettempdir()) / f"curator-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        found = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid() or found.st_mode & 0o077:
        return None
    return folder


def _code_stamp() -> str:
    """curator's code as installed: its version and each module's size and time, so that an
    upgrade or an edited checkout never talks to a resident running the code before it."""
    from curator import __version__

    package = Path(__file__).resolve().parent.parent
    parts = [__version__, sys.executable]
    for folder, _dirs, files in os.walk(package):
        for name in sorted(files):
            if name.endswith(".py"):
                found = os.stat(os.path.join(folder, name))
                parts.append(f"{folder}/{name}:{found.st_size}:{found.st_mtime_ns}")
    return "\n".join(parts)


def address(root: str) -> Path | None:
    """The socket of the resident for the vault at real path `root`, as this process would run it
    (its code and the user's settings folders); None where no resident may be used."""
    folder = runtime_folder()
    if folder is None:
        return None
    settings = [os.environ.get(name, "") for name in SETTINGS_VARIABLES]
    key = hashlib.sha256("\0".join([root, _code_stamp(), *settings]).encode("utf-8", "surrogateescape"))
    return folder / f"{key.hexdigest()[:24]}.sock"


def same_user(connection: object) -> bool:
    """Whether the process at the other end of a Unix socket runs as this user (where the system
    says: Linux's SO_PEERCRED; elsewhere the folder's permissions are the check)."""
    import socket
    import struct

    if not hasattr(socket, "SO_PEERCRED"):
        return True
    assert isinstance(connection, socket.socket)
    credentials = connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", credentials)
    return bool(uid == os.getuid())


def live_residents(folder: Path) -> int:
    """How many residents run now: those whose lock is held (a killed one leaves its files)."""
    import fcntl

    count = 0
    for lock in folder.glob("*.lock"):
        try:
            descriptor = os.open(lock, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            count += 1
        finally:
            os.close(descriptor)
    return count
