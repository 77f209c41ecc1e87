"""Another program writes while curator writes: its edit is never lost, and readers never see
half a change."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

import pytest
from edit_helpers import tree
from helpers import make_vault, saved_after_each_decision

import curator.core.change.journal as journal
from curator.core.change import files
from curator.core.change.changes import apply, history, pending, undo
from curator.core.change.edits import plan_rename
from curator.core.change.journal import Journal
from curator.core.common.errors import EditError, VaultBusy
from curator.core.read.loading import load_vault
from curator.core.state.lock import between_writes, vault_lock, writing

APPENDED = b"A line another program appended.\n"


def linked_vault(root: Path, pages: int) -> Path:
    files: dict[str, str | bytes] = {
        f"notes/n{i:03}.md": f"# Note {i}\n\nNote {i} links [[Hub]].\n" for i in range(pages)
    }
    files["Hub.md"] = "# Hub\n\nThe hub.\n"
    return make_vault(root, files)


def append(path: Path, line: bytes = APPENDED) -> None:
    with open(path, "ab") as handle:
        handle.write(line)


def old_copy_writer(
    root: Path, then: Callable[[Path, Path], None] | None = None
) -> tuple[Callable[[str], None], dict[str, Path]]:
    """A hook for `steps`: a program opens the page written second just before curator replaces
    it, and as the fourth is about to be replaced writes APPENDED into what it opened, by then
    the old copy; `then(page about to be replaced, page it opened)` runs next. The page it opened
    is in the dict, once opened."""
    opened: dict[str, Path] = {}
    handles: list[BinaryIO] = []
    writes = [0]

    def hook(step: str) -> None:
        what, path = step.split(" ", 1)
        if what != "write":
            return
        writes[0] += 1
        if writes[0] == 2:  # opened before its rename, as an appending program would
            opened[path] = root / path
            handles.append(open(root / path, "ab"))  # noqa: SIM115 - written to at a later step
        elif writes[0] == 4:  # written after curator replaced it and checked it once
            (handle,) = handles
            handle.write(APPENDED)
            handle.close()
            if then is not None:
                then(root / path, *opened.values())

    return hook, opened


@pytest.fixture
def steps() -> Iterator[Callable[[Callable[[str], None]], None]]:
    """Install a `before_step` hook for the test, the default one back afterwards."""

    def install(hook: Callable[[str], None]) -> None:
        journal.before_step = hook

    yield install
    journal.before_step = journal._no_step


def at_step(root: Path, kind: str, n: int, edit: Callable[[Path], None]) -> Callable[[str], None]:
    """A hook that, at the `n`-th step of `kind` (write, delete), edits the file that step is
    about to replace; the paths it edited are in `hook.edited`."""
    seen = [0]
    edited: list[str] = []

    def hook(step: str) -> None:
        what, path = step.split(" ", 1)
        if what == kind:
            seen[0] += 1
            if seen[0] == n:
                edit(root / path)
                edited.append(path)

    hook.edited = edited  # type: ignore[attr-defined]
    return hook


@pytest.mark.parametrize(("kind", "n"), [("write", 1), ("write", 3), ("write", 6), ("delete", 1)])
def test_a_page_edited_just_before_it_is_replaced_stops_the_rename(
    tmp_path: Path, steps: Callable[[Callable[[str], None]], None], kind: str, n: int
) -> None:
    root = linked_vault(tmp_path / "v", 6)
    original = tree(root)
    plan = plan_rename(load_vault(root, use_cache=False), "Hub", "Hub two")
    hook = at_step(root, kind, n, append)
    steps(hook)
    with pytest.raises(
        EditError, match=r"changed while the change was being written; nothing was changed, its edit kept"
    ):
        apply(root, plan)
    (edited,) = hook.edited  # type: ignore[attr-defined]
    expected = dict(original)
    expected[edited] = original.get(edited, b"") + APPENDED  # the other program's edit, byte for byte
    assert tree(root) == expected  # every page already written is back; no temporary left
    assert history(root) == []
    (entry,) = Journal(root).entries()
    assert entry.state == "rolled-back"


def test_an_undo_stops_when_a_page_is_edited_just_before_it_is_replaced(
    tmp_path: Path, steps: Callable[[Callable[[str], None]], None]
) -> None:
    root = linked_vault(tmp_path / "v", 6)
    original = tree(root)
    entry = apply(root, plan_rename(load_vault(root, use_cache=False), "Hub", "Hub two"))
    applied = tree(root)
    hook = at_step(root, "write", 4, append)
    steps(hook)
    with pytest.raises(
        EditError, match=r"changed while the undo was being written; nothing was changed, its edit kept"
    ):
        undo(root, entry.id)
    (edited,) = hook.edited  # type: ignore[attr-defined]
    assert tree(root) == {**applied, edited: applied[edited] + APPENDED}
    assert [(e.id, e.state) for e in history(root)] == [(entry.id, "applied")]
    steps(journal._no_step)
    undo(root, entry.id)  # and it undoes afterwards, the appended line kept
    assert tree(root) == {**original, edited: original[edited] + APPENDED}


def test_a_page_edited_after_curator_wrote_it_keeps_that_edit_when_the_change_stops(
    tmp_path: Path, steps: Callable[[Callable[[str], None]], None]
) -> None:
    root = linked_vault(tmp_path / "v", 6)
    original = tree(root)
    plan = plan_rename(load_vault(root, use_cache=False), "Hub", "Hub two")
    first = next(f.path for f in plan.changes if f.after is not None and f.before is not None)

    def edit_two(path: Path) -> None:
        append(root / first)  # already written by curator
        append(path)  # about to be

    hook = at_step(root, "write", 3, edit_two)
    steps(hook)
    with pytest.raises(EditError) as raised:
        apply(root, plan)
    (stopper,) = hook.edited  # type: ignore[attr-defined]
    assert stopper != first
    assert str(raised.value).startswith(f"{stopper} changed while the change was being written, and so did {first}")
    after = tree(root)
    assert after[stopper] == original[stopper] + APPENDED
    assert after[first].endswith(APPENDED) and b"[[Hub two]]" in after[first]  # left as it is
    assert {p: b for p, b in after.items() if p not in (first, stopper)} == {
        p: b for p, b in original.items() if p not in (first, stopper)
    }


APPENDER = """
import json, random, sys, time
from pathlib import Path
root, pages, seed = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
journal, done = root / ".curator" / "journal", root.parent / (root.name + ".done")
while not (journal.is_dir() and any(journal.glob("*.json"))) and not done.exists():
    time.sleep(0.001)  # until the journal entry is written: the pages are about to be
