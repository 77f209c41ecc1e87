"""A basic-memory page keeps what was learned as observations (`- [category] text` under `##
Observations`), which basic-memory reads into its graph: a memory joins them as one more, never as
a paragraph after the page's `## Relations` (a new user's vault: every merge went there)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_vault

from curator.core.change.changes import apply
from curator.core.curate.remember import remember
from curator.core.read.loading import load_vault

RID = """---
title: RID Lifecycle
type: spec
permalink: proj/specs/rid-lifecycle
---

# RID Lifecycle

How a review item (RID) moves from open to verified.

## Observations
- [spec] A RID moves open, answered, implemented, verified #lifecycle
- [spec] Transition table is data (constants.py), single source of truth shared by CLI and GUI #enforcement
- [invariant] Only the reviewer may set verified #closure

## Relations
- specifies [[Project Index]]

## Sources
- Design session, 2026-07-03
"""


def note(title: str, body: str) -> str:
    slug = title.lower().replace(" ", "-")
    return f"---\ntitle: {title}\ntype: note\npermalink: proj/{slug}\n---\n\n# {title}\n\n{body}\n"


def vault_of(root: Path, extra: dict[str, str] | None = None) -> Path:
    files = {
        "specs/rid-lifecycle.md": RID,
        "index.md": note(
            "Project Index",
            "## Observations\n- [fact] The project reviews specs.\n\n## Relations\n- lists [[RID Lifecycle]]",
        ),
        "knowledge/harvest.md": note(
            "Harvest", "## Observations\n- [fact] Harvest reads comments out of the documents."
        ),
        **(extra or {}),
    }
    return make_vault(root, files)


def remembered(root: Path, text: str) -> str:
    vault = load_vault(root, use_cache=False)
    proposal = remember(vault, text)
    assert proposal.plan is not None, proposal.reason
    apply(root, proposal.plan)
    return (root / (proposal.page or "")).read_text(encoding="utf-8")


def test_a_fact_joins_the_observations_list(tmp_path: Path) -> None:
    root = vault_of(tmp_path / "v")
    text = remembered(
        root, "The RID lifecycle also allows reopening a verified RID when the reviewer finds the fix regressed."
    )
    observations = text.split("## Observations\n")[1].split("\n\n")[0].splitlines()
    assert observations[-1] == (
        "- [fact] The RID lifecycle also allows reopening a verified RID when the reviewer finds the fix regressed."
    )
    assert len(observations) == 4  # the three it had, and the new one after them
    assert text.split("## Relations\n")[1].startswith("- specifies [[Project Index]]\n\n## Sources")


def test_an_event_is_an_observation_dated(tmp_path: Path) -> None:
    root = vault_of(tmp_path / "v")
    text = remembered(root, "On 2026-07-29 the RID lifecycle check crashed on a verified RID without a reviewer.")
    assert "- [event] On 2026-07-29 the RID lifecycle check crashed" in text.split("## Relations")[0]
    assert "## History" not in text


def test_a_change_strikes_the_observation_and_keeps_its_category(tmp_path: Path) -> None:
    root = vault_of(tmp_path / "v")
    text = remembered(
        root, "RID lifecycle: the transition table is no longer in constants.py; it now lives in transitions.yaml."
    )
    assert "- [spec] ~~Transition table is data (constants.py)" in text


def test_a_page_with_a_history_section_keeps_its_events_there(tmp_path: Path) -> None:
    history = RID.replace("## Relations", "## History\n\n- 2026-07-01: first draft\n\n## Relations")
    root = vault_of(tmp_path / "v", {"specs/rid-lifecycle.md": history})
    text = remembered(root, "On 2026-07-29 the RID lifecycle check crashed on a verified RID without a reviewer.")
    assert "- On 2026-07-29 the RID lifecycle check crashed" in text.split("## History")[1]


def test_a_new_page_keeps_its_text_as_an_observation(tmp_path: Path) -> None:
    root = vault_of(tmp_path / "v")
    vault = load_vault(root, use_cache=False)
    proposal = remember(vault, "Grafana dashboards for the review server live on the ops box at port 3000.")
    assert proposal.decision == "add" and proposal.plan is not None
    apply(root, proposal.plan)
    text = (root / (proposal.page or "")).read_text(encoding="utf-8")
    assert text.endswith(
        "\n## Observations\n- [fact] Grafana dashboards for the review server live on the ops box at port 3000.\n"
    )


def test_tasks_and_links_are_no_observations(tmp_path: Path) -> None:
    """A to-do list under the heading ("- [ ] ...", "- [x] ...") keeps no observations: the text
    is a paragraph, as on any page."""
    todo = (
        RID.replace("- [spec] A RID", "- [ ] A RID")
        .replace("- [spec] Transition", "- [x] Transition")
        .replace("- [invariant] Only", "- [[Harvest]] Only")
    )
    root = vault_of(tmp_path / "v", {"specs/rid-lifecycle.md": todo})
    text = remembered(
        root, "The RID lifecycle also allows reopening a verified RID when the reviewer finds the fix regressed."
    )
    assert "- [fact]" not in text
    assert "\n\nThe RID lifecycle also allows reopening" in text.split("## Relations")[0]


def test_outside_basic_memory_a_new_page_is_prose(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {"a.md": "# A\n\n## Observations\n- [fact] One.\n", "b.md": "# B\n\n## Observations\n- [fact] Two.\n"},
    )
    vault = load_vault(root, use_cache=False)
    proposal = remember(vault, "Grafana dashboards for the review server live on the ops box at port 3000.")
    assert proposal.decision == "add" and proposal.plan is not None
    apply(root, proposal.plan)
    assert "[fact]" not in (root / (proposal.page or "")).read_text(encoding="utf-8")
