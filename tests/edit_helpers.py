"""Helpers for edit-engine tests: tree snapshots and link-resolution checks."""

from __future__ import annotations

import random
from pathlib import Path

from curator.core.change.changes import undo
from curator.core.common.errors import EditError
from curator.core.read.loading import load_vault


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
