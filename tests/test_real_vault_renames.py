"""Twenty renames on real vaults: every link keeps resolving; undone in random order, the tree is back."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from edit_helpers import folders, resolving, tree, undo_all_in_any_order

from curator.core.change.changes import apply
from curator.core.change.edits import plan_rename
from curator.core.read.loading import load_vault


def rename_twenty_and_undo(root: Path, seed: int) -> None:
    rng = random.Random(seed)
    original, original_folders = tree(root), folders(root)
    before = resolving(root)
    moved: dict[str, str] = {}
    applied = []
    candidates = sorted(load_vault(root, use_cache=False).pages)
    rng.shuffle(candidates)
    for page in candidates[:20]:
        current = moved.get(page, page)
        title = Path(current).stem
        new = rng.choice([f"{title} (renamed)", f"archive/{title}", f"moved/deeper/{title} v2"])
        plan = plan_rename(load_vault(root, use_cache=False), current, new)
        assert plan.notes == (), plan.notes
        applied.append(apply(root, plan).id)
        moved[page] = plan.details["new"]
    after = resolving(root)
    assert len(after) == len(before)
    assert sorted(after.values()) == sorted(moved.get(t, t) for t in before.values())
    undo_all_in_any_order(root, applied, seed)
    assert tree(root) == original
    assert folders(root) == original_folders


def test_twenty_renames_on_the_sample_vault(sample_vault: Path) -> None:
    rename_twenty_and_undo(sample_vault, seed=3)


@pytest.mark.parametrize("seed", [1, 2])
def test_twenty_renames_on_foam_docs(foam_docs: Path, seed: int) -> None:
    rename_twenty_and_undo(foam_docs, seed)
