"""Dendron's link order: `[[label|target]]`, read so in a Dendron vault (its own files at the root,
or `link_order` set), and kept so by every edit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from curator.core.check.links import fix_link
from curator.core.check.lint import lint
from curator.core.common.errors import ConfigError
from curator.core.read.link_order import wiki_target_span, wikilink
from curator.core.read.loading import load_vault
from curator.core.state.config import load_config
from tests.edit_helpers import merge, rename
from tests.helpers import make_vault

PAGES = {
    "root.md": "# Root\n\nSee [[the recipes|recipes.italian]] and [[dendron://site/recipes.italian#Tiramisu]].\n",
    "recipes.italian.md": "# Italian\n\n## Tiramisu\n\nCoffee, mascarpone.\n",
    "recipes.md": "# Recipes\n\nStart at ![[recipes.italian#tiramisu,1:#*]] or [[Italian food|recipes.italian]].\n",
}


def dead_targets(root: Path) -> list[str]:
    report = lint(root, use_cache=False)
    return sorted(f.data["target"] for f in report.findings if f.rule == "dead-link")


def test_a_dendron_vault_names_its_targets_after_the_label(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {**PAGES, "root.schema.yml": "version: 1\nschemas: []\n"})
    vault = load_vault(root, use_cache=False)
    reached = {(rl.source, rl.link.label, rl.resolution.path) for rl in vault.links}
    assert ("root.md", "the recipes", "recipes.italian.md") in reached
    assert ("root.md", None, "recipes.italian.md") in reached  # dendron://site/ names this vault
    assert ("recipes.md", "Italian food", "recipes.italian.md") in reached
    report = lint(root, use_cache=False)
    assert not [f for f in report.findings if f.rule in ("dead-link", "broken-anchor")]


def test_an_obsidian_vault_reads_the_same_links_target_first(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", PAGES)
    assert dead_targets(root) == ["Italian food", "dendron://site/recipes.italian", "the recipes"]


@pytest.mark.parametrize("marker", ["dendron.yml", "root.schema.yml"])
def test_dendron_files_at_the_root_or_the_setting_choose_the_order(tmp_path: Path, marker: str) -> None:
    root = make_vault(tmp_path / "v", {**PAGES, marker: "version: 5\n"})
    assert load_vault(root, use_cache=False).config.label_first
    set_root = make_vault(tmp_path / "set", {**PAGES, ".curator.toml": 'link_order = "label|target"\n'})
    assert load_vault(set_root, use_cache=False).config.label_first and dead_targets(set_root) == []
    kept = make_vault(tmp_path / "kept", {**PAGES, marker: "", ".curator.toml": 'link_order = "target|label"\n'})
    assert not load_vault(kept, use_cache=False).config.label_first


def test_a_wrong_link_order_is_one_clear_error(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {**PAGES, ".curator.toml": 'link_order = "backwards"\n'})
    with pytest.raises(ConfigError, match=re.escape("""link_order = 'backwards': must be "auto", "target|label" or""")):
        load_config(root)


def test_a_rename_rewrites_the_target_after_the_label(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {**PAGES, "dendron.yml": "version: 5\n"})
    rename(root, "recipes.italian.md", "recipes.cucina.md")
    text = (root / "root.md").read_text(encoding="utf-8")
    assert "[[the recipes|recipes.cucina]]" in text
    assert "[[dendron://site/recipes.cucina#Tiramisu]]" in text
    assert "[[Italian food|recipes.cucina]]" in (root / "recipes.md").read_text(encoding="utf-8")
    assert dead_targets(root) == []


def test_a_dead_links_fix_mends_the_target_not_the_label(tmp_path: Path) -> None:
    pages = {**PAGES, "dendron.yml": "", "other.md": "Read [[Italian|recipes.itallian]].\n"}
    root = make_vault(tmp_path / "v", pages)
    vault = load_vault(root, use_cache=False)
    finding = next(f for f in lint(root, use_cache=False).findings if f.rule == "dead-link")
    fix = fix_link(vault, finding)
    assert fix is not None and fix.after == "[[Italian|recipes.italian]]"


def test_links_are_written_and_cut_in_the_vaults_order() -> None:
    assert wikilink("a.b", "A", label_first=True) == "[[A|a.b]]"
    assert wikilink("a.b", "A", label_first=False) == "[[a.b|A]]"
    assert wikilink("a.b", None, label_first=True) == "[[a.b]]"
    raw = "![[Label|dendron://site/a.b#h,1]]"
    start, end = wiki_target_span(raw, dendron=True)
    assert raw[start:end] == "a.b"
    start, end = wiki_target_span("[[a.b|Label]]")
    assert "[[a.b|Label]]"[start:end] == "a.b"


def many_links(order: str) -> dict[str, str]:
    """A vault of 24 notes whose labelled links are written in `order`, without Dendron's files."""
    notes = {f"topic.n{i}.md": f"# Note {i}\n\nBody of note {i}.\n" for i in range(24)}
    links = " ".join(
        f"[[Note {i}|topic.n{i}]]" if order == "label|target" else f"[[topic.n{i}|Note {i}]]" for i in range(24)
    )
    return {**notes, "hub.md": f"# Hub\n\n{links}\n"}


