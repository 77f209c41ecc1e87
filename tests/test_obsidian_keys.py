"""Obsidian reads `Aliases:`, `Alias:` and `Tags:` as it reads `aliases` and `tags` (a new user's
vault: a thousand pages keep them capitalised; their aliases named nothing, their tags matched no
query, and a rename added a second, lowercase `aliases:` beside `Aliases:`)."""

from __future__ import annotations

from pathlib import Path

from edit_helpers import rename
from helpers import make_vault

from curator.core.read.loading import load_vault
from curator.core.read.query import run


def test_capitalised_alias_and_tag_keys_are_read(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            ".curator.toml": "resolve_aliases = true\n",
            "dism.md": "---\nAliases: [Deployment Image Servicing]\nTags: [Type/Tool]\n---\n# DISM\n",
            "cleanup.md": "---\nAlias: Disk Cleanup\nTag: Type/Tool\n---\n# Cleanup\n",
            "a.md": "# A\n\n[[Deployment Image Servicing]] [[Disk Cleanup]]\n",
        },
    )
    vault = load_vault(root, use_cache=False)
    assert vault.pages["dism.md"].aliases == ("Deployment Image Servicing",)
    assert [(rl.resolution.kind, rl.resolution.path) for rl in vault.links] == [
        ("page", "dism.md"),
        ("page", "cleanup.md"),
    ]
    assert sorted(run(vault, "tag:Type/Tool").pages) == ["cleanup.md", "dism.md"]


def test_a_rename_adds_to_the_alias_key_the_page_has(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"dism.md": "---\nAliases:\n  - DISM tool\n---\n# DISM\n", "a.md": "[[dism]]\n"})
    rename(root, "dism.md", "Cmd - DISM.md")
    text = (root / "Cmd - DISM.md").read_text(encoding="utf-8")
    assert text.startswith("---\nAliases:\n  - DISM tool\n  - dism\n---\n")
    assert "aliases:" not in text


def test_a_merge_joins_tags_under_the_key_the_kept_page_has(tmp_path: Path) -> None:
    """An attacker's: `Tags:` of the merged page was copied beside the kept page's `tags:`, and
    neither was read after (a second merge added `TAGS:`)."""
    from edit_helpers import merge

    root = make_vault(
        tmp_path / "v",
        {
            "alpha.md": "---\r\ntags: [project]\r\n---\r\n# Alpha\r\n",
            "beta.md": "---\nTags: [urgent, work]\n---\n# Beta\n",
        },
    )
    merge(root, "beta.md", "alpha.md")
    text = (root / "alpha.md").read_text(encoding="utf-8")
    assert "Tags:" not in text
    assert sorted(run(load_vault(root, use_cache=False), "tag:urgent").pages) == ["alpha.md"]
