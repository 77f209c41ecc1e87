"""The resident process: a search as a new process hands its question to the vault's resident, which
keeps the vault loaded, sees edits, answers only this user, and is passed over when it is dead or
its folder is not this user's alone. Each test starts real residents in a folder of its own; they
leave after a few idle seconds."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from curator.cli import resident as client
from curator.cli.main import main
from curator.cli.resident import READY, address, live_residents, runtime_folder
from curator.core.curate.suggestions import load_suggestions
from curator.mcp.memory import Memory

IDLE = "4"  # seconds: every resident a test starts is gone soon after it


@pytest.fixture
def resident_on(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    # As short as a real runtime folder: a socket's path holds at most 107 bytes, and one under
    # tmp_path grows with pytest's run number and the test's name.
    runtime = Path(tempfile.mkdtemp(prefix="curator-rt-"))  # mode 0700
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.setenv("CURATOR_RESIDENT", "1")
    monkeypatch.setenv("CURATOR_RESIDENT_IDLE", IDLE)
    yield runtime
    shutil.rmtree(runtime, ignore_errors=True)


def _searched(capsys: pytest.CaptureFixture[str], vault: Path, *words: str) -> dict[str, object]:
    assert main(["search", str(vault), *words, "--json"]) == 0
    document: dict[str, object] = json.loads(capsys.readouterr().out)
    return document


def _wait_for(test: object, seconds: float = 90.0) -> None:
    deadline = time.monotonic() + seconds
    while not test():  # type: ignore[operator]
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.2)


def _search(vault: Path, words: str) -> tuple[int, str, str] | None:
    return client.run(["search", str(vault), *words.split(), "--json"], str(vault))


def test_a_later_search_is_answered_by_the_resident_with_the_vault_as_it_is_now(
    resident_on: Path, sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = address(os.path.realpath(sample_vault))
    assert where is not None and not where.exists()
    here = _searched(capsys, sample_vault, "certificate", "renewal")  # answered here; starts the resident
    _wait_for(where.exists)
    there = _search(sample_vault, "certificate renewal")
    assert there is not None and there[0] == 0 and json.loads(there[1]) == here
    assert _searched(capsys, sample_vault, "certificate", "renewal") == here  # the command takes its answer

    (sample_vault / "Quokka.md").write_text("# Quokka\n\nThe quokka census runs every spring.\n")
    answer = _search(sample_vault, "quokka census")
    assert answer is not None and json.loads(answer[1])["hits"][0]["path"] == "Quokka.md"

    too_long = _search(sample_vault, "x" * 1_001)
    assert too_long is not None and too_long[0] == 2 and too_long[2].count("\n") == 1
    assert "at most 1,000" in too_long[2]
    # Only its own vault, and only commands it may run: the caller runs the rest itself.
    assert client.run(["search", "/", "certificate"], str(sample_vault)) is None
    assert client.run(["lint", str(sample_vault)], str(sample_vault)) is None
    _wait_for(lambda: not where.exists(), 30.0)  # idle: it leaves and takes its socket along


def test_remember_through_the_resident_decides_as_the_command_does(
    resident_on: Path, sample_vault: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    twin = tmp_path / "twin"
    shutil.copytree(sample_vault, twin)
    memory = "TLS certificates on the payment gateways now renew themselves through ACME."
    os.environ["CURATOR_RESIDENT"] = "0"
    assert main(["remember", str(twin), memory]) == 0
    alone = capsys.readouterr().out
    os.environ["CURATOR_RESIDENT"] = "1"
    where = address(os.path.realpath(sample_vault))
    assert where is not None
    _searched(capsys, sample_vault, "certificate")
    _wait_for(where.exists)
    answered = client.run(["remember", str(sample_vault), memory], str(sample_vault))
    assert answered is not None and answered[0] == 0
    assert answered[1].splitlines()[0] == alone.splitlines()[0]  # the same decision, for the same reason
    assert "queued as suggestion" in answered[1]
    assert len(load_suggestions(sample_vault)) == len(load_suggestions(twin))
    # A memory on standard input is read by the command, not handed on.
    assert client.run(["remember", str(sample_vault), "-"], str(sample_vault)) is None

    before = {p: p.read_bytes() for p in sample_vault.rglob("*.md")}
    fact = "The quokka census of the Rottnest Island rangers runs every spring."
    mask = os.umask(0o077)  # the caller's: a page written for it is its alone, as in its own process
    try:
        applied = client.run(["remember", str(sample_vault), fact, "--apply"], str(sample_vault))
    finally:
        os.umask(mask)
    added = set(sample_vault.rglob("*.md")) - set(before)
    assert added and all(p.stat().st_mode & 0o077 == 0 for p in added)
    assert applied is not None and applied[0] == 0 and "applied as change" in applied[1], applied
    change = applied[1].split("applied as change ")[1].split()[0]
    assert {p: p.read_bytes() for p in sample_vault.rglob("*.md")} != before
    assert main(["undo", str(sample_vault), change]) == 0  # journaled like any change: undone on its own
    assert {p: p.read_bytes() for p in sample_vault.rglob("*.md")} == before
    _wait_for(lambda: not where.exists(), 30.0)


def test_a_dead_residents_socket_is_passed_over(
    resident_on: Path, sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = address(os.path.realpath(sample_vault))
    assert where is not None
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(where))  # what a resident killed with -9 leaves: a socket nobody listens on
    dead.close()
    assert _search(sample_vault, "certificate") is None
    assert _searched(capsys, sample_vault, "certificate")["hits"]
    _wait_for(lambda: _search(sample_vault, "certificate") is not None)
    _wait_for(lambda: not where.exists(), 30.0)


def test_a_folder_others_can_enter_holds_no_resident(
    resident_on: Path, sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shared = resident_on / "curator"
    shared.mkdir(mode=0o700)
    shared.chmod(0o777)  # someone else could plant a socket here and answer our searches
    assert address(os.path.realpath(sample_vault)) is None
    assert _searched(capsys, sample_vault, "certificate")["hits"]
    time.sleep(3)
    assert list(shared.iterdir()) == []


def test_the_users_own_settings_changed_since_are_read_again(sample_vault: Path, own_user_config: Path) -> None:
    memory = Memory(sample_vault, recovering=False)
    assert memory.vault().config.search_bm25_weight == 1.0
    (own_user_config / "config.toml").write_text("[search]\nbm25_weight = 2.5\n")  # or `curator trust` there
    assert memory.vault().config.search_bm25_weight == 2.5


def _fake_resident(where: Path, ready: bool) -> threading.Thread:
    """A resident that takes one command line and then either never says it is ready (stopped,
    or busy), or says ready, is told to go, and dies before it answers (killed with -9)."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(where))
    listener.listen(1)

    def take_one() -> None:
        connection, _ = listener.accept()
        connection.recv(1 << 16)
        if ready:
            connection.sendall(READY)
        while connection.recv(1 << 16):  # until the caller closes
            pass
        connection.close()
        listener.close()

    thread = threading.Thread(target=take_one)
    thread.start()
    return thread


