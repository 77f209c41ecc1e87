"""The command's side: hand a question to the vault's resident, or start one for the next time."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

from curator.resident import GO, MAX_MESSAGE, READY, address, enabled, live_residents, runtime_folder, same_user

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
    question = json.dumps({"argv": argv, "cwd": os.getcwd()}).encode() + b"\n"
    went = False
    try:
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
    except (OSError, ValueError):  # timed out, reset, cut short
        answer = None
    answered = _answered(answer)
    if answered is None and went and argv[0] in WRITING:
        return 2, "", f"curator: {LOST.format(vault=vault)}\n"
    return answered


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
    folder = runtime_folder() if enabled() else None
    if folder is None or live_residents(folder) >= MAX_RESIDENTS:
        return  # the commands to come run in their own processes, as this one did
    with contextlib.suppress(OSError):
        subprocess.Popen(
            [sys.executable, "-m", "curator.resident.server", str(Path(vault).resolve())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # not stopped by the terminal's Ctrl-C or hang-up meant for the search
            cwd="/",
        )
