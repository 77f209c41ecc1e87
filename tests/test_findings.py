from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import SAMPLE_VAULT, make_vault

from curator.core.check import links as links_module
from curator.core.check.catalogue import CATALOGUE
from curator.core.check.findings import check_vault
from curator.core.read.loading import load_vault
from curator.core.state.config import Config

INCIDENT = "incidents/Ticket 4711 vom 29.07.2026 - Zertifikat abgelaufen.md"
LONG = "incidents/DB pool exhausted again during the Friday evening deploy and nobody noticed for an hour.md"

# Every finding the sample vault is written to contain, and why.
SAMPLE_EXPECTED = {
    ("diary-title", "incidents/2026-08-14 checkout outage postmortem.md"),  # ISO date in the title
    ("diary-title", LONG),  # 87 characters
    ("untyped", LONG),  # type: incident is outside the vocabulary
    ("diary-title", INCIDENT),  # dd.mm.yyyy date
    ("dead-link", INCIDENT),  # [[cert renewal]]: an alias, which Obsidian does not follow
    ("bad-frontmatter", "notes/Broken header.md"),  # unclosed flow list
    ("index-drift", "notes/Broken header.md"),
    ("orphan", "notes/Broken header.md"),  # its only link sits in the broken frontmatter
    ("index-drift", "notes/Loose thoughts on queues.md"),
    ("orphan", "notes/Loose thoughts on queues.md"),
    ("untyped", "notes/Loose thoughts on queues.md"),  # no frontmatter at all
    ("index-drift", "notes/Vendor call.md"),
    ("orphan", "notes/Vendor call.md"),
    ("stub", "notes/Vendor call.md"),
    ("ambiguous-link", "systems/Search cluster.md"),  # [[Runbook]]: two runbooks
    ("dead-link", "systems/Search cluster.md"),  # [[Capacity plan 2027]]
    ("untyped", "topics/Observability.md"),
    ("broken-anchor", "topics/Observability.md"),  # [[Checkout rewrite#Dashboards]]
    ("index-pressure", "MEMORY.md"),  # 2.4 KiB of a 3 KiB budget
    ("duplicate", LONG),  # a paste of problems/Postgres connection pool exhaustion.md
}


def test_sample_vault_has_exactly_the_findings_it_was_written_with() -> None:
    findings = check_vault(load_vault(SAMPLE_VAULT, use_cache=False))
    got = {(f.rule, f.path) for f in findings}
    assert got == SAMPLE_EXPECTED
    assert sum(1 for f in findings if f.rule == "dead-link" and f.path == INCIDENT) == 2  # alias and typo


def test_sample_vault_shows_every_rule_but_those_that_need_bad_files() -> None:
    rules = {f.rule for f in check_vault(load_vault(SAMPLE_VAULT, use_cache=False))}
    # No credential in the bundled vault, not even a fake one: tests/test_credentials.py covers `secret`;
    # status updates are covered below, typed relations and staleness in tests/test_relations.py.
    # `similar` is off unless asked for: tests/test_similarity.py.
    by_other_tests = {"secret", "status-update", "relation-dead", "relation-cycle", "stale", "similar"}
    assert rules == {r.id for r in CATALOGUE} - {"unreadable", "bad-encoding"} - by_other_tests


def test_pages_that_only_log_events_are_status_updates(tmp_path: Path) -> None:
    found = vault_with(
        tmp_path,
        {
            "PR 482.md": "---\ntype: topic\n---\n# PR 482\n\nMerged PR #482 on 2026-07-01.\n",
            "Deploys.md": "Deployed payments-api 3.14.2.\nReleased checkout web 2026.09.1.\n",
            "Payments.md": "Merged PR #12: the API now retries card payments twice with a fresh idempotency key.\n",
            "Notes.md": "We deployed on Friday and learned that the pool size must stay under 40.\n",
            "Released 2.4.0 on 2026-08-01.md": "---\ntype: event\n---\n# Release\n",  # its title says it all
        },
    )
    assert sorted(p for r, p in found if r == "status-update") == [
        "Deploys.md",
        "PR 482.md",
        "Released 2.4.0 on 2026-08-01.md",
    ]