def test_a_dead_link_that_resolves_read_the_other_way_says_so(tmp_path: Path) -> None:
    """The links do not turn a vault around (links to notes not written yet, or left behind by a
    folder's move, resolve the other way as often); each such dead link names the setting."""
    exported = make_vault(tmp_path / "exported", many_links("label|target"))  # Dendron's files left behind
    assert not load_vault(exported, use_cache=False).config.label_first
    dead = [f for f in lint(exported, use_cache=False).findings if f.rule == "dead-link"]
    assert len(dead) == 24 and all("read as Dendron writes links it names topic.n" in f.message for f in dead)
    assert all("`link_order` in .curator.toml" in f.message for f in dead)
    migrated = make_vault(tmp_path / "migrated", {**many_links("target|label"), "dendron.yml": ""})
    assert load_vault(migrated, use_cache=False).config.label_first
    dead = [f for f in lint(migrated, use_cache=False).findings if f.rule == "dead-link"]
    assert len(dead) == 24 and all("read as Obsidian writes links it names topic.n" in f.message for f in dead)


def test_an_obsidian_vault_gets_no_dendron_reading(tmp_path: Path) -> None:
    """A new user's Obsidian vault: `[[R Package - dplyr|dplyr]]`, a note not written yet with a
    label naming a page, was read as a Dendron link; Obsidian's own vault writes target|label."""
    root = make_vault(tmp_path / "v", {**many_links("label|target"), ".obsidian/app.json": "{}"})
    dead = [f for f in lint(root, use_cache=False).findings if f.rule == "dead-link"]
    assert len(dead) == 24 and not any("Dendron" in f.message for f in dead)


def test_a_wildcard_reference_names_no_page(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {**PAGES, "dendron.yml": "", "recipes.md": "All: ![[recipes.*]]\n"})
    assert dead_targets(root) == []
    assert all("*" not in rl.link.target for rl in load_vault(root, use_cache=False).links)


def test_a_merge_keeps_the_label_first_and_an_anchor_fix_writes_the_slug(tmp_path: Path) -> None:
    pages = {
        **PAGES,
        "dendron.yml": "",
        "old.md": "# Old\n\nOld words.\n",
        "links.md": "See [[old]] and [[Tiramisu|recipes.italian#tiramissu]].\n",
    }
    root = make_vault(tmp_path / "v", pages)
    merge(root, "old.md", "recipes.md")
    assert "See [[old|recipes]]" in (root / "links.md").read_text(encoding="utf-8")
    vault = load_vault(root, use_cache=False)
    finding = next(f for f in lint(root, use_cache=False).findings if f.rule == "broken-anchor")
    fix = fix_link(vault, finding)
    assert fix is not None and fix.after == "[[Tiramisu|recipes.italian#tiramisu]]"


def test_a_long_hierarchy_name_is_no_diary_title(tmp_path: Path) -> None:
    name = "projects.machine-learning.large-language-models.prompting.structured-generation.lmql"
    dated = "projects.meetings.notes from the standup on 2026-07-29"
    root = make_vault(tmp_path / "v", {**PAGES, "dendron.yml": "", f"{name}.md": "# LMQL\n", f"{dated}.md": "x\n"})
    flagged = [f.path for f in lint(root, use_cache=False).findings if f.rule == "diary-title"]
    assert flagged == [f"{dated}.md"]


def test_a_few_labelled_links_to_unwritten_notes_do_not_turn_a_vault_around(tmp_path: Path) -> None:
    future = " ".join(f"[[future {i}|Alpha]]" for i in range(30))
    pages = {"Home.md": "# Home\n", "Alpha.md": "# Alpha\n", "plan.md": f"{future} [[Home|the home page]]\n"}
    root = make_vault(tmp_path / "v", pages)
    assert not load_vault(root, use_cache=False).config.label_first


def test_a_rename_keeps_what_follows_the_target_and_reads_headings_with_spaces(tmp_path: Path) -> None:
    pages = {
        "dendron.yml": "",
        "b.md": "# B\n\n## Step 1: install\n\nx\n",
        "a.md": "[[x|b|c]] [[l|b\\|x]] ![[b#Step 1: install]] ![[lab|b#step-1-install:#*]]\n",
    }
    root = make_vault(tmp_path / "v", pages)
    assert [f.rule for f in lint(root, use_cache=False).findings if f.rule in ("dead-link", "broken-anchor")] == []
    rename(root, "b.md", "newb.md")
    assert (root / "a.md").read_text(encoding="utf-8") == (
        "[[x|newb|c]] [[l|newb\\|x]] ![[newb#Step 1: install]] ![[lab|newb#step-1-install:#*]]\n"
    )


def test_every_dated_note_of_a_dendron_vault_is_one_of_a_series(tmp_path: Path) -> None:
    pages = {**PAGES, "dendron.yml": "", "changelog.release.2021-05-31.md": "x\n", "daily.journal.2021.07.08.md": "y\n"}
    root = make_vault(tmp_path / "v", pages)
    assert [f for f in lint(root, use_cache=False).findings if f.rule == "diary-title"] == []


def test_a_heading_that_ends_in_a_block_id_is_named_without_it(tmp_path: Path) -> None:
    pages = {
        "dendron.yml": "",
        "ml.md": "# ML\n\n### Use in Recommendation Systems ^recsys\n\nText.\n",
        "a.md": "[[Recsys|ml#use-in-recommendation-systems]] and [[Typo|ml#use-in-recommendaton-systems]]\n",
    }
    root = make_vault(tmp_path / "v", pages)
    broken = [f for f in lint(root, use_cache=False).findings if f.rule == "broken-anchor"]
    assert len(broken) == 1
    fix = fix_link(load_vault(root, use_cache=False), broken[0])
    assert fix is not None and fix.after == "[[Typo|ml#use-in-recommendation-systems]]"
