"""Merge: distinct content appended once, titles become aliases, fields carried over, lists unioned, links follow."""

from __future__ import annotations

from pathlib import Path

import pytest
from edit_helpers import dead_count, tree
from helpers import make_vault

from curator.core.change.changes import apply, undo
from curator.core.change.merging import plan_merge
from curator.core.common.errors import EditError
from curator.core.read.loading import load_vault

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


def test_pages_whose_names_differ_in_case_only_are_merged_by_the_spelling_given(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"Notes/MaaS.md": "the concept\n", "Notes/MAAS.md": "the product\n"})
    plan = plan_merge(load_vault(root, use_cache=False), "Notes/MaaS.md", "Notes/MAAS.md")
    entry = apply(root, plan)
    assert not (root / "Notes/MaaS.md").exists()
    assert "the concept" in (root / "Notes/MAAS.md").read_text()
    undo(root, entry.id)
    assert (root / "Notes/MaaS.md").read_text() == "the concept\n"
    assert (root / "Notes/MAAS.md").read_text() == "the product\n"


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
    from curator.core.change.merge3 import MergeConflict, merge3

    with pytest.raises(MergeConflict):
        merge3("See [[a/b/Renamed]].\n", "See [[a/b/Other name]].\n", "See [[Renamed]].\n")
    with pytest.raises(MergeConflict):
        merge3("See [x](a/b/R.md).\n", "See [x](a/b/O.md).\n", "See [x](R.md).\n")
    # different links on one line still merge
    assert merge3("[[A]] and [[B]]\n", "[[A2]] and [[B]]\n", "[[A]] and [[B2]]\n") == "[[A2]] and [[B2]]\n"


def test_sections_taken_out_on_either_side_merge_whichever_blank_line_each_diff_chose() -> None:
    from curator.core.change.merge3 import MergeConflict, merge3

    head = "---\naliases:\n  - X\n---\n# A\n"
    base = head + "\n## From B\n\nB.\n\n## From C\n\nC.\n"
    without_b, without_c = head + "\n## From C\n\nC.\n", head + "\n## From B\n\nB.\n"
    assert merge3(base, without_b, without_c) == head
    assert merge3(base, without_c, without_b) == head
    with pytest.raises(MergeConflict):  # a line one side took out and the other changed still conflicts
        merge3(base, without_b, base.replace("B.", "B, edited."))


FIELDS_SOURCE = """\
---
type: problem
owner: alice
status: draft
due: 2026-08-01
tags: [db, oncall]
components:
  - pgbouncer
watchers: carol
review: {by: dave, on: 2026-07-30}
title: Pool outage
---
# DB pool exhausted

Only the source says this.
"""
FIELDS_INTO = """\
---
title: 'Postgres pool'
type: "problem"  # the page's kind
owner: bob
tags:
  - db
  - postgres
watchers: [erin]
components: pgbouncer
---
# Postgres pool

The pool.
"""


def _merge_fields(tmp_path: Path) -> tuple[Path, str, tuple[str, ...]]:
    root = make_vault(
        tmp_path / "v",
        {"DB pool exhausted.md": FIELDS_SOURCE, "Postgres pool.md": FIELDS_INTO, "x.md": "[[DB pool exhausted]]"},
    )
    plan = plan_merge(load_vault(root, use_cache=False), "DB pool exhausted", "Postgres pool")
    apply(root, plan)
    return root, (root / "Postgres pool.md").read_text(), plan.notes


def test_merge_carries_over_the_fields_the_target_lacks_as_written(tmp_path: Path) -> None:
    """`status`, `due` and `review` were only on the merged-away page: they come along, in its
    words, after the target's own keys, which keep their order and quoting."""
    _, text, notes = _merge_fields(tmp_path)
    header = text.split("---\n")[1]
    assert header == (
        "title: 'Postgres pool'\n"
        'type: "problem"  # the page\'s kind\n'
        "owner: bob\n"
        "tags:\n  - db\n  - postgres\n  - oncall\n"
        "watchers: [erin, carol]\n"
        "components: pgbouncer\n"
        "aliases:\n  - DB pool exhausted\n  - Pool outage\n"  # its written title names the merged page too
        "status: draft\n"
        "due: 2026-08-01\n"
        "review: {by: dave, on: 2026-07-30}\n"
    )
    assert "Postgres pool.md: takes `status`, `due`, `review` from DB pool exhausted.md" in notes