time.sleep(rng.uniform(0, 0.1))  # from before the first page is replaced to after the last
appended, after = [], 0
while after < 5:  # until the rename is done, then a few more
    after += done.exists()
    page, line = f"notes/n{rng.randrange(pages):03}.md", f"Appended {len(appended)} by {seed}.\\n"
    with open(root / page, "a") as handle:
        handle.write(line)
    appended.append((page, line))
    time.sleep(0.002)
print(json.dumps(appended))
"""


def test_every_line_appended_while_a_rename_is_written_survives(tmp_path: Path) -> None:
    """A real race: a rename of a page 300 pages link to, and another process appending to those
    pages while the rename is being written; each appended line must be there afterwards."""
    template = linked_vault(tmp_path / "template", 300)
    outcomes = {"applied": 0, "refused": 0}
    # 20 trials, and more (up to 60) until one met the race: on a fast machine a rename can be
    # written whole before the appender's first line.
    for trial in range(60):
        if trial >= 20 and outcomes["refused"]:
            break
        root = tmp_path / f"v{trial}"
        shutil.copytree(template, root)
        plan = plan_rename(load_vault(root, use_cache=False), "Hub", "Hub two")
        appender = subprocess.Popen(
            [sys.executable, "-c", APPENDER, str(root), "300", str(trial)], stdout=subprocess.PIPE, text=True
        )
        try:
            apply(root, plan)
            outcomes["applied"] += 1
            assert (root / "Hub two.md").exists()
        except EditError as error:
            outcomes["refused"] += 1
            assert "changed while" in str(error) or "changed since" in str(error), error
            assert (root / "Hub.md").exists() and not (root / "Hub two.md").exists()
        (tmp_path / f"v{trial}.done").touch()
        out, _ = appender.communicate(timeout=60)
        for page, line in json.loads(out):
            assert (root / page).read_text().count(line) == 1, (trial, page, line)
        assert not [p for p in tree(root) if p.endswith(".curator-tmp")]
    assert outcomes["refused"] > 0, outcomes


STOPPED_UNDO = """
import os, sys, time
from pathlib import Path
import curator.core.change.changes as changes
import curator.core.change.journal as journal
root, go, then = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[4]
count = [0]
def step(name):
    count[0] += 1
    if count[0] == 3:  # halfway through the undo's files
        print("stopped", flush=True)
        while not go.exists():
            time.sleep(0.01)
        if then == "die":
            os._exit(137)  # no cleanup: the undo is left half done
