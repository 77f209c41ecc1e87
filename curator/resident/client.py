"""The command's side: hand a question to the vault's resident, or start one for the next time."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

from curator.resident import MAX_MESSAGE, address, enabled, same_user

CONNECT_SECONDS = 0.5  # a resident accepts at once, or it is not there
ANSWER_SECONDS = 300.0  # a first-stage search of a cold vault can take a while; a hung one must not hang us


WRITING = ("remember",)  # commands that may write: once handed over, never run a second time here
LOST = (
    "the vault's resident process stopped before it answered, and it may have written: see 'curator history {vault}' "
    "and 'curator suggestions {vault}', then run the command again if it is not there"
)


def run(argv: list[str], vault: str) -> tuple[int, str, str] | None:
    """The command `argv` (on the vault at path `vault`) run by the vault's resident: its exit
    code, standard output and error; None when no resident took it (none runs, it is not this
    user's, it declined the command), and the caller runs the command itself. A command that may
    write is never run twice: when its resident dies after taking it, the answer says so."""
    if not enabled() or not os.path.isdir(vault):
        return None
    where = address(os.path.realpath(vault))
    if where is None or not os.path.exists(where):
        return None
    question = {"argv": argv, "cwd": os.getcwd()}
    handed = False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(CONNECT_SECONDS)
            connection.connect(str(where))  # refused: a resident killed left its socket; run here
            if not same_user(connection):
                return None
            connection.settimeout(ANSWER_SECONDS)
            connection.sendall(json.dumps(question).encode())
            connection.shutdown(socket.SHUT_WR)
            handed = True
            answer = json.loads(_read_all(connection))
    except (OSError, ValueError):  # timed out, reset, cut short
        answer = None
    if isinstance(answer, dict) and "declined" in answer:
        return None
    code, out, err = (answer.get(k) for k in ("code", "out", "err")) if isinstance(answer, dict) else (None,) * 3
    if isinstance(code, int) and isinstance(out, str) and isinstance(err, str):
        return code, out, err
    if handed and argv[0] in WRITING:
        return 2, "", f"curator: {LOST.format(vault=vault)}\n"
    return None


def _read_all(connection: socket.socket) -> bytes:
    parts, size = [], 0
    while chunk := connection.recv(1 << 16):
        parts.append(chunk)
        size += len(chunk)
        if size > MAX_MESSAGE:
            raise OSError("the resident's answer is too long")
    return b"".join(parts)


def start(vault: str) -> None:
    """Start the vault's resident in the background for the searches to come (if none runs: a
    second one sees the first's lock and leaves at once). Nothing is waited for."""
    if not enabled():
        return
    with contextlib.suppress(OSError):
        subprocess.Popen(
            [sys.executable, "-m", "curator.resident.server", str(Path(vault).resolve())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # not stopped by the terminal's Ctrl-C or hang-up meant for the search
            cwd="/",
        )