def _files(vault: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in vault.rglob("*") if p.is_file()}


def test_a_memory_a_resident_took_is_never_run_twice(
    resident_on: Path, sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = address(os.path.realpath(sample_vault))
    assert where is not None
    before = _files(sample_vault)
    thread = _fake_resident(where, ready=True)
    assert main(["remember", str(sample_vault), "The quokka census runs every spring.", "--apply"]) == 2
    thread.join()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "gave no answer" in err and "curator history" in err
    assert _files(sample_vault) == before  # not run here as well
    where.unlink()
    thread = _fake_resident(where, ready=True)  # a search writes nothing: it is answered here instead
    assert main(["search", str(sample_vault), "certificate"]) == 0
    thread.join()
    assert "Certificate renewal" in capsys.readouterr().out


def test_a_resident_that_never_says_ready_is_passed_over(
    resident_on: Path, sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Stopped (kill -STOP) or busy with another command: the command runs here within seconds,
    and the resident, when it wakes, finds nobody to say go and runs nothing."""
    where = address(os.path.realpath(sample_vault))
    assert where is not None
    thread = _fake_resident(where, ready=False)
    started = time.monotonic()
    assert main(["remember", str(sample_vault), "The quokka census runs every spring.", "--apply"]) == 0
    assert time.monotonic() - started < 60
    thread.join()
    assert "applied as change" in capsys.readouterr().out


def test_an_answer_is_held_to_what_the_command_could_print(resident_on: Path) -> None:
    steering = {"code": 0, "out": "\x1b]0;title\x07hits\n", "err": ""}
    assert client._answered(steering) == (0, "\\x1b]0;title\\x07hits\n", "")
    for code in (256, -1, True, "0"):
        assert client._answered({"code": code, "out": "", "err": ""}) is None


def test_no_more_residents_start_than_the_cap(resident_on: Path, sample_vault: Path, tmp_path: Path) -> None:
    folder = runtime_folder()
    assert folder is not None
    held = []
    for n in range(client.MAX_RESIDENTS):
        descriptor = os.open(folder / f"other{n}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(descriptor, fcntl.LOCK_EX)  # as a running resident holds its lock
        held.append(descriptor)
    (folder / "dead.lock").touch()  # a killed one's: not counted
    assert live_residents(folder) == client.MAX_RESIDENTS
    client.start(str(sample_vault))
    time.sleep(5)
    where = address(os.path.realpath(sample_vault))
    assert where is not None and not where.exists()
    for descriptor in held:
        os.close(descriptor)


def test_json_output_escapes_what_json_leaves_raw(capsys: pytest.CaptureFixture[str]) -> None:
    """DEL and the C1 controls (0x9b steers a terminal as ESC [ does) stand escaped in JSON, so
    the output is still JSON after the resident's answer is held to what a terminal may show."""
    from curator.cli.output import emit_json

    emit_json({"snippet": "is \x9b31m red and \x7f gone, «kept»"})
    out = capsys.readouterr().out
    assert "\x9b" not in out and "\x7f" not in out and "«kept»" in out
    assert json.loads(out)["snippet"] == "is \x9b31m red and \x7f gone, «kept»"
    assert client._answered({"code": 0, "out": out, "err": ""}) == (0, out, "")
