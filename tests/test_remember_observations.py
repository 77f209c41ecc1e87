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


def note(title: str, permalink: str, body: str) -> str:
    return f"---\ntitle: {title}\ntype: note\npermalink: proj/{permalink}\n---\n\n# {title}\n\n{body}\n"


def vault_of(root: Path, extra: dict[str, str] | None = None) -> Path:
    files = {
        "specs/rid-lifecycle.md": RID,
        "index.md": note(
            "Project Index",
            "index",
            "## Observations\n- [fact] The project reviews specs.\n\n## Relations\n- lists [[RID Lifecycle]]",
        ),
        "knowledge/harvest.md": note(
            "Harvest", "knowledge/harvest", "## Observations\n- [fact] Harvest reads comments out of the documents."
        ),
        "knowledge/export.md": note("Export", "knowledge/export", "## Observations\n- [fact] Export writes a PDF."),
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


def test_a_change_strikes_the_observations_words_and_adds_the_new_one_after_it(tmp_path: Path) -> None:
    """An attacker's: the strike took the item's tags in ("#data~~" was a tag to basic-memory), and a
    new user's: a change followed the old item on its line, after its tag."""
    tagged = RID.replace("GUI #enforcement", "GUI #enforcement #data (2026 spec)")
    root = vault_of(tmp_path / "v", {"specs/rid-lifecycle.md": tagged})
    text = remembered(
        root, "RID lifecycle: the transition table is no longer in constants.py; it now lives in transitions.yaml."
    )
    assert (
        "- [spec] ~~Transition table is data (constants.py), single source of truth shared by CLI and GUI~~"
        " #enforcement #data (2026 spec)\n"
        "- [spec] RID lifecycle: the transition table is no longer in constants.py; it now lives in"
        " transitions.yaml. #enforcement #data\n- [invariant]"
    ) in text


def test_a_page_with_a_history_section_keeps_its_events_there_and_its_facts_as_observations(tmp_path: Path) -> None:
    history = RID.replace("## Relations", "## History\n\n- 2026-07-01: first draft\n\n## Relations")
    root = vault_of(tmp_path / "v", {"specs/rid-lifecycle.md": history})
    text = remembered(root, "On 2026-07-29 the RID lifecycle check crashed on a verified RID without a reviewer.")
    assert "- On 2026-07-29 the RID lifecycle check crashed" in text.split("## History")[1]
    text = remembered(
        root, "The RID lifecycle also allows reopening a verified RID when the reviewer finds a regression."
    )
    assert "- [fact] The RID lifecycle also allows reopening" in text.split("## History")[0]


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


def test_outside_basic_memory_an_observations_section_takes_prose(tmp_path: Path) -> None:
    """An attacker's lab notebook: its "[sample A]" items are its own, no basic-memory's."""
    lab = "# Titration 2026-03\n\n## Observations\n\n- [sample A] turned pink at 12.4 mL\n- [sample B] at 12.9 mL\n"
    root = make_vault(tmp_path / "v", {"titration.md": lab, "other.md": "# Other\n\nCats.\n"})
    text = remembered(root, "In the titration, sample C turned pink at 13.1 mL, later than A and B.")
    assert "[fact]" not in text and "\n\nIn the titration, sample C turned pink" in text


def test_a_relations_section_of_prose_is_no_footer(tmp_path: Path) -> None:
    """Only basic-memory's list of relations ("- implements [[X]]") is back matter a text goes
    before; a database page's "## Relations" of prose takes text as before."""
    from curator.core.curate.placing import _body_end
    from curator.core.read.markdown import lines_of

    prose = "# Orders schema\n\n## Tables\n\n- orders\n\n## Relations\n\norder_lines.order_id references orders.id\n"
    listed = "# RID\n\n## Observations\n- [spec] x\n\n## Relations\n- specifies [[Project Index]]\n"
    root = make_vault(tmp_path / "v", {"a.md": prose, "b.md": listed})
    vault = load_vault(root, use_cache=False)
    for path, text, body in (("a.md", prose, 9), ("b.md", listed, 4)):
        lines = lines_of(text)
        assert _body_end(text, lines, vault.pages[path].headings) == body


def test_what_counts_as_an_observation_is_what_basic_memory_reads() -> None:
    from curator.core.curate.observations import category_of

    read = [
        "- [spec] x",
        "-\t[spec] x",
        "+ [fact] x",
        "1. [fact] x",
        "  * [design decision] x",
        "- [größe] x",
        "- [a] x",
    ]
    unread = ["- [ ] x", "- [x] x", "- [X] x", "- [/] x", "- [>] x", "- [00:01:12] x", "- [a (b)] x", "- [[Link]] x"]
    assert all(category_of(line) for line in read)
    assert not any(category_of(line) for line in unread)


def test_the_texts_own_category_and_list_marker(tmp_path: Path) -> None:
    """A new user's "[gotcha] ..." became "- [fact] [gotcha] ...", and "Gotcha: ..." kept its word
    where the page's items are `[gotcha]`; an attacker's "- The RID ..." kept its dash."""
    from curator.core.curate.observations import observation

    page = ["- [gotcha] Old one #x", "- [spec] Other"]
    assert (
        observation("[decision] The RID keeps withdrawn ones.", False, page)
        == "- [decision] The RID keeps withdrawn ones."
    )
    assert observation("Gotcha: xcodegen drops the plist.", False, page) == "- [gotcha] Xcodegen drops the plist."
    assert observation("Note: xcodegen drops the plist.", False, page) == "- [fact] Note: xcodegen drops the plist."
    assert (
        observation("- The RID keeps  withdrawn\nones.", True, page, "  * ")
        == "  * [event] The RID keeps withdrawn ones."
    )


def test_a_new_page_takes_the_vaults_own_type(tmp_path: Path) -> None:
    """A new user's basic-memory vault types every page `note`: a new page was `system`."""
    root = vault_of(tmp_path / "v")
    vault = load_vault(root, use_cache=False)
    proposal = remember(vault, "Grafana dashboards for the review server live on the ops box at port 3000.")
    assert proposal.plan is not None
    assert "\ntype: note\n" in proposal.plan.changes[0].after.decode()


def test_an_items_continuation_sub_items_code_and_numbers_stay_whole(tmp_path: Path) -> None:
    """An attacker's: a change's new item landed between an item's two lines (taking its
    continuation and tag), under its sub-list, or struck across a code span; a numbered list
    repeated its number; a merge went under a `### Notes` sub-heading."""
    page = RID.replace(
        "- [invariant] Only the reviewer may set verified #closure",
        "- [invariant] Only the reviewer may set verified, and the owner keeps\n  the log of who did #closure\n"
        "  - the moderator counts as reviewer\n"
        "- [spec] Deploys run with `ansible-playbook site.yml --tags #web`",
    ).replace("## Relations", "### Notes\n\nSome notes.\n\n## Relations")
    root = vault_of(tmp_path / "v", {"specs/rid-lifecycle.md": page})
    text = remembered(
        root, "RID lifecycle: the owner no longer keeps the log of who verified; the reviewer keeps it now."
    )
    assert "  - the moderator counts as reviewer\n- [invariant] RID lifecycle: the owner no longer" in text
    assert text.count("#closure") == 2
    root = vault_of(tmp_path / "w", {"specs/rid-lifecycle.md": page})
    text = remembered(
        root, "RID lifecycle deploys no longer run with ansible-playbook site.yml; they run with make deploy."
    )
    assert "- [spec] ~~Deploys run with `ansible-playbook site.yml --tags #web`~~\n" in text
    assert text.count("#web") == 1  # the code span's "#web" is no tag the new item copies
    root = vault_of(tmp_path / "x", {"specs/rid-lifecycle.md": page})
    text = remembered(
        root, "The RID lifecycle also allows reopening a verified RID when the reviewer finds a regression."
    )
    assert text.index("- [fact] The RID lifecycle also allows") < text.index("### Notes")
    numbered = RID.replace("- [spec] A RID", "1. [spec] A RID").replace("- [spec] Transition", "2. [spec] Transition")
    numbered = numbered.replace("- [invariant]", "3. [invariant]")
    root = vault_of(tmp_path / "y", {"specs/rid-lifecycle.md": numbered})
    text = remembered(
        root, "The RID lifecycle also allows reopening a verified RID when the reviewer finds a regression."
    )
    assert "\n4. [fact] The RID lifecycle also allows" in text


def test_a_superseding_page_claims_no_permalink_of_the_old_one(tmp_path: Path) -> None:
    """An attacker's: the new page of a change to a one-fact page got two `permalink:` keys."""
    one = (
        "---\ntitle: VPS Plan\ntype: note\npermalink: proj/vps-plan\n---\n\n"
        "# VPS Plan\n\nThe VPS plan is the CX22 for 4 euros a month.\n"
    )
    root = vault_of(tmp_path / "v", {"vps.md": one})
    vault = load_vault(root, use_cache=False)
    proposal = remember(vault, "The VPS plan no longer costs 4 euros; it has been raised to 5 euros a month.")
    assert proposal.plan is not None
    for change in proposal.plan.changes:
        assert (change.after or b"").count(b"permalink:") <= 1
