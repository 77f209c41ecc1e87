"""Journal and undo: per-change undo, later edits kept, conflicts refused, crashes rolled back."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from edit_helpers import folders, merge, rename, tree, undo_refused
from helpers import make_vault

from curator.core.change.changes import apply, history, undo
from curator.core.change.edits import plan_rename
from curator.core.change.merging import plan_merge
from curator.core.change.recovery import recover
from curator.core.common.errors import EditError
from curator.core.read.loading import load_vault

FILES: dict[str, str | bytes] = {
    "Home.md": "# Home\n\nSee [[Alpha]].\n\nAnd [[Beta]] too.\n\nLast line.\n",
    "Alpha.md": "---\ntype: topic\n---\n# Alpha\n\nAbout alpha, linking [[Beta]].\n",
    "Beta.md": "# Beta\n\nAbout beta.\n",
    "Gamma.md": "# Gamma\n\nGamma repeats beta.\n\nAbout beta.\n",
}


def test_undo_one_change_leaves_the_others(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", FILES)
    original = tree(root)
    first = rename(root, "Alpha", "sub/Alpha one")
    second = rename(root, "Beta", "Beta two")
    assert [e.id for e in history(root)] == [second.id, first.id]
    undo(root, first.id)
    assert (root / "Alpha.md").exists() and not (root / "sub").exists()
    assert (root / "Beta two.md").exists()
    assert "[[Beta two]]" in (root / "Alpha.md").read_text()  # the later change's edit survives
    assert (root / "Home.md").read_text() == FILES["Home.md"].replace("[[Beta]]", "[[Beta two]]")
    undo(root, second.id)
    assert tree(root) == original
    assert folders(root) == set()


def test_undoing_twice_is_an_error_not_damage(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", FILES)
    entry = rename(root, "Alpha", "Alpha one")
    undo(root, entry.id)
    after = tree(root)
    with pytest.raises(EditError, match="already undone"):
        undo(root, entry.id)
    assert tree(root) == after
    with pytest.raises(EditError, match="no change"):
        undo(root, "nonexistent")


def test_edits_elsewhere_in_a_touched_file_are_kept(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", FILES)
    entry = rename(root, "Alpha", "Alpha one")
    home = root / "Home.md"
    home.write_text(home.read_text().replace("Last line.", "Last line, edited by hand."))
    moved = root / "Alpha one.md"
    moved.write_text(moved.read_text() + "\nA new paragraph written after the rename.\n")
    undo(root, entry.id)
    assert home.read_text() == FILES["Home.md"].replace("Last line.", "Last line, edited by hand.")
    restored = (root / "Alpha.md").read_text()
    assert restored == str(FILES["Alpha.md"]) + "\nA new paragraph written after the rename.\n"
    assert not moved.exists()


def test_overlapping_edits_refuse_and_name_the_file(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", FILES)
    entry = rename(root, "Alpha", "Alpha one")
    home = root / "Home.md"
    home.write_text(home.read_text().replace("See [[Alpha one]].", "See [[Alpha uno]]."))  # the same word
    undo_refused(root, entry.id, r"Home\.md was edited since")
    assert history(root)[0].state == "applied"


def test_an_edit_elsewhere_on_the_same_line_merges(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", FILES)
    entry = rename(root, "Alpha", "Alpha one")
    home = root / "Home.md"
    home.write_text(home.read_text().replace("See [[Alpha one]].", "See [[Alpha one]] (edited)."))
    undo(root, entry.id)
    assert "See [[Alpha]] (edited)." in home.read_text()


def test_undo_of_a_merge(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", FILES)
    original = tree(root)
    entry = apply(root, plan_merge(load_vault(root, use_cache=False), "Gamma", "Beta"))
    assert "Gamma repeats beta." in (root / "Beta.md").read_text()
    assert (root / "Beta.md").read_text().count("About beta.") == 1
    undo(root, entry.id)
    assert tree(root) == original


def _steps(tmp_path: Path, make_change: str) -> int:
    """How many file operations (and commits) a change makes."""
    root = make_vault(tmp_path / "count", FILES)
    from curator.core.change import journal

    seen: list[str] = []
    journal.before_step = seen.append
    try:
        exec(make_change, {"root": root, "apply": apply, "plan_rename": plan_rename, "load_vault": load_vault})
    finally:
        journal.before_step = journal._no_step
    return len(seen)


CRASHING = """
import os, sys
from pathlib import Path
import curator.core.change.changes as changes
import curator.core.change.journal as journal
from curator.core.change.changes import apply, undo
from curator.core.change.edits import plan_rename
from curator.core.read.loading import load_vault
root = Path(sys.argv[1]); crash_at = int(sys.argv[2]); action = sys.argv[3]
count = [0]
def step(name):
    if count[0] == crash_at:
        os._exit(137)  # die at once: no cleanup, no finally
    count[0] += 1