def test_dead_links_suggest_a_title_or_the_alias_fix() -> None:
    findings = check_vault(load_vault(SAMPLE_VAULT, use_cache=False))
    dead = {f.data["target"]: f for f in findings if f.rule == "dead-link"}
    assert dead["Certificate Renewl"].data["did_you_mean"] == "Certificate renewal"
    assert dead["cert renewal"].data["fix"] == "[[Certificate renewal|cert renewal]]"
    assert (dead["cert renewal"].line, dead["cert renewal"].column) == (9, 50)
    assert "did_you_mean" not in dead["Capacity plan 2027"].data


def test_alias_links_resolve_when_the_config_says_so() -> None:
    vault = load_vault(SAMPLE_VAULT, Config(resolve_aliases=True, index_budget=3072), use_cache=False)
    dead = [f.data["target"] for f in check_vault(vault) if f.rule == "dead-link"]
    assert "cert renewal" not in dead


def vault_with(tmp_path: Path, files: dict[str, str | bytes], **config: object) -> list[tuple[str, str]]:
    vault = load_vault(make_vault(tmp_path / "v", files), Config(**config), use_cache=False)  # type: ignore[arg-type]
    return [(f.rule, f.path) for f in check_vault(vault)]


def test_orphan_means_no_link_in_and_none_out(tmp_path: Path) -> None:
    body = "x" * 130
    found = vault_with(
        tmp_path,
        {
            "a.md": f"[[b]] {body}",
            "b.md": body,
            "lonely.md": f"[[lonely]] [[missing]] ![[pic.png]] {body}",
            "pic.png": b"\x89PNG",
        },
        types=("topic",),
        rules={"untyped": "off", "dead-link": "off"},
    )
    assert found == [("orphan", "lonely.md")]


def test_stub_threshold_comes_from_config(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        "a.md": "---\ntype: topic\n---\n" + "word " * 10 + "[[b]]",
        "b.md": "[[a]]" + "x" * 200,
    }
    assert ("stub", "a.md") in vault_with(tmp_path, files)
    assert ("stub", "a.md") not in vault_with(tmp_path / "2", files, stub_chars=20)


def test_diary_titles(tmp_path: Path) -> None:
    names = {
        "Meeting 2026-07-29.md": True,
        "Call 29 Jul 2026.md": True,
        "Outage July 29, 2026.md": True,
        "Retro am 3. März 2026.md": True,
        "Deploy 12-31-2025 notes.md": False,
        "Kubernetes 1.29 upgrade.md": False,
        "Payments API.md": False,
        ("x" * 80) + ".md": True,
        ("x" * 79) + ".md": False,
    }
    found = vault_with(tmp_path, dict.fromkeys(names, "text"))
    flagged = {path for rule, path in found if rule == "diary-title"}
    assert flagged == {name for name, expected in names.items() if expected}


def test_untyped_accepts_the_vocabulary_case_insensitively(tmp_path: Path) -> None:
    found = vault_with(
        tmp_path,
        {"a.md": "---\ntype: Topic\n---\n", "b.md": "---\ntype: incident\n---\n", "c.md": "no frontmatter"},
    )
    assert {p for r, p in found if r == "untyped"} == {"b.md", "c.md"}


def test_untyped_only_where_the_vault_uses_types(tmp_path: Path) -> None:
    """A wiki or docs vault with no `type` keys gets no untyped findings, unless its config names types."""
    wiki = {f"p{i}.md": "words" for i in range(9)} | {"typed.md": "---\ntype: topic\n---\n"}
    assert not [p for r, p in vault_with(tmp_path / "wiki", wiki) if r == "untyped"]  # 1 page in 10 typed
    named = vault_with(tmp_path / "named", wiki, types=("topic",), types_configured=True)
    assert len([p for r, p in named if r == "untyped"]) == 9
    memory = {f"p{i}.md": "---\ntype: topic\n---\n" for i in range(3)} | {"loose.md": "words"}
    assert [p for r, p in vault_with(tmp_path / "memory", memory) if r == "untyped"] == ["loose.md"]


