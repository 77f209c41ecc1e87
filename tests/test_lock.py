"""One writer at a time: real processes race on one vault, a git index lock, a stale plan."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import make_vault

from curator.cli.main import main
from curator.core.dream import accept, dream
from curator.core.errors import VaultBusy
from curator.core.lock import vault_lock
from curator.core.vault import load_vault


def curator(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "curator", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def dead_links(root: Path) -> int:
    out = subprocess.run(
        [sys.executable, "-m", "curator", "lint", "--format", "json", "--no-cache", "--select", "dead-link", str(root)],
        capture_output=True,
        text=True,
    )
    return int(json.loads(out.stdout)["summary"]["by_rule"].get("dead-link", 0))


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*.md")}


def test_two_processes_renaming_at_once_lose_no_link_and_undo_to_the_start(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        f"notes/n{i:03}.md": f"Note {i} links [[Hub]] and, in the same line, [[Other]].\n" for i in range(400)
    }
    files["Hub.md"] = "The hub.\n"
    files["Other.md"] = "The other hub.\n"
    root = make_vault(tmp_path / "v", files)
    start = snapshot(root)
    first = curator("rename", str(root), "Hub", "Hub Renamed")
    second = curator("rename", str(root), "Other", "Other Renamed")
    for proc in (first, second):
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    assert dead_links(root) == 0
    text = (root / "notes/n007.md").read_text()
    assert "[[Hub Renamed]]" in text and "[[Other Renamed]]" in text
    ids = [
        line.split()[0]
        for line in subprocess.check_output(
            [sys.executable, "-m", "curator", "history", str(root)], text=True
        ).splitlines()
        if line and not line.startswith(" ")
    ]
    assert len(ids) == 2
    undos = [curator("undo", str(root), change) for change in ids]  # both at once, in either order
    for proc in undos:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    assert snapshot(root) == start


def test_a_second_writer_waits_and_then_gives_up_with_one_line(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "[[b]]\n", "b.md": "b\n"})
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\nfrom pathlib import Path\nfrom curator.core.lock import vault_lock\n"
            f"with vault_lock(Path({str(root)!r})):\n    print('held', flush=True)\n    time.sleep(3)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    said: list[str] = []
    started = time.monotonic()
    with (
        pytest.raises(VaultBusy, match=r"gave up after 0 s: pid \d+"),
        vault_lock(root, timeout=0.3, on_wait=said.append),
    ):
        pass
    assert time.monotonic() - started < 2
    assert len(said) == 1 and "waiting for pid" in said[0]
    with vault_lock(root, timeout=10):  # once the holder is done, the lock is free
        pass
    holder.wait(timeout=10)


def test_a_locked_git_index_leaves_the_change_applied_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "See [[b]].\n", "b.md": "B.\n"})
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "."], check=True)
    subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start"], check=True
    )
    (root / ".git" / "index.lock").write_text("")
    assert main(["rename", str(root), "b", "c"]) == 0
    _, err = capsys.readouterr()
    (line,) = err.splitlines()
    assert "applied but not committed" in line and "index.lock" in line
    assert main(["history", str(root)]) == 0  # a later command keeps the change: nothing rolled back
    out, _ = capsys.readouterr()
    assert "not committed" in out
    assert (root / "c.md").exists() and "[[c]]" in (root / "a.md").read_text()


def test_accepting_one_suggestion_after_another_plans_each_against_the_vault_as_it_is(sample_vault: Path) -> None:
    vault = load_vault(sample_vault)
    result = dream(vault)
    first, second = result.proposed[:2]
    accept(vault, first.id)
    _, entry = accept(vault, second.id)  # `vault` is stale now: the accept reloads under the lock
    assert entry.state == "applied"
