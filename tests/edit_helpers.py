"""Helpers for edit-engine tests: renames and merges as a user makes them, tree snapshots and
link-resolution checks."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from curator.core.change.changes import apply, undo
from curator.core.change.edits import plan_rename
from curator.core.change.journal import Entry
from curator.core.change.merging import plan_merge
from curator.core.common.errors import EditError
from curator.core.read.loading import load_vault


def rename(root: Path, old: str, new: str) -> Entry:
    """Rename a page as planned against the vault as it is now (nothing cached)."""
    return apply(root, plan_rename(load_vault(root, use_cache=False), old, new))


def merge(root: Path, source: str, into: str) -> Entry:
    """Merge a page into another as planned against the vault as it is now (nothing cached)."""
    return apply(root, plan_merge(load_vault(root, use_cache=False), source, into))


def tree(root: Path) -> dict[str, bytes]:
    """Every file under `root` (the .curator folder and .git left out), with its bytes."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not {".curator", ".git"} & set(p.relative_to(root).parts)
    }


def folders(root: Path) -> set[str]:
    return {
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_dir() and not {".curator", ".git"} & set(p.relative_to(root).parts)
    }


def resolving(root: Path) -> dict[tuple[str, int], str]:
    """(page, n-th link) -> the page it resolves to, for every link that resolves to a page."""
    vault = load_vault(root, use_cache=False)
    result: dict[tuple[str, int], str] = {}
    counts: dict[str, int] = {}
    for rl in vault.links:
        n = counts.get(rl.source, 0)
        counts[rl.source] = n + 1
        if rl.resolution.kind == "page" and rl.resolution.path:
            result[(rl.source, n)] = rl.resolution.path
    return result


def dead_count(root: Path) -> int:
    return sum(1 for rl in load_vault(root, use_cache=False).links if rl.resolution.kind == "dead")


def undo_all_in_any_order(root: Path, change_ids: list[str], seed: int) -> None:
    """Undo every change in a shuffled order; one refused (it builds on a change still in place)
    waits its turn. Fails if at some point no undo can proceed."""
    pending = change_ids[:]
    random.Random(seed).shuffle(pending)
    stuck = 0
    while pending:
        change = pending.pop(0)
        try:
            undo(root, change)
            stuck = 0
        except EditError:
            pending.append(change)
            stuck += 1
            assert stuck <= len(pending), "no undo could proceed"


def undo_refused(root: Path, change_id: str, match: str) -> None:
    """Undoing the change is refused with a message matching `match`, and nothing is written."""
    before = tree(root)
    with pytest.raises(EditError, match=match):
        undo(root, change_id)
    assert tree(root) == before
