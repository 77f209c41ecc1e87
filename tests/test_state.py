"""State under `.curator/` that someone else wrote is data: never recovered, committed, undone,
applied or trusted as a cache; state folders that are symlinks are refused; FIFOs never block."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import make_vault

from curator.core.change.changes import history
from curator.core.change.edits import FileChange
from curator.core.change.files import Reads, _inside, discard_temporaries, set_files
from curator.core.change.recovery import recover
from curator.core.check.lint import lint
from curator.core.common import atomic
from curator.core.common.errors import EditError

HAS_GIT = shutil.which("git") is not None
IDS = ("20260101-000000-aaaa", "20260101-000001-bbbb")


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The CLI in a subprocess: a command that would block on a FIFO fails the test by its timeout."""
    return subprocess.run(
        [sys.executable, "-m", "curator", *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=T", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def age(root: Path) -> None:
    then = time.time_ns() - 60 * 10**9
    for path in root.rglob("*.md"):
        os.utime(path, ns=(then, then))


def _entry(change_id: str, state: str, paths: list[str], **more: object) -> dict[str, object]:
    return {
        "format": 3,
        "id": change_id,
        "kind": "rename",
        "reason": "tidy",
        "time": 1.0,
        "state": state,
        "paths": paths,
        "moved": {},
        "details": {},
        "links_rewritten": 0,
        "created_dirs": [],
        "commit": "",
        "not_committed": "",
        "undo": None,
        **more,
    }


def _files(path: str, before: bytes, after: bytes) -> dict[str, object]:
    b64 = base64.b64encode
    return {"format": 3, "files": [{"path": path, "before": b64(before).decode(), "after": b64(after).decode()}]}


def plant_hostile_journal(root: Path, marker: Path, hook_config: bytes | None = None) -> None:
    """What a hostile repository commits: an `applying` entry whose "before" bytes of `.git/config`
    run a command through core.fsmonitor, and an `applied` one waiting to be committed."""
    journal = root / ".curator" / "journal"
    (journal / "files").mkdir(parents=True)
    config = hook_config or f'[core]\n\tfsmonitor = "touch {marker}"\n'.encode()
    first, second = IDS
    (journal / f"{first}.json").write_text(json.dumps(_entry(first, "applying", [".git/config"])))
    (journal / "files" / f"{first}.json").write_text(json.dumps(_files(".git/config", config, b"[core]\n")))
    (journal / f"{second}.json").write_text(
        json.dumps(_entry(second, "applied", ["a.md"], not_committed="git was busy"))
    )
    (journal / "files" / f"{second}.json").write_text(json.dumps(_files("a.md", b"", b"# A\n")))


@pytest.fixture
def hostile_clone(tmp_path: Path) -> tuple[Path, Path]:
    """A clone of a repository that commits a hostile journal; (the clone, the marker its hook would touch)."""
    if not HAS_GIT:
        pytest.skip("git is not installed")
    marker = tmp_path / "PWNED"
    origin = make_vault(tmp_path / "origin", {"a.md": "# A\n\n[[b]]\n", "b.md": "# B\n\nText about b and more.\n"})
    git(origin, "init", "-q")
    plant_hostile_journal(origin, marker)
    git(origin, "add", "-A", "-f")
    git(origin, "commit", "-qm", "notes")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    return clone, marker


def test_a_cloned_journal_is_never_recovered_or_committed(hostile_clone: tuple[Path, Path]) -> None:
    clone, marker = hostile_clone
    config = (clone / ".git" / "config").read_bytes()
    head = git(clone, "rev-parse", "HEAD")
    lines = recover(clone)
    assert lines == [
        "ignored 2 journal entries this curator did not write "
        f"(.curator/journal/{IDS[0]}.json, .curator/journal/{IDS[1]}.json); move them aside"
    ]
    assert (clone / ".git" / "config").read_bytes() == config
    git(clone, "status")  # what would run the hook, had the config been written
    assert not marker.exists()
    assert git(clone, "rev-parse", "HEAD") == head
    assert history(clone) == []


@pytest.mark.parametrize(
    "command",
    [
        ["history"],
        ["dream"],
        ["suggestions"],
        ["fix", "--dry-run"],
        ["remember", "Beta is written about at length."],
        ["lint"],
    ],
)
def test_no_command_acts_on_a_cloned_journal(hostile_clone: tuple[Path, Path], command: list[str]) -> None:
    clone, marker = hostile_clone
    config = (clone / ".git" / "config").read_bytes()
    done = cli(command[0], str(clone), *command[1:])
    assert "Traceback" not in done.stderr
    assert "ignored 2 journal entries this curator did not write" in done.stderr
    assert done.stderr.count("ignored 2 journal entries") == 1
    assert (clone / ".git" / "config").read_bytes() == config
    git(clone, "status")
    assert not marker.exists()


def test_an_entry_sealed_with_another_users_key_is_foreign(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_user_config: Path
) -> None:
    from curator.core.state import statefiles

    root = make_vault(tmp_path / "v", {"a.md": "# A\n"})
    plant_hostile_journal(root, tmp_path / "PWNED", b"[core]\n")
    monkeypatch.setenv("CURATOR_CONFIG_HOME", str(tmp_path / "someone-else"))
    for path in (root / ".curator" / "journal").rglob("*.json"):  # sealed by their curator
        path.write_bytes(b"".join(statefiles.seal(statefiles.label_of(path), [path.read_bytes()])))
    assert {e.id for e in history(root)} == set(IDS)  # theirs, as they see it
    monkeypatch.setenv("CURATOR_CONFIG_HOME", str(own_user_config))
    assert history(root) == []
    assert recover(root)[0].startswith("ignored 2 journal entries")
    assert not (root / ".git").exists()


def test_an_id_that_is_a_path_never_builds_one(tmp_path: Path) -> None:
    """An entry named `out/settings` with `journal/out` a symlink out of the vault: writing the
    entry back would have replaced a file there."""
    root = make_vault(tmp_path / "v", {"a.md": "# A\n"})
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "settings.json").write_text("mine")
    journal = root / ".curator" / "journal"
    (journal / "files").mkdir(parents=True)
    (journal / "out").symlink_to(outside)
    (journal / "x.json").write_text(json.dumps(_entry("out/settings", "applied", ["a.md"], not_committed="busy")))
    done = cli("history", str(root))
    assert done.returncode == 0, done.stderr
    assert "ignored 1 journal entry this curator did not write (.curator/journal/x.json)" in done.stderr
    assert os.listdir(outside) == ["settings.json"] and (outside / "settings.json").read_text() == "mine"


def test_created_dirs_and_temporaries_outside_the_vault_are_never_removed(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# A\n"})
    victim = tmp_path / "victim"
    (victim / "emptydir").mkdir(parents=True)
    stray = atomic._temporary_name(victim / "x.md")  # what a writer of victim/x.md would leave
    stray.write_text("theirs")
    set_files(root, [FileChange("a.md", b"# A\n", b"# A!\n")], ["../victim/emptydir", ".git", ""], Reads(root))
    discard_temporaries(root, ["../victim/x.md"])
    assert (victim / "emptydir").is_dir() and stray.exists()
    assert (root / "a.md").read_text() == "# A!\n"


def test_a_cloned_entry_naming_a_folder_outside_removes_nothing(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# A\n"})
    (tmp_path / "victim" / "emptydir").mkdir(parents=True)
    journal = root / ".curator" / "journal"
    (journal / "files").mkdir(parents=True)
    entry = _entry(IDS[0], "applying", ["new/a.md"], created_dirs=["../victim/emptydir", "new"])
    (journal / f"{IDS[0]}.json").write_text(json.dumps(entry))
    (journal / "files" / f"{IDS[0]}.json").write_text(json.dumps(_files("new/a.md", b"", b"x")))
    assert recover(root)[0].startswith("ignored 1 journal entry")
    assert (tmp_path / "victim" / "emptydir").is_dir()


@pytest.mark.parametrize("path", [".git/config", ".GIT/config", "sub/../.git/hooks/pre-commit", ".git. /x", "."])
def test_inside_refuses_the_git_folder_and_the_vault_itself(tmp_path: Path, path: str) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# A\n"})
    (root / ".git").mkdir()
    with pytest.raises(EditError, match=r"\.git folder|outside the vault"):
        _inside(root, path)


def test_inside_refuses_a_symlink_into_git_or_out_of_the_vault(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# A\n"})
    (root / ".git").mkdir()
    (root / "g").symlink_to(root / ".git")
    (root / "o").symlink_to(tmp_path)
    for path in ("g/config", "o/x.md"):
        with pytest.raises(EditError):
            _inside(root, path)
        with pytest.raises(EditError):
            _inside(root, path, {})


@pytest.mark.parametrize("folder", [".curator", ".curator/cache"])
def test_lint_refuses_a_symlinked_state_folder(tmp_path: Path, folder: str) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# A\n\n[[gone]]\n"})
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / folder).parent.mkdir(parents=True, exist_ok=True)
    (root / folder).symlink_to(outside)
    done = cli("lint", str(root))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "is a symbolic link" in done.stderr
    assert os.listdir(outside) == []


@pytest.mark.parametrize("folder", ["journal", "journal/files"])
def test_an_edit_refuses_a_symlinked_journal_folder(tmp_path: Path, folder: str) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# A\n\n[[b]]\n", "b.md": "# B\n"})
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / ".curator" / folder).parent.mkdir(parents=True, exist_ok=True)
    (root / ".curator" / folder).symlink_to(outside)
    done = cli("rename", str(root), "b", "c")
    assert done.returncode == 2 and "is a symbolic link" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert os.listdir(outside) == [] and (root / "b.md").exists()


def test_a_symlinked_lock_file_is_refused(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# A\n\n[[b]]\n", "b.md": "# B\n"})
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    (root / ".curator").mkdir()
    (root / ".curator" / "lock").symlink_to(victim)
    done = cli("rename", str(root), "b", "c")
    assert done.returncode == 2 and "not a regular file" in done.stderr, done.stderr
    assert victim.read_text() == "mine" and (root / "b.md").exists()


@pytest.mark.parametrize(
    ("fifo", "command"),
    [
        ("journal/x.json", ["history"]),
        (f"journal/{IDS[0]}.json", ["history"]),
        ("cache/lint.json", ["lint"]),
        ("cache/pages.json", ["lint"]),
        ("suggestions.json", ["suggestions"]),
        ("lock", ["rename", "b", "c"]),
    ],
)
def test_a_fifo_in_the_state_folder_never_blocks(tmp_path: Path, fifo: str, command: list[str]) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# A\n\n[[b]]\n", "b.md": "# B\n"})
    path = root / ".curator" / fifo
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    done = cli(command[0], str(root), *command[1:], timeout=60)
    assert "Traceback" not in done.stderr
    assert done.returncode in (0, 1, 2)


def test_a_crafted_lint_store_hides_no_finding(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# A\n\n[[gone]]\n"})
    age(root)
    assert [f.rule for f in lint(root).findings].count("dead-link") == 1
    store = root / ".curator" / "cache" / "lint.json"
    stored = json.loads(store.read_bytes())
    stored.pop("mac", None)
    stored["findings"] = []
    store.write_text(json.dumps(stored))
    assert [f.rule for f in lint(root).findings].count("dead-link") == 1


def test_a_crafted_page_store_hides_no_link(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# A\n\n[[gone]]\n", "b.md": "# B\n\n[[a]]\n"})
    age(root)
    lint(root)
    (root / ".curator" / "cache" / "lint.json").unlink()
    store = root / ".curator" / "cache" / "pages.json"
    stored = json.loads(store.read_bytes())
    stored.pop("mac", None)
    stored["pages"]["a.md"][6] = []  # its links: none, so no dead link
    store.write_text(json.dumps(stored))
    assert [f.rule for f in lint(root).findings].count("dead-link") == 1


def test_a_crafted_words_store_makes_no_duplicate(tmp_path: Path) -> None:
    prose = " ".join(f"word{i}" for i in range(60))  # sixty runs of its own
    other = " ".join(f"other{i}" for i in range(60))
    root = make_vault(tmp_path / "v", {"a.md": prose, "b.md": other})
    age(root)
    assert "duplicate" not in [f.rule for f in lint(root).findings]
    (root / ".curator" / "cache" / "lint.json").unlink()
    store = root / ".curator" / "cache" / "duplicate-reads.json"
    stored = json.loads(store.read_bytes())
    stored.pop("mac", None)
    stored["pages"]["b.md"][3] = stored["pages"]["a.md"][3]  # b "says" what a says
    store.write_text(json.dumps(stored))
    assert "duplicate" not in [f.rule for f in lint(root).findings]


def test_foreign_suggestions_are_neither_shown_nor_applied(tmp_path: Path) -> None:
    from curator.core.curate.suggestions import SCHEMA, load_suggestions

    root = make_vault(tmp_path / "v", {"a.md": "# A\n\n[[b]]\n", "b.md": "# B\n"})
    (root / ".curator").mkdir()
    planted = {
        "id": "0123456789",
        "kind": "rename",
        "pages": ["b.md"],
        "title": "c",
        "reason": "trust me",
        "evidence": {},
    }
    (root / ".curator" / "suggestions.json").write_text(json.dumps({"schema": SCHEMA, "suggestions": [planted]}))
    assert load_suggestions(root) == []
    done = cli("apply", str(root), "0123456789")
    assert done.returncode == 2 and "no suggestion" in done.stderr, done.stderr
    assert (root / "b.md").exists()


def test_state_written_here_is_sealed_and_read_back(tmp_path: Path, own_user_config: Path) -> None:
    from curator.core.curate.suggestions import Suggestion, load_suggestions, save_suggestions

    root = make_vault(tmp_path / "v", {"a.md": "# A\n"})
    suggestion = Suggestion("0123456789", "rename", ["a.md"], "b", "why", {})
    save_suggestions(root, [suggestion])
    assert load_suggestions(root) == [suggestion]
    assert (root / ".curator" / ".gitignore").read_text().endswith("*\n")
    key = own_user_config / "state.key"
    assert key.stat().st_mode & 0o777 == 0o600 and len(key.read_bytes()) == 32


def test_fifos_in_place_of_the_vector_stores_never_block(sample_vault: Path) -> None:
    assert cli("lint", "--select", "similar", str(sample_vault)).returncode in (0, 1)
    cache = sample_vault / ".curator" / "cache"
    binary = [p for p in cache.iterdir() if p.suffix in (".npy", ".npz")]
    assert binary
    for path in binary:
        path.unlink()
        os.mkfifo(path)
    (cache / "lint.json").unlink()
    done = cli("lint", "--select", "similar", str(sample_vault), timeout=120)
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr


def test_a_damaged_key_costs_the_cache_and_stops_the_journal(tmp_path: Path, own_user_config: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# A\n\n[[b]]\n", "b.md": "# B\n"})
    (own_user_config / "state.key").write_bytes(b"short")
    done = cli("lint", str(root))
    assert done.returncode == 0 and "is not a curator state key" in done.stderr, done.stderr
    done = cli("rename", str(root), "b", "c")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "move it aside" in done.stderr, done.stderr
    assert (root / "b.md").exists()


@pytest.mark.anyio
async def test_opening_a_cloned_vault_in_the_tui_runs_nothing(
    hostile_clone: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from helpers import settle

    from curator.tui.app import CuratorApp

    clone, marker = hostile_clone
    config = (clone / ".git" / "config").read_bytes()
    app = CuratorApp(clone)
    said: list[str] = []
    shown = app.notify

    def notify(message: str, **kwargs: object) -> None:
        said.append(message)
        shown(message, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(app, "notify", notify)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
    assert any(line.startswith("ignored 2 journal entries") for line in said), said
    assert (clone / ".git" / "config").read_bytes() == config
    git(clone, "status")
    assert not marker.exists()


def test_a_state_file_larger_than_curator_writes_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from curator.core.state import statefiles

    path = tmp_path / "lint.json"
    path.write_bytes(b"{}" + b" " * 100)
    assert statefiles.read_regular(path) is not None
    monkeypatch.setattr(statefiles, "MAX_STATE_BYTES", 64)
    assert statefiles.read_regular(path) is None  # a planted file is not read whole before its seal is checked


def test_a_cache_written_in_the_background_says_why_not_when_the_state_folder_is_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from curator.core.state.cache import write_in_background

    (tmp_path / ".curator").write_text("someone's file\n")
    raised: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: raised.append(args.exc_value))
    wait = write_in_background(tmp_path, "reads.json", [b"{}"])
    assert "is not a folder" in (wait() or "")
    assert raised == []  # one line from the caller, no thread's traceback
    assert (tmp_path / ".curator").read_text() == "someone's file\n"
