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


def run(argv: list[str], vault: str) -> tuple[int, str, str] | None:
    """The command `argv` (on the vault at path `vault`) run by the vault's resident: its exit
    code, standard output and error; None when no resident answered (none runs, it died, it is not
    this user's, its answer is no answer), and the caller runs the command itself."""
    if not enabled() or not os.path.isdir(vault):
        return None
    where = address(os.path.realpath(vault))
    if where is None or not os.path.exists(where):
        return None
    question = {"argv": argv, "cwd": os.getcwd()}
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(CONNECT_SECONDS)
            connection.connect(str(where))
            if not same_user(connection):
                return None
            connection.settimeout(ANSWER_SECONDS)
            connection.sendall(json.dumps(question).encode())
            connection.shutdown(socket.SHUT_WR)
            received = _read_all(connection)
        answer = json.loads(received)
    except (OSError, ValueError):  # refused (a resident killed), timed out, reset, cut short: run here
        return None
    if not isinstance(answer, dict):
        return None
    code, out, err = answer.get("code"), answer.get("out"), answer.get("err")
    if not isinstance(code, int) or not isinstance(out, str) or not isinstance(err, str):
        return None
    return code, out, err


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