def test_diary_titles_in_a_journal_folder_are_meant(tmp_path: Path) -> None:
    files = {"Daily/2026-07-29.md": "x", "notes/Meeting 2026-07-29.md": "x"}
    found = vault_with(tmp_path, files, journal_folders=("Daily",))
    assert [p for r, p in found if r == "diary-title"] == ["notes/Meeting 2026-07-29.md"]


def test_a_saved_works_title_and_a_tagged_daily_note_are_meant(tmp_path: Path) -> None:
    """A new user's Obsidian vault: Readwise and YouTube notes are named by the article or video
    they save, and a daily note tagged so stood outside the daily folder."""
    long_title = "Advanced Financial Modeling Best Practices Hacks for Intelligent, Error-Free Modeling"
    video = "Flowise is an open source no-code UI visual tool to build langchain applications"
    files = {
        f"Readwise/{long_title}.md": "---\nLink: https://www.toptal.com/finance/x\n---\n# Notes\n",
        f"YouTube/{video}.md": f"# Flowise\n\n> - *[{video} (youtube.com)](https://www.youtube.com/watch?v=x)*\n",
        "notes/2020-04-20.md": '---\nTags: ["Type/Daily"]\n---\nx\n',
        f"notes/{long_title} again.md": "# Mine\n\nno link here\n",
        "notes/2020-04-21.md": "---\ntags: [work]\n---\nx\n",
    }
    files[f"notes/{long_title} issue.md"] = (
        f"# Issue\n\nI opened an issue: [{long_title} issue](https://github.com/me/x/issues/12)\n"
    )
    files[f"notes/2024-03-05 {long_title}.md"] = "---\ntags: [daily]\n---\nx\n"
    found = vault_with(tmp_path, files)
    assert sorted(p for r, p in found if r == "diary-title") == [
        "notes/2020-04-21.md",
        f"notes/2024-03-05 {long_title}.md",
        f"notes/{long_title} again.md",
        f"notes/{long_title} issue.md",
    ]


def test_broken_anchors_for_headings_blocks_and_same_page(tmp_path: Path) -> None:
    found = vault_with(
        tmp_path,
        {
            "a.md": "# Top\n## Sub: part two\npara ^blk\n",
            "b.md": (
                "[[a#Top]] [[a#sub part two]] [[a#Top#Sub: part two]] [[a#^blk]] [a](a.md#sub-part-two)\n"
                "[[a#Nope]] [[a#^nope]] [[#Local]] [[#Missing]] [here](#local)\n# Local\n"
            ),
        },
    )
    anchors = [p for r, p in found if r == "broken-anchor"]
    assert anchors == ["b.md", "b.md", "b.md"]


def test_a_repeated_heading_is_found_by_the_number_a_docs_site_gives_it(tmp_path: Path) -> None:
    """A new user's homelab wiki: 419 of 421 broken anchors were GitHub's `#description-1`, which work there."""
    found = vault_with(
        tmp_path,
        {
            "app.md": "# App\n## Jellyfin\n### Description\n## Immich\n### Description\n## Forgejo\n### Description\n",
            "b.md": "[j](app.md#description) [i](app.md#description-1) [f](app.md#description-2)\n"
            "[x](app.md#description-3)\n",
        },
    )
    assert [p for r, p in found if r == "broken-anchor"] == ["b.md"]  # only the fourth, which no heading has
    wiki = vault_with(tmp_path / "w", {"setup.md": "# Setup\n## Setup\n", "c.md": "[[setup#Setup 1]]\n"})
    assert [p for r, p in wiki if r == "broken-anchor"] == ["c.md"]  # Obsidian numbers no repeats


