"""The dream pass: thing-titles from event titles, merges, stored decisions, the proposer command."""

from __future__ import annotations

import json
import posixpath
import sys
from pathlib import Path

import pytest
from helpers import make_vault

from curator.core.change.changes import history, undo
from curator.core.common.errors import EditError
from curator.core.curate.dream import accept, dream, set_status
from curator.core.curate.suggestions import load_suggestions
from curator.core.read.loading import load_vault
from curator.core.read.titles import subject_of
from curator.core.state.config import Config

# (event-style title, the thing it is about; "" = nothing left, so no rename)
TITLES = [
    ("Ticket 4711 vom 29.07.2026: Zertifikat abgelaufen", "Zertifikat"),
    ("2026-08-14 checkout outage postmortem", "Checkout outage"),
    ("DB pool exhausted again during the Friday evening deploy and nobody noticed for an hour", "DB pool exhausted"),
    ("PR #123 merged: retry payment webhooks", "Retry payment webhooks"),
    ("Meeting notes 2026-07-29 payments sync", "Payments sync"),
    ("Incident 2026-03-02 - Redis failover", "Redis failover"),
    ("Störung am 3. März 2026: Datenbank voll", "Datenbank voll"),
    ("Besprechung vom 12.05.2026 zur Preisgestaltung", "Preisgestaltung"),
    ("JIRA-482 fixed: login loop on Safari", "Login loop on Safari"),
    ("Outage on July 29, 2026", "Outage"),
    ("Retro Q3 2026 checkout team", "Checkout team"),
    ("Call with Acme on 29 Jul 2026 about SSO", "Call with Acme about SSO"),
    ("Deploy failed on Friday 14:30", "Deploy failed"),
    ("Kafka consumer lag erledigt 12.06.2026", "Kafka consumer lag"),
    ("Fixed: search index corruption (2026-05-02)", "Search index corruption"),
    ("Update 2026-04-01 on vendor contract", "Vendor contract"),
    ("INC-5512 Payment gateway timeouts 2026-06-18", "Payment gateway timeouts"),
    ("Notizen Montag 2026-09-07 HSM Wartung", "HSM Wartung"),
    ("2026-10-01 Postgres upgrade to 16", "Postgres upgrade to 16"),
    ("Issue #88: rate limiter drops requests", "Rate limiter drops requests"),
    ("Follow-up 2026-02-11 Acme onboarding", "Acme onboarding"),
    ("Gestern Abend: VPN down wieder", "VPN down"),
    ("Release 2026.11 notes", "Release 2026.11"),
    ("Q4 2026 planning", "Planning"),
    ("On call handover 2026-08-03 week 32", "On-call handover"),
    ("Re: Fwd: vendor pricing 2026-01-01", "Vendor pricing"),
    ("Vorfall #77 vom 01.02.2026 - Backup fehlgeschlagen", "Backup fehlgeschlagen"),
    ("Standup 2026-05-05", "Standup"),
    ("2026-07-29", ""),
    ("Daily 2026-07-29", ""),
    ("Meeting 29.07.2026", ""),
    ("29 Jul 2026", ""),
    ("sweep-2026-04-11T08", "Sweep"),  # the hour of an ISO time goes with its date
    ("librarian-session-report-2026-03-25-powerspec", "Librarian session report powerspec"),  # a slug's words
    ("🔍 Verification report 2026-03-25", "Verification report"),
    ("BAfA-Termin 2026-01-01", "BAfA-Termin"),  # a filler word inside a compound is part of a name
    ("meeting-notes-2026-01-01", ""),
]


@pytest.mark.parametrize(("title", "thing"), TITLES)
def test_event_titles_become_thing_titles(title: str, thing: str) -> None:
    assert subject_of(title) == thing


def test_a_numbered_session_log_names_what_it_did() -> None:
    """A new user's basic-memory vault: "SESSION- _01 Multi-Tool Compatibility Restructure" was
    proposed for `SESSION-2026-02-09_01-multi-tool-compatibility-restructure`."""
    assert (
        subject_of("SESSION-2026-02-09_01: Multi-Tool Compatibility Restructure")
        == "Multi-Tool Compatibility Restructure"
    )
    assert (
        subject_of("SESSION-2026-02-09_01-multi-tool-compatibility-restructure")
        == "Multi tool compatibility restructure"
    )