def test_merge_joins_lists_and_a_text_with_a_list(tmp_path: Path) -> None:
    """Lists are joined without duplicates (`tags`); a text and a list make one list (`watchers`);
    a text the list already holds adds nothing (`components`)."""
    _, text, _ = _merge_fields(tmp_path)
    assert "  - postgres\n  - oncall\n" in text and text.count("  - db\n") == 1
    assert "watchers: [erin, carol]\n" in text and "components: pgbouncer\n" in text


def test_merge_lists_conflicting_values_in_the_merged_text_and_its_notes(tmp_path: Path) -> None:
    """The target keeps its `owner`; the merged-away page's is not lost: the section that names
    its origin lists it, so the preview shows it, and the plan's notes say so."""
    _, text, notes = _merge_fields(tmp_path)
    assert text.endswith(
        "## From DB pool exhausted\n\n"
        "Frontmatter of DB pool exhausted that differs here:\n\n"
        "- owner: alice (Postgres pool has bob)\n\n"
        "Only the source says this.\n"
    )
    assert "Postgres pool.md: `owner` stays bob; DB pool exhausted.md has alice, listed in the merged text" in notes
    assert not any("`type`" in note or "`title`" in note for note in notes)  # equal, and the merge's own


def test_merge_dry_run_and_preview_show_the_carried_and_conflicting_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from curator.cli.main import main
    from curator.core.change.edits import plan_diff

    root = make_vault(tmp_path / "v", {"DB pool exhausted.md": FIELDS_SOURCE, "Postgres pool.md": FIELDS_INTO})
    assert main(["merge", str(root), "DB pool exhausted", "Postgres pool", "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert "takes `status`, `due`, `review`" in err and "`owner` stays bob; DB pool exhausted.md has alice" in err
    diff = plan_diff(plan_merge(load_vault(root, use_cache=False), "DB pool exhausted", "Postgres pool"))
    assert "+status: draft" in diff and "+- owner: alice (Postgres pool has bob)" in diff


def test_undo_of_a_merge_with_fields_is_byte_identical(tmp_path: Path) -> None:
    from edit_helpers import tree

    from curator.core.change.changes import history, undo

    root = make_vault(tmp_path / "v", {"DB pool exhausted.md": FIELDS_SOURCE, "Postgres pool.md": FIELDS_INTO})
    start = tree(root)
    apply(root, plan_merge(load_vault(root, use_cache=False), "DB pool exhausted", "Postgres pool"))
    assert tree(root) != start
    undo(root, history(root)[-1].id)
    assert tree(root) == start


def test_merge_into_a_page_without_frontmatter_takes_the_fields(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v", {"Old.md": "---\nowner: alice\nstatus: 'in review'\n---\n# Old\n\nText.\n", "New.md": "# New\n"}
    )
    plan = plan_merge(load_vault(root, use_cache=False), "Old", "New")
    apply(root, plan)
    assert (root / "New.md").read_text().startswith("---\naliases:\n  - Old\nowner: alice\nstatus: 'in review'\n---\n")


def test_a_symbolic_link_page_is_no_duplicate_and_is_never_written_over(tmp_path: Path) -> None:
    from curator.core.meaning.duplicates import find

    text = "A page with enough words of its own to be compared with any other page in the vault, " * 3
    root = make_vault(tmp_path / "v", {"Notes/Real.md": text, "Notes/Other.md": "[[Alias]] and [[Real]]"})
    (root / "Notes/Alias.md").symlink_to("Real.md")
    vault = load_vault(root, use_cache=False)
    assert find(vault) == []
    before = tree(root)
    with pytest.raises(EditError, match=r"Notes/Alias\.md is a symbolic link"):
        apply(root, plan_merge(vault, "Notes/Alias.md", "Notes/Real.md"))
    assert tree(root) == before and (root / "Notes/Alias.md").is_symlink()


def test_a_page_in_a_git_repository_of_its_own_inside_the_vault_is_never_changed(tmp_path: Path) -> None:
    text = "The core skill reads the queue, retries twice and writes what failed to the dead letter file. " * 3
    root = make_vault(
        tmp_path / "v", {"README.md": text + "\n\n## Developing\n\nRun the tests.", "skills/core/README.md": text}
    )
    (root / "skills/core/.git").write_text("gitdir: ../../.git/modules/skills/core\n")  # a submodule's checkout
    before = tree(root)
    with pytest.raises(EditError, match=r"skills/core/README\.md is in skills/core/, a git repository of its own"):
        apply(root, plan_merge(load_vault(root, use_cache=False), "skills/core/README.md", "README.md"))
    assert tree(root) == before


def test_an_edge_from_the_source_to_the_page_it_merges_into_is_not_carried_as_a_self_link(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "Print parameters.md": '---\nrelated: "[[Print]]"\n---\nsep and end.\n',
            "Print.md": "# Print\n\nprint() writes to stdout.\n",
            "Both.md": '---\nrelated:\n  - "[[Print]]"\n  - "[[Other]]"\n---\nBoth.\n',
            "Other.md": "Other.\n",
            "Sink.md": "Sink.\n",
        },
    )
    apply(root, plan_merge(load_vault(root, use_cache=False), "Print parameters", "Print"))
    assert "related" not in (root / "Print.md").read_text()
    apply(root, plan_merge(load_vault(root, use_cache=False), "Both", "Print"))
    merged = (root / "Print.md").read_text()
    assert "[[Other]]" in merged.split("---")[1] and "[[Print]]" not in merged.split("---")[1], merged


def test_a_merged_link_in_a_table_row_keeps_its_words_behind_an_escaped_bar(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "Old.md": "# Old\n\nOld words here.\n",
            "New.md": "# New\n\nNew words.\n",
            "home.md": "| page | note |\n|---|---|\n| [[Old]] | two |\n",
        },
    )
    apply(root, plan_merge(load_vault(root, use_cache=False), "Old", "New"))
    assert (root / "home.md").read_text() == "| page | note |\n|---|---|\n| [[New\\|Old]] | two |\n"
    assert dead_count(root) == 0