if action == "apply":
    journal.before_step = step
    apply(root, plan_rename(load_vault(root, use_cache=False), "Alpha", "sub/Alpha one"))
else:
    journal.before_step = step
    undo(root, sys.argv[4])
"""


def test_a_crash_at_any_step_of_an_apply_is_rolled_back(tmp_path: Path) -> None:
    steps = _steps(tmp_path, "apply(root, plan_rename(load_vault(root, use_cache=False), 'Alpha', 'sub/Alpha one'))")
    assert steps == 3  # delete Alpha.md, write Home.md, write sub/Alpha one.md
    for crash_at in range(steps):
        root = make_vault(tmp_path / f"v{crash_at}", FILES)
        original = tree(root)
        run = subprocess.run([sys.executable, "-c", CRASHING, str(root), str(crash_at), "apply"], check=False)
        assert run.returncode == 137
        assert tree(root) != original or crash_at == 0
        recover(root)
        assert tree(root) == original, crash_at
        assert folders(root) == set(), crash_at
        assert history(root) == []


def test_a_crash_at_any_step_of_an_undo_leaves_the_change_in_place(tmp_path: Path) -> None:
    for crash_at in range(3):  # delete sub/Alpha one.md, write Alpha.md, write Home.md
        root = make_vault(tmp_path / f"v{crash_at}", FILES)
        entry = rename(root, "Alpha", "sub/Alpha one")
        applied = tree(root)
        run = subprocess.run([sys.executable, "-c", CRASHING, str(root), str(crash_at), "undo", entry.id], check=False)
        assert run.returncode == 137
        recover(root)
        assert tree(root) == applied, crash_at
        assert history(root)[0].state == "applied"
        undo(root, entry.id)  # and it can still be undone afterwards


def test_a_change_committed_just_before_a_kill_is_marked_applied_with_its_commit(tmp_path: Path) -> None:
    """An attacker's kill -9 after git's commit and before the journal said so: the change was
    marked applied, its commit id empty in `history --json`."""
    from helpers import init_repo

    from curator.core.change.journal import Journal

    root = make_vault(tmp_path / "v", FILES)
    repo = init_repo(root)
    entry = rename(root, "Alpha", "sub/Alpha one")
    journal = Journal(root)
    stored = journal.entries()[0]
    stored.state, stored.commit = "applying", ""  # as the journal stood when the process died
    journal.write(stored)
    assert any("was complete" in line for line in recover(root))
    assert (history(root)[0].state, history(root)[0].commit) == ("applied", repo.head.commit.hexsha)
    assert entry.commit == repo.head.commit.hexsha


def test_history_command_reports_recovery(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from curator.cli.main import main

    root = make_vault(tmp_path / "v", FILES)
    subprocess.run([sys.executable, "-c", CRASHING, str(root), "2", "apply"], check=False)
    assert main(["lint", str(root), "--no-cache"]) in (0, 1)
    assert "interrupted" in capsys.readouterr().err
    assert main(["history", str(root), "--json"]) == 0
    out, err = capsys.readouterr()
    assert "rolled back" in err and json.loads(out)["changes"] == []


DYING = """
import os, sys, time
from pathlib import Path
import curator.core.change.changes as changes
import curator.core.change.journal as journal
from curator.core.change.edits import plan_rename
root = Path(sys.argv[1]); die_at = int(sys.argv[2])
count = [0]
def step(name):
    if count[0] == die_at:
        print("stopped", flush=True)
        time.sleep(1.0)  # a second writer starts now, and must wait for this one
        os._exit(137)  # then this one dies at once: no cleanup, no finally
    count[0] += 1
