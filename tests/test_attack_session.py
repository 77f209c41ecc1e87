"""Attacks on this session's changes: remember with odd text, undo orders interleaved with undos."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from edit_helpers import folders, merge, rename, tree, undo_all_in_any_order, undo_refused
from helpers import make_vault

from curator.cli.main import main
from curator.core.change.changes import apply, undo
from curator.core.change.edits import plan_rename
from curator.core.change.journal import Journal
from curator.core.change.merging import plan_merge
from curator.core.common.errors import EditError
from curator.core.read.loading import load_vault

PAGES: dict[str, str | bytes] = {
    "Vec<T>.md": "# Vec<T>\n\nRust growable array.\n",
    "free().md": "# free()\n\nReleases memory from malloc.\n",
}


@pytest.mark.parametrize("text", ["...", "/", "-- !? --", "`` ``"])
def test_a_text_with_no_words_is_refused_not_dropped_as_said(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Any page "said all of" a text of punctuation alone: DROP, exit 0, naming an unrelated page."""
    root = make_vault(tmp_path / "v", PAGES)
    before = tree(root)
    assert main(["remember", str(root), text, "--apply"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["curator: nothing to remember: the text has no words"]
    assert tree(root) == before


NAMES = ["Alpha", "Beta", "Gamma", "Delta", "Moved", "Other"]


def _files(r: random.Random) -> dict[str, str | bytes]:
    names = r.sample(NAMES[:4], r.randint(3, 4))
    files: dict[str, str | bytes] = {}
    for name in names:
        lines = [f"# {name}", "", f"Text about {name}.", ""]
        for _ in range(r.randint(0, 3)):
            lines += ["See " + " and ".join(f"[[{t}]]" for t in r.sample(names, r.randint(1, 2))) + ".", ""]
        files[f"{name}.md"] = "\n".join(lines)
    return files


@pytest.mark.parametrize("seed", range(12))
def test_renames_merges_and_undos_interleaved_all_undo_back_to_the_original(tmp_path: Path, seed: int) -> None:
    """Undos in the middle of renames (paths reused, pages renamed back) and merges into one page;
    then every change still in place undone in a random order, a refused one waiting its turn."""
    r = random.Random(seed)
    root = make_vault(tmp_path / "v", _files(r))
    original, original_folders = tree(root), folders(root)
    for _ in range(r.randint(4, 12)):
        vault = load_vault(root, use_cache=False)
        pages = sorted(vault.pages)
        pick = r.random()
        live = [e.id for e in Journal(root).entries() if e.state == "applied"]
        try:
            if pick < 0.4:
                apply(root, plan_rename(vault, r.choice(pages), r.choice(NAMES)))
            elif pick < 0.6:
                apply(root, plan_merge(vault, r.choice(pages), r.choice(pages)))
            elif live:
                undo(root, r.choice(live))
        except EditError as exc:
            if pick >= 0.6:  # an undo refused names a change still in place to undo first
                assert any(f"change {other}" in str(exc) for other in live), str(exc)
    live = [e.id for e in Journal(root).entries() if e.state == "applied"]
    undo_all_in_any_order(root, live, r.randrange(2**32))
    assert tree(root) == original
    assert folders(root) == original_folders


def test_a_refusal_a_change_undone_since_hides_still_names_the_change_in_the_way(tmp_path: Path) -> None:
    """Beta merged into Delta, Alpha renamed to the freed Beta and on to Moved, Delta merged into
    Moved, the move on undone. Alpha's rename conflicts with Delta's merge, but the undone move had
    edited the page between them: the refusal named no change, so nobody knew what to undo first."""
    files: dict[str, str | bytes] = {
        "Alpha.md": "# Alpha\n\nText about Alpha.\n\nSee [[Delta]] and [[Alpha]].\n",
        "Delta.md": "# Delta\n\nText about Delta.\n",
        "Beta.md": "# Beta\n\nText about Beta.\n\nSee [[Beta]] and [[Delta]].\n",
    }
    root = make_vault(tmp_path / "v", files)
    original = tree(root)

    first = merge(root, "Beta.md", "Delta.md").id
    to_beta, on = rename(root, "Alpha.md", "Beta").id, rename(root, "Beta.md", "Moved").id
    into_moved = merge(root, "Delta.md", "Moved.md").id
    undo(root, on)
    undo_refused(root, to_beta, f"Beta.md was edited by change {into_moved} since.*undo that change first")
    for change in (into_moved, to_beta, first):
        undo(root, change)
    assert tree(root) == original


def test_a_path_a_later_rename_left_is_not_taken_by_an_earlier_ones_undo(tmp_path: Path) -> None:
    """Found by two writers renaming and undoing at once: Alpha renamed to X, Beta to the freed
    Alpha and back to Beta, then Alpha's rename undone into the path Beta had left. Beta's way
    back (to Alpha) was taken for good: neither of Beta's renames could ever be undone."""
    root = make_vault(
        tmp_path / "v", {"Alpha.md": "# Alpha\n\nSee [[Beta]].\n", "Beta.md": "# Beta\n\nSee [[Alpha]].\n"}
    )
    original = tree(root)

    away = rename(root, "Alpha.md", "X").id
    there = rename(root, "Beta.md", "Alpha").id
    back = rename(root, "Alpha.md", "Beta").id
    undo_refused(root, away, f"change {back}")
    for change in (back, there, away):
        undo(root, change)
    assert tree(root) == original


def test_a_merged_pages_path_a_later_rename_left_is_not_taken_by_the_merges_undo(tmp_path: Path) -> None:
    """The same with a merge: its undo would bring the merged page back where Beta's way back lies."""
    files: dict[str, str | bytes] = {"Alpha.md": "# Alpha\n\nA.\n", "Beta.md": "# Beta\n\nB.\n", "C.md": "# C\n"}
    root = make_vault(tmp_path / "v", files)
    original = tree(root)
    merged = merge(root, "Alpha.md", "C.md").id
    there = rename(root, "Beta.md", "Alpha").id
    back = rename(root, "Alpha.md", "Beta").id
    with pytest.raises(EditError, match=f"Alpha.md was left by change {back}"):
        undo(root, merged)
    for change in (back, there, merged):
        undo(root, change)
    assert tree(root) == original