def test_a_merge_adds_no_heading_over_nothing_and_closes_a_fence_the_page_left_open(tmp_path: Path) -> None:
    held = "# Random access\n\n- `arr[0]` is the first element.\n- `arr[n-1]` is the last.\n"
    into = "# Memory layout\n\nElements sit side by side.\n\n---\n" + held  # the heading right under a rule
    root = make_vault(tmp_path / "v", {"access.md": held + "\n---\n", "layout.md": into})
    apply(root, plan_merge(load_vault(root, use_cache=False), "access", "layout"))
    assert (root / "layout.md").read_text() == "---\naliases:\n  - access\n---\n" + into
    opened = "# Backdoor\n\nHow it works, step by step, all of it.\n\n```bash\nnc -lvnp 4444"  # never closed
    source = "# Backdoor\n\nHow it works, step by step, all of it.\n\nOnly in a lab network.\n"
    root = make_vault(tmp_path / "w", {"old/backdoor.md": source, "backdoor.md": opened})
    apply(root, plan_merge(load_vault(root, use_cache=False), "old/backdoor", "backdoor"))
    text = (root / "backdoor.md").read_text()
    assert text.endswith("nc -lvnp 4444\n```\n\n## From old/backdoor\n\nOnly in a lab network.\n")
    assert text.count("How it works") == 1