journal.before_step = step
changes.undo(root, sys.argv[3])
"""


def stop_an_undo(root: Path, change_id: str, go: Path, then: str) -> subprocess.Popen[str]:
    """Start undoing `change_id` in another process, stopped halfway through writing its files
    until `go` exists; then it goes on (`then="finish"`) or dies (`"die"`)."""
    writer = subprocess.Popen(
        [sys.executable, "-c", STOPPED_UNDO, str(root), str(go), change_id, then], stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None and writer.stdout.readline().strip() == "stopped"
    return writer


def lint_json(root: Path) -> list[dict[str, object]]:
    out = subprocess.run(
        [sys.executable, "-m", "curator", "lint", "--format", "json", "--no-cache", str(root)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode in (0, 1), out.stderr
    return list(json.loads(out.stdout)["findings"])


def test_lint_during_an_undo_waits_for_the_writer_and_never_calls_it_interrupted(tmp_path: Path) -> None:
    root = linked_vault(tmp_path / "v", 6)
    expected = lint_json(root)  # what the vault says once the undo is done: as it was before the rename
    entry = apply(root, plan_rename(load_vault(root, use_cache=False), "Hub", "Hub two"))
    go = tmp_path / "go"
    writer = stop_an_undo(root, entry.id, go, "finish")
    assert writing(root) == f"pid {writer.pid}"
    assert pending(root) == ([], None)  # its entry is `undoing`, and its writer is alive
    with pytest.raises(VaultBusy, match=rf"a change is being applied \(pid {writer.pid}\) and is not done"):
        between_writes(root, lambda: None, patience=0, timeout=0.2)
    lint = subprocess.Popen(
        [sys.executable, "-m", "curator", "lint", "--format", "json", "--no-cache", str(root)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert lint.stderr is not None
    said = lint.stderr.readline()
    assert said.startswith(f"curator: a change is being applied (pid {writer.pid}); waiting for it"), said
    go.touch()
    out, err = lint.communicate(timeout=60)
    assert writer.wait(timeout=60) == 0
    assert lint.returncode in (0, 1), err
    assert "interrupted" not in said + err
    assert json.loads(out)["findings"] == expected  # the undo whole, not half of it


def test_a_writer_that_died_mid_undo_is_called_interrupted(tmp_path: Path) -> None:
    root = linked_vault(tmp_path / "v", 6)
    entry = apply(root, plan_rename(load_vault(root, use_cache=False), "Hub", "Hub two"))
    go = tmp_path / "go"
    writer = stop_an_undo(root, entry.id, go, "die")
    go.touch()
    assert writer.wait(timeout=60) == 137
    assert writing(root) is None
    assert pending(root) == ([entry.id], None)
    out = subprocess.run(
        [sys.executable, "-m", "curator", "lint", "--no-cache", str(root)], capture_output=True, text=True, check=False
    )
    assert f"change {entry.id} was interrupted" in out.stderr
    assert "being applied" not in out.stderr


def test_a_read_while_a_writer_took_the_lock_is_read_again(tmp_path: Path) -> None:
    root = linked_vault(tmp_path / "v", 2)
    reads: list[int] = []

    def read() -> int:
        reads.append(len(reads))
        if len(reads) == 1:
            with vault_lock(root):  # a writer comes and goes while the vault is being read
                pass
        return reads[-1]

    assert between_writes(root, read) == 1
    assert reads == [0, 1]


def test_the_rename_command_says_so_in_one_line_and_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Another program writing a page of every plan of the rename: planned PLANS times, then one line."""
    import curator.core.change.changes as changes
    from curator.cli.main import main

    root = linked_vault(tmp_path / "v", 6)
    original = tree(root)
    applied = changes._apply
    tries = []

    def written_meanwhile(at: Path, plan: object, allow_dirty: bool) -> object:
        tries.append(plan)
        append(at / "notes/n002.md")
        return applied(at, plan, allow_dirty)  # type: ignore[arg-type]

    monkeypatch.setattr(changes, "_apply", written_meanwhile)
    assert main(["rename", str(root), "Hub", "Hub two"]) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "changed since the change was planned; nothing was changed" in err, err
    assert out == "" and len(tries) == changes.PLANS
    assert (root / "notes/n002.md").read_bytes() == original["notes/n002.md"] + changes.PLANS * APPENDED
    assert [p for p, data in tree(root).items() if data != original.get(p)] == ["notes/n002.md"]