def test_a_heading_with_an_explicit_id_is_found_by_its_id_and_its_text(tmp_path: Path) -> None:
    found = vault_with(
        tmp_path,
        {
            "guide.md": "# Guide\n## 1. Overview {#overview}\n## Setup {#install .unnumbered}\n",
            "b.md": "[o](guide.md#overview) [s](guide.md#install) [t](guide.md#setup) [n](guide.md#nope)\n",
        },
    )
    assert [p for r, p in found if r == "broken-anchor"] == ["b.md"]


def test_fingerprints_survive_edits_elsewhere_on_the_page(tmp_path: Path) -> None:
    first = load_vault(make_vault(tmp_path / "one", {"a.md": "[[gone]]\n"}), use_cache=False)
    second = load_vault(make_vault(tmp_path / "two", {"a.md": "New intro line.\n\nThen [[gone]]\n"}), use_cache=False)

    def dead(vault: object) -> list[str]:
        return [f.fingerprint for f in check_vault(vault) if f.rule == "dead-link"]  # type: ignore[arg-type]

    assert dead(first) == dead(second)
    twice = load_vault(make_vault(tmp_path / "three", {"a.md": "[[gone]] [[gone]]\n"}), use_cache=False)
    assert len(set(dead(twice))) == 2


def test_severity_and_off_come_from_config(tmp_path: Path) -> None:
    vault = load_vault(
        make_vault(tmp_path / "v", {"a.md": "[[gone]]"}),
        Config(rules={"dead-link": "info", "orphan": "off"}),
        use_cache=False,
    )
    findings = check_vault(vault)
    assert {f.rule for f in findings} == {"dead-link", "stub"}  # no page has a type: untyped stays quiet
    assert next(f for f in findings if f.rule == "dead-link").severity == "info"


def test_index_drift_and_pressure(tmp_path: Path) -> None:
    found = vault_with(
        tmp_path,
        {"MEMORY.md": "[[a]]\n" + "filler " * 100, "a.md": "x", "b.md": "x"},
        index_budget=500,
        rules={"stub": "off", "untyped": "off", "orphan": "off"},
    )
    assert sorted(found) == [("index-drift", "b.md"), ("index-pressure", "MEMORY.md")]
    none = vault_with(tmp_path / "2", {"a.md": "x", "b.md": "x"}, rules={"stub": "off", "untyped": "off"})
    assert not [r for r, _ in none if r.startswith("index")]


def test_an_index_naming_its_pages_by_path_lists_them(tmp_path: Path) -> None:
    """A new user's agent workspace: MEMORY.md names its topic files as code (`memory/dave.md`) and
    points to `memory/` for the rest; every page but one was reported as not listed."""
    memory = (
        "# MEMORY.md\n\nSearch topic files under `memory/` for detail.\n\n## Topic Memory\n\n"
        "- Dave's preferences: `memory/dave.md`.\n- Dropbox playbook: `DROPBOX-PLAYBOOK.md` and `tools/dropbox.md`.\n"
    )
    pages = {"MEMORY.md": memory, "memory/dave.md": "x", "memory/2026-07-01.md": "x", "DROPBOX-PLAYBOOK.md": "x"}
    pages |= {"tools/dropbox.md": "x", "tools/gmail.md": "x", "AGENTS.md": "x"}
    found = vault_with(tmp_path, pages, rules={"stub": "off", "untyped": "off", "orphan": "off"})
    # AGENTS.md is loaded by its name: no index need list it
    assert sorted(f for f in found if f[0] == "index-drift") == [("index-drift", "tools/gmail.md")]


def test_named_index_page(tmp_path: Path) -> None:
    found = vault_with(
        tmp_path,
        {"Home.md": "[[a]]", "a.md": "x", "b.md": "x"},
        index_page="Home.md",
        rules={"stub": "off", "untyped": "off", "orphan": "off"},
    )
    assert found == [("index-drift", "b.md")]