def test_code_in_another_order_or_indent_is_carried_and_a_moved_anchor_is_said(tmp_path: Path) -> None:
    steps = "systemctl stop app\nrm -rf cache\nsystemctl start app"
    loop = "for x in xs:\n    print(x)\n{}print('done')"
    root = make_vault(
        tmp_path / "v",
        {
            "Deploy.md": f"# Deploy\n\n```sh\n{steps}\n```\n\n```python\n{loop.format('')}\n```\n",
            "Deploy 1.md": "## Token\n\nRollback:\n\n```sh\n"
            + "\n".join(reversed(steps.splitlines()))
            + f"\n```\n\n```python\n{loop.format('    ')}\n```\n",
            "Home.md": "See [[Deploy 1#Token]].",
        },
    )
    plan = plan_merge(load_vault(root, use_cache=False), "Deploy 1", "Deploy")
    apply(root, plan)
    text = (root / "Deploy.md").read_text()
    assert "systemctl start app\nrm -rf cache\nsystemctl stop app" in text  # the reversed procedure
    assert "    print('done')" in text  # the other indent is another program
    assert plan.notes == ()  # its heading came along with the new text under it
    setup = {"Setup.md": "# Setup\n\n## Notes\n\nAsk Bob for the token.\n", "Home.md": "[[Setup 1#Token]]"}
    root = make_vault(tmp_path / "w", setup | {"Setup 1.md": "## Token\n\nAsk Bob for the token.\n"})
    plan = plan_merge(load_vault(root, use_cache=False), "Setup 1", "Setup")
    apply(root, plan)
    assert "## Token" in (root / "Setup.md").read_text()  # a heading the page lacks is carried, not lost
    assert plan.notes == ()  # so the link's anchor still names a heading
    setup = {"Setup.md": "# Setup\n\n## Notes\n\nAsk Bob for the token.\n", "Home.md": "[[Setup 1#Setup 1]]"}
    root = make_vault(tmp_path / "x", setup | {"Setup 1.md": "## Setup 1\n\nAsk Bob for the token.\n"})
    plan = plan_merge(load_vault(root, use_cache=False), "Setup 1", "Setup")  # a heading repeating its title goes
    assert plan.notes == ("Home.md: its link to Setup 1.md#Setup 1 now names a heading Setup.md does not have",)


def test_a_merge_keeps_a_tag_line_a_numbered_paragraph_and_a_heading_the_page_lacks(tmp_path: Path) -> None:
    source = "# 1:1 with Ben\n\n#project/apollo #urgent\n\n#1 priority is the billing migration.\n\nShared notes.\n"
    root = make_vault(tmp_path / "v", {"Untitled 1.md": source, "Untitled.md": "# Untitled\n\nShared notes.\n"})
    apply(root, plan_merge(load_vault(root, use_cache=False), "Untitled 1", "Untitled"))
    merged = (root / "Untitled.md").read_text()
    for line in ("# 1:1 with Ben", "#project/apollo #urgent", "#1 priority is the billing migration."):
        assert line in merged


def test_a_merge_renames_a_footnote_the_page_uses_and_ends_a_comment_left_open(tmp_path: Path) -> None:
    into = "# Topic\n\nBoils at 100 C.[^1]\n\n[^1]: Handbook, p. 12.\n\n<!-- TODO: oven temperature\n"
    source = "# Topic\n\nLead melts at 327 C.[^1]\n\n[^1]: Lange, p. 40.\n"
    root = make_vault(tmp_path / "v", {"Topic.md": into, "Topic 1.md": source})
    apply(root, plan_merge(load_vault(root, use_cache=False), "Topic 1", "Topic"))
    text = (root / "Topic.md").read_text()
    merged = "## From Topic 1\n\nLead melts at 327 C.[^1-merged]\n\n[^1-merged]: Lange, p. 40.\n"
    assert text.endswith("<!-- TODO: oven temperature\n-->\n\n" + merged)


def test_a_page_with_toml_front_matter_keeps_it_first(tmp_path: Path) -> None:
    post = '+++\ntitle = "Post"\n+++\n# Post\n\nHello world.\n'
    root = make_vault(tmp_path / "v", {"Post.md": post, "Post 1.md": "# Post\n\nHello world.\n\nA second paragraph.\n"})
    plan = plan_merge(load_vault(root, use_cache=False), "Post 1", "Post")
    apply(root, plan)
    assert (root / "Post.md").read_text() == post + "\n## From Post 1\n\nA second paragraph.\n"
    assert plan.notes == ("Post.md: its front matter is TOML, so Post 1.md's titles and fields were not added to it",)