def test_a_rename_that_meets_one_write_is_planned_again_and_keeps_it(
    tmp_path: Path, steps: Callable[[Callable[[str], None]], None], capsys: pytest.CaptureFixture[str]
) -> None:
    from curator.cli.main import main

    root = linked_vault(tmp_path / "v", 6)
    hook = at_step(root, "write", 3, append)
    steps(hook)
    assert main(["rename", str(root), "Hub", "Hub two"]) == 0
    assert "Rename Hub.md to Hub two.md" in capsys.readouterr().out
    (edited,) = hook.edited  # type: ignore[attr-defined]
    assert (root / edited).read_bytes().endswith(APPENDED)
    assert not (root / "Hub.md").exists() and (root / "Hub two.md").exists()


@pytest.mark.parametrize("n", [1, 4])
def test_an_edit_between_the_last_check_and_the_rename_is_taken_back_from_the_old_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, n: int
) -> None:
    """The edit lands in the file curator has just checked, as it renames the new one over it."""
    root = linked_vault(tmp_path / "v", 6)
    original = tree(root)
    plan = plan_rename(load_vault(root, use_cache=False), "Hub", "Hub two")
    hold, seen, edited = files._hold, [0], []

    def hold_then_edit(reads, path, full, expected, written, held):  # type: ignore[no-untyped-def]
        hold(reads, path, full, expected, written, held)
        if expected is not None and not path.startswith("Hub"):
            seen[0] += 1
            if seen[0] == n:
                append(full)
                edited.append(path)

    monkeypatch.setattr(files, "_hold", hold_then_edit)
    with pytest.raises(
        EditError, match=r"changed while the change was being written; nothing was changed, its edit kept"
    ):
        apply(root, plan)
    (path,) = edited
    assert tree(root) == {**original, path: original[path] + APPENDED}
    assert history(root) == []