def test_a_memory_index_of_one_folder_misses_no_page_outside_it(tmp_path: Path) -> None:
    """An agent workspace's MEMORY.md indexes its memory tiers (`memory/facts.md`, `memory/lessons/`):
    every page of `research/` and `projects/` was reported as not listed (753 of 849 pages). A page
    of `memory/` it lists nothing of still is; a vault whose settings name that index gets them all."""
    memory = "# MEMORY.md\n\n- Facts: `memory/facts.md`\n- Lessons: `memory/lessons/`\n"
    pages = {"MEMORY.md": memory, "memory/facts.md": "x", "memory/lessons/l1.md": "x", "memory/todo.md": "x"}
    pages |= {f"{folder}/p{n}.md": "x" for folder in ("research", "projects", "skills") for n in range(3)}
    rules = {"stub": "off", "untyped": "off", "orphan": "off"}
    assert [f for f in vault_with(tmp_path, pages, rules=rules) if f[0] == "index-drift"] == [
        ("index-drift", "memory/todo.md")
    ]
    named = vault_with(tmp_path / "2", pages, index_page="MEMORY.md", rules=rules)
    assert len([f for f in named if f[0] == "index-drift"]) == 10


def test_a_long_memory_naming_a_few_files_is_no_index(tmp_path: Path) -> None:
    """OpenClaw's MEMORY.md is the agent's memory in prose: 17 KiB naming 8 of its 154 pages was
    taken for an index that missed the other 146. One listing most pages stays an index."""
    prose = "The user prefers short answers and works on the garden railway. " * 40
    memory = f"# Memory\n\n{prose}\n\nSee `notes/a.md`, `notes/b.md` and `notes/c.md`.\n"
    pages = {"MEMORY.md": memory, "notes/a.md": "x", "notes/b.md": "x", "notes/c.md": "x"}
    rules = {"stub": "off", "untyped": "off", "orphan": "off"}
    many = pages | {f"notes/n{n}.md": "x" for n in range(20)}
    assert not [f for f in vault_with(tmp_path, many, rules=rules) if f[0] == "index-drift"]
    few = pages | {"notes/n1.md": "x"}
    assert [f for f in vault_with(tmp_path / "2", few, rules=rules) if f[0] == "index-drift"] == [
        ("index-drift", "notes/n1.md")
    ]


def test_the_length_window_keeps_every_title_close_enough_to_suggest() -> None:
    """Titles are compared only when their length lets them reach the cut-off: none that does is left out."""
    from rapidfuzz import fuzz

    rng = random.Random(12)
    close = 0
    for _ in range(3000):
        query = "".join(rng.choices("abc ", k=rng.randint(1, 40)))
        title = list(query)
        for _ in range(rng.randint(0, 12)):  # insertions and deletions change the length
            if title and rng.random() < 0.5:
                del title[rng.randrange(len(title))]
            else:
                title.insert(rng.randint(0, len(title)), rng.choice("abc "))
        if fuzz.ratio(query, "".join(title)) >= links_module._NEAR:
            close += 1
            assert links_module._length_window([len(title)], len(query)) == (0, 1), (query, "".join(title))
    assert close > 500  # the check saw many near pairs of differing lengths


