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
from tests.edit_helpers import rename
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
    assert load_config(root).label_first
    set_root = make_vault(tmp_path / "set", {**PAGES, ".curator.toml": 'link_order = "label|target"\n'})
    assert load_config(set_root).label_first and dead_targets(set_root) == []
    kept = make_vault(tmp_path / "kept", {**PAGES, marker: "", ".curator.toml": 'link_order = "target|label"\n'})
    assert not load_config(kept).label_first


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
