"""The resident: `python -m curator.resident VAULT` keeps the vault loaded (the MCP server's
`Memory`, which reads again only what changed) and runs the commands handed to it on its socket
(`search`, `remember`: curator.cli.main's own code, against the vault it holds), one at a time,
until nobody has asked for `idle_seconds()`. Started by curator/cli/resident.py `start`; nobody else needs to."""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from curator.cli.resident import GO, MAX_MESSAGE, READY, WRITING, address, idle_seconds, same_user

if TYPE_CHECKING:
    from curator.mcp.memory import Memory

READ_SECONDS = 5.0  # for a question to arrive whole once a client connected


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m curator.resident VAULT", file=sys.stderr)
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
    signal.signal(signal.SIGTERM, _leave)  # `kill`: it leaves, its socket with it
    try:
        serve(root, where)
    except Terminated:
        pass
    finally:
        os.close(lock)
    return 0


class Terminated(BaseException):
    """SIGTERM: neither an error nor an exit the warm-up's best effort swallows."""


def _leave(_signum: int, _frame: object) -> None:
    raise Terminated


def serve(root: str, where: Path) -> None:
    """Load the vault, listen at `where` (a socket left by a resident that died goes: the lock says
    none runs), and answer until idle, or until the vault or the socket is gone."""
    from curator.cli import shared
    from curator.cli.main import build_parser, run_parsed
    from curator.cli.output import diagnose
    from curator.mcp.memory import Memory

    # Its notes (a writer waited for) go to the command's stderr. A command that writes settles
    # what an interrupted change left, as it does anyway.
    memory = Memory(root, on_note=diagnose, recovering=False)
    vault = memory.vault()
    if vault.pages:  # warm: the command's code imported, the word index opened, the model run, the vectors stacked
        words = min(page.title for page in vault.pages.values())[:100]
        parser = build_parser("search")
        # Best effort: a title no search takes is no reason to stop.
        quiet = contextlib.redirect_stdout(io.StringIO())
        with contextlib.suppress(Exception, SystemExit), quiet, shared.holding(memory):
            run_parsed(parser, parser.parse_args(["search", root, "--limit", "1", "--", words]))
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
    # Between commands the model reads the pages it has not read, as behind the MCP server: until
    # it has, each search has it read the pages that search needs (seconds, and an order that can
    # change). What it stores takes in what `curator index` stored meanwhile.
    stop = threading.Event()
    reader = threading.Thread(target=memory.read_meaning, args=(stop,), name="curator-meaning")
    reader.start()
    try:
        while True:
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                return
            with connection:
                if same_user(connection):
                    _answer(memory, connection)
            if not os.path.isdir(root) or _inode(where) != ours:
                return
    finally:
        listener.close()
        if _inode(where) == ours:
            os.unlink(where)
        stop.set()
        reader.join()


def _inode(path: Path) -> int | None:
    try:
        return os.stat(path, follow_symlinks=False).st_ino
    except OSError:
        return None


def _answer(memory: Memory, connection: socket.socket) -> None:
    """Read one command line; say ready when it is this resident's to run (its commands, its
    vault, not a memory on standard input: else close, and the caller runs it itself); run it
    only when the caller says go, as the command line would; send its exit code and output. A
    search that fails unexpectedly gets no answer (the caller runs it and shows the error); a
    memory always gets one once it ran, as it may have written."""
    import argparse

    from curator.cli import shared
    from curator.cli.main import RESIDENT_COMMANDS, build_parser, resident_refused, run_parsed
    from curator.core.common.errors import one_line

    connection.settimeout(READ_SECONDS)
    try:
        question = json.loads(_line(connection, MAX_MESSAGE))
        argv, cwd, environ, umask = question["argv"], question["cwd"], question["environ"], question["umask"]
    except (OSError, ValueError, KeyError, TypeError):
        return
    if not isinstance(environ, dict) or not all(isinstance(v, str) for v in (*environ, *environ.values())):
        return
    if type(umask) is not int or not 0 <= umask <= 0o777:
        return
    if not isinstance(argv, list) or not argv or not all(isinstance(part, str) for part in argv):
        return
    if argv[0] not in RESIDENT_COMMANDS or not isinstance(cwd, str):
        return
    out, err = io.StringIO(), io.StringIO()
    parser = build_parser(argv[0])
    args: argparse.Namespace | None = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # a usage error: said on standard error, as the command says it
            code = exc.code if isinstance(exc.code, int) else 2
    if args is not None:
        args.vault = os.path.join(cwd, args.vault)
        if os.path.realpath(args.vault) != memory.real_root.as_posix() or resident_refused(args):
            return
    try:
        connection.sendall(READY)
        if _line(connection, len(GO)) != GO:
            return  # the caller gave up waiting (this resident was busy or stopped): it runs the command itself
    except OSError:
        return
    if args is not None:
        try:
            with (
                memory.turn,
                _as_caller(environ, umask),
                shared.holding(memory),
                contextlib.redirect_stdout(out),
                contextlib.redirect_stderr(err),
            ):
                code = run_parsed(parser, args)
        except Exception as exc:  # a defect: where nothing was written, the caller runs it again and shows it
            if argv[0] not in WRITING:
                return
            code = 2
            err.write(f"curator: the vault's resident process failed ({type(exc).__name__}: {one_line(exc)})\n")
    with contextlib.suppress(OSError):
        connection.sendall(json.dumps({"code": code, "out": out.getvalue(), "err": err.getvalue()}).encode())


@contextlib.contextmanager
def _as_caller(environ: dict[str, str], umask: int) -> Iterator[None]:
    """Within: the caller's environment (its time zone, git identity, PATH) and umask, as the
    command would have had them in its own process."""
    saved, saved_mask = dict(os.environ), os.umask(umask)
    os.environ.clear()
    os.environ.update(environ)
    time.tzset()
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
        os.umask(saved_mask)
        time.tzset()


def _line(connection: socket.socket, limit: int) -> bytes:
    """Bytes up to and with the first newline (at most `limit`), or what came before the caller closed."""
    received = b""
    while not received.endswith(b"\n") and len(received) <= limit:
        chunk = connection.recv(min(1 << 16, limit + 1 - len(received)))
        if not chunk:
            break
        received += chunk
    return received


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