def test_did_you_mean_is_the_same_by_lookups_and_by_the_score_matrix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Few dead links are matched one lookup at a time (no numpy); many by one matrix: same answers."""
    titles = [f"Service {word} runbook" for word in ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot")]
    files: dict[str, str | bytes] = {f"{t}.md": "# x\n" for t in titles}
    typos = ["Service alpah runbook", "Servic bravo runbook", "Service charlie runbok", "Service zulu handbook"]
    files["links.md"] = " ".join(f"[[{t}]]" for t in typos) + " [[Zzz]]"
    root = make_vault(tmp_path / "v", files)
    vault = load_vault(root, use_cache=False)

    def suggestions() -> dict[str, str | None]:
        return {f.data["target"]: f.data.get("did_you_mean") for f in check_vault(vault) if f.rule == "dead-link"}

    by_lookup = suggestions()
    monkeypatch.setattr(links_module, "_MATRIX_MIN", 0)
    by_matrix = suggestions()
    assert by_lookup == by_matrix
    assert by_lookup["Service alpah runbook"] == "Service alpha runbook"
    assert by_lookup["Servic bravo runbook"] == "Service bravo runbook"
    assert by_lookup["Service zulu handbook"] is None
    assert by_lookup["Zzz"] is None


def test_a_folder_of_dated_pages_is_a_journal_and_drawings_keep_their_names(tmp_path: Path) -> None:
    days = {f"Journal/2024-04-{day:02}.md": "x" for day in range(1, 6)}  # the settings name no folder
    files = days | {
        "Journal/Habits.md": "x",
        "notes/2024-04-19.md": "x",  # one dated page among others is no journal
        "notes/Topic.md": "x",
        "Excalidraw/Drawing 2024-04-19 10.15.22.excalidraw.md": "x",
    }
    found = vault_with(tmp_path, files)
    assert [p for r, p in found if r == "diary-title"] == ["notes/2024-04-19.md"]


def test_templates_are_not_orphans_stubs_untyped_or_diary_titles(tmp_path: Path) -> None:
    typed = "---\ntype: topic\n---\n" + "x" * 130
    files: dict[str, str | bytes] = {
        "a.md": typed + "[[b]]",
        "b.md": typed + "[[a]]",
        "Templates/Daily 2024-01-01 example.md": "---\ntype: {{type}}\n---\n# {{title}}\n",
        "Meta/Tpl/Incident.md": "---\ntype:\n---\n## What happened\n",  # named in the settings
        "notes/Short.md": "---\ntype: topic\n---\nshort [[a]]",
    }
    found = vault_with(tmp_path, files, types=("topic",), template_folders=("Meta/Tpl",))
    assert found == [("stub", "notes/Short.md")]


def test_did_you_mean_is_a_typo_never_another_number_or_word(tmp_path: Path) -> None:
    titles = ["2022-W34", "CS2100 Outline", "Spark ML", "Certificate renewal", "Find the Index of the First Occurrence"]
    titles += ["2023-11-08", "CleanMgr+", "Budget Q1 2024"]
    files: dict[str, str | bytes] = {f"{t}.md": "# x\n" for t in titles}
    written = ["2022-W49", "CS2106 Outline", "Spark SQL", "Certificate Renewl", "Find the Index of the First Occurence"]
    written += ["2023-08-11", "cleanmgr", "2024 Q1 Budget"]  # a new user's: fix wrote the first two
    files["links.md"] = " ".join(f"[[{t}]]" for t in written)
    vault = load_vault(make_vault(tmp_path / "v", files), use_cache=False)
    guesses = {f.data["target"]: f.data.get("did_you_mean") for f in check_vault(vault) if f.rule == "dead-link"}
    assert guesses == {
        "2022-W49": None,
        "CS2106 Outline": None,
        "Spark SQL": None,
        "Certificate Renewl": "Certificate renewal",
        "Find the Index of the First Occurence": "Find the Index of the First Occurrence",
        "2023-08-11": None,
        "cleanmgr": None,
        "2024 Q1 Budget": "Budget Q1 2024",
    }


def test_a_template_placeholder_is_no_dead_link(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        "Templates/Weekly.md": "[[{{date:YYYY}}-W{{date:WW}}]] [[<% tp.file.title %> Outline]] [[Missing page]]"
    }
    found = vault_with(tmp_path, files, rules={"orphan": "off", "stub": "off"})
    assert found == [("dead-link", "Templates/Weekly.md")]


def test_a_type_the_vault_uses_on_three_pages_is_part_of_its_vocabulary(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {f"n{i}.md": "---\ntype: Uni Note\n---\nx" for i in range(3)}
    files |= {"typo.md": "---\ntype: Uni Nte\n---\nx", "none.md": "x", "t.md": "---\ntype: topic\n---\nx"}
    found = vault_with(tmp_path, files)
    assert sorted(p for r, p in found if r == "untyped") == ["none.md", "typo.md"]
    named = vault_with(tmp_path / "named", files, types=("topic",), types_configured=True)
    assert sorted(p for r, p in named if r == "untyped") == ["n0.md", "n1.md", "n2.md", "none.md", "typo.md"]
