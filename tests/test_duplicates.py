"""The duplicate rule: text and identity evidence, and the pages that are never duplicates."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from helpers import make_vault
from hypothesis import given
from hypothesis import strategies as st

from curator.core.check.findings import check_vault
from curator.core.meaning import page_reads
from curator.core.meaning.duplicates import Duplicate, find
from curator.core.meaning.page_names import title_key
from curator.core.read.loading import load_vault
from curator.core.read.markdown import without_comments
from curator.core.read.titles import dated
from curator.core.state.config import load_config

PROSE = (
    "The replication lag on the reporting replica grows whenever the nightly export holds a long "
    "transaction open, because vacuum cannot remove the rows the export still sees. We moved the "
    "export to a snapshot taken from the backup, so the replica keeps up, and the dashboards that "
    "read from it show numbers at most a minute old. Alerts fire when the lag passes five minutes."
)
OTHER_PROSE = (
    "Our onboarding checklist asks every new engineer to pair with the on-call person for a week, "
    "to read the last three postmortems, and to ship one small change on their second day. Laptops "
    "arrive with the toolchain installed from the provisioning script; access requests go through "
    "the identity portal and are approved by the team lead within a day of the start date."
)


def found(root: Path) -> list[Duplicate]:
    return find(load_vault(root, load_config(root), use_cache=False))


def pairs(root: Path) -> set[tuple[str, str]]:
    return {(d.page, d.other) for d in found(root)}


def test_a_file_manager_copy_is_merged_into_its_original(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v", {"Replica lag.md": PROSE, "Replica lag 1.md": PROSE, "Onboarding.md": OTHER_PROSE}
    )
    (duplicate,) = found(root)
    assert (duplicate.page, duplicate.other) == ("Replica lag 1.md", "Replica lag.md")
    assert duplicate.fix == "merge"
    assert "the same text" in duplicate.evidence


def test_a_file_manager_copy_is_found_when_a_third_copy_makes_its_text_look_like_a_template(tmp_path: Path) -> None:
    dated = "---\nupdate: 2025-03-17\n---\n"
    root = make_vault(
        tmp_path / "v",
        {
            "docs/3 gewinnt.md": dated + PROSE,
            "docs/3 gewinnt - Kopie.md": dated.replace("03-17", "05-27") + PROSE,  # Windows' copy, re-saved
            "drafts/3 gewinnt.md": dated + PROSE,
            "docs/Onboarding.md": OTHER_PROSE,
        },
    )
    assert ("docs/3 gewinnt - Kopie.md", "docs/3 gewinnt.md") in pairs(root)


def test_one_rules_file_copied_into_each_agents_folder_is_one_file_kept_four_times(tmp_path: Path) -> None:
    rules = "# Sub-agent rules\n\n" + PROSE * 3 + "\n\n" + OTHER_PROSE * 2
    agents = ("coder", "writer", "scout", "reviewer")
    files = {f"agents/{agent}/AGENTS.md": rules for agent in agents} | {"shared/AGENTS.md": rules}
    files |= {f"apps/{app}/README.md": rules + "\n" for app in ("a", "b", "c")}  # a generator's README in each app
    files |= {f"templates/{kind}/template.md": rules + "\n\n" for kind in ("person", "place", "tool")}
    files |= {f"docs/{lang}/start.md": rules + "\n\n\n" for lang in ("en", "de", "fr", "ja")}  # untranslated
    files |= {f"versions/v{n}/install.md": rules + "\n\n\n\n" for n in range(1, 5)}
    files |= {f"ops/{name}.md": rules + "\n" * 5 for name in ("incident-review", "review", "postmortem", "README")}
    assert pairs(make_vault(tmp_path / "v", files)) == {  # a README among copies leaves the others copies
        *((f"agents/{agent}/AGENTS.md", "shared/AGENTS.md") for agent in agents),
        ("ops/incident-review.md", "ops/postmortem.md"),
        ("ops/incident-review.md", "ops/review.md"),
    }


def test_a_page_held_in_a_larger_one_says_how_much(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v", {"Lag.md": PROSE, "Database operations.md": OTHER_PROSE + "\n\n## Lag\n\n" + PROSE}
    )
    (duplicate,) = found(root)
    assert (duplicate.page, duplicate.other) == ("Lag.md", "Database operations.md")
    assert duplicate.kinds == ("contained",)
    assert duplicate.evidence == ("Database operations.md holds 100% of the text of Lag.md",)
    assert duplicate.contained == 1.0


def test_two_pages_on_different_subjects_are_not_duplicates(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"Lag.md": PROSE, "Onboarding.md": OTHER_PROSE})
    assert found(root) == []


def test_a_short_page_is_no_evidence_however_alike(tmp_path: Path) -> None:
    short = "Restart the worker when the queue stalls."
    root = make_vault(tmp_path / "v", {"Stall.md": short, "Queue stall.md": short + " Then check the logs."})
    assert found(root) == []


def test_the_same_text_under_two_meant_names_is_an_edit_not_a_merge(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"Replica lag.md": PROSE, "Onboarding.md": PROSE})
    (duplicate,) = found(root)
    assert duplicate.fix == "edit"


def test_a_retitled_catalogue_entry_is_one_title(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "Themes/RedShift - OLED Blue Light Filter.md": "A dark theme. Downloads: 120",
            "Themes/RedShift_ OLED blue light filter.md": "A dark theme. Downloads: 300",
            "Themes/Minimal.md": "Another theme.",
        },
    )
    (duplicate,) = found(root)
    assert duplicate.kinds == ("title",)
    assert duplicate.evidence == ("same title 'redshift oled blue light filter'",)


def test_title_key_folds_case_separators_and_copy_suffixes() -> None:
    assert title_key("RedShift - OLED Blue Light Filter") == title_key("redshift: oled blue light filter")
    assert title_key("Notes (2)") == title_key("Notes 1") == "notes"
    assert title_key("C++ Set") != title_key("C++ Unordered Set")


def test_one_short_page_kept_under_its_name_in_two_orders_is_one_page(tmp_path: Path) -> None:
    table = "# Prisma vs Drizzle\n\n| Aspect | Prisma | Drizzle |\n| --- | --- | --- |\n| Schema | DSL | TypeScript |\n"
    root = make_vault(
        tmp_path / "v",
        {
            "theory/Drizzle_vs_Prisma.md": table,
            "theory/Prisma_vs_Drizzle.md": table,
            "theory/Prisma.md": "An ORM.",
            "cup/Liverpool vs Barcelona.md": "# First leg\n\nAnfield, 3-0.\n",  # two matches, not one
            "cup/Barcelona vs Liverpool.md": "# Second leg\n\nCamp Nou, 0-4.\n",
            "debts/Alice owes Bob.md": "Settle by Friday.\n",  # turned round, another thing
            "debts/Bob owes Alice.md": "Settle by Friday.\n",
        },
    )
    (duplicate,) = found(root)  # too short for a byte-identical copy on its text alone (a stub's "TODO")
    assert (duplicate.page, duplicate.other) == ("theory/Drizzle_vs_Prisma.md", "theory/Prisma_vs_Drizzle.md")
    assert duplicate.fix == "merge"
    assert "same title 'Drizzle_vs_Prisma' read as 'Prisma_vs_Drizzle'" in duplicate.evidence


def test_one_person_under_two_account_names_is_the_same_name_and_website(tmp_path: Path) -> None:
    person = "---\naliases: [Valentine]\n---\n# Valentine\n\nWebsite: https://example.org/valentine\n"
    root = make_vault(
        tmp_path / "v",
        {"People/javalent.md": person + "Plugins: a", "People/valentine195.md": person + "Plugins: b"},
    )
    (duplicate,) = found(root)
    assert set(duplicate.kinds) == {"address", "name"}
    assert "same address example.org/valentine" in duplicate.evidence


def test_one_paper_entered_under_two_citekeys_is_one_doi(tmp_path: Path) -> None:
    def paper(key: str, doi: str) -> str:
        title = "Alternative influence networks"
        return f'---\ntitle: "{title}"\ndoi: {doi}\nbibtex_key: {key}\n---\n# {title}\n'

    root = make_vault(
        tmp_path / "v",
        {
            "Papers/Marino2023.md": paper("Marino2023", "10.1445/106772") + "Summary: a.",
            "Papers/Unknown2023.md": paper("Unknown2023", "10.1445/106772") + "Summary: b.",
        },
    )
    (duplicate,) = found(root)
    assert "same address doi.org/10.1445/106772" in duplicate.evidence
    other = make_vault(  # one title, two papers: no identity
        tmp_path / "w",
        {
            "Papers/Marino2023.md": paper("Marino2023", "10.1445/106772") + "Summary: a.",
            "Papers/Marino2024.md": paper("Marino2024", "10.1445/999999") + "Summary: b.",
        },
    )
    assert found(other) == []


def test_two_videos_of_one_site_or_one_recurring_meeting_are_no_identity(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "Clips/a.md": "---\nsource: https://www.youtube.com/watch?v=A1&utm_source=x\n---\n# Summary\n\nOne talk.\n",
            "Clips/b.md": "---\nsource: https://www.youtube.com/watch?v=B2\n---\n# Summary\n\nAnother talk.\n",
            "Meetings/m1.md": "---\nmeeting_url: https://meet.example.org/weekly\n---\n# Meeting notes\n\nBudget.\n",
            "Meetings/m2.md": "---\nmeeting_url: https://meet.example.org/weekly\n---\n# Meeting notes\n\nHiring.\n",
        },
    )
    assert found(root) == []


def test_a_clipping_kept_twice_is_one_page_whatever_anchor_or_tracker_its_address_has(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "Dokuwiki/bash/Replica lag.md": "---\nsource: https://example.org/lag.html#vacuum\n---\n" + PROSE,
            "Clipped/Replica lag.md": "---\nsource: https://www.example.org/lag.html?utm_source=x\n---\n" + PROSE,
            "Forks/Lag.md": "---\nsource: https://example.com/other/lag.html\n---\n" + PROSE,  # another site's
        },
    )
    assert {frozenset(pair) for pair in pairs(root)} == {
        frozenset(("Clipped/Replica lag.md", "Dokuwiki/bash/Replica lag.md"))
    }


def test_a_page_held_in_a_larger_one_of_its_own_name_is_no_passage(tmp_path: Path) -> None:
    def more(tag: str) -> str:  # 600 words of the page's own, so the held page is under a third of it
        return " ".join(f"{tag}{n}" for n in range(600))

    standby = " ".join(reversed(PROSE.split()))  # prose of its own
    root = make_vault(
        tmp_path / "v",
        {
            "support/customer-support.md": PROSE,
            "support/customer-support1.md": PROSE + "\n\n" + more("a"),
            "hub/config.md": OTHER_PROSE + "\n\n" + more("b"),
            "hub/config.github.md": OTHER_PROSE,  # a child in a dotted hierarchy, which its parent lists
            "Lag.md": standby,
            "Database cheat sheet.md": standby + "\n\n" + more("c"),  # a passage copied into an overview
        },
    )
    assert pairs(root) == {("support/customer-support.md", "support/customer-support1.md")}


def test_a_page_held_in_a_larger_one_of_the_same_name_in_another_folder_is_reported(tmp_path: Path) -> None:
    more = " ".join(f"w{n}" for n in range(600))  # the held page is under a third of the larger one
    root = make_vault(tmp_path / "v", {"a/Lag.md": PROSE, "b/Lag.md": PROSE + "\n\n" + more})
    assert pairs(root) == {("a/Lag.md", "b/Lag.md")}


def test_pages_of_mostly_code_are_one_text_only_when_their_code_is(tmp_path: Path) -> None:
    def log(answers: str) -> str:
        return "\n\n".join(f"Q: {question}\n```\n{answers} {n}\n```" for n, question in enumerate(PROSE.split(". ")))

    checks = "\n".join(f"- [ ] check {n}: `grep -rn token{n} src/ | wc -l`" for n in range(40))
    script = "```sh\n" + "\n".join(f"kubectl get pods -n team{n} -o wide --show-labels" for n in range(40)) + "\n```"
    root = make_vault(
        tmp_path / "v",
        {
            "engine-a.md": log(" ".join(f"first engine result {n} lines" for n in range(30))),
            "engine-b.md": log(" ".join(f"second engine answer {n} rows" for n in range(30))),
            "checklist.md": OTHER_PROSE + "\n\n" + script,
            "checklist 1.md": OTHER_PROSE + "\n\n" + script[:-4] + "\nkubectl top nodes\n```\n" + checks,
        },
    )
    assert pairs(root) == {("checklist 1.md", "checklist.md")}


def test_a_page_of_code_in_many_pairs_has_its_code_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sections = [" ".join(f"s{n}w{k}" for k in range(40)) for n in range(12)]
    code = "```\n" + "\n".join(f"x{n} = compute({n})" for n in range(800)) + "\n```\n"
    pages = {f"Part {n}.md": f"{text}\n\n```\ny = other({n})\nz = more({n})\n```\n" for n, text in enumerate(sections)}
    root = make_vault(tmp_path / "v", {"Big.md": "\n\n".join(sections) + "\n\n" + code, **pages})
    read: list[str] = []
    code_words = page_reads.code_words
    monkeypatch.setattr(page_reads, "code_words", lambda vault, page: read.append(page.path) or code_words(vault, page))
    assert found(root) == []  # each part is a passage of the big page
    assert read.count("Big.md") == 1  # not once for each of the 12 pairs it is in (minutes for a page of 5 MB)


def test_a_page_s_fences_are_found_once_for_its_code_and_its_prose(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_vault(tmp_path / "v", {"Fences.md": PROSE + "\n\n" + "```\nx = 1\n```\n" * 50})
    vault = load_vault(root, load_config(root), use_cache=False)
    calls: list[int] = []
    fence_ranges = page_reads.fence_ranges
    monkeypatch.setattr(
        page_reads, "fence_ranges", lambda text, start: calls.append(start) or fence_ranges(text, start)
    )
    read = page_reads.read(vault, vault.pages["Fences.md"])
    assert (read.code_words, read.words) == (100, page_reads.words(PROSE))
    assert len(calls) == 2  # once in read, once in the words() call just above: 5 MB of fences took 4 s each time


def test_a_name_held_by_three_pages_or_without_an_address_is_no_identity(tmp_path: Path) -> None:
    person = "# Valentine\n\nWebsite: https://example.org/valentine\n"
    root = make_vault(
        tmp_path / "v", {"a.md": person, "b.md": person.replace("Website", "Notes"), "c/Valentine.md": "x"}
    )
    assert found(root) == []


def test_a_fork_with_its_own_repository_is_not_a_duplicate(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "Plugins/tasks.md": f"---\nrepo: https://github.com/one/tasks\n---\n{PROSE}",
            "Plugins/tasks-fork.md": f"---\nrepo: https://github.com/two/tasks\n---\n{PROSE}",
        },
    )
    assert found(root) == []


def test_template_text_is_not_a_page_of_its_own(tmp_path: Path) -> None:
    template = OTHER_PROSE
    files = {f"Plugins/p{i}.md": f"{template}\n\nPlugin number {i} sorts {i} things." for i in range(6)}
    assert found(make_vault(tmp_path / "v", files)) == []


def test_dated_pages_drawings_and_templates_are_never_compared(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "2024-05-01.md": PROSE,
            "2024-05-02.md": PROSE,
            "Plan.excalidraw.md": PROSE,
            "Plan copy.excalidraw.md": PROSE,
            "templates/Incident.md": PROSE,
            "Journal/Monday.md": OTHER_PROSE,
            "Journal/Tuesday.md": OTHER_PROSE,
            ".obsidian/daily-notes.json": json.dumps({"folder": "Journal"}),
        },
    )
    assert found(root) == []


def test_a_dated_page_that_is_a_named_page_word_for_word_is_merged_into_it(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "cycles/c-20260315-1515.md": PROSE,
            "pitches/Replica lag.md": PROSE,
            "cycles/c-20260316-0900.md": PROSE,  # two entries of the series: alike by design
            "cycles/c-20260317-1100.md": OTHER_PROSE,
            "Onboarding.md": OTHER_PROSE + " Badges come from the front desk.",  # holds it, but is no copy
        },
    )
    by_pair = {(d.page, d.other): d for d in found(root)}
    assert set(by_pair) == {
        ("cycles/c-20260315-1515.md", "pitches/Replica lag.md"),
        ("cycles/c-20260316-0900.md", "pitches/Replica lag.md"),
    }
    duplicate = by_pair["cycles/c-20260315-1515.md", "pitches/Replica lag.md"]
    assert duplicate.fix == "merge"
    assert duplicate.evidence == ("the same text",)


def test_obsidian_template_folder_is_read_from_its_settings(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "Meta/Skeletons/Person.md": PROSE,
            "People/Dana.md": PROSE + " Dana leads the team.",
            ".obsidian/templates.json": json.dumps({"folder": "Meta/Skeletons"}),
        },
    )
    config = load_config(root)
    assert config.template_folders == ("Meta/Skeletons",)
    assert found(root) == []


def test_obsidian_settings_that_are_not_json_are_ignored(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "x", ".obsidian/daily-notes.json": "{not json"})
    assert load_config(root).journal_folders == ()


def test_dated_titles() -> None:
    assert dated("2024-05-01")
    assert dated("Daily 2024-05-01 Mon")
    assert dated("daily.journal.2021.01.01")
    assert dated("2024-W18")
    assert not dated("Postmortem of the 2024-05-01 checkout outage at the payments gateway")
    assert not dated("Checkout outage")


def test_platform_trees_are_not_duplicates_of_each_other(tmp_path: Path) -> None:
    files = {}
    for command in ("ls", "cp", "mv"):
        for platform in ("linux", "osx"):
            files[f"{platform}/{command}.md"] = f"{PROSE} {command}"
    assert found(make_vault(tmp_path / "v", files)) == []


def test_a_platform_folder_of_few_pages_beside_the_trees_is_one_too(tmp_path: Path) -> None:
    files = {
        f"{platform}/{command}.md": f"{PROSE} {command}"
        for command in ("ls", "cp", "mv")
        for platform in ("linux", "osx")
    }
    files["osx/dmesg.md"] = files["sunos/dmesg.md"] = OTHER_PROSE
    assert found(make_vault(tmp_path / "v", files)) == []


def test_a_note_filed_twice_in_a_folder_and_its_subfolder_is_one_title(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "Angular/Dependency_Injection.md": "Services are handed to components by the injector.",
            "Angular/Atoms/Dependency Injection.md": "A component asks for what it needs in its constructor.",
            "Math/Kernel.md": "The vectors a linear map sends to zero.",
            "OS/Kernel.md": "The part of the system that runs with every privilege.",
            "Formulas.md": "Where the formula sheets of each course are.",  # a subject's page two levels down
            "Chemistry/Formulas/Formulas.md": "Molar mass, ideal gas law, pH.",
        },
    )
    (duplicate,) = found(root)
    assert {duplicate.page, duplicate.other} == {
        "Angular/Dependency_Injection.md",
        "Angular/Atoms/Dependency Injection.md",
    }
    assert duplicate.kinds == ("title",)


def test_spellings_that_differ_only_in_separators_are_one_title(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {"Security/Wi-Fi Analyzer.md": "Finds free channels.", "Security/Wifi Analyzer.md": "Listens to signals."},
    )
    (duplicate,) = found(root)
    assert duplicate.kinds == ("title",)


def test_headings_that_differ_inside_a_word_name_two_things(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "go-env.md": "# go env\n\nPrints Go's environment.",
            "goenv.md": "# goenv\n\nSwitches between Go versions.",
            "qm-move-disk.md": "# qm move-disk\n\nAn alias of qm disk move.",
            "qm-move_disk.md": "# qm move_disk\n\nAn alias of qm disk move.",
            "Theme - Dark.md": "# Theme - Dark\n\nA dark theme.",
            "Theme_ Dark.md": "# Theme: Dark\n\nThe same dark theme.",
        },
    )
    assert pairs(root) == {("Theme - Dark.md", "Theme_ Dark.md")}


def test_a_note_copied_into_an_overview_is_a_passage_not_a_duplicate(tmp_path: Path) -> None:
    parts = (" ".join(f"part{n}word{k}" for k in range(60)) for n in range(6))  # each its own text
    overview = "\n\n".join([OTHER_PROSE, PROSE, *parts])
    root = make_vault(tmp_path / "v", {"Lag.md": PROSE, "Cheat sheet.md": overview})
    assert found(root) == []


def test_a_note_that_is_a_section_of_a_broader_page_is_a_passage(tmp_path: Path) -> None:
    # Iterative deepening (a quarter of the page) inside "Uninformed search strategies".
    broader = "\n\n".join([OTHER_PROSE, PROSE, " ".join(f"strategy{n}" for n in range(150))])
    root = make_vault(tmp_path / "v", {"Lag.md": PROSE, "Database notes.md": broader})
    assert found(root) == []
    root = make_vault(tmp_path / "w", {"Lag.md": PROSE, "Database notes.md": OTHER_PROSE + "\n\n" + PROSE})
    assert pairs(root) == {("Lag.md", "Database notes.md")}  # half of the page: the page plus a section


def test_pages_whose_own_titles_name_two_things_are_not_one_title(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "campus/campus.md": "---\ntitle: Campus Information\n---\nThe address and the parking.",
            "campus/index.md": "---\ntitle: Our Campus\n---\nLocation, hours and rules.",
            "config/custom-header-path.md": "---\ntitle: Custom Header Path\n---\n",
            "config/customHeaderPath.md": "---\ntitle: customHeaderPath\n---\nA header file for published pages.",
        },
    )
    assert pairs(root) == {("config/custom-header-path.md", "config/customHeaderPath.md")}


def test_a_passage_is_measured_without_the_template_text(tmp_path: Path) -> None:
    # A footer four other pages share makes the larger page no larger in text of its own.
    footer = " ".join(f"footer{k}" for k in range(1200))
    files = {f"Other {n}.md": f"{OTHER_PROSE} {n}\n\n{footer}" for n in range(4)}
    files |= {"Lag.md": PROSE, "Database notes.md": f"{OTHER_PROSE}\n\n{PROSE}\n\n{footer}"}
    assert pairs(make_vault(tmp_path / "v", files)) == {("Lag.md", "Database notes.md")}


def test_function_words_and_aliases_do_not_name_two_things(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "Onboarding for engineers.md": PROSE + " The plan for the first week.",
            "Engineers onboarding and setup.md": PROSE + " And the plan to the first week.",
            "PostgreSQL.md": "---\naliases: [Postgres]\n---\nPostgreSQL: " + OTHER_PROSE,
            "Postgres.md": "Postgres: " + OTHER_PROSE + " Postgres again.",
        },
    )
    assert {frozenset(p) for p in pairs(root)} == {
        frozenset({"Onboarding for engineers.md", "Engineers onboarding and setup.md"}),
        frozenset({"PostgreSQL.md", "Postgres.md"}),
    }


def test_one_text_filled_in_for_two_named_things_is_not_a_duplicate(tmp_path: Path) -> None:
    def dossier(company: str) -> str:
        return f"# {company}\n\nThe {company} dossier. " + PROSE + f" Contact {company} through the portal."

    root = make_vault(
        tmp_path / "v",
        {"dossiers/contango.md": dossier("Contango"), "dossiers/mckinsey.md": dossier("McKinsey")},
    )
    assert found(root) == []
    root = make_vault(  # the same page kept twice under two names says neither name in its text
        tmp_path / "w", {"Replica lag.md": PROSE + " One more line.", "Reporting replica.md": PROSE}
    )
    assert pairs(root) == {("Reporting replica.md", "Replica lag.md")}


def test_one_note_under_its_name_and_its_initials_is_one_note(tmp_path: Path) -> None:
    def note(name: str) -> str:
        return f"**{name}**\n\n# ГиО — Гормоны щитовидной железы\n\n{PROSE}\n\nИсточник: {name}, {name}.\n"

    long_name = "Гормоны и онкомаркеры"
    root = make_vault(tmp_path / "v", {"ГиО.md": note("ГиО"), f"{long_name}.md": note(long_name)})
    assert pairs(root) == {("ГиО.md", "Гормоны и онкомаркеры.md")}

    def dossier(company: str) -> str:  # one heading, two names: a template's
        return f"# Charter\n\nThe {company} dossier. " + PROSE + f" Contact {company} through the portal."

    root = make_vault(tmp_path / "w", {"Art.md": dossier("Art"), "Music.md": dossier("Music")})
    assert found(root) == []


def test_chinese_and_japanese_pages_are_read_a_character_a_word(tmp_path: Path) -> None:
    # Chinese and Japanese put no space between words: a clause read as one word would share
    # nothing with its copy once one word in it changed.
    sentences = [
        "私たちはプロダクトへのすべての貢献がレビューを伴うマージリクエストを経ることを求めています。",
        "キャパシティがいっぱいで目指す時間内にレビューを行えない場合は別のレビュアーを探してください。",
        "グローバルに分散した組織であることは人々の間のやり取りに遅延を生じさせることがあります。",
        "アナライザーはサポートされる言語のテストプロジェクトに対して新しいコミットを実行します。",
        "変更へのフィードバックを受け取るのが予想より長くかかっても個人的に受け取らないでください。",
    ]
    page = "\n\n".join(sentences * 2)
    copy = page.replace("探してください", "見つけてください").replace("実行します", "走らせます")
    root = make_vault(tmp_path / "v", {"品質/レビュー.md": page, "品質/レビューの進め方.md": copy, "その他.md": PROSE})
    assert {tuple(sorted(pair)) for pair in pairs(root)} == {("品質/レビュー.md", "品質/レビューの進め方.md")}
    assert page_reads.words("私たちは gitlab の開発")[:5] == ["私", "た", "ち", "は", "gitlab"]

    def profile(name: str) -> str:  # one template filled in for two people, each named by its characters
        about = f"{name}是我们团队的工程师。"
        return f"# {name}\n\n{about}" + "".join(sentences) + f"如有问题请联系{name}。{name}负责后端。"

    root = make_vault(tmp_path / "w", {"张伟.md": profile("张伟"), "李娜.md": profile("李娜")})
    assert found(root) == []


def test_one_article_bookmarked_twice_under_two_titles_is_one_page(tmp_path: Path) -> None:
    article = "https://habr.com/ru/companies/bercut/articles/822253/"
    root = make_vault(
        tmp_path / "v",
        {
            "sources/Полезный паттерн volatile.md": f"---\nstatus: todo\n---\n\n{article}\n",
            "sources/Пример с неизменяемыми объектами.md": f"---\nstatus: read\n---\n\n{article}\n",
            "sources/Another article.md": "https://habr.com/ru/articles/1/\n",
            "notes/Volatile.md": f"My own note on it.\n\n{article}\n",  # says something of its own
            "notes/Atomic.md": f"Another note of mine.\n\n{article}\n",
        },
    )
    ((page, other),) = pairs(root)
    assert {page, other} == {"sources/Полезный паттерн volatile.md", "sources/Пример с неизменяемыми объектами.md"}
    (finding,) = found(root)
    assert finding.evidence == (f"each page is nothing but the web address {article.rstrip('/')}",)
    three = {f"{name}.md": article for name in ("Locks", "PostgreSQL locks", "Index locks")}
    assert len(pairs(make_vault(tmp_path / "three", three))) == 3
    not_one = {  # parts of one site, a site's home page, an address in the frontmatter only
        "os.walk.md": "https://docs.python.org/3/library/os.html#os.walk",
        "os.listdir.md": "https://docs.python.org/3/library/os.html#os.listdir",
        "Main.md": "https://github.com/acme/tool/tree?ref=main",
        "Release.md": "https://github.com/acme/tool/tree?ref=release-1",
        "Acme.md": "https://acme.com/",
        "Acme careers.md": "https://acme.com/",
        "Turing.md": "---\nsource: https://www.britannica.com/biography\n---\n\n## Life\n",
        "Lovelace.md": "---\nsource: https://www.britannica.com/biography\n---\n\n## Life\n",
    }
    assert found(make_vault(tmp_path / "apart", not_one)) == []


def test_companions_that_link_to_each_other_are_not_duplicates(tmp_path: Path) -> None:
    # A student's note-taking page `@X` starts as a copy of the material page `X`; each links the other.
    root = make_vault(
        tmp_path / "v",
        {
            "Materialien/Aesthetik.md": "# Aesthetik\n\n[[@Aesthetik|Mitschrift]]\n\n" + PROSE,
            "Mitschriften/@Aesthetik.md": "# Mitschrift zu [[Aesthetik]]\n\n" + PROSE + "\n\n## Offen\n",
            "Lag.md": "See [[Replica lag]].\n\n" + OTHER_PROSE,  # one way only: still a copy
            "Replica lag.md": OTHER_PROSE,
        },
    )
    assert pairs(root) == {("Replica lag.md", "Lag.md")}


def test_a_derived_series_page_is_not_a_duplicate_of_its_note(tmp_path: Path) -> None:
    files = {f"Cards/{name} - Flashcards.md": f"Question on {name}?\nAnswer.\n" for name in "ABCD"}
    files["Docker networks.md"] = PROSE
    files["Docker networks - Flashcards.md"] = PROSE + "\n\nWhat grows the lag?\n?\nA long transaction."
    assert found(make_vault(tmp_path / "v", files)) == []


def test_the_finding_says_the_evidence_and_carries_it_as_data(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"Replica lag.md": PROSE, "Replica lag 1.md": PROSE})
    vault = load_vault(root, load_config(root), use_cache=False)
    (finding,) = [f for f in check_vault(vault) if f.rule == "duplicate"]
    assert finding.path == "Replica lag 1.md"
    assert finding.message == "duplicate of Replica lag.md: the same text"
    assert finding.data["other"] == "Replica lag.md"
    assert finding.data["fix"] == "merge"
    assert "identical" in finding.data["kinds"]


def test_the_similar_rule_is_off_unless_asked_for(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"Replica lag.md": PROSE, "Replica lag 1.md": PROSE})
    config = load_config(root)
    assert config.severity("duplicate") == "warning"
    assert config.severity("similar") is None


def test_pages_that_link_to_each_other_are_two_names_on_purpose(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "Notes/MaaS.md": "Metal as a service, the concept. One implementation is [[Notes/MAAS]].",
            "Notes/MAAS.md": "Canonical's MAAS provisions bare metal servers over IPMI and PXE.",
        },
    )
    assert found(root) == []
    unlinked = make_vault(
        tmp_path / "w",
        {"Notes/MaaS.md": "Metal as a service, the concept.", "Notes/MAAS.md": "Canonical's MAAS provisions servers."},
    )
    assert pairs(unlinked) == {("Notes/MaaS.md", "Notes/MAAS.md")}


def test_one_name_on_two_pages_that_list_the_same_rare_work_is_one_person(tmp_path: Path) -> None:
    person = (
        "---\naliases: [Gerard Braad]\n---\n# Gerard Braad\n\nGitHub: https://github.com/{0}\n\n"
        "## Themes\n- [[Tomorrow Night]]\n"
    )
    files: dict[str, str | bytes] = {
        "People/gbraad.md": person.format("gbraad"),
        "People/gbraad-obsidian.md": person.format("gbraad-obsidian"),
        "Themes/Tomorrow Night.md": "A dark theme.",
        "Themes/Index.md": "[[Tomorrow Night]] [[Minimal]]",
        "Themes/Minimal.md": "A light theme.",
    }
    (duplicate,) = found(make_vault(tmp_path / "v", files))
    assert {duplicate.page, duplicate.other} == {"People/gbraad.md", "People/gbraad-obsidian.md"}
    assert set(duplicate.kinds) == {"name", "link"}
    assert "both link to Themes/Tomorrow Night.md, which few pages link to" in duplicate.evidence
    # The same pair linking to a page many pages link to is two people of one name.
    files |= {f"Notes/n{i}.md": "[[Tomorrow Night]]" for i in range(4)}
    assert found(make_vault(tmp_path / "w", files)) == []


def test_an_alias_with_a_number_is_no_copy_of_the_name(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        "Network/WI-FI.md": "---\naliases: [WIFI]\n---\nRadio networking. [[Frequency Bands]]",
        "Network/WI-FI Protocol.md": "---\naliases: [WI-FI 5]\n---\nThe 802.11 versions. [[Frequency Bands]]",
        "Network/Frequency Bands.md": "2.4 and 5 GHz.",
    }
    assert found(make_vault(tmp_path / "v", files)) == []


def test_a_link_in_the_other_spelling_names_the_page_so_spelt(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "Notes/MaaS.md": "Metal as a service, the concept.",
            "Notes/MAAS.md": "Canonical's product, an implementation of [[MaaS]].",
        },
    )
    assert found(root) == []


def test_a_copy_suffix_in_another_script_is_a_copy_suffix(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v", {"Notes/Chapter ①.md": "Limits and continuity.", "Notes/Chapter ②.md": "Derivatives."}
    )
    assert found(root) == []


def test_hostile_headings_addresses_and_comments_are_read_in_linear_time(tmp_path: Path) -> None:
    """Each of these took minutes with backtracking patterns (a 10 KB heading line ran for 10)."""
    pages: dict[str, str | bytes] = {
        "heading.md": "# a" + " " * 20_000 + "b\n\ntext\n",
        "website.md": "---\nwebsite: " + "b" * 200_000 + "\n---\n# x\n",
        "email.md": "Email: " + "b" * 200_000 + "\n",
        "field.md": " " * 20_000 + "x\n",
        "comments.md": "<!-- " * 40_000,
        "alias.md": "---\naliases: ['" + " " * 20_000 + "x 1']\n---\nx",
    }
    assert found(make_vault(tmp_path / "v", pages)) == []


@given(st.lists(st.sampled_from(["%%", "<!--", "-->", "a", " ", "%", "-", "<!", "\n"]), max_size=30).map("".join))
def test_comments_are_cut_as_the_lazy_pattern_cuts_them(text: str) -> None:
    assert without_comments(text) == re.sub(r"%%.*?%%|<!--.*?-->", " ", text, flags=re.DOTALL)


def test_the_words_kept_between_runs_are_read_again_only_for_a_changed_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import curator.core.meaning.page_reads as page_reads

    root = make_vault(tmp_path / "v", {"Lag.md": PROSE, "Ops.md": OTHER_PROSE + "\n\n" + PROSE, "Other.md": "x"})
    first = find(load_vault(root, load_config(root)))
    read: list[str] = []
    real = page_reads.read
    monkeypatch.setattr(page_reads, "read", lambda vault, page: read.append(page.path) or real(vault, page))
    assert find(load_vault(root, load_config(root))) == first and read == []
    (root / "Ops.md").write_text(OTHER_PROSE)
    assert find(load_vault(root, load_config(root))) == [] and read == ["Ops.md"]
    assert find(load_vault(root, load_config(root), use_cache=False)) == [] and read == [
        "Ops.md",
        "Lag.md",
        "Ops.md",
        "Other.md",
    ]


def test_pages_whose_names_differ_only_in_a_number_are_a_series(tmp_path: Path) -> None:
    table = PROSE + "\n\n| CVE | Reason |\n| --- | --- |\n| CVE-2023-1 | not reachable |\n"
    files: dict[str, str | bytes] = {
        "trivy/4-2-0.md": "# 4.2.0\n\n" + table,
        "trivy/4-2-1.md": "# 4.2.1\n\n" + table,
        "releases/v1.2.md": OTHER_PROSE,
        "releases/v1.3.md": OTHER_PROSE,
    }
    assert found(make_vault(tmp_path / "v", files)) == []
    # The same number written two ways is one name: a page filed twice.
    copies = make_vault(tmp_path / "w", {"Week 1.md": PROSE, "Week 01.md": PROSE})
    assert pairs(copies) == {("Week 01.md", "Week 1.md")}
    # An id before the words names a note, not its place in a series: one text under two ids is
    # one note filed twice (an agent's handbook, badlandslabs/handbook); other texts are two notes.
    ids = {"stacks/s367-agent-span-tracing.md": PROSE, "stacks/s368-agent-span-tracing.md": PROSE}
    ids |= {"course/01 Introduction.md": PROSE.replace("a", "e"), "course/02 Introduction.md": OTHER_PROSE}
    assert pairs(make_vault(tmp_path / "x", ids)) == {
        ("stacks/s367-agent-span-tracing.md", "stacks/s368-agent-span-tracing.md")
    }


def test_one_folder_name_and_a_rare_link_without_one_heading_are_two_things(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        "teams/app/index.md": "# App team\n\nWe build the desktop app. See [[analytics]].",
        "strategy/app/index.md": "# App team strategy\n\nWhere the app goes next year. See [[analytics]].",
        "teams/app/analytics.md": "# Analytics\n\nWhat we count.",
    }
    assert found(make_vault(tmp_path / "v", files)) == []
    # One first heading in two folders is two sections' pages still (a course's exam and another's);
    # in one folder the name and the rare link are one thing entered twice.
    files["strategy/app/index.md"] = "# App team\n\nWhere the app goes next year. See [[analytics]]."
    assert found(make_vault(tmp_path / "w", files)) == []
    del files["strategy/app/index.md"]
    files["teams/App.md"] = "---\naliases: [app]\n---\n# App team\n\nWhere the app goes. See [[analytics]]."
    files["teams/app.md"] = "# App team\n\nWe build the desktop app. See [[analytics]]."
    (duplicate,) = found(make_vault(tmp_path / "x", files))
    assert {duplicate.page, duplicate.other} == {"teams/App.md", "teams/app.md"}
    assert {"name", "link"} <= set(duplicate.kinds)


def own_text(seed: int) -> str:
    """Forty words no other page of the test holds."""
    rng = random.Random(seed)
    return " ".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(7)) for _ in range(40))


def test_a_folder_copied_whole_keeps_each_page_twice(tmp_path: Path) -> None:
    names = ("confirm", "get-flag", "halt", "run-command")
    files = {f"{where}/{name}.md": own_text(n) for n, name in enumerate(names) for where in ("api", "references/api")}
    assert pairs(make_vault(tmp_path / "v", files)) == {
        (f"api/{name}.md", f"references/api/{name}.md") for name in names
    }


def test_platform_trees_that_share_a_page_now_and_then_stay_apart(tmp_path: Path) -> None:
    commands = ("ls", "cp", "mv", "more", "du", "df")
    files = {
        f"{platform}/{c}.md": own_text(n * 2 + (platform == "osx"))
        for n, c in enumerate(commands)
        for platform in ("linux", "osx")
    }
    files["osx/more.md"] = files["linux/more.md"]  # one page the same on both platforms
    assert pairs(make_vault(tmp_path / "v", files)) == set()


def test_two_versions_of_the_docs_are_no_copied_folder(tmp_path: Path) -> None:
    names = ("install", "configure", "upgrade", "backup")
    files = {
        f"docs/{v}/{name}.md": own_text(n) + (" v2 changes" if v == "v2" else "")
        for n, name in enumerate(names)
        for v in ("v1", "v2")
    }
    assert pairs(make_vault(tmp_path / "v", files)) == set()


def test_a_folders_index_and_its_note_of_the_same_name_are_one_page_though_one_links_the_other(
    tmp_path: Path,
) -> None:
    files = {
        "layer-0/index.md": "---\ntitle: Layer 0 Networks\n---\nOverview of the folder. See [[layer-0/layer-0]].\n",
        "layer-0/layer-0.md": "---\ntitle: Layer 0 Networks\n---\nInfrastructure beneath blockchains.\n",
        "layer-0/nostr.md": "Nostr relays.\n",
    }
    assert pairs(make_vault(tmp_path / "v", files)) == {("layer-0/layer-0.md", "layer-0/index.md")}


def test_near_copies_in_folders_of_other_names_are_platforms_or_versions(tmp_path: Path) -> None:
    names = ("install", "configure", "upgrade", "backup")
    for trees in (("linux", "macos"), ("docs", "versioned_docs/version-1.0")):
        files = {f"{where}/{name}.md": own_text(n) + f" {where}" for n, name in enumerate(names) for where in trees}
        assert pairs(make_vault(tmp_path / trees[0], files)) == set()


def test_one_person_under_three_accounts_is_three_pairs_and_their_links_to_each_other_keep_them(
    tmp_path: Path,
) -> None:
    person = "---\naliases: [Jeremy Valentine]\n---\n# Jeremy Valentine\n\nWebsite: https://example.org/jv\n"
    files = {
        "People/javalent.md": person + "A duplicate person entry of [[valentine195]].\n\nPlugins: a",
        "People/valentine195.md": person + "A duplicate person entry of [[javalent]].\n\nPlugins: b",
        "People/fantasycalendar.md": person + "Plugins: c",
    }
    assert {frozenset(pair) for pair in pairs(make_vault(tmp_path / "v", files))} == {
        frozenset(pair)
        for pair in (
            ("People/javalent.md", "People/valentine195.md"),
            ("People/fantasycalendar.md", "People/javalent.md"),
            ("People/fantasycalendar.md", "People/valentine195.md"),
        )
    }
    # An address a page of another name gives too is an author's or an organisation's, not one
    # person's; one name in two folders linking each other is a person and their team.
    plugin = {"Plugins/tasks.md": "---\nwebsite: https://example.org/jv\n---\n# Tasks\n\nBy Jeremy Valentine."}
    assert pairs(make_vault(tmp_path / "w", files | plugin)) == set()
    ada = "# Ada\n\nWebsite: https://ada.example\n\n"
    team = {"people/Ada.md": ada + "Leads [[teams/Ada]].", "teams/Ada.md": ada + "Led by [[people/Ada]]."}
    assert pairs(make_vault(tmp_path / "x", team)) == set()


def test_every_page_of_a_folder_copied_whole_is_kept_twice_also_pages_of_template_text(tmp_path: Path) -> None:
    nav = " ".join(f"step{n} does what its name says" for n in range(30))  # a navigation list every page holds
    files = {}
    for n, name in enumerate(("given-a-database", "when-i-run", "then-stdout", "given-a-cache", "then-stderr")):
        for where in ("behat-steps", "references/behat-steps"):
            files[f"{where}/{name}.md"] = f"# {name}\n\nStep {n}.\n\n{nav}"
    files["references/behat-steps/then-stdout.md"] += " regenerated since"
    root = make_vault(tmp_path / "v", files)
    assert {(a.split("/")[-1], b.split("/")[-1]) for a, b in pairs(root)} == {
        (name, name)
        for name in ("given-a-database.md", "when-i-run.md", "then-stdout.md", "given-a-cache.md", "then-stderr.md")
    }
    versioned = {f"docs/guide/{n}.md": own_text(k) for k, n in enumerate(("install", "configure", "upgrade"))}
    versioned |= {
        f"versioned_docs/version-1.0/guide/{n}.md": text
        for n, text in zip(("install", "configure", "upgrade"), versioned.values(), strict=True)
    }
    assert pairs(make_vault(tmp_path / "versions", versioned)) == set()


def test_a_folder_moved_under_another_name_with_its_old_copy_left_is_kept_twice_but_language_trees_are_not(
    tmp_path: Path,
) -> None:
    names = [f"lecture-{topic}" for topic in ("ethics", "logic", "kant", "hegel", "plato", "hume")]
    files = {
        f"{where}/{name}.md": own_text(n) for n, name in enumerate(names) for where in ("Notes/Listening", "Old/Notes")
    }
    assert len(pairs(make_vault(tmp_path / "moved", files))) == 6
    files = {f"docs/{lang}/{name}.md": own_text(n) for n, name in enumerate(names) for lang in ("en", "pt-BR")}
    assert pairs(make_vault(tmp_path / "untranslated", files)) == set()
    files = {f"{where}/{name}.md": own_text(n) for n, name in enumerate(names[:4]) for where in ("linux", "macos")}
    assert pairs(make_vault(tmp_path / "platforms", files)) == set()  # too few same-named pages to tell a copy


def test_language_platform_client_and_year_trees_are_no_folders_copied_whole(tmp_path: Path) -> None:
    names = ("install", "configure", "upgrade", "backup", "restore", "monitor")
    trees = (
        ("docs/en/guide", "docs/de/guide"),  # half untranslated: untranslated pages are copies by design
        ("install/linux/steps", "install/macos/steps"),
        ("clients/acme/onboarding", "clients/globex/onboarding"),  # one template per client
        ("docs/stable/guide", "docs/next/guide"),
    )
    for n, (one, other) in enumerate(trees):
        files = {f"{one}/{name}.md": own_text(k) for k, name in enumerate(names)}
        files |= {f"{other}/{name}.md": own_text(k if k % 2 else k + 100) for k, name in enumerate(names)}
        assert pairs(make_vault(tmp_path / f"v{n}", files)) == set(), (one, other)
    event = "# FOSDEM\n\nWebsite: https://fosdem.org\n\nWe went with the team."
    years = {f"events/{year}/FOSDEM.md": event + f" Talks of {year}." for year in (2023, 2024, 2025)}
    assert pairs(make_vault(tmp_path / "years", years)) == set()
    empty = {f"projects/{p}/tasks/{t}.md": "" for p in ("alpha", "beta") for t in ("todo", "done")}
    empty |= {f"projects/{p}/tasks/plan.md": own_text(ord(p[0])) for p in ("alpha", "beta")}
    assert pairs(make_vault(tmp_path / "placeholders", empty)) == set()


def test_byte_identical_pages_of_code_and_a_renamed_folders_old_copy_are_kept_twice(tmp_path: Path) -> None:
    code = "# influx cli\n\n```sh\n" + "\n".join(
        f"influx query 'from(bucket: \"b{n}\") |> range(start: -{n}h)'" for n in range(12)
    )
    files = {"monitoring/influx-cli.md": code + "\n```\n", "observability/influx-cli.md": code + "\n```\n"}
    assert pairs(make_vault(tmp_path / "code", files)) == {("monitoring/influx-cli.md", "observability/influx-cli.md")}
    names = ("vector", "loki", "tempo", "mimir", "alloy", "beyla")
    renamed = {
        f"{where}/grafana/{name}.md": f"# {name}\n\n```yaml\n{own_text(n)}\n```\n"
        for n, name in enumerate(names)
        for where in ("monitoring", "observability")
    }
    assert len(pairs(make_vault(tmp_path / "renamed", renamed))) == 6
    vendored = {
        f"{where}/{name}.md": own_text(n) for n, name in enumerate(names) for where in ("docs", "vendor/lib/docs")
    }
    assert pairs(make_vault(tmp_path / "vendored", vendored)) == set()
    standups = {
        f"{team}/standups/2026-03-0{day}.md": "# Standup\n\n" + own_text(day)
        for day in range(1, 8)
        for team in ("alpha", "beta")
    }
    assert pairs(make_vault(tmp_path / "standups", standups)) == set()
    archive = {
        f"{where}/{name}.md": own_text(n) for n, name in enumerate(names) for where in ("research", "archive/research")
    }
    archive |= {f"archive/research/{name}.md": own_text(100 + n) for n, name in enumerate(names[3:])}  # rewritten since
    assert len(pairs(make_vault(tmp_path / "archive", archive))) == 3


def test_release_numbers_and_untitled_copies_and_a_shared_first_name_are_no_identity(tmp_path: Path) -> None:
    files = {"notes/v1.1.0.md": "Fixed the sync.", "notes/v1.10.md": "Added canvas."}
    files |= {"Untitled.md": "# Untitled\n\nShopping list.", "Untitled 1.md": "# Untitled\n\nCall the plumber."}
    jan = "---\naliases: [Jan]\n---\n# {}\n\nWebsite: https://acme.example\n"
    files |= {"people/Jan Kowalski.md": jan.format("Jan Kowalski"), "people/Jan Novak.md": jan.format("Jan Novak")}
    assert pairs(make_vault(tmp_path / "v", files)) == set()


def test_each_packages_boilerplate_and_two_clients_filled_templates_are_no_copies(tmp_path: Path) -> None:
    boilerplate = ("LICENSE", "CHANGELOG", "CONTRIBUTING", "CODE_OF_CONDUCT", "SECURITY", "SUPPORT")
    files = {f"packages/{p}/{name}.md": own_text(n) for n, name in enumerate(boilerplate) for p in ("alpha", "beta")}
    files |= {f"packages/{p}/README.md": own_text(50 + n) for n, p in enumerate(("alpha", "beta"))}
    files |= {f"third-party-libs/chart/docs/{n}.md": own_text(k) for k, n in enumerate(("faq", "usage", "api"))}
    files |= {f"docs/{n}.md": own_text(k) for k, n in enumerate(("faq", "usage", "api"))}
    assert pairs(make_vault(tmp_path / "monorepo", files)) == set()
    steps = ("access", "billing", "kickoff", "handover", "reports", "support")
    clients = {
        f"{where}/{client}/{step}.md": f"# {step}\n\nFor {client}: " + own_text(n)
        for n, step in enumerate(steps)
        for where, client in (("clients", "acme"), ("former-clients", "globex"))
    }
    assert pairs(make_vault(tmp_path / "clients", clients)) == set()