def test_a_block_id_both_pages_use_is_renamed_with_the_links_to_it(tmp_path: Path) -> None:
    files = {"Quote.md": "# Quote\n\nStay hungry. ^q1\n", "Quote 1.md": "# Quote\n\nStay foolish. ^q1\n"}
    root = make_vault(tmp_path / "v", files | {"Home.md": "![[Quote 1#^q1]] and [[Quote#^q1]]\n"})
    apply(root, plan_merge(load_vault(root, use_cache=False), "Quote 1", "Quote"))
    assert (root / "Quote.md").read_text().endswith("Stay hungry. ^q1\n\n## From Quote 1\n\nStay foolish. ^q1-merged\n")
    assert (root / "Home.md").read_text() == "![[Quote#^q1-merged]] and [[Quote#^q1]]\n"


def test_a_paragraph_both_pages_hold_is_not_carried_because_its_link_to_its_own_page_was_rewritten(
    tmp_path: Path,
) -> None:
    said = "See [the setup](#setup) before the first run; the agent reads it too."
    root = make_vault(
        tmp_path / "v",
        {
            "Context engineering copy.md": f"# Context engineering\n\n{said}\n\n## Setup\n\nInstall it.\n",
            "Context engineering.md": f"# Context engineering\n\n{said}\n\n## Setup\n\nInstall it.\n\nThen run it.\n",
        },
    )
    plan = plan_merge(load_vault(root, use_cache=False), "Context engineering copy", "Context engineering")
    apply(root, plan)
    assert (root / "Context engineering.md").read_text().count("before the first run") == 1


def test_a_block_both_pages_hold_keeps_its_links_and_a_heading_of_its_name_is_no_block(tmp_path: Path) -> None:
    block = "Roll back with the previous image tag. ^rollback"
    files = {
        "runbook copy.md": f"# Runbook\n\n{block}\n\n## rollback\n\nSee above.\n",
        "runbook.md": f"# Runbook\n\n{block}\n\n## rollback\n\nSee above.\n\nCall the on-call.\n",
    }
    home = "[[runbook copy#^rollback]] [[runbook copy#rollback]]\n"
    root = make_vault(tmp_path / "v", files | {"Home.md": home})
    apply(root, plan_merge(load_vault(root, use_cache=False), "runbook copy", "runbook"))
    assert (root / "Home.md").read_text() == "[[runbook#^rollback]] [[runbook#rollback]]\n"
    assert dead_count(root) == 0


def test_a_paragraph_the_other_page_holds_only_in_other_case_is_carried(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "keys old.md": "# Keys\n\nThe deploy token prefix is AbCdEf and the bucket is s3://Prod-Logs/Eu.\n",
            "keys.md": "# Keys\n\nThe deploy token prefix is abcdef and the bucket is s3://prod-logs/eu.\n",
        },
    )
    apply(root, plan_merge(load_vault(root, use_cache=False), "keys old", "keys"))
    merged = (root / "keys.md").read_text()
    assert "AbCdEf and the bucket is s3://Prod-Logs/Eu." in merged  # a token's case is its value
    assert "abcdef and the bucket is s3://prod-logs/eu." in merged


def test_indented_code_differing_in_its_indentation_is_kept(tmp_path: Path) -> None:
    """An attacker's pages: the same loop with `deploy()` inside it or after it, as indented code,
    read as one block, and the merge dropped the source's without a word."""
    into = "# Into\n\nSteps:\n\n    for x in xs:\n        check(x)\n    deploy()\n"
    source = "# Source\n\nSteps:\n\n    for x in xs:\n        check(x)\n        deploy()\n\nNew text.\n"
    root = make_vault(tmp_path / "v", {"Into.md": into, "Source.md": source})
    apply(root, plan_merge(load_vault(root, use_cache=False), "Source", "Into"))
    merged = (root / "Into.md").read_text()
    assert "    for x in xs:\n        check(x)\n        deploy()\n" in merged
    assert "    for x in xs:\n        check(x)\n    deploy()\n" in merged


