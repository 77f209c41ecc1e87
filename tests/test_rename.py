"""Rename: every link form rewritten in its own style, nothing else touched, refusals change nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from edit_helpers import dead_count, rename, tree
from helpers import make_vault

from curator.core.change.changes import apply
from curator.core.change.edits import plan_rename
from curator.core.common.errors import EditError
from curator.core.read.loading import load_vault

HOME = """\
---
title: Home
related: "[[Old page]]"
---
# Home
- [[Old page]] and [[Old page|the label]] and [[Old page#Head|x]] and ![[Old page#^blk]]
- [[notes/Old page]] and [[./notes/Old page.md]] and [[/notes/Old page]]
- [md](notes/Old%20page.md#Head) and [ang](<notes/Old page.md>) and [name](Old%20page.md)
- code stays: `[[Old page]]`

```
[[Old page]]
```
"""
OLD = """\
---
type: topic  # the kind of page
tags: [a, b]
---
# Head
Back to [home](../Home.md) or [[./sibling]]; see [[#Head]] and [[Old page#Head]].
A block. ^blk
"""


def vault_files() -> dict[str, str | bytes]:
    return {
        "Home.md": HOME,
        "notes/Old page.md": OLD,
        "notes/sibling.md": "[[Old page]]\n",
        "deep/er/x.md": "[up](../../notes/Old%20page.md)\n",
    }


def test_every_link_form_is_rewritten_in_its_own_style(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", vault_files())
    plan = plan_rename(load_vault(root, use_cache=False), "Old page", "archive/2026/New page")
    apply(root, plan)
    home = (root / "Home.md").read_text()
    assert home == (
        HOME.replace('related: "[[Old page]]"', 'related: "[[New page]]"')
        .replace(
            "- [[Old page]] and [[Old page|the label]] and [[Old page#Head|x]] and ![[Old page#^blk]]",
            "- [[New page]] and [[New page|the label]] and [[New page#Head|x]] and ![[New page#^blk]]",
        )
        .replace(
            "- [[notes/Old page]] and [[./notes/Old page.md]] and [[/notes/Old page]]",
            "- [[archive/2026/New page]] and [[./archive/2026/New page.md]] and [[/archive/2026/New page]]",
        )
        .replace(
            "- [md](notes/Old%20page.md#Head) and [ang](<notes/Old page.md>) and [name](Old%20page.md)",
            "- [md](archive/2026/New%20page.md#Head) and [ang](<archive/2026/New page.md>) and [name](New%20page.md)",
        )
    )
    assert (root / "notes/sibling.md").read_text() == "[[New page]]\n"
    assert (root / "deep/er/x.md").read_text() == "[up](../../archive/2026/New%20page.md)\n"
    moved = (root / "archive/2026/New page.md").read_text()
    assert moved == (
        "---\ntype: topic  # the kind of page\ntags: [a, b]\naliases:\n  - Old page\n---\n# Head\n"
        "Back to [home](../../Home.md) or [[./../../notes/sibling]]; see [[#Head]] and [[New page#Head]].\n"
        "A block. ^blk\n"
    ).replace("[[./../../notes/sibling]]", "[[../../notes/sibling]]")
    assert not (root / "notes/Old page.md").exists()
    assert dead_count(root) == 0


def test_links_that_resolved_keep_resolving_and_ambiguity_is_made_explicit(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {"a/New.md": "x", "b/Old.md": "x", "b/x.md": "[[New]] and [[Old]]", "c/y.md": "[[New]]"},
    )
    plan = plan_rename(load_vault(root, use_cache=False), "b/Old.md", "New")
    apply(root, plan)
    # [[New]] from b/ meant a/New.md; the renamed b/New.md is nearer now, so it is written out, and
    # every link that the new name would make ambiguous is written as a path too.
    assert (root / "b/x.md").read_text() == "[[a/New]] and [[b/New]]"
    assert (root / "c/y.md").read_text() == "[[a/New]]"
    vault = load_vault(root, use_cache=False)
    targets = {(rl.source, rl.link.target): rl.resolution for rl in vault.links}
    assert targets[("b/x.md", "a/New")].path == "a/New.md"
    assert targets[("b/x.md", "b/New")].path == "b/New.md"
    assert targets[("c/y.md", "a/New")].path == "a/New.md"
    assert not any(r.candidates for r in targets.values())


def test_case_only_rename(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"javascript.md": "# JS\n", "a.md": "[[javascript]]"})
    apply(root, plan_rename(load_vault(root, use_cache=False), "javascript", "JavaScript"))
    assert sorted(p.name for p in root.glob("*.md")) == ["JavaScript.md", "a.md"]
    assert (root / "JavaScript.md").read_text() == "# JS\n"  # no alias: links match titles case-insensitively
    assert (root / "a.md").read_text() == "[[JavaScript]]"


def test_alias_added_without_frontmatter_and_with_crlf(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"Old.md": b"line one\r\nline two\r\n", "a.md": "[[Old]]"})
    apply(root, plan_rename(load_vault(root, use_cache=False), "Old", "New"))
    assert (root / "New.md").read_bytes() == b"---\r\naliases:\r\n  - Old\r\n---\r\nline one\r\nline two\r\n"


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("Old", "Taken", "already exists"),
        ("Old", "../outside", "inside the vault"),
        ("Old", "/etc/passwd", "inside the vault"),
        ("Old", "a:b", "not allowed"),
        ("Old", "x#y", "not allowed"),
        ("Old", "[x]", "not allowed"),
        ("Old", "sub/../x", "not a usable"),
        ("Old", "", "inside the vault"),
        ("Missing", "New", "no page"),
        ("Twin", "New", "names 2 pages"),
        ("Old", "Old", "already has that name"),
    ],
)
def test_refusals_change_nothing(tmp_path: Path, old: str, new: str, says: str) -> None:
    root = make_vault(
        tmp_path / "v",
        {"Old.md": "x", "Taken.md": "y", "a/Twin.md": "1", "b/Twin.md": "2", "l.md": "[[Old]] [[Twin]]"},
    )
    before = tree(root)
    with pytest.raises(EditError) as raised:
        plan_rename(load_vault(root, use_cache=False), old, new)
    assert says in str(raised.value)
    assert tree(root) == before


def test_links_pointing_outside_are_left_alone_and_nothing_outside_is_written(tmp_path: Path) -> None:
    outside = tmp_path / "somewhere"
    outside.mkdir()
    (outside / "x.md").write_text("outside")
    root = make_vault(tmp_path / "vault" / "inner", {"Old.md": "[o](../../somewhere/x.md) [[../../somewhere/x]]"})
    plan = plan_rename(load_vault(root, use_cache=False), "Old", "deeper/New")
    apply(root, plan)
    assert (outside / "x.md").read_text() == "outside"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["somewhere", "vault"]
    assert all(c.path.startswith("deeper/") or c.path == "Old.md" for c in plan.changes)


def test_a_page_changed_after_planning_is_not_overwritten(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"Old.md": "x", "a.md": "[[Old]]"})
    plan = plan_rename(load_vault(root, use_cache=False), "Old", "New")
    (root / "a.md").write_text("[[Old]] and a new thought")
    with pytest.raises(EditError, match="changed since"):
        apply(root, plan)
    assert (root / "a.md").read_text() == "[[Old]] and a new thought"
    assert (root / "Old.md").exists() and not (root / "New.md").exists()


def test_a_rename_onto_a_page_that_differs_in_case_only_is_refused(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"Notes/MaaS.md": "the concept\n", "Notes/MAAS.md": "the product\n"})
    with pytest.raises(EditError, match=r"Notes/MAAS\.md already exists"):
        plan_rename(load_vault(root, use_cache=False), "Notes/MaaS.md", "MAAS")


def test_a_page_curator_did_not_read_is_not_renamed_or_merged(tmp_path: Path) -> None:
    """A page over `max_page_bytes` is reported, not parsed; a change to it is refused, not parsed anyway."""
    root = make_vault(
        tmp_path / "v",
        {
            "big.md": "# Big\n\n" + "word " * 400,
            "small.md": "# Small\n\n[[big]]\n",
            ".curator.toml": "max_page_bytes = 1000\n",
        },
    )
    from curator.core.change.merging import plan_merge

    vault = load_vault(root, use_cache=False)
    assert vault.pages["big.md"].unreadable
    with pytest.raises(EditError, match=r"big.md was not read .*nothing was changed"):
        plan_rename(vault, "big", "Huge")
    with pytest.raises(EditError, match=r"big.md was not read"):
        plan_merge(vault, "small", "big")


def test_a_page_is_named_by_its_heading_only_in_the_refusal(tmp_path: Path) -> None:
    """`remember` names a new page `Tiago-plays.md` and heads it "Tiago plays": a new user renamed it
    by its heading; an attacker's journal note headed "# Proxmox" was renamed for the page the alias
    Proxmox names. A heading finds no page; the refusal names the pages so headed."""
    root = make_vault(
        tmp_path / "v",
        {
            "Tiago-plays.md": "# Tiago plays\n\nPadel on Wednesdays.\n",
            "hosts/pve-01.md": "---\naliases: [Proxmox]\n---\n# pve-01\n",
            "journal/2026-05-02.md": "# Proxmox\n\nUpdated [[Proxmox]].\n",
        },
    )
    before = tree(root)
    with pytest.raises(
        EditError, match=r"no page 'Tiago plays' in the vault \(headed so: Tiago-plays\.md; give its path\)"
    ):
        plan_rename(load_vault(root), "Tiago plays", "Padel")
    with pytest.raises(EditError, match="no page 'Proxmox'"):
        plan_rename(load_vault(root), "Proxmox", "Proxmox host")
    assert tree(root) == before


def test_a_sites_addresses_keep_their_form_through_a_rename(tmp_path: Path) -> None:
    """An attacker's Jekyll site: moving a page rewrote its own links to other pages' permalinks
    (`/alpha/` became `/docs/a/alpha`), an address from the site's root lost the folder the site is
    served from and its language prefix (`/de/guide/install/` became `/docs/guide/setup`), and links
    to a folder's page lost the folder (`guide/` became `Overview`)."""
    root = make_vault(
        tmp_path / "v",
        {
            "docs/a/alpha.md": "---\npermalink: /alpha/\n---\n# Alpha\n\nAlpha text.\n",
            "docs/b/beta.md": "# Beta\n\nSee [alpha](/alpha/), [in](/guide/install/) and [de](/de/guide/install/).\n",
            "docs/guide/install.md": "# Install\n\nSteps.\n",
            "docs/guide/README.md": "# Guide\n\nThe guide.\n",
            "docs/home.md": "# Home\n\n[g1](guide/) [g2](guide/index.html) [g3](./guide)\n",
        },
    )
    rename(root, "beta", "docs/c/beta")
    rename(root, "install", "setup")
    moved = (root / "docs/c/beta.md").read_text()
    assert "[alpha](/alpha/), [in](/guide/setup/) and [de](/de/guide/setup/)" in moved
    rename(root, "docs/guide/README.md", "docs/guide/Overview")
    assert "[g1](guide/Overview) [g2](guide/Overview.html) [g3](guide/Overview)" in (root / "docs/home.md").read_text()
    assert dead_count(root) == 0


def test_two_pages_giving_one_address_make_its_links_ambiguous_and_a_rename_keeps_them(tmp_path: Path) -> None:
    """An attacker's site: two pages with `permalink: /x/`; which answered `[x](/x/)` hung on the
    order pages were read in (the cache's or not), no rule said so, and renaming the one it named
    moved the link to the other without a word."""
    from curator.core.check.findings import check_vault

    files = {
        "alpha.md": "---\npermalink: /x/\n---\n# Alpha\n",
        "mid.md": "---\npermalink: /x/\n---\n# Mid\n",
        "home.md": "# Home\n\nSee [x](/x/).\n",
    }
    root = make_vault(tmp_path / "v", files)
    vault = load_vault(root, use_cache=False)
    assert [(f.rule, f.path) for f in check_vault(vault) if f.rule == "ambiguous-link"] == [
        ("ambiguous-link", "home.md")
    ]
    assert next(rl for rl in vault.links if rl.source == "home.md").resolution.path == "alpha.md"
    rename(root, "alpha", "zeta")
    after = load_vault(root, use_cache=False)
    assert next(rl for rl in after.links if rl.source == "home.md").resolution.path == "zeta.md"


def test_a_link_to_a_heading_of_its_own_page_stays_as_written(tmp_path: Path) -> None:
    """A new user's Jekyll site: a rename turned `[x](#labor-note-requirements)` into
    `(Timesheets#labor-note-requirements)`, an address the site does not serve."""
    files = {"Gamma.md": "# Gamma\n\nSee [below](#details) and [[#Details]].\n\n## Details\n\nText.\n"}
    root = make_vault(tmp_path / "v", {**files, "Home.md": "# Home\n\n[g](Gamma.md#details)\n"})
    rename(root, "Gamma", "Delta")
    assert "See [below](#details) and [[#Details]]." in (root / "Delta.md").read_text()
    assert (root / "Home.md").read_text() == "# Home\n\n[g](Delta.md#details)\n"
