"""`curator fix`: the findings that need no choice are fixed, each its own undoable change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from edit_helpers import tree
from helpers import make_vault

from curator.cli.main import main
from curator.core.change.changes import history, undo
from curator.core.check.fixes import fix_for, fixable_findings
from curator.core.common.rules import Finding
from curator.core.read.loading import load_vault


def lint_json(capsys: pytest.CaptureFixture[str], vault: Path, *args: str) -> dict:  # type: ignore[type-arg]
    main(["lint", str(vault), "--format", "json", "--no-cache", *args])
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_fix_dead_links_of_the_sample_vault_and_nothing_else(
    sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = tree(sample_vault)
    assert main(["fix", str(sample_vault), "--rule", "dead-link", "--json"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert [(f["before"], f["after"]) for f in done["fixes"]] == [
        ("[[cert renewal]]", "[[Certificate renewal|cert renewal]]"),
        ("[[Certificate Renewl]]", "[[Certificate renewal]]"),
    ]
    changed = {p for p, data in tree(sample_vault).items() if original.get(p) != data}
    assert changed == {"incidents/Ticket 4711 vom 29.07.2026 - Zertifikat abgelaufen.md"}
    left = lint_json(capsys, sample_vault, "--select", "dead-link")["findings"]
    assert [f["data"]["target"] for f in left] == ["Capacity plan 2027"]  # no suggestion: not fixed
    assert len(lint_json(capsys, sample_vault, "--select", "ambiguous-link")["findings"]) == 1  # other rule untouched
    for fixed in reversed(done["fixes"]):
        assert main(["undo", str(sample_vault), fixed["change"]]) == 0
    assert tree(sample_vault) == original


def test_fix_by_fingerprint_and_dry_run(sample_vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ambiguous = lint_json(capsys, sample_vault, "--select", "ambiguous-link")["findings"][0]
    original = tree(sample_vault)
    assert main(["fix", str(sample_vault), ambiguous["fingerprint"], "--dry-run"]) == 0
    assert "would fix systems/Search cluster.md:9: [[Runbook]] → [[search/Runbook]]" in capsys.readouterr().out
    assert tree(sample_vault) == original
    assert main(["fix", str(sample_vault), ambiguous["fingerprint"]]) == 0
    capsys.readouterr()
    assert lint_json(capsys, sample_vault, "--select", "ambiguous-link")["findings"] == []
    assert "[[search/Runbook]]" in (sample_vault / "systems/Search cluster.md").read_text()


def test_bad_requests_are_one_line_and_change_nothing(sample_vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    original = tree(sample_vault)
    assert main(["fix", str(sample_vault), "--rule", "orphan"]) == 2
    assert "no fix without a choice for 'orphan'" in capsys.readouterr().err
    assert main(["fix", str(sample_vault), "0123456789abcdef"]) == 2
    assert "no finding 0123456789abcdef" in capsys.readouterr().err
    assert tree(sample_vault) == original


def test_a_fix_keeps_label_and_anchor_and_markdown_links_get_a_path(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "notes/Certificate renewal.md": "# Certificate renewal\n\n## Steps\n",
            "Home.md": "See [[Certificat renewal#Steps|the steps]] and [how](Certificat%20renewal.md).\n",
        },
    )
    vault = load_vault(root, use_cache=False)
    fixes = [fix_for(vault, f) for f in fixable_findings(vault)]
    assert [(f.before, f.after) for f in fixes if f] == [
        ("[[Certificat renewal#Steps|the steps]]", "[[Certificate renewal#Steps|the steps]]"),
        ("[how](Certificat%20renewal.md)", "[how](notes/Certificate%20renewal.md)"),
    ]


def test_a_broken_anchor_takes_the_one_close_heading(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "a.md": "# Top\n\n## Setup steps\n\nText ^blk1\n",
            "b.md": "[[a#Setup step]], [x](a.md#setup-step), [[a#^blk2]] and [[a#Nothing like it]].\n",
        },
    )
    original = tree(root)
    vault = load_vault(root, use_cache=False)
    found = {f.message.split(":")[0]: fix_for(vault, f) for f in fixable_findings(vault) if f.rule == "broken-anchor"}
    assert {k: (v.before, v.after) if v else None for k, v in found.items()} == {
        "[[a#Setup step]]": ("[[a#Setup step]]", "[[a#Setup steps]]"),
        "[x](a.md#setup-step)": ("[x](a.md#setup-step)", "[x](a.md#setup-steps)"),
        "[[a#^blk2]]": ("[[a#^blk2]]", "[[a#^blk1]]"),
        "[[a#Nothing like it]]": None,  # nothing close: no fix offered
    }
    assert main(["fix", str(root), "--rule", "broken-anchor"]) == 0
    capsys.readouterr()
    assert (root / "b.md").read_text().startswith("[[a#Setup steps]], [x](a.md#setup-steps), [[a#^blk1]]")
    assert len(lint_json(capsys, root, "--select", "broken-anchor")["findings"]) == 1
    for change in [c.id for c in history(root)]:
        undo(root, change)
    assert tree(root) == original


def test_index_drift_adds_a_line_under_the_section_of_its_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index = "# Memory\n\n## Systems\n- [[Payments]]\n- [[Search]]\n\n## People\n- [[Dana]]\n\nFooter text.\n"
    root = make_vault(
        tmp_path / "v",
        {
            "MEMORY.md": index,
            "systems/Payments.md": "p",
            "systems/Search.md": "s",
            "systems/Billing.md": "b",
            "people/Dana.md": "d",
            "loose/Idea.md": "i",
        },
    )
    original = tree(root)
    assert main(["fix", str(root), "--rule", "index-drift", "--json"]) == 0
    done = json.loads(capsys.readouterr().out)["fixes"]
    assert {f["path"]: f["file"] for f in done} == {"loose/Idea.md": "MEMORY.md", "systems/Billing.md": "MEMORY.md"}
    assert (root / "MEMORY.md").read_text() == (
        "# Memory\n\n## Systems\n- [[Payments]]\n- [[Search]]\n- [[Billing]]\n\n## People\n- [[Dana]]\n\n"
        "Footer text.\n\n- [[Idea]]\n"  # after the paragraph, apart from it
    )
    assert lint_json(capsys, root, "--select", "index-drift")["findings"] == []
    for change in [c.id for c in history(root)]:
        undo(root, change)
    assert tree(root) == original


def test_a_fix_that_only_changes_an_invisible_character_shows_it(tmp_path: Path) -> None:
    from curator.core.check.fixes import plan_fix

    root = make_vault(tmp_path / "v", {"C Pointers.md": "Pointers in C.", "Notes.md": "See [[C\u00a0Pointers]]."})
    vault = load_vault(root, use_cache=False)
    (finding,) = [f for f in fixable_findings(vault) if f.rule == "dead-link"]
    _, plan = plan_fix(vault, finding.fingerprint)
    assert "[[C\\xa0Pointers]] → [[C Pointers]]" in plan.reason


def test_a_broken_anchor_takes_the_heading_that_holds_it_never_a_look_alike(tmp_path: Path) -> None:
    """A heading that grew keeps its links ("Short-Term Scheduling (dispatcher)"); a heading that
    only looks alike ("Long-Term Scheduling", "Step 4" for "Step 3") or holds a link is a choice."""
    root = make_vault(
        tmp_path / "v",
        {
            "os.md": "# OS\n\n## Long-Term Scheduling\n\n## Short-Term Scheduling (dispatcher)\n\n"
            "## println() and print()\n\n## printf()\n\n## Step 4\n\n## Augmented Assignment [[Ops]]\n",
            "Ops.md": "# Ops\n",
            "b.md": "[[os#Short-Term Scheduling]] [[os#print()]] [[os#Step 3]] [[os#Augmented Assignmen]]\n",
        },
    )
    vault = load_vault(root, use_cache=False)
    found = {f.message.split(":")[0]: fix_for(vault, f) for f in fixable_findings(vault) if f.rule == "broken-anchor"}
    assert {k: v.after if v else None for k, v in found.items()} == {
        "[[os#Short-Term Scheduling]]": "[[os#Short-Term Scheduling (dispatcher)]]",
        "[[os#print()]]": "[[os#println() and print()]]",
        "[[os#Step 3]]": None,
        "[[os#Augmented Assignmen]]": None,  # its heading holds a link: [[os#Augmented Assignment [[Ops]]]] is two
    }


def test_a_fix_whose_link_would_read_as_another_is_not_offered(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "Rust Accepting Command Line Arguments].md": "# Rust\n\nText.\n",
            "b.md": "See [[Rust Accepting Command Line Arguments]].\n",
        },
    )
    vault = load_vault(root, use_cache=False)
    (finding,) = [f for f in fixable_findings(vault) if f.rule == "dead-link"]
    assert finding.data.get("did_you_mean") == "Rust Accepting Command Line Arguments]"
    assert fix_for(vault, finding) is None  # [[Rust … Arguments]]] reads as [[Rust … Arguments]] and a ]


def test_fix_mends_a_dead_link_written_twice_on_a_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The second link's fingerprint is renumbered once the first is fixed; both are fixed."""
    root = make_vault(
        tmp_path / "v",
        {
            "Certificate renewal.md": "# Certificate renewal\n\nText.\n",
            "b.md": "[[Certificat renewal]] and [[Certificat renewal]].\n",
        },
    )
    assert main(["fix", str(root)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.count("fixed b.md:1") == 2, (out, err)
    assert (root / "b.md").read_text() == "[[Certificate renewal]] and [[Certificate renewal]].\n"


def test_fix_mends_three_links_of_one_target_each_as_offered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Once the first is fixed the third has the second's fingerprint: each fix still lands on
    the link it was offered for, and the run ends."""
    root = make_vault(
        tmp_path / "v",
        {
            "proj.alpha.md": "---\naliases: [alf]\n---\n# Alpha\n",
            "home.md": "A [[alf]] and [[alf|my label]] and [[alf|other]] here.\n",
        },
    )
    assert main(["fix", str(root)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.count("fixed home.md:1") == 3, (out, err)
    assert (root / "home.md").read_text() == (
        "A [[proj.alpha|alf]] and [[proj.alpha|my label]] and [[proj.alpha|other]] here.\n"
    )


def test_a_missing_picture_is_never_fixed_into_a_page_of_its_name(tmp_path: Path) -> None:
    """On a real vault `![x](../Images/X.png)`, its picture missing, was 'fixed' to the page
    `../Summaries/X.md`: an embedded page where the author meant an image."""
    root = make_vault(
        tmp_path / "v",
        {
            "Background/Renaissance.md": "# Renaissance\n\n![Powerhouse](../Images/Modernizing_a_Web_Powerhouse.png)\n",
            "Summaries/Modernizing_a_Web_Powerhouse.md": "# Modernizing a Web Powerhouse\n\nA summary.\n",
            "Notes/Other.md": "# Other\n\nSee [[Modernizing_a_Web_Powerhous]].\n",
        },
    )
    vault = load_vault(root, use_cache=False)
    fixed = {f.path for f in fixable_findings(vault) if fix_for(vault, f) is not None}
    assert fixed == {"Notes/Other.md"}  # a page's name with a typo is still fixed


def test_a_guess_is_fixed_only_for_a_name_long_enough_and_keeps_the_words_the_reader_sees(tmp_path: Path) -> None:
    """A new user's vault: `[[Claude]]` was to become `[[Clause]]` (a logic lecture), and
    `[[Lineare Gleichungssysteme]]` lost the plural the sentence is written with."""
    root = make_vault(
        tmp_path / "v",
        {
            "Clause.md": "# Clause\n\nA disjunction of literals.\n",
            "Lineares Gleichungssystem.md": "# Lineares Gleichungssystem\n\nGauß löst es.\n",
            "Certificate renewal.md": "# Certificate renewal\n\nText.\n",
            "b.md": "Ask [[Claude]]. Solve [[Lineare Gleichungssysteme]]. See [[Certificat renewal]].\n",
        },
    )
    vault = load_vault(root, use_cache=False)
    fixes = {f.before: f.after for f in (fix_for(vault, x) for x in fixable_findings(vault)) if f is not None}
    assert fixes == {
        "[[Lineare Gleichungssysteme]]": "[[Lineares Gleichungssystem|Lineare Gleichungssysteme]]",
        "[[Certificat renewal]]": "[[Certificate renewal]]",
    }


def test_a_label_added_in_a_table_row_escapes_its_bar(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "proj.alpha.md": "---\naliases: [alf]\n---\n# Alpha\n",
            "home.md": "| page | note |\n|---|---|\n| [[alf]] | one |\n\nAnd [[alf]] in prose.\n",
        },
    )
    assert main(["fix", str(root)]) == 0
    assert (root / "home.md").read_text() == (
        "| page | note |\n|---|---|\n| [[proj.alpha\\|alf]] | one |\n\nAnd [[proj.alpha|alf]] in prose.\n"
    )


def lint_findings(root: Path) -> list[Finding]:
    from curator.core.check.lint import lint

    return lint(root, use_cache=False).findings


def test_anchors_name_a_heading_by_its_links_words_and_a_site_path_is_never_guessed(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "art.md": (
                "# Art\n\n## [Make it server-proof](https://example.com/x#y)\n\nText.\n\n"
                "## [Link to heading](#making-assets-load)Making assets load\n\nMore.\n"
            ),
            "React Compiler.md": "# React Compiler\n",
            "b.md": "[[art#make-it-server-proof]] [[art#making-assets-load]] [[art#making-asets-load]]\n"
            "[[art#make-it-server-prof]] [c](/blog/react-compiler)\n",
        },
    )
    broken = [f.message for f in lint_findings(root) if f.rule == "broken-anchor"]
    assert len(broken) == 2 and all("prof" in m or "asets" in m for m in broken), broken
    assert main(["fix", str(root)]) == 0
    assert (root / "b.md").read_text() == (  # a heading that holds a link is not guessed at
        "[[art#make-it-server-proof]] [[art#making-assets-load]] [[art#making-asets-load]]\n"
        "[[art#make-it-server-prof]] [c](/blog/react-compiler)\n"
    )


def test_no_fix_guesses_at_a_link_that_names_a_page_read_the_other_way_or_changes_nothing(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "alpha.md": "# Alpha\n",
            "Meeting notes.md": "# Meeting notes\n",
            "a.md": "# A\n\n## Setup {#sid} ^blk\n\n[[#Setup]] [[Meeting note|alpha]]\n",
        },
    )
    rules = [f.rule for f in lint_findings(root)]
    assert "broken-anchor" not in rules and rules.count("dead-link") == 1
    before = tree(root)
    assert main(["fix", str(root)]) == 0
    assert tree(root) == before


def test_a_path_link_is_fixed_only_to_a_page_in_the_folder_it_names(tmp_path: Path) -> None:
    """A new user's Wiki.js wiki: `./Netzwerk/Hardware` was "fixed" to `Allgemein/Hardware.md` without a choice."""
    vault = load_vault(
        make_vault(
            tmp_path / "v",
            {
                "Allgemein/Hardware.md": "# Hardware\n",
                "Netzwerk/Switches.md": "# Switches\n",
                "Netzwerk.md": "[Öffnen](./Netzwerk/Hardware)\n",
            },
        ),
        use_cache=False,
    )
    dead = [f for f in fixable_findings(vault) if f.rule == "dead-link"]
    assert len(dead) == 1 and fix_for(vault, dead[0]) is None  # a choice: the folder it names has no such page


def test_index_drift_never_splits_a_sentence_of_the_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An attacker's MEMORY.md names its pages in a paragraph: `- [[dave]]` went after the last
    line with a link, inside the sentence, and the paragraph's rest became part of the list item."""
    memory = "# Memory\n\nI talked to [[alice]] about\nthe plan, and [[bob]] agreed\nwith [[carol]] on the\n"
    memory += "details, which matter.\n\nMore prose after.\n"
    pages = {f"{n}.md": f"# {n}\n\nFacts about {n} kept for the agent.\n" for n in ("alice", "bob", "carol", "dave")}
    root = make_vault(tmp_path / "v", {"MEMORY.md": memory, **pages})
    assert main(["fix", str(root), "--rule", "index-drift"]) == 0
    assert (root / "MEMORY.md").read_text() == memory.replace("matter.\n\n", "matter.\n\n- [[dave]]\n\n")