def test_the_certificate_ticket_names_the_certificate() -> None:
    subject = subject_of("Ticket 4711 vom 29.07.2026: Zertifikat abgelaufen")
    assert "zertifikat" in subject.casefold()
    assert "ticket" not in subject.casefold() and "vom" not in subject.casefold()
    assert "abgelaufen" not in subject.casefold()


def suggestions_for(root: Path, **config: object):  # type: ignore[no-untyped-def]
    vault = load_vault(root, Config(**config), use_cache=False)  # type: ignore[arg-type]
    return {s.pages[0]: s for s in dream(vault).proposed}


def test_signals_are_preferred_in_order_and_existing_pages_get_a_merge(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "Ticket 4711 vom 29.07.2026.md": "# Ticket 4711\nThe gateway certificate expired overnight.",
            "Home.md": "[[Ticket 4711 vom 29.07.2026|certificate renewal]] and [[Outage 2026-01-02|outage]]",
            "Certificate renewal.md": "# Certificate renewal\nHow we renew certificates.",
            "Outage 2026-01-02.md": "# Redis failover\nRedis failed over to the replica.",
            "Daily/2026-07-29.md": "Worked on things.",
            "Sync 2026-05-05.md": "Talked.",
        },
    )
    found = suggestions_for(root, journal_folders=("Daily",))
    ticket = found["Ticket 4711 vom 29.07.2026.md"]
    assert ticket.kind == "merge" and ticket.pages[1] == "Certificate renewal.md"  # the label names a page
    outage = found["Outage 2026-01-02.md"]
    assert (outage.kind, outage.title) == ("rename", "Redis failover")  # its heading names a thing
    assert outage.evidence["chosen_from"] == "the page's heading"
    assert outage.evidence["links_to_rewrite"] == 1
    assert "Daily/2026-07-29.md" not in found  # a daily note in a journal folder stays as it is
    assert found["Sync 2026-05-05.md"].title == "Sync"


def test_decisions_are_kept_until_the_page_changes(sample_vault: Path) -> None:
    first = dream(load_vault(sample_vault))
    assert [s.kind for s in first.proposed].count("tier") == 1  # its index is at 82 % of its budget
    assert len([s for s in first.proposed if s.kind != "tier"]) == 3
    renamed = next(s for s in first.proposed if s.kind == "rename")
    set_status(sample_vault, renamed.id, "rejected")
    again = dream(load_vault(sample_vault))
    assert renamed.id not in {s.id for s in again.proposed}
    assert next(s for s in again.suggestions if s.id == renamed.id).status == "rejected"
    page = sample_vault / renamed.pages[0]
    page.write_text(page.read_text() + "\nOne more line.\n")
    third = dream(load_vault(sample_vault))
    assert renamed.id in {s.id for s in third.proposed}


def test_end_to_end_two_renames_one_merge_and_an_undo(sample_vault: Path) -> None:
    result = dream(load_vault(sample_vault))
    renames = [s for s in result.proposed if s.kind == "rename"]
    merges = [s for s in result.proposed if s.kind == "merge"]
    assert len(renames) == 2 and len(merges) == 1
    for s in result.proposed:
        assert s.reason and s.reason.count("\n") == 0
    first, _ = accept(load_vault(sample_vault), renames[0].id)
    second, entry = accept(load_vault(sample_vault), renames[1].id, title="Gateway certificates")
    merged, _ = accept(load_vault(sample_vault), merges[0].id)
    assert (sample_vault / "incidents/Gateway certificates.md").exists()
    assert (sample_vault / f"incidents/{first.title}.md").exists()
    assert not (sample_vault / merged.pages[0]).exists()
    undo(sample_vault, entry.id)
    assert (sample_vault / renames[1].pages[0]).exists()
    statuses = {s.id: s.status for s in load_suggestions(sample_vault) if s.kind != "tier"}
    assert statuses == {first.id: "accepted", second.id: "undone", merged.id: "accepted"}
    assert [e.state for e in history(sample_vault)] == ["applied", "undone", "applied"]
    with pytest.raises(EditError, match="already accepted"):
        accept(load_vault(sample_vault), first.id)
    vault = load_vault(sample_vault, use_cache=False)
    dead = {rl.link.target for rl in vault.links if rl.resolution.kind == "dead"}
    assert dead == {"Capacity plan 2027", "cert renewal", "Certificate Renewl"}  # the ones written dead


