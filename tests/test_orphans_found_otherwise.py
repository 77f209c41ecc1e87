"""Pages found without a link are no orphans: an agent's workspace (a new user's OpenClaw vault had
108 orphan warnings in 113 pages) keeps files its harness loads by name, a prose MEMORY.md names
its logs by their absolute paths, and its daily session logs are found by their date."""

from __future__ import annotations

from pathlib import Path

from helpers import make_vault

from curator.core.check.findings import check_vault
from curator.core.read.loading import load_vault
from curator.core.state.config import Config

BODY = "Some text that is long enough to be no stub at all, written out over more than a line. " * 2


def _orphans(root: Path) -> list[str]:
    vault = load_vault(root, Config(rules={"untyped": "off", "stub": "off"}), use_cache=False)
    return sorted(f.path for f in check_vault(vault) if f.rule == "orphan")


def test_an_agents_workspace_has_no_orphans_its_harness_or_index_finds(tmp_path: Path) -> None:
    memory = (
        "# MEMORY.md\n\n## Preferences\n"
        "- Log meals in /home/duane/.openclaw/workspace/memory/food-log.md with EST timestamps.\n"
        "- Sleep goes to ~/workspace/memory/sleep-log.md, symptoms to `memory/symptoms-log.md`.\n"
        "- An example in a fence names nothing:\n```\nmemory/in-a-fence.md\n```\n" + BODY * 20
    )
    root = make_vault(
        tmp_path / "v",
        {
            "MEMORY.md": memory,
            "AGENTS.md": BODY,
            "SOUL.md": BODY,
            "USER.md": BODY,
            "TOOLS.md": BODY,
            "agents/analyst/SOUL.md": BODY,
            "skills/obsidian-append/SKILL.md": BODY,
            "memory/food-log.md": BODY,
            "memory/sleep-log.md": BODY,
            "memory/symptoms-log.md": BODY,
            "memory/in-a-fence.md": BODY,
            **{f"memory/2026-03-{day:02}.md": BODY for day in range(1, 21)},  # a daily series
            "notes/Gateway recovery.md": BODY,
        },
    )
    # Left: a page nothing finds (the fence's example is no mention), and a user's note.
    assert _orphans(root) == ["memory/in-a-fence.md", "notes/Gateway recovery.md"]


def test_a_users_notes_and_users_folder_are_not_loaded_by_name(tmp_path: Path) -> None:
    # `USER.md` is loaded by name, `users.md` and `Soul.md` are notes like any other.
    root = make_vault(
        tmp_path / "v", {"users.md": BODY, "Soul.md": BODY, "USER.md": BODY, "a.md": f"[[b]] {BODY}", "b.md": BODY}
    )
    assert _orphans(root) == ["Soul.md", "users.md"]


def test_a_path_of_another_page_or_a_links_address_names_no_page(tmp_path: Path) -> None:
    memory = "# MEMORY.md\n\n- See /srv/other/memory/lost.md and https://example.com/memory/gone.md.\n" + BODY * 30
    root = make_vault(tmp_path / "v", {"MEMORY.md": memory, "memory/lost-and-found.md": BODY, "memory/gone.md": BODY})
    # `gone.md` is a web address's; `lost.md` is no page of the vault
    assert _orphans(root) == ["memory/gone.md", "memory/lost-and-found.md"]


def test_a_repositorys_front_files_are_found_and_a_skills_notes_are_not(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "README.md": BODY,
            "CHANGELOG.md": BODY,
            "readme-notes.md": BODY,  # a note, not the repository's README
            "docs/README.md": BODY,
            "skills/stocks/SKILL.md": BODY,
            "skills/stocks/final-report.md": BODY,  # no harness loads it by name
        },
    )
    assert _orphans(root) == ["docs/README.md", "readme-notes.md", "skills/stocks/final-report.md"]


def test_a_docs_sites_link_to_a_built_page_finds_its_source(tmp_path: Path) -> None:
    """mdBook, Jekyll and Sphinx publish `x.md` as `x.html`: a link to it is no dead link."""
    root = make_vault(
        tmp_path / "v",
        {
            "a.md": f"See [b](./guide/b.html) and [gone](./gone.html). {BODY}",
            "guide/b.md": BODY,
            "page.html": "<p>x</p>",
        },
    )
    vault = load_vault(root, Config(rules={"untyped": "off"}), use_cache=False)
    assert [rl.resolution.path for rl in vault.outlinks("a.md")] == ["guide/b.md", None]