def test_a_write_into_a_replaced_page_s_old_copy_later_in_the_change_is_kept(
    tmp_path: Path, steps: Callable[[Callable[[str], None]], None]
) -> None:
    """A program opens a page just before curator replaces it and writes a moment later, while
    curator writes other pages: the line lands in the old copy, and is found there at the end."""
    root = linked_vault(tmp_path / "v", 6)
    original = tree(root)
    plan = plan_rename(load_vault(root, use_cache=False), "Hub", "Hub two")
    hook, opened = old_copy_writer(root)
    steps(hook)
    with pytest.raises(EditError, match="changed while the change was being written"):
        apply(root, plan)
    (page,) = opened
    assert tree(root) == {**original, page: original[page] + APPENDED}


def test_a_write_into_an_old_copy_is_kept_when_another_page_stops_the_change(
    tmp_path: Path, steps: Callable[[Callable[[str], None]], None]
) -> None:
    """The old copy of a page replaced early holds another program's line when a page later in
    the change is found edited: the change is taken back, and both programs' lines stay."""
    root = linked_vault(tmp_path / "v", 6)
    original = tree(root)
    plan = plan_rename(load_vault(root, use_cache=False), "Hub", "Hub two")
    edited: list[str] = []

    def edit_the_next(page: Path, _opened: Path) -> None:
        append(page)
        edited.append(page.relative_to(root).as_posix())

    hook, opened = old_copy_writer(root, edit_the_next)
    steps(hook)
    with pytest.raises(EditError, match="changed while the change was being written"):
        apply(root, plan)
    ((page,), (stopper,)) = opened, edited
    assert tree(root) == {**original, page: original[page] + APPENDED, stopper: original[stopper] + APPENDED}
    assert history(root) == []


@pytest.mark.parametrize("second", ["appends", "rewrites"])
def test_two_programs_writing_a_page_as_it_is_replaced_keep_both_edits(
    tmp_path: Path, steps: Callable[[Callable[[str], None]], None], second: str
) -> None:
    """One program writes into a page's old copy (it opened the page before curator replaced it),
    another into the new file: the change is taken back, and neither program's text is lost."""
    root = linked_vault(tmp_path / "v", 6)
    original = tree(root)
    plan = plan_rename(load_vault(root, use_cache=False), "Hub", "Hub two")
    other = b"Another program's own text.\n"

    def write_the_new_file(_next: Path, page: Path) -> None:
        if second == "appends":
            append(page, other)
        else:
            page.write_bytes(other)

    hook, opened = old_copy_writer(root, write_the_new_file)
    steps(hook)
    with pytest.raises(EditError, match="changed while the change was being written") as raised:
        apply(root, plan)
    (page,) = opened
    after = tree(root)
    assert {p: b for p, b in after.items() if p != page} == {p: b for p, b in original.items() if p != page}
    if second == "appends":  # both appended: the page as it was, then each program's line
        assert after[page] == original[page] + APPENDED + other
    else:  # the second rewrote the page: it keeps that, and the first's text is kept in the journal
        assert after[page] == other
        assert "kept as .curator/journal/kept/" in str(raised.value)
        (copy,) = (root / ".curator" / "journal" / "kept").iterdir()
        assert copy.read_bytes() == original[page] + APPENDED


def _planned_then_written(root: Path, writes: int) -> Callable[[object], object]:
    """A planner of a rename after which another program writes Start.md, the first `writes` times."""
    made = []

    def make_plan(vault: object) -> object:
        plan = plan_rename(vault, "Start", "Beginning")  # type: ignore[arg-type]
        made.append(plan)
        if len(made) <= writes:
            with (root / "Start.md").open("a") as page:
                page.write(f"Autosave {len(made)}.\n")
        return plan

    return make_plan