journal.before_step = step
if sys.argv[3] == "apply":
    changes.plan_and_apply(root, lambda vault: plan_rename(vault, "Alpha", "sub/Alpha one"))
else:
    changes.undo(root, sys.argv[4])
"""


def _die_while_another_renames(root: Path, die_at: int, *action: str) -> subprocess.CompletedProcess[str]:
    """Run `action` (apply, or undo ID) until its write step `die_at`, start a second writer
    (`curator rename Beta`) while it is stopped there, let the first die; the second's result."""
    dying = subprocess.Popen(
        [sys.executable, "-c", DYING, str(root), str(die_at), *action], stdout=subprocess.PIPE, text=True
    )
    assert dying.stdout is not None and dying.stdout.readline().strip() == "stopped"
    second = subprocess.run(
        [sys.executable, "-m", "curator", "rename", str(root), "Beta", "Beta two"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert dying.wait(timeout=30) == 137
    assert second.returncode == 0, second.stderr
    assert "waiting for pid" in second.stderr  # it did not touch the live writer's half-done change
    return second


@pytest.mark.parametrize("die_at", [0, 1, 2])
def test_a_writer_killed_mid_change_while_another_waits_loses_nothing(tmp_path: Path, die_at: int) -> None:
    root = make_vault(tmp_path / "v", FILES)
    original = tree(root)
    second = _die_while_another_renames(root, die_at, "apply")
    assert "rolled back" in second.stderr  # then it put back what the dead one left
    text = (root / "Home.md").read_text()
    assert "[[Alpha]]" in text and "[[Beta two]]" in text and not (root / "sub").exists()
    (entry,) = history(root)
    undo(root, entry.id)
    assert tree(root) == original


@pytest.mark.parametrize("die_at", [0, 1, 2])
def test_an_undo_killed_midway_while_another_writer_waits_loses_nothing(tmp_path: Path, die_at: int) -> None:
    root = make_vault(tmp_path / "v", FILES)
    original = tree(root)
    entry = rename(root, "Alpha", "sub/Alpha one")
    second = _die_while_another_renames(root, die_at, "undo", entry.id)
    assert "the change is back in place" in second.stderr
    assert (root / "sub/Alpha one.md").exists() and not (root / "Alpha.md").exists()  # the rename stands
    assert {p for p in tree(root) if "curator-tmp" in p} == set()  # nothing the dead undo wrote is left
    assert "[[Beta two]]" in (root / "Home.md").read_text()
    for change in history(root):  # newest first
        undo(root, change.id)
    assert tree(root) == original


def test_a_journal_entry_without_this_users_seal_is_ignored_and_named(tmp_path: Path) -> None:
    """An entry of an earlier format (no seal) counts as written by someone else: it is neither
    listed nor undone, and recovery names it in one line."""
    import orjson

    root = make_vault(tmp_path / "v", FILES)
    entry = rename(root, "Alpha", "sub/Alpha one")
    journal = root / ".curator" / "journal"
    header = orjson.loads((journal / f"{entry.id}.json").read_bytes())
    header.pop("mac")
    header.update(format=3)
    (journal / f"{entry.id}.json").write_bytes(orjson.dumps(header))
    assert history(root) == []
    assert recover(root) == [
        f"ignored 1 journal entry this curator did not write (.curator/journal/{entry.id}.json); move them aside"
    ]
    with pytest.raises(EditError, match="no change"):
        undo(root, entry.id)
    assert (root / "sub/Alpha one.md").exists()


def test_one_link_rewritten_by_three_renames_undoes_in_every_order(tmp_path: Path) -> None:
    """Found by the property test: a link a later rename made explicit ([[a/b/Renamed]]) and a
    third rename rewrote again. Merging inside the link made [[a/Other name]], a target no change
    wrote; a link is one token now, so an undo waits for the later one instead."""
    from edit_helpers import undo_all_in_any_order

    files: dict[str, str | bytes] = {
        "a/b/Alpha.md": "# Alpha\n\nSome text about it.\n",
        "Beta.md": "# Beta\n\nSome text about it.\n",
        "Zoë.md": "# Zoë\n\nSee [[Alpha]].\n\nSee [[Alpha]].\n",
    }
    for seed in range(6):
        root = make_vault(tmp_path / f"v{seed}", files)
        original = tree(root)
        ids = [
            rename(root, "a/b/Alpha.md", "Renamed").id,
            rename(root, "Beta.md", "Renamed").id,  # makes the first one's links explicit
            rename(root, "a/b/Renamed.md", "Other name").id,
        ]
        assert "[[a/b/Other name]]" in (root / "Zoë.md").read_text()
        undo_all_in_any_order(root, ids, seed)
        assert tree(root) == original


def test_a_merge_under_a_link_renamed_there_and_back_waits_for_the_renames(tmp_path: Path) -> None:
    """Found by the property test: two renames rewrote a link inside the merged text and back, so
    the page held the merge's bytes again. Undoing the merge first took the text the renames had
    edited away, and neither rename could be undone after it. The merge waits for them now."""
    files: dict[str, str | bytes] = {"I.md": "# I\n\nI text.\n", "P.md": "# P\n\nP text.\n", "S.md": "See [[P]].\n"}
    root = make_vault(tmp_path / "v", files)
    original = tree(root)
    merged = merge(root, "S", "I")
    there, back = rename(root, "P", "Q"), rename(root, "Q", "P")
    assert (root / "I.md").read_text().endswith("## From S\n\nSee [[P]].\n")
    undo_refused(root, merged.id, f"I.md was edited by change {there.id}.*undo refused, nothing was changed")
    with pytest.raises(EditError, match=f"moved again by change {back.id}"):
        undo(root, there.id)
    undo(root, back.id)
    undo(root, there.id)
    undo(root, merged.id)
    assert tree(root) == original


def test_two_merges_into_one_page_undo_oldest_first(tmp_path: Path) -> None:
    """Found by the property test: once the first merge was undone, the second one's undo saw its
    section's blank line taken with the first one's and refused for good."""
    files: dict[str, str | bytes] = {
        "A.md": "---\naliases:\n  - X\n---\n# A\n\nSome text.\n",
        "B.md": "# B\n\nB text.\n",
        "C.md": "# C\n\nC text.\n",
    }
    root = make_vault(tmp_path / "v", files)
    original = tree(root)
    first, second = merge(root, "B", "A"), merge(root, "C", "A")
    undo(root, first.id)
    left = "---\naliases:\n  - X\n  - C\n---\n# A\n\nSome text.\n\n## From C\n\nC text.\n"
    assert (root / "A.md").read_text() == left
    undo(root, second.id)
    assert tree(root) == original


def test_a_path_another_page_took_while_a_rename_was_away_is_not_followed(tmp_path: Path) -> None:
    """Found by the property test: Alpha renamed to Moved and on to Renamed; Beta renamed to the
    free Moved and on to Other; the second rename undone brought Alpha back to Moved. Beta's move
    on was taken for Alpha's, so Alpha's rename waited for Beta's, which waited for Moved to be free."""
    root = make_vault(tmp_path / "v", {"Alpha.md": "# Alpha\n", "Beta.md": "# Beta\n"})
    original = tree(root)
    to_moved, on, beta_to_moved, beta_on = (
        rename(root, "Alpha", "Moved"),
        rename(root, "Moved", "Renamed"),
        rename(root, "Beta", "Moved"),
        rename(root, "Moved", "Other"),
    )
    undo(root, on.id)
    assert (root / "Moved.md").read_text().endswith("# Alpha\n")
    undo(root, to_moved.id)
    with pytest.raises(EditError, match=f"Moved.md was moved again by change {beta_on.id}"):
        undo(root, beta_to_moved.id)
    undo(root, beta_on.id)
    undo(root, beta_to_moved.id)
    assert tree(root) == original


def test_a_rename_whose_old_name_a_later_rename_took_names_that_change(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"Alpha.md": "# Alpha\n", "Beta.md": "# Beta\n"})
    original = tree(root)
    away, taken = rename(root, "Alpha", "Moved"), rename(root, "Beta", "Alpha")
    with pytest.raises(EditError, match=f"Alpha.md exists again since change {away.id}, by change {taken.id}"):
        undo(root, away.id)
    undo(root, taken.id)
    undo(root, away.id)
    assert tree(root) == original


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_a_page_that_comes_to_the_path_of_a_merged_page_is_another_page(tmp_path: Path, order: tuple[int, ...]) -> None:
    """Found by the property test: Alpha renamed to Moved and merged into Beta, Beta renamed to
    Moved. Once Beta's rename was undone, the merged page was followed to Beta.md with the other
    page, and the merge's undo refused for good."""
    from edit_helpers import undo_all_in_any_order

    root = make_vault(tmp_path / "v", {"Alpha.md": "# Alpha\n\nA.\n", "Beta.md": "# Beta\n\nB.\n", "C.md": "# C\n"})
    original = tree(root)
    ids = [rename(root, "Alpha", "Moved").id, merge(root, "Moved", "Beta").id, rename(root, "Beta", "Moved").id]
    assert sorted(tree(root)) == ["C.md", "Moved.md"]
    undo_all_in_any_order(root, [ids[n] for n in order], 0)
    assert tree(root) == original


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_a_section_one_change_made_keeps_a_later_changes_text_and_goes_with_the_last(
    tmp_path: Path, order: tuple[int, int]
) -> None:
    """A new user's: the first incident made "## History", the second was added under it; undoing
    the first left the second's line at the end of "## Security Notes"."""
    from curator.core.curate.remember import remember

    page = "# Gateway\n\nThe gateway runs on port 18789 and binds to loopback.\n\n"
    page += "## Security Notes\n\n- Tokens rotate monthly.\n"
    root = make_vault(tmp_path / "v", {"gateway.md": page, "kafka.md": "# Kafka\n\nThree brokers.\n"})
    texts = (
        "2026-03-02: the gateway crashed after the update and had to be restarted by hand.",
        "2026-03-05: the gateway refused logins for an hour because the token had expired.",
    )
    changes = []
    for text in texts:
        plan = remember(load_vault(root), text).plan
        assert plan is not None
        changes.append(apply(root, plan))
    undo(root, changes[order[0]].id)
    after_one = (root / "gateway.md").read_text()
    kept = texts[order[1]]
    assert after_one.index("## History") < after_one.index(kept) and texts[order[0]] not in after_one
    undo(root, changes[order[1]].id)
    assert (root / "gateway.md").read_text() == page


def test_a_kept_section_goes_back_where_its_text_stands_and_a_persons_heading_stays(tmp_path: Path) -> None:
    """An attacker's: the kept heading went before the first line of the same words elsewhere
    (under "## Security Notes"), and a "## History" the person wrote after an old undo was taken
    for the one that undo took back."""
    from curator.core.curate.remember import remember

    page = "# Gateway\n\nThe gateway runs on port 18789.\n\n## Security Notes\n\n- Tokens rotate monthly.\n"
    root = make_vault(tmp_path / "v", {"gateway.md": page, "kafka.md": "# Kafka\n\nThree brokers.\n"})
    incident = "2026-03-02: the gateway crashed after the update and had to be restarted by hand."

    def remembered(text: str):  # type: ignore[no-untyped-def]
        plan = remember(load_vault(root), text).plan
        assert plan is not None
        return apply(root, plan)

    made = remembered(incident)
    with (root / "gateway.md").open("a") as page_file:
        page_file.write("- Tokens rotate monthly.\n")  # the person's line, the same words as above
    undo(root, made.id)
    after = (root / "gateway.md").read_text()
    assert after == page + "\n## History\n\n- Tokens rotate monthly.\n", after
    # the person writes a section of that name again; a later change and its undo leave it be
    (root / "gateway.md").write_text(page + "\n## History\n\n## Contacts\n\n- Bob (on call)\n")
    later = remembered("The gateway also exposes Prometheus metrics on port 9464.")
    with (root / "gateway.md").open("a") as page_file:
        page_file.write("- Alice (backup)\n")
    undo(root, later.id)
    assert "## History\n" in (root / "gateway.md").read_text()


@pytest.mark.parametrize("where", ["end", "above"])
def test_a_persons_own_history_heading_outlives_the_undos_of_the_changes_that_made_one(
    tmp_path: Path, where: str
) -> None:
    """A second attacker's: a person's own (empty) "## History" went with the undo of the change
    that made another, and one the person wrote above got a second heading put back before it."""
    from curator.core.curate.remember import remember

    page = "# Gateway\n\nThe gateway runs on port 18789.\n\n## Security Notes\n\n- Tokens rotate monthly.\n"
    root = make_vault(tmp_path / "v", {"gateway.md": page, "kafka.md": "# Kafka\n\nThree brokers.\n"})

    def remembered(text: str):  # type: ignore[no-untyped-def]
        plan = remember(load_vault(root), text).plan
        assert plan is not None
        return apply(root, plan)

    first = remembered("2026-03-02: the gateway crashed after the update and had to be restarted by hand.")
    if where == "above":
        own = "## History\n\n- 2025-11-01: we migrated the gateway to the new host.\n\n"
        text = (root / "gateway.md").read_text().replace("## Security Notes", own + "## Security Notes")
        (root / "gateway.md").write_text(text)
        expected = page.replace("## Security Notes", own + "## Security Notes")
    second = remembered("2026-03-05: the gateway refused logins for an hour because the token had expired.")
    if where == "end":
        with (root / "gateway.md").open("a") as page_file:
            page_file.write("\n## History\n")
        expected = page + "\n## History\n"
    for change in (first, second) if where == "end" else (second, first):
        undo(root, change.id)
    assert (root / "gateway.md").read_text() == expected


@pytest.mark.parametrize("end", ["", "\n"])
def test_an_undo_whose_lines_a_person_moved_is_refused_not_reported_done(tmp_path: Path, end: str) -> None:
    """A second attacker's: after two incidents and a person moving the `## History` section above
    another, the undo of the first said "restored 1 file" and left its line."""
    from curator.core.curate.remember import remember

    page = "# Gateway\n\nThe gateway runs on port 18789.\n\n## Security Notes\n\n- Tokens rotate monthly.\n"
    root = make_vault(tmp_path / "v", {"gateway.md": page, "kafka.md": "# Kafka\n\nThree brokers.\n"})
    first = "2026-03-02: the gateway crashed after the update and had to be restarted by hand."
    changes = []
    for text in (first, "2026-03-05: the gateway refused logins for an hour because the token had expired."):
        plan = remember(load_vault(root), text).plan
        assert plan is not None
        changes.append(apply(root, plan))
    head, history = (root / "gateway.md").read_text().split("\n## History", 1)
    moved = head.replace("## Security Notes", "## History" + history.rstrip("\n") + "\n\n## Security Notes") + end
    (root / "gateway.md").write_text(moved)
    try:
        undo(root, changes[0].id)
    except EditError as refused:
        assert "undo refused, nothing was changed" in str(refused)
        assert (root / "gateway.md").read_text() == moved
    else:  # taken back where it stands now, the later change's line kept
        after = (root / "gateway.md").read_text()
        assert first not in after and "2026-03-05: the gateway refused logins" in after, after
