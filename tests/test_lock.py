"""One writer at a time: real processes race on one vault, a git index lock, a stale plan."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import make_vault

from curator.cli.main import main
from curator.core.common.errors import VaultBusy
from curator.core.curate.dream import accept, dream
from curator.core.read.loading import load_vault
from curator.core.state.lock import vault_lock


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
            "import sys, time\nfrom pathlib import Path\nfrom curator.core.state.lock import vault_lock\n"
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


def _git_vault(tmp_path: Path) -> Path:
    return _committed(make_vault(tmp_path / "v", {"a.md": "See [[b]].\n", "b.md": "B.\n", "c.md": "See [[b]] too.\n"}))


def _committed(root: Path) -> Path:
    """`root` as a git repository whose one commit holds every file."""
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "."], check=True)
    subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start"], check=True
    )
    return root


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout


def test_a_change_left_uncommitted_is_committed_by_the_next_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _git_vault(tmp_path)
    (root / ".git" / "index.lock").write_text("")
    assert main(["rename", str(root), "b", "d"]) == 0
    assert main(["history", str(root)]) == 0  # git is still locked: it says so again, and keeps the change
    assert "still not committed" in capsys.readouterr().err
    (root / ".git" / "index.lock").unlink()
    assert main(["history", str(root), "--json"]) == 0
    out, err = capsys.readouterr()
    assert "is committed now" in err
    assert json.loads(out)["changes"][0]["not_committed"] is None
    assert _git(root, "status", "--porcelain") == ""  # every file of the change is in the commit
    assert "Curator-Change: " in _git(root, "log", "-1", "--format=%B")
    assert _git(root, "show", "--name-only", "--format=", "HEAD").split() == ["a.md", "b.md", "c.md", "d.md"]
    assert main(["history", str(root)]) == 0
    assert capsys.readouterr().err == ""  # settled: nothing more to say


def test_an_uncommitted_change_edited_since_waits_for_the_user(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _git_vault(tmp_path)
    (root / ".git" / "index.lock").write_text("")
    assert main(["rename", str(root), "b", "d"]) == 0
    (root / ".git" / "index.lock").unlink()
    with open(root / "a.md", "a") as handle:
        handle.write("The user's own line.\n")
    head = _git(root, "rev-parse", "HEAD")
    assert main(["history", str(root)]) == 0
    assert "a.md changed since; commit by hand" in capsys.readouterr().err
    assert _git(root, "rev-parse", "HEAD") == head  # the user's line is never in curator's commit
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "by hand")
    assert main(["history", str(root)]) == 0
    assert "needs no commit any more" in capsys.readouterr().err
    assert main(["history", str(root)]) == 0
    assert capsys.readouterr().err == ""


def test_an_undo_left_uncommitted_is_committed_later(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _git_vault(tmp_path)
    assert main(["rename", str(root), "b", "d", "--json"]) == 0
    change = json.loads(capsys.readouterr().out)["id"]
    (root / ".git" / "index.lock").write_text("")
    assert main(["undo", str(root), change]) == 0
    assert "is written but not committed" in capsys.readouterr().err
    assert (root / "b.md").exists() and not (root / "d.md").exists()
    (root / ".git" / "index.lock").unlink()
    assert main(["history", str(root)]) == 0
    assert "undo of change" in capsys.readouterr().err
    assert _git(root, "status", "--porcelain") == ""
    assert _git(root, "log", "-1", "--format=%s") == "Undo: Rename b.md to d.md\n"


def _read_only(folder: Path) -> Callable[[], None]:
    """Make `folder` unwritable even for root (immutable), or skip; returns the call that undoes it."""
    if os.geteuid() != 0:
        paths = [folder, *folder.rglob("*")]
        for path in paths:
            path.chmod(path.stat().st_mode & ~0o222)
        return lambda: [path.chmod(path.stat().st_mode | 0o200) for path in paths] and None
    made = subprocess.run(["chattr", "-R", "+i", str(folder)], capture_output=True, check=False)
    if made.returncode != 0:
        pytest.skip("running as root where chattr cannot make a folder immutable")
    return lambda: subprocess.run(["chattr", "-R", "-i", str(folder)], check=True) and None


def test_a_read_only_git_folder_gives_one_line_and_a_consistent_vault(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _git_vault(tmp_path)
    writable = _read_only(root / ".git")
    try:
        assert main(["rename", str(root), "b", "d"]) == 0
        (line,) = capsys.readouterr().err.splitlines()
        assert "applied but not committed" in line
        assert "Traceback" not in line
        assert (root / "d.md").exists() and "[[d]]" in (root / "a.md").read_text()
        assert main(["history", str(root)]) == 0
        out, err = capsys.readouterr()
        assert "not committed" in out and "still not committed" in err
    finally:
        writable()
    assert main(["history", str(root)]) == 0
    assert "is committed now" in capsys.readouterr().err
    assert _git(root, "status", "--porcelain") == ""


def _history_ids(root: Path) -> list[str]:
    out = subprocess.check_output([sys.executable, "-m", "curator", "history", "--json", str(root)], text=True)
    return [change["id"] for change in json.loads(out)["changes"] if change["state"] == "applied"]


def _all_succeed(*procs: subprocess.Popen[str]) -> None:
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err


def test_merges_renames_and_undos_racing_end_where_they_started(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        f"notes/n{i:03}.md": f"Note {i}: [[Hub]], [[Other]] and [[Dup]] on one line.\n" for i in range(300)
    }
    files.update({"Hub.md": "The hub.\n", "Other.md": "# Other\n\nThe other page.\n", "Dup.md": "# Dup\n\nSame.\n"})
    root = make_vault(tmp_path / "v", files)
    start = snapshot(root)
    _all_succeed(curator("merge", str(root), "Dup", "Other"), curator("rename", str(root), "Hub", "Hub Renamed"))
    assert dead_links(root) == 0
    assert "[[Hub Renamed]]" in (root / "notes/n100.md").read_text() and not (root / "Dup.md").exists()
    merge_and_rename = _history_ids(root)
    assert len(merge_and_rename) == 2
    # Undos racing each other and a new change. An undo that comes after the rename of the page it
    # merged into is refused (both added to its aliases list), changing nothing; newest first, all undo.
    undos = [curator("undo", str(root), change) for change in merge_and_rename]
    _all_succeed(curator("rename", str(root), "Other", "Elsewhere"))
    for proc in undos:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0 or "undo refused, nothing was changed" in err, err
    assert dead_links(root) == 0
    for change in _history_ids(root):  # newest first
        _all_succeed(curator("undo", str(root), change))
    assert snapshot(root) == start


def test_a_change_git_never_took_is_undone_without_allow_dirty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its files differ from the last commit only by what the change wrote: that is no one's edit to guard."""
    root = _git_vault(tmp_path)
    (root / ".git" / "index.lock").write_text("")
    assert main(["rename", str(root), "b", "d"]) == 0
    change = json.loads(_history_json(root, capsys))["changes"][0]
    assert change["not_committed"]
    assert main(["undo", str(root), change["id"]]) == 0
    assert (root / "b.md").exists() and not (root / "d.md").exists()
    assert (root / "a.md").read_text() == "See [[b]].\n"
    other = _git_vault(tmp_path / "w")  # a person's edit on top of the change is still guarded
    (other / ".git" / "index.lock").write_text("")
    assert main(["rename", str(other), "b", "d"]) == 0
    (other / "a.md").write_text((other / "a.md").read_text() + "Edited by hand.\n")
    change = json.loads(_history_json(other, capsys))["changes"][0]["id"]
    assert main(["undo", str(other), change]) == 2
    assert "uncommitted changes in a.md" in capsys.readouterr().err
    assert "Edited by hand." in (other / "a.md").read_text()


def test_accepting_a_suggestion_git_does_not_take_says_so_at_once(
    sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _committed(sample_vault)
    first = dream(load_vault(sample_vault)).proposed[0]
    (sample_vault / ".git" / "index.lock").write_text("")
    capsys.readouterr()
    assert main(["apply", str(sample_vault), first.id]) == 0
    assert "applied but not committed" in capsys.readouterr().err


def _history_json(root: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["history", str(root), "--json"]) == 0
    return capsys.readouterr().out
