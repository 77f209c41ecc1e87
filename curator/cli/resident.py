"""A resident process that keeps one vault loaded, so that `curator search` as a new process answers
in a fraction of a second instead of loading 13,000 pages, the word index and the model again.

The first search of a vault answers itself and then starts the resident (curator/resident.py) in
the background; later searches hand their command line to it over a Unix socket (this module) and
print its answer. It leaves after RESIDENT_IDLE seconds without a question. It is the same code as the
command, run by the same user: the socket lives in a folder only this user can enter, its name
derives from the vault's real path, curator's code and the user's settings (a changed install or
config talks to a new resident), and each side checks that the other runs as this user. Anything
that goes wrong on the way (no resident, a dead one, a refused folder) falls back to answering in
the process, as before. `CURATOR_RESIDENT=0` turns it off.

This module is imported by every search before it knows whether a resident answers: the standard
library and little of curator's, nothing it loads for a vault.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import stat
import subprocess
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


def same_user(connection: socket.socket) -> bool:
    """Whether the process at the other end of a Unix socket runs as this user (where the system
    says: Linux's SO_PEERCRED; elsewhere the folder's permissions are the check)."""
    import struct

    if not hasattr(socket, "SO_PEERCRED"):
        return True
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


CONNECT_SECONDS = 0.5  # a resident accepts at once, or it is not there
READY_SECONDS = 3.0  # for the resident to say it is free to run the command; busy or stopped: run here
ANSWER_SECONDS = {"search": 60.0}  # a search answered by then is answered here instead (it writes nothing)
WRITING_SECONDS = 600.0  # a memory, once the resident runs it, is waited for: it may write
MAX_RESIDENTS = 3  # residents of one user at once (each holds its vault and a model: 250-450 MB)

WRITING = ("remember",)  # commands that may write: once handed over, never run a second time here
LOST = (
    "the vault's resident process took the memory and gave no answer (it stopped, or it is still at work): "
    "see 'curator history {vault}' and 'curator suggestions {vault}' in a minute, before you give it again"
)


def run(argv: list[str], vault: str) -> tuple[int, str, str] | None:
    """The command `argv` (on the vault at path `vault`) run by the vault's resident: its exit
    code, standard output and error; None when no resident took it (none runs, it is not this
    user's, it is busy or stopped, it declined the command), and the caller runs the command
    itself. The resident runs a command only once this side says go after it said it is ready:
    one that wakes up later finds nobody waiting and runs nothing. A command that may write is
    never run twice: once it went, a missing answer is said, not run here again."""
    if not enabled() or not os.path.isdir(vault):
        return None
    where = address(os.path.realpath(vault))
    if where is None or not os.path.exists(where):
        return None
    went = False
    try:
        question = json.dumps({"argv": argv, "cwd": os.getcwd(), **_surroundings()}).encode() + b"\n"
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(CONNECT_SECONDS)
            connection.connect(str(where))  # refused: a resident killed left its socket; run here
            if not same_user(connection):
                return None
            connection.settimeout(READY_SECONDS)
            connection.sendall(question)
            if connection.recv(len(READY)) != READY:  # declined, busy with another command, or stopped
                return None
            connection.sendall(GO)
            connection.shutdown(socket.SHUT_WR)
            went = True
            connection.settimeout(ANSWER_SECONDS.get(argv[0], WRITING_SECONDS))
            answer = json.loads(_read_all(connection))
    except (OSError, ValueError):  # timed out, reset, cut short; no working folder
        answer = None
    except KeyboardInterrupt:  # Ctrl-C: the resident may go on with what it took
        return 130, "", f"curator: interrupted; {LOST.format(vault=vault)}\n" if went and argv[0] in WRITING else ""
    answered = _answered(answer)
    if answered is None and went and argv[0] in WRITING:
        return 2, "", f"curator: {LOST.format(vault=vault)}\n"
    return answered


def _surroundings() -> dict[str, object]:
    """What of this process a command's work depends on and the resident must take on while it
    runs it: the environment (the time zone, git's identity, PATH) and the umask (a page written
    for a user whose umask is 077 is readable by nobody else)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return {"environ": dict(os.environ), "umask": mask}


def _answered(answer: object) -> tuple[int, str, str] | None:
    """An answer as the command gives it: an exit code of 0-255, and its output with nothing in
    it that could steer the terminal (the resident's is already so; this holds it to that)."""
    from curator.cli.output import printable

    if not isinstance(answer, dict):
        return None
    code, out, err = answer.get("code"), answer.get("out"), answer.get("err")
    if type(code) is not int or not 0 <= code <= 255 or not isinstance(out, str) or not isinstance(err, str):
        return None
    return code, printable(out), printable(err)


def _read_all(connection: socket.socket) -> bytes:
    parts, size = [], 0
    while chunk := connection.recv(1 << 16):
        parts.append(chunk)
        size += len(chunk)
        if size > MAX_MESSAGE:
            raise OSError("the resident's answer is too long")
    return b"".join(parts)


def start(vault: str) -> None:
    """Start the vault's resident in the background for the commands to come (if none runs: a
    second one sees the first's lock and leaves at once), unless MAX_RESIDENTS of this user's
    run already. Nothing is waited for."""
    folder = runtime_folder() if enabled() and os.path.isdir(vault) else None
    if folder is None or live_residents(folder) >= MAX_RESIDENTS:
        return  # the commands to come run in their own processes, as this one did
    with contextlib.suppress(OSError):
        subprocess.Popen(
            [sys.executable, "-m", "curator.resident", str(Path(vault).resolve())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # not stopped by the terminal's Ctrl-C or hang-up meant for the search
            cwd="/",
        )
