"""The resident: `python -m curator.resident.server VAULT` keeps the vault loaded (the MCP server's
`Memory`, which reads again only what changed) and runs the commands handed to it on its socket
(`search`, `remember`: curator.cli.main's own code, against the vault it holds), one at a time,
until nobody has asked for `idle_seconds()`. Started by client.start; nobody else needs to."""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
import signal
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from curator.resident import MAX_MESSAGE, address, idle_seconds, same_user

if TYPE_CHECKING:
    from curator.mcp.memory import Memory

READ_SECONDS = 5.0  # for a question to arrive whole once a client connected


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m curator.resident.server VAULT", file=sys.stderr)
        return 2
    root = os.path.realpath(argv[0])
    where = address(root)
    if where is None or not os.path.isdir(root):
        return 2
    lock = os.open(where.with_suffix(".lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return 0  # another resident of this vault runs or is starting
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(0))  # `kill`: it leaves, its socket with it
    try:
        serve(root, where)
    finally:
        os.close(lock)
    return 0


def serve(root: str, where: Path) -> None:
    """Load the vault, listen at `where` (a socket left by a resident that died goes: the lock says
    none runs), and answer until idle, or until the vault or the socket is gone."""
    from curator.core.meaning.search import search
    from curator.mcp.memory import Memory

    memory = Memory(root, recovering=False)  # a command that writes settles what a change left, as it does anyway
    vault = memory.vault()
    if vault.pages:  # warm: the word index opened, the model loaded and run once, the vectors stacked
        with contextlib.suppress(Exception):  # best effort: a title no search takes is no reason to stop
            search(vault, min(page.title for page in vault.pages.values())[:100], 1)
    memory.vault()  # the scan the file watches ask for once they are set up, done before a command waits for it
    with contextlib.suppress(FileNotFoundError):
        os.unlink(where)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old_mask = os.umask(0o177)
    try:
        listener.bind(str(where))
    finally:
        os.umask(old_mask)
    listener.listen(8)
    ours = os.stat(where).st_ino
    listener.settimeout(idle_seconds())
    stores = memory.meaning_stores()
    try:
        while True:
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                return
            with connection:
                if same_user(connection):
                    if memory.meaning_stores() != stores:  # `curator index` stored more pages since
                        memory.forget_meaning()
                    _answer(memory, connection)
                    stores = memory.meaning_stores()  # with what this search stored itself
            if not os.path.isdir(root) or _inode(where) != ours:
                return
    finally:
        listener.close()
        if _inode(where) == ours:
            os.unlink(where)


def _inode(path: Path) -> int | None:
    try:
        return os.stat(path, follow_symlinks=False).st_ino
    except OSError:
        return None


def _answer(memory: Memory, connection: socket.socket) -> None:
    """Read one command line, run it as the command line would, send its exit code and output.
    A command that is not the resident's (another command, another vault, a memory on standard
    input) is declined, and the caller runs it itself; so is a search that fails unexpectedly (the
    caller shows the error). A memory is never declined once it ran: it may have written."""
    from curator.cli import shared
    from curator.cli.main import RESIDENT_COMMANDS, build_parser, resident_refused, run_parsed
    from curator.core.common.errors import one_line
    from curator.resident.client import WRITING

    connection.settimeout(READ_SECONDS)
    try:
        received = b""
        while len(received) <= MAX_MESSAGE and (chunk := connection.recv(1 << 16)):
            received += chunk
        question = json.loads(received)
        argv, cwd = question["argv"], question["cwd"]
    except (OSError, ValueError, KeyError, TypeError):
        return _send(connection, {"declined": "no command line"})
    if not isinstance(argv, list) or not argv or not all(isinstance(part, str) for part in argv):
        return _send(connection, {"declined": "no command line"})
    if argv[0] not in RESIDENT_COMMANDS or not isinstance(cwd, str):
        return _send(connection, {"declined": "not a command a resident runs"})
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            parser = build_parser(argv[0])
            try:
                args = parser.parse_args(argv)
            except SystemExit as exc:  # a usage error: said on standard error, as the command says it
                code = exc.code if isinstance(exc.code, int) else 2
            else:
                args.vault = os.path.join(cwd, args.vault)
                if os.path.realpath(args.vault) != memory.real_root.as_posix() or resident_refused(args):
                    return _send(connection, {"declined": "another vault, or a memory on standard input"})
                with shared.holding(memory):
                    code = run_parsed(parser, args)
    except Exception as exc:  # a defect: where nothing was written, the caller runs it again and shows it
        if argv[0] not in WRITING:
            return _send(connection, {"declined": "failed"})
        code = 2
        err.write(f"curator: the vault's resident process failed ({type(exc).__name__}: {one_line(exc)})\n")
    return _send(connection, {"code": code, "out": out.getvalue(), "err": err.getvalue()})


def _send(connection: socket.socket, answer: dict[str, object]) -> None:
    with contextlib.suppress(OSError):
        connection.sendall(json.dumps(answer).encode())


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