def test_a_page_written_after_the_plan_is_planned_again_and_then_applied(tmp_path: Path) -> None:
    """An attacker's: an editor saving a page as a change was planned made every `remember
    --apply` fail; a change is planned again against what the other program wrote."""
    from curator.core.change.changes import plan_and_apply

    root = make_vault(tmp_path / "v", {"Start.md": "# Start\n\nSee [[Other]].\n", "Other.md": "# Other\n\n[[Start]]\n"})
    _, entry = plan_and_apply(root, _planned_then_written(root, writes=1))  # type: ignore[arg-type]
    assert entry.state == "applied"
    assert "Autosave 1." in (root / "Beginning.md").read_text()
    assert "[[Beginning]]" in (root / "Other.md").read_text()


def test_a_page_written_after_every_plan_leaves_the_vault_as_the_other_program_wrote_it(tmp_path: Path) -> None:
    from curator.core.change.changes import PLANS, WrittenMeanwhile, plan_and_apply

    root = make_vault(tmp_path / "v", {"Start.md": "# Start\n\nSee [[Other]].\n", "Other.md": "# Other\n\n[[Start]]\n"})
    with pytest.raises(WrittenMeanwhile, match="changed since the change was planned"):
        plan_and_apply(root, _planned_then_written(root, writes=PLANS))  # type: ignore[arg-type]
    assert (root / "Start.md").read_text().endswith(f"Autosave {PLANS}.\n")
    assert not (root / "Beginning.md").exists()
    assert (root / "Other.md").read_text() == "# Other\n\n[[Start]]\n"


def test_a_memory_whose_page_keeps_changing_is_queued_not_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An attacker's 2 ms autosave loop: each `remember --apply` failed and the memory was gone."""
    from curator.cli.main import main

    root = make_vault(tmp_path / "v", {"Kitchen.md": "# Kitchen\n\nThe coffee machine is descaled every Friday.\n"})
    saved_after_each_decision(monkeypatch, root / "Kitchen.md")
    text = "The kitchen fridge is cleaned by the sales team every Monday."
    assert main(["remember", str(root), text, "--apply"]) == 0
    out, err = capsys.readouterr()
    assert "not applied: Kitchen.md changed since the change was planned" in err
    assert "queued as suggestion" in out
    assert text not in (root / "Kitchen.md").read_text()
    assert main(["suggestions", str(root)]) == 0
    assert "remember (merge-into)" in capsys.readouterr().out


def test_a_page_emptied_a_moment_ago_is_not_written_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An attacker's editor empties a page, then writes its text back through the same handle: a
    memory merged into the empty page in between took the page's place, and the editor's text was lost."""
    from curator.cli.main import main

    root = make_vault(tmp_path / "v", {"Immich.md": "", "Printer.md": "# Printer\n\nThe printer is upstairs.\n"})
    text = "Immich stores its thumbnails on the NVMe disk of the NAS."
    assert main(["remember", str(root), text, "--apply"]) == 0
    out, err = capsys.readouterr()
    assert "Immich.md is being saved" in err and "queued as suggestion" in out
    assert (root / "Immich.md").read_bytes() == b""
    os.utime(root / "Immich.md", (time.time() - 60, time.time() - 60))  # an empty page of long ago takes it
    assert main(["remember", str(root), text, "--apply"]) == 0
    assert text in (root / "Immich.md").read_text()


def test_a_page_removed_as_the_change_is_planned_has_it_planned_again(tmp_path: Path) -> None:
    from curator.core.change.changes import plan_and_apply

    root = make_vault(tmp_path / "v", {"Start.md": "# Start\n\nSee [[Other]].\n", "Other.md": "# Other\n\n[[Start]]\n"})
    tries = []

    def make_plan(vault: object) -> object:
        tries.append(1)
        if len(tries) == 1:
            raise FileNotFoundError(2, "No such file or directory", str(root / "Start.md"))
        return plan_rename(vault, "Start", "Beginning")  # type: ignore[arg-type]

    _, entry = plan_and_apply(root, make_plan)  # type: ignore[arg-type]
    assert entry.state == "applied" and len(tries) == 2 and (root / "Beginning.md").exists()