def test_a_kill_between_the_change_and_the_queue_leaves_the_suggestion_accepted(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import curator.core.curate.dream as dream_module

    rename = next(s for s in dream(load_vault(sample_vault)).proposed if s.kind == "rename")

    def killed(root: Path, suggestions: object) -> None:
        raise KeyboardInterrupt  # the process dies after the change is written, before the queue is

    monkeypatch.setattr(dream_module, "save_suggestions", killed)
    with pytest.raises(KeyboardInterrupt):
        accept(load_vault(sample_vault), rename.id)
    monkeypatch.undo()
    entry = history(sample_vault)[-1]
    assert entry.state == "applied" and entry.details["suggestion"] == rename.id
    stored = next(s for s in load_suggestions(sample_vault) if s.id == rename.id)
    assert (stored.status, stored.change) == ("accepted", entry.id)
    with pytest.raises(EditError, match="already accepted"):
        accept(load_vault(sample_vault), rename.id)
    undo(sample_vault, entry.id)  # the queue's file still says pending
    assert next(s for s in load_suggestions(sample_vault) if s.id == rename.id).status == "undone"
    # proposed again after the undo (its page changed): pending, not the old change's
    page = sample_vault / rename.pages[0]
    page.write_text(page.read_text() + "\nOne more line.\n")
    again = next(s for s in dream(load_vault(sample_vault)).suggestions if s.id == rename.id)
    assert again.status == "pending"
    assert next(s for s in load_suggestions(sample_vault) if s.id == rename.id).status == "pending"


PROPOSER = """
import json, sys, time
mode = sys.argv[1]
request = json.load(sys.stdin)
if mode == "slow":
    time.sleep(30)
if mode == "fail":
    sys.exit(3)
if mode == "garbage":
    print("not json")
else:
    print(json.dumps({"proposals": [
        {"path": c["path"], "title": c["rule_title"].upper(), "reason": "the model says so"}
        for c in request["candidates"]
    ] + [{"path": "nope.md", "title": "x"}]}))
"""


@pytest.mark.parametrize("mode", ["ok", "fail", "garbage", "slow"])
def test_a_proposer_command_is_used_and_its_failures_fall_back(tmp_path: Path, mode: str) -> None:
    script = tmp_path / "proposer.py"
    script.write_text(PROPOSER)
    root = make_vault(tmp_path / "v", {"Outage 2026-01-02.md": "# Redis failover\nRedis failed over.", "a.md": "x"})
    vault = load_vault(root, Config(proposer_command=f"{sys.executable} {script} {mode}", proposer_timeout=2))
    result = dream(vault)
    (suggestion,) = result.proposed
    if mode == "ok":
        assert (suggestion.title, suggestion.proposer, suggestion.reason) == (
            "REDIS FAILOVER",
            "command",
            "the model says so",
        )
        assert any("nope.md" in note for note in result.notes)
    else:
        assert (suggestion.title, suggestion.proposer) == ("Redis failover", "rules")
        assert len(result.notes) == 1 and "rule-based titles used" in result.notes[0]


def test_cli_dream_suggestions_apply_reject(sample_vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from curator.cli.main import main

    assert main(["dream", str(sample_vault), "--json"]) == 0
    proposed = json.loads(capsys.readouterr().out)["proposed"]
    assert main(["reject", str(sample_vault), proposed[0]["id"]]) == 0
    assert main(["apply", str(sample_vault), proposed[1]["id"]]) == 0
    assert main(["suggestions", str(sample_vault), "--json"]) == 0
    out = capsys.readouterr().out
    listed = {s["id"]: s["status"] for s in json.loads(out[out.index("{") :])["suggestions"]}
    assert listed[proposed[0]["id"]] == "rejected" and listed[proposed[1]["id"]] == "accepted"
    assert main(["apply", str(sample_vault), "zzz"]) == 2


def test_suggestions_show_the_diff_each_pending_one_would_apply_now(
    sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from curator.cli.main import main

    assert main(["dream", str(sample_vault), "--json"]) == 0
    proposed = json.loads(capsys.readouterr().out)["proposed"]
    rename = next(s for s in proposed if s["kind"] == "rename")
    merge = next(s for s in proposed if s["kind"] == "merge")
    assert main(["suggestions", str(sample_vault), "--diff"]) == 0
    shown = capsys.readouterr().out
    new_path = f"+++ {posixpath.dirname(rename['pages'][0])}/{rename['title']}.md"
    assert f"--- {rename['pages'][0]}" in shown and new_path in shown  # the rename's page, moved
    (sample_vault / merge["pages"][0]).unlink()  # another program removed the merge's source since
    assert main(["suggestions", str(sample_vault), "--diff", "--json"]) == 0
    listed = {s["id"]: s for s in json.loads(capsys.readouterr().out)["suggestions"]}
    assert listed[merge["id"]]["diff"] is None and merge["pages"][0] in listed[merge["id"]]["not_applicable"]
    assert listed[rename["id"]]["diff"].startswith("--- ") and listed[rename["id"]]["not_applicable"] is None
    with (sample_vault / rename["pages"][0]).open("a") as page:  # edited since: apply would refuse it, so does the list
        page.write("One more line.\n")
    assert main(["suggestions", str(sample_vault), "--diff", "--json"]) == 0
    listed = {s["id"]: s for s in json.loads(capsys.readouterr().out)["suggestions"]}
    assert listed[rename["id"]]["diff"] is None and "changed since" in listed[rename["id"]]["not_applicable"]
    assert main(["suggestions", str(sample_vault)]) == 0
    assert "+++ " not in capsys.readouterr().out  # the diffs only when asked


def test_a_page_written_by_hand_is_named_so_in_the_reason(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "Meeting 2026-07-29 about the billing export.md": "---\nsource: manual\n---\n# Billing export\n\nText.\n",
            "Home.md": "[[Meeting 2026-07-29 about the billing export|billing export]]\n",
        },
    )
    (suggestion,) = dream(load_vault(root, use_cache=False)).proposed
    assert "was written by hand: source manual" in suggestion.reason


def test_index_tiering_moves_closed_entries_until_the_index_fits(sample_vault: Path) -> None:
    from edit_helpers import tree

    from curator.core.check.lint import lint

    start = tree(sample_vault)
    (tier,) = [s for s in dream(load_vault(sample_vault)).proposed if s.kind == "tier"]
    assert "82%" in tier.reason and tier.title == "MEMORY_DEEP.md"
    _, entry = accept(load_vault(sample_vault), tier.id)
    index = (sample_vault / "MEMORY.md").read_text()
    deep = (sample_vault / "MEMORY_DEEP.md").read_text()
    assert len(index.encode()) < 0.7 * 3072 and "[[MEMORY_DEEP]]" in index
    assert "- [[Ticket 4711 vom 29.07.2026 - Zertifikat abgelaufen]]\n" in deep  # closed entries first
    moved = [line for line in deep.splitlines() if line.startswith("- ")]
    assert all(line + "\n" in start["MEMORY.md"].decode() for line in moved)  # whole lines, as they were
    rules = {f.rule for f in lint(sample_vault, use_cache=False).findings}
    assert "index-pressure" not in rules
    assert {f.path for f in lint(sample_vault, use_cache=False).findings if f.rule == "index-drift"} == {
        f"notes/{name}.md" for name in ("Broken header", "Loose thoughts on queues", "Vendor call")
    }  # the same three as before: a tiered entry is still listed
    undo(sample_vault, entry.id)
    assert tree(sample_vault) == start


STATUS_VAULT: dict[str, str | bytes] = {
    "MEMORY.md": "# Memory\n\n- [[Billing service]]: how billing runs\n- [[Deployed 3.14.2]]\n- [[Closed 4711]]\n",
    "Billing service.md": "---\ntype: system\n---\n# Billing service\n\nBills customers nightly.\n",
    "PR 482 merged.md": "Merged PR #482 on 2026-07-01 for [[Billing service]].\n",
    "Deployed 3.14.2.md": "Deployed payments-api 3.14.2 on 2026-07-02.\n",
    "Closed 4711.md": "Closed ticket 4711 on 2026-07-03.\n",
    "Notes.md": "What we learned: see [[Closed 4711]] and [[PR 482 merged]].\n",
}


def test_status_updates_are_merged_into_their_thing_or_dropped(tmp_path: Path) -> None:
    """A status update that names its thing goes into it; one that names nothing and only the
    index lists is dropped, its index line with it; one that other pages link to stays. Each
    undoes to the exact bytes."""
    root = make_vault(tmp_path / "v", STATUS_VAULT)
    start = {p: (root / p).read_bytes() for p in STATUS_VAULT}
    proposed = {s.pages[0]: s for s in dream(load_vault(root, use_cache=False)).proposed}
    merge, drop = proposed["PR 482 merged.md"], proposed["Deployed 3.14.2.md"]
    assert (merge.kind, merge.pages) == ("merge", ["PR 482 merged.md", "Billing service.md"])
    assert merge.reason.startswith("Merge because PR 482 merged.md only logs an event")
    assert (drop.kind, drop.pages) == ("drop", ["Deployed 3.14.2.md", "MEMORY.md"])
    assert "Closed 4711.md" not in proposed  # Notes.md links to it and it names nothing
    _, merged = accept(load_vault(root), merge.id)
    assert "Merged PR #482" in (root / "Billing service.md").read_text() and not (root / "PR 482 merged.md").exists()
    _, dropped = accept(load_vault(root), drop.id)
    assert not (root / "Deployed 3.14.2.md").exists()
    assert (
        root / "MEMORY.md"
    ).read_text() == "# Memory\n\n- [[Billing service]]: how billing runs\n- [[Closed 4711]]\n"
    assert not {rl.link.target for rl in load_vault(root, use_cache=False).links if rl.resolution.kind == "dead"}
    undo(root, merged.id)
    undo(root, dropped.id)
    assert {p: (root / p).read_bytes() for p in STATUS_VAULT} == start


def test_a_status_update_the_index_lists_beside_other_links_is_not_dropped(tmp_path: Path) -> None:
    files = {**STATUS_VAULT, "MEMORY.md": "# Memory\n\n- [[Billing service]], [[Deployed 3.14.2]]\n"}
    root = make_vault(tmp_path / "v", files)
    proposed = {s.pages[0]: s for s in dream(load_vault(root, use_cache=False)).proposed}
    assert "Deployed 3.14.2.md" not in proposed


def test_daily_notes_and_drawings_are_not_renamed_and_no_name_is_proposed_twice(tmp_path: Path) -> None:
    day = "# Habits\n\n- [ ] run\n- [ ] read\n"
    files = {f"Journal/2024-09-{n:02}.md": day for n in range(10, 16)}
    files["Excalidraw/Drawing 2024-04-19 10.15.22.excalidraw.md"] = "# Text Elements\nbox\n"
    files["incidents/Outage 2026-03-02 checkout.md"] = "# Checkout\n\nThe checkout went down.\n"
    files["incidents/Checkout outage on 2026-04-09.md"] = "# Checkout\n\nThe checkout went down again.\n"
    root = make_vault(tmp_path / "v", files)
    proposed = dream(load_vault(root, use_cache=False)).proposed
    assert [(s.kind, s.title) for s in proposed if s.kind == "rename"] == [("rename", "Checkout")]


def test_the_dream_renames_what_lint_calls_a_diary_title(tmp_path: Path) -> None:
    """A new user's basic-memory vault: lint left out 20 dated file names whose `title:` names them
    without a date, and the dream proposed all 20 for a rename ("V1 Step 10" for "v1 Step 10 —
    Account Management GUI Decisions"); a template is no page to rename either."""
    files = {
        "decisions/2026-07-10-v1-step-10-decisions.md": "---\ntitle: v1 Step 10 — Account GUI Decisions\n---\nText.\n",
        "decisions/2026-07-09-step-02-decisions.md": "---\ntitle: Step 2 Decisions 2026-07-09\n---\nText.\n",
        "templates/Meeting 2024-01-01 notes.md": "# {{title}}\n",
    }
    root = make_vault(tmp_path / "v", files)
    vault = load_vault(root, use_cache=False)
    renamed = [s.pages[0] for s in dream(vault).proposed if s.kind == "rename"]
    assert renamed == ["decisions/2026-07-09-step-02-decisions.md"]
    from curator.core.check.findings import check_vault

    assert [f.path for f in check_vault(vault) if f.rule == "diary-title"] == renamed


def test_a_page_is_merged_into_the_page_that_holds_its_text_however_linked(tmp_path: Path) -> None:
    note = (
        "Selective repeat keeps a window of frames on both sides; the receiver buffers frames that "
        "arrive out of order and acknowledges each one, and the sender resends only the frames whose "
        "timer runs out, so one loss costs one frame and not the whole window behind it."
    )
    other = "Go-back-N resends the whole window after a loss; it is simpler and wastes more of the link. " * 3
    files = {
        "Selective repeat.md": note,
        "Cheatsheet.md": f"# Transport\n\n{other}\n\n## Selective repeat\n\n{note}\n",
    }
    files |= {f"Lecture {n}.md": f"We covered [[Selective repeat]] in week {n}." for n in range(3)}
    root = make_vault(tmp_path / "v", files)
    (merge,) = [s for s in dream(load_vault(root, use_cache=False)).proposed if s.kind == "merge"]
    assert merge.pages == ["Selective repeat.md", "Cheatsheet.md"]


def test_the_heading_names_the_page_before_its_file_name(tmp_path: Path) -> None:
    from curator.core.curate.dream import derive_title

    root = make_vault(
        tmp_path / "v",
        {"external-audit-2026-03-25.md": "# External Auditor Acceptance Report — Jarvis\n\nAll checks passed.\n"},
    )
    derived, source, _ = derive_title(load_vault(root, use_cache=False), "external-audit-2026-03-25.md")
    assert (derived, source) == ("External Auditor Acceptance Report", "its heading without the event")


def test_a_section_heading_does_not_name_the_page(tmp_path: Path) -> None:
    from curator.core.curate.dream import derive_title

    title = "Estremo Superiore e Inferiore, Massimo, Minimo, Maggioranti e Minoranti di un Insieme"
    root = make_vault(tmp_path / "v", {f"{title}.md": "## Intervallo\n\nUn intervallo è ...\n\n## Massimo\n"})
    derived, source, _ = derive_title(load_vault(root, use_cache=False), f"{title}.md")
    assert derived != "Intervallo" and source != "the page's heading", (derived, source)


def test_a_days_log_much_larger_than_the_page_of_its_subject_is_not_folded_into_it(tmp_path: Path) -> None:
    log = "# Memory 2026-02-10\n\n" + "The agent rebuilt the index, moved the notes and wrote the report. " * 60
    root = make_vault(tmp_path / "v", {"memory/2026-02-10-memory.md": log, "MEMORY.md": "# Memory\n\nWhat I keep.\n"})
    assert "memory/2026-02-10-memory.md" not in suggestions_for(root)


def test_a_session_log_named_by_its_time_is_not_renamed_to_the_seconds_or_the_kind(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "memory/2026-02-23-2203.md": "# Session: 2026-02-23 22:03:32 UTC\n\n- **Session Key**: agent:main:main\n",
            "memory/2026-02-23-2256.md": "# Session: 2026-02-23 22:56:08 UTC\n\n- **Session Key**: agent:main:cron\n",
        },
    )
    renames = [s for s in dream(load_vault(root, use_cache=False)).proposed if s.kind == "rename"]
    assert renames == []  # not "32 UTC", nor "Session": a log's entry names no thing