def test_a_merge_names_the_kept_page_by_its_site_address(tmp_path: Path) -> None:
    """An attacker's site: links to the merged page's permalink (`/install/`) became a repository
    path (`/docs/r/reference`), which the site does not serve."""
    files = {
        "docs/g/install.md": "---\npermalink: /install/\n---\n# Install\n\nSee [the reference](/reference/).\n",
        "docs/r/reference.md": "---\npermalink: /reference/\n---\n# Reference\n\nBack to [install](/install/).\n",
        "docs/home.md": "# Home\n\n- [Install](/install/#steps)\n",
    }
    root = make_vault(tmp_path / "v", files)
    apply(root, plan_merge(load_vault(root, use_cache=False), "docs/g/install.md", "docs/r/reference.md"))
    assert (root / "docs/home.md").read_text() == "# Home\n\n- [Install](/reference/#steps)\n"
    merged = (root / "docs/r/reference.md").read_text()
    assert "Back to [install](/reference/)." in merged and "See [the reference](/reference/)." in merged


def test_a_merge_keeps_the_kept_pages_place_on_its_site(tmp_path: Path) -> None:
    """A new user's just-the-docs site: a merge gave the kept page the source's `grand_parent`, and
    an attacker's the source's `permalink:`, which moved the kept page's address; the section was
    headed by the file's name (`toggl`), not the title the site shows."""
    source = "---\ntitle: Toggl Setup & Upload\nparent: Time Entry\ngrand_parent: Tools\npermalink: /toggl/\n---\n"
    source += "Use Toggl.\n"
    into = "---\ntitle: Time Entry\nparent: Tools\n---\n# Time Entry\n\nLog hours.\n"
    root = make_vault(tmp_path / "v", {"tools/toggl.md": source, "tools/time-entry.md": into})
    apply(root, plan_merge(load_vault(root, use_cache=False), "tools/toggl.md", "tools/time-entry.md"))
    merged = (root / "tools/time-entry.md").read_text()
    header = merged.split("---\n")[1]
    assert "grand_parent" not in header and "permalink" not in header and "parent: Tools" in header
    assert "## From Toggl Setup & Upload\n" in merged and "- permalink: /toggl/" in merged


def test_a_link_to_the_sites_root_from_a_folder_names_the_roots_page(tmp_path: Path) -> None:
    """An attacker's site: `[home](../)` in `guide/README.md` named the guide's own page, so a
    rename of it made the link to the home page a link to itself."""
    files = {"index.md": "# Home\n\n[g](guide/)\n", "guide/README.md": "# Guide\n\n[home](../)\n"}
    root = make_vault(tmp_path / "v", files)
    vault = load_vault(root, use_cache=False)
    assert next(rl for rl in vault.links if rl.source == "guide/README.md").resolution.path == "index.md"


def test_a_stored_reading_an_edit_hid_from_is_dropped_when_a_change_meets_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An attacker's `cp -p`: a page edited with its size and time kept kept its stored reading, and
    every merge after said "changed while the change was planned; run it again". The inode's time
    tells such an edit; where it does not (a file system that keeps none), the change that meets
    the page drops the stored reading."""
    import os

    import curator.core.read.loading as loading

    root = make_vault(
        tmp_path / "v", {"kept.md": "# Kept\n\nbody AAA\n", "old.md": "# Old\n\nold\n", "l.md": "[[old]]"}
    )
    for name in ("kept.md", "old.md", "l.md"):
        os.utime(root / name, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    load_vault(root)  # stores its reading
    stat = (root / "kept.md").stat()
    (root / "kept.md").write_text("# Kept\n\nbody BBB\n")
    os.utime(root / "kept.md", ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with monkeypatch.context() as blind:  # no inode time to go by
        blind.setattr(loading, "_still_valid", lambda row, entry, stored, now: row[:2] == [entry.size, entry.mtime_ns])
        with pytest.raises(EditError, match="changed while the change was planned"):
            plan_merge(load_vault(root), "old", "kept")
        apply(root, plan_merge(load_vault(root), "old", "kept"))  # read anew: no stored reading now
    assert "body BBB" in (root / "kept.md").read_text()
