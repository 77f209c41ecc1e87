"""Merge: distinct content appended once, titles become aliases, lists unioned, links follow."""

from __future__ import annotations

from pathlib import Path

import pytest
from edit_helpers import dead_count
from helpers import make_vault

from curator.core.changes import apply
from curator.core.edits import plan_merge
from curator.core.errors import EditError
from curator.core.loading import load_vault

SOURCE = """\
---
type: problem
aliases: [pool outage]
tags: [db, oncall]
---
# DB pool exhausted

Shared paragraph that both pages hold.

Only the source says this, with a [[Runbook]] link and [rel](../ops/Runbook.md).

```
code with a blank line

inside it
```
"""
INTO = """\
---
type: problem
tags: [db, postgres]
---
# Postgres pool

Shared   paragraph that both pages
hold.
"""


def test_merge_appends_distinct_content_and_rewrites_links(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "incidents/DB pool exhausted.md": SOURCE,
            "problems/Postgres pool.md": INTO,
            "ops/Runbook.md": "# Runbook",
            "index.md": (
                "[[DB pool exhausted]] [[DB pool exhausted|the outage]] [[DB pool exhausted#Only]] [[Postgres pool]]"
            ),
        },
    )
    plan = plan_merge(load_vault(root, use_cache=False), "DB pool exhausted", "Postgres pool")
    assert plan.notes == ()
    apply(root, plan)
    assert not (root / "incidents/DB pool exhausted.md").exists()
    merged = (root / "problems/Postgres pool.md").read_text()
    assert merged == (
        "---\ntype: problem\ntags: [db, postgres, oncall]\naliases:\n  - DB pool exhausted\n  - pool outage\n---\n"
        "# Postgres pool\n\nShared   paragraph that both pages\nhold.\n\n## From DB pool exhausted\n\n"
        "Only the source says this, with a [[Runbook]] link and [rel](../ops/Runbook.md).\n\n"
        "```\ncode with a blank line\n\ninside it\n```\n"
    )
    assert (root / "index.md").read_text() == (
        "[[Postgres pool|DB pool exhausted]] [[Postgres pool|the outage]] [[Postgres pool#Only]] [[Postgres pool]]"
    )
    assert dead_count(root) == 0


def test_merge_refuses_itself_and_unknown_pages(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "x", "b.md": "y"})
    vault = load_vault(root, use_cache=False)
    with pytest.raises(EditError, match="into itself"):
        plan_merge(vault, "a", "a")
    with pytest.raises(EditError, match="no page"):
        plan_merge(vault, "a", "zzz")


def test_merge_on_the_sample_vault(sample_vault: Path) -> None:
    vault = load_vault(sample_vault, use_cache=False)
    source = "DB pool exhausted again during the Friday evening deploy and nobody noticed for an hour"
    plan = plan_merge(vault, source, "Postgres connection pool exhaustion")
    dead_before = dead_count(sample_vault)
    apply(sample_vault, plan)
    text = (sample_vault / "problems/Postgres connection pool exhaustion.md").read_text()
    assert f"## From {source}" in text and f"  - {source}" in text
    assert "[[Postgres connection pool exhaustion|" + source + "]]" in (sample_vault / "MEMORY.md").read_text()
    assert dead_count(sample_vault) == dead_before


def test_two_changes_to_one_link_conflict_instead_of_mixing() -> None:
    from curator.core.merge3 import MergeConflict, merge3

    with pytest.raises(MergeConflict):
        merge3("See [[a/b/Renamed]].\n", "See [[a/b/Other name]].\n", "See [[Renamed]].\n")
    with pytest.raises(MergeConflict):
        merge3("See [x](a/b/R.md).\n", "See [x](a/b/O.md).\n", "See [x](R.md).\n")
    # different links on one line still merge
    assert merge3("[[A]] and [[B]]\n", "[[A2]] and [[B]]\n", "[[A]] and [[B2]]\n") == "[[A2]] and [[B2]]\n"
