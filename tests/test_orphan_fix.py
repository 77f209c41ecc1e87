"""Where the orphan fix links from: the index section named for the page's type, never another orphan."""

from __future__ import annotations

from pathlib import Path

from helpers import NOT_A_STUB, make_vault

from curator.core.check.index_page import index_line
from curator.core.check.pages import link_from_choices, plan_link_from
from curator.core.read.loading import load_vault


def _section_of(text: str, offset: int) -> str:
    headings = [line for line in text[:offset].splitlines() if line.startswith("## ")]
    return headings[-1] if headings else ""


def test_a_topic_goes_under_the_index_topics_section(sample_vault: Path) -> None:
    vault = load_vault(sample_vault)
    assert vault.pages["notes/Vendor call.md"].type == "topic"
    found = index_line(vault, "notes/Vendor call.md", "Vendor call")
    assert found is not None
    index, offset, entry = found
    assert index == "MEMORY.md" and entry == "- [[Vendor call]]\n"
    assert _section_of(vault.text_of(index), offset) == "## Topics"


def test_a_type_section_without_links_yet_takes_the_entry_under_its_heading(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "MEMORY.md": "# Memory\n\n## People\n- [[Ann]]\n\n## Decisions\n\n## Rules\n- keep it short\n",
            "Ann.md": f"---\ntype: person\n---\n{NOT_A_STUB}\n",
            "Use Postgres.md": f"---\ntype: decision\n---\n{NOT_A_STUB}\n",
        },
    )
    vault = load_vault(root)
    found = index_line(vault, "Use Postgres.md", "Use Postgres")
    assert found is not None
    _, offset, _ = found
    assert _section_of(vault.text_of("MEMORY.md"), offset) == "## Decisions"


def test_an_orphan_is_never_offered_as_the_page_to_link_from(sample_vault: Path) -> None:
    vault = load_vault(sample_vault)
    orphans = {p for p in vault.pages if not any(rl.source != p for rl in vault.backlinks(p))}
    orphans.discard(vault.index_page)
    assert len(orphans) >= 2
    for orphan in orphans:
        choices = link_from_choices(vault, orphan)
        assert choices[0] == "MEMORY.md"
        assert not (set(choices) & orphans), (orphan, choices)
    plan = plan_link_from(vault, "notes/Vendor call.md", "MEMORY.md")
    after = (plan.changes[0].after or b"").decode()
    assert _section_of(after, after.index("[[Vendor call]]")) == "## Topics"


def test_an_empty_page_is_never_offered_as_the_page_to_link_from(tmp_path: Path) -> None:
    """A new user's Obsidian vault: the orphan fix offered a 0-byte note (linked, not written yet)."""
    root = make_vault(
        tmp_path / "v",
        {
            "API Design Standards.md": f"# API Design Standards\n\nAPI design rules. {NOT_A_STUB}\n",
            "APIs/API Design.md": "",
            "APIs/API Guide.md": f"# API Guide\n\nAPI design guide for the team. {NOT_A_STUB}\n",
            "hub.md": "[[API Design]] [[API Guide]]\n",
        },
    )
    vault = load_vault(root, use_cache=False)
    choices = link_from_choices(vault, "API Design Standards.md")
    assert "APIs/API Design.md" not in choices and "APIs/API Guide.md" in choices
