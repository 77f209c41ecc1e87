"""A changed fact of a page that states many goes beside its old statement (`curate.update`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import make_vault

from curator.cli.main import main
from curator.core.curate.remember import remember
from curator.core.curate.update import old_statement, prose_sentences, updated
from curator.core.read.loading import load_vault

BACKUPS = """---
owner: ops
---
# Postgres

The primary runs on db-01 and the standby on db-02. Backups run daily at 03:00 UTC and are kept
for 30 days in the backups bucket.

## Restore
1. Stop the application.
2. Restore the newest dump with `pg_restore`.

| job | time |
|---|---|
| vacuum | 04:00 |
"""


def _after(tmp_path: Path, page: str, text: str) -> tuple[str, str]:
    root = make_vault(tmp_path / "v", {"Postgres.md": page, "Kafka.md": "# Kafka\n\nThe event bus.\n"})
    proposal = remember(load_vault(root), text)
    assert proposal.plan is not None, proposal.reason
    assert proposal.decision == "supersede" and proposal.plan.details["superseded"] == "Postgres.md"
    assert [c.path for c in proposal.plan.changes] == ["Postgres.md"]  # no successor, no index line
    return proposal.reason, (proposal.plan.changes[0].after or b"").decode()


def test_the_statement_whose_old_value_the_text_names_is_struck_and_followed(tmp_path: Path) -> None:
    text = "Postgres backups now run daily at 01:30 UTC instead of 03:00."
    reason, after = _after(tmp_path, BACKUPS, text)
    assert after == BACKUPS.replace(
        "Backups run daily at 03:00 UTC and are kept\nfor 30 days in the backups bucket.",
        f"~~Backups run daily at 03:00 UTC and are kept\nfor 30 days in the backups bucket.~~ {text}",
    )
    assert "Backups run daily at 03:00 UTC" in reason


def test_a_statement_the_text_does_not_name_is_followed_not_struck(tmp_path: Path) -> None:
    text = "Postgres backups are now kept for 90 days in the backups bucket."
    _, after = _after(tmp_path, BACKUPS, text)
    assert "~~" not in after
    assert "kept\nfor 30 days in the backups bucket. " + text in after


def test_a_value_only_a_table_or_code_holds_is_never_struck(tmp_path: Path) -> None:
    """The vacuum time is in a table: a strike there would break the row; the text goes right
    after the table, and the reason names its lines."""
    text = "Postgres vacuum now runs at 05:00 instead of 04:00."
    reason, after = _after(tmp_path, BACKUPS, text)
    assert after == BACKUPS + "\n" + text + "\n"
    assert "(lines 13-15)" in reason and "change the value there by hand" in reason


def test_a_german_text_strikes_the_english_list_item_it_names(tmp_path: Path) -> None:
    page = BACKUPS.replace("## Restore", "## Network\n- Zigbee channel: 11\n- Mesh: on\n\n## Restore")
    text = "Postgres: der Zigbee-Kanal ist jetzt 25 statt 11."
    _, after = _after(tmp_path, page, text)
    assert f"- ~~Zigbee channel: 11~~ {text}\n- Mesh: on\n" in after


def test_a_sentence_cut_inside_its_marks_is_not_struck(tmp_path: Path) -> None:
    page = BACKUPS.replace("Backups run daily", "Backups (see `pg_dump` and **cron) run daily")
    text = "Postgres backups now run daily at 01:30 UTC instead of 03:00."
    _, after = _after(tmp_path, page, text)
    assert "~~" not in after and after == page + "\n" + text + "\n"  # where a merge puts it


def test_two_sentences_as_likely_are_neither_taken() -> None:
    page = "# P\n\nThe blue job runs at 03:00 on db-01.\n\nThe green job runs at 03:00 on db-01.\n\nA third.\n"
    assert old_statement("The job now runs at 04:00 on db-01 instead of 03:00.", page, "P") is None


def test_sentences_are_read_from_prose_only_and_an_abbreviation_ends_none() -> None:
    page = (
        "---\ntitle: x. Y\n---\n# Heading. Two\n\nA box (ca. 30 € used) works. It is loud!\n"
        "```\ncode. More code.\n```\n- An item. Its second.\n\n| a. | b. |\n\nText\n| runs on. |\n"
    )
    said = [page[start:end] for start, end in prose_sentences(page)]
    assert said == ["A box (ca. 30 € used) works.", "It is loud!", "An item.", "Its second."]


def test_an_incident_that_names_an_old_value_strikes_nothing(tmp_path: Path) -> None:
    """A new user's incident ("the dongle showed up as ttyUSB1 instead of ttyUSB0") struck a step still valid."""
    page = BACKUPS.replace("## Restore", "## Network\n- The dongle is /dev/ttyUSB0 on the Postgres host.\n\n## Restore")
    text = "Vorfall 2026-09-30: Postgres fand den Dongle als /dev/ttyUSB1 statt /dev/ttyUSB0 nach einem Neustart."
    root = make_vault(tmp_path / "v", {"Postgres.md": page})
    proposal = remember(load_vault(root), text)
    assert proposal.plan is not None
    after = (proposal.plan.changes[0].after or b"").decode()
    assert "~~" not in after and "- The dongle is /dev/ttyUSB0 on the Postgres host.\n" in after


def test_a_sentence_that_opens_a_list_is_not_followed() -> None:
    page = "# P\n\nRun the backup daily at a set time (i.e. 4.30 AM):\n\n- Enabled: yes\n- Hour: 4\n\nMore.\n"
    assert old_statement("The backup now runs daily at 02:00 instead of 4:30 AM.", page, "P") is None


def test_a_sentence_saying_not_is_followed_not_struck(tmp_path: Path) -> None:
    """Striking "does not run at 03:00 on Sundays" for "now at 04:00 instead of 03:00" loses the Sunday exception."""
    page = BACKUPS.replace("Backups run daily at 03:00 UTC", "Backups do not run at 03:00 UTC on Sundays")
    _, after = _after(tmp_path, page, "Postgres backups now run at 04:00 UTC instead of 03:00.")
    assert "~~" not in after and "Sundays and are kept" in after


def test_a_text_of_many_lines_or_marks_goes_where_a_merge_puts_it() -> None:
    statement = old_statement("Backups now run at 01:30 UTC instead of 03:00.", BACKUPS, "Postgres")
    assert statement is not None and statement.named
    assert updated(BACKUPS, statement, "Backups now run at 01:30 UTC instead of 03:00.") is not None
    for text in ("Now 01:30 instead of 03:00.\n# Heading\n```\ncode\n```", "Now ~~01:30 instead of 03:00.", "x " * 400):
        assert updated(BACKUPS, statement, text) is None


def test_a_statement_edited_after_it_was_shown_is_not_struck_at_apply(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A person reviewed the strike of one sentence, then added a clause to it: the apply would strike theirs too."""
    root = make_vault(tmp_path / "v", {"Postgres.md": BACKUPS, "Kafka.md": "# Kafka\n\nThe event bus.\n"})
    assert main(["remember", str(root), "Postgres backups now run daily at 01:30 UTC instead of 03:00.", "--json"]) == 0
    queued = json.loads(capsys.readouterr().out)["suggestion"]
    edited = BACKUPS.replace("backups bucket.", "backups bucket, never on Sundays.")
    (root / "Postgres.md").write_text(edited)
    assert main(["apply", str(root), queued]) == 2
    assert "changed since the proposal was shown" in capsys.readouterr().err
    assert (root / "Postgres.md").read_text() == edited


def test_a_section_of_how_it_was_and_a_source_line_are_no_old_statement() -> None:
    """A German wiki kept its old PHP settings under "Alte Version" and a source URL under "Quelle:":
    the strike hit the old method and the text was glued onto the URL."""
    page = (
        "# Nextcloud\n\n## Alte Version\n\nDas PHP memory_limit steht auf 512M in der htaccess.\n\n"
        "## Einstellungen\n\nDer Speicher ist groß genug. Die Uploads sind auf 10 GB begrenzt.\n\n"
        "Quelle: https://docs.nextcloud.com/server/latest/admin_manual/memory_limit.html\n"
    )
    found = old_statement("Das PHP memory_limit steht jetzt auf 1G statt 512M.", page, "Nextcloud")
    assert found is None or "htaccess" not in page[found.start : found.end]
    assert old_statement("Die Quelle docs.nextcloud.com memory_limit html ist jetzt eine andere.", page, "x") is None


def test_a_page_struck_once_takes_a_second_change_in_place(tmp_path: Path) -> None:
    """An attacker's: after one strike the page counted no sentence and the next change superseded it whole."""
    root = make_vault(tmp_path / "v", {"Postgres.md": BACKUPS, "Kafka.md": "# Kafka\n\nThe event bus.\n"})
    for text in (
        "Postgres backups now run daily at 01:30 UTC instead of 03:00.",
        "Postgres now runs on db-03 instead of db-01.",
    ):
        proposal = remember(load_vault(root), text)
        assert proposal.plan is not None and [c.path for c in proposal.plan.changes] == ["Postgres.md"], proposal.reason
        (root / "Postgres.md").write_bytes(proposal.plan.changes[0].after or b"")
    after = (root / "Postgres.md").read_text()
    assert "superseded_by" not in after and after.count("~~") >= 2


@pytest.mark.parametrize(
    ("page", "text", "kept"),
    [
        # a link's text over two lines is no place for a strike or a text
        (
            "See [the backup job runs at 03:00.\nDetails](https://x.example/b) here. Restores run monthly.\n",
            None,
            "[the backup job",
        ),
        # a comment over paragraphs hides what is written in it
        (
            "%%\nThe backup job runs at 03:00 every night.\n\nMore hidden.\n%%\n\nRestores run monthly.\n",
            None,
            "%%\nThe backup",
        ),
        # a block id stays at its line's end
        (
            "The backup job runs at 03:00 every night ^backup-time\n\nRestores run monthly. Logs go to syslog.\n",
            None,
            "^backup-time\n",
        ),
        # "replaced by X" names the new value, not the old one
        (
            "The backup job runs at 03:00 every night on nas01.\n\nThe wiki runs on wiki02. Restores run monthly.\n",
            "The backup host nas01 was replaced by wiki02 for the job.",
            "The wiki runs on wiki02",
        ),
        # a rule that says "not" still holds when the text says "no longer"
        (
            "The backup job must not run at 03:00 on Sundays.\n\nRestores run monthly. Logs go to syslog.\n",
            "The backup job no longer runs at 03:00 on weekdays instead of 02:00.",
            "The backup job must not run",
        ),
        # a day's number before its month ends no sentence
        (
            "Der Backup-Job läuft seit dem 3. März um 03:00 Uhr. Die Logs gehen nach syslog. Restores monatlich.\n",
            "Der Backup-Job läuft jetzt um 04:00 Uhr statt 03:00.",
            "~~Der Backup-Job läuft seit dem 3. März um 03:00 Uhr.~~",
        ),
    ],
    ids=["link over two lines", "comment over paragraphs", "block id", "replaced by", "must not", "3. März"],
)
def test_an_attackers_page_keeps_its_markup_and_its_true_statements(page: str, text: str | None, kept: str) -> None:
    text = text or "The backup job now runs at 04:00 every night instead of 03:00."
    statement = old_statement(text, "# Backup\n\n" + page, "Backup")
    after = updated("# Backup\n\n" + page, statement, text) if statement else None
    result = after or "# Backup\n\n" + page
    if kept.startswith("~~"):
        assert kept in result
    else:
        assert kept in result and f"~~{kept}" not in result


def test_sentences_of_a_long_page_are_all_found() -> None:
    page = "# Log\n\n" + " ".join(f"Entry {n} of the log ran at 03:{n % 60:02d}." for n in range(6000)) + "\n"
    assert len(prose_sentences(page)) == 6000


def test_two_lines_of_five_sentences_are_a_page_of_many() -> None:
    from curator.core.curate.update import states_one_fact

    change = "Redis now listens on 6380 instead of 6379."
    assert states_one_fact("# Redis\n\nRedis listens on 6379.\n", change)
    assert not states_one_fact(
        "# Backup\n\nIt runs at 03:00. Logs go to syslog. Restores run monthly.\nAlerts page on-call.\n", change
    )


def test_a_page_of_one_sentence_that_keeps_more_than_the_change_says_stays(tmp_path: Path) -> None:
    """An attacker's: one value changed on a page of one sentence retired the whole page for a
    successor that held only the new value ("... and keeps 14 days" was gone from the live page)."""
    from curator.core.curate.update import states_one_fact

    page = "# Nightly backup\n\nThe nightly backup runs at 02:00 to the NAS and keeps 14 days of snapshots.\n"
    change = "The nightly backup now runs at 05:00 instead of 02:00."
    assert not states_one_fact(page, change)
    assert states_one_fact(page, "The nightly backup now runs at 05:00 to the NAS, 14 days of snapshots kept.")
    vault = load_vault(make_vault(tmp_path / "v", {"Nightly backup.md": page, "Other.md": "# Other\n\nx\n"}))
    proposal = remember(vault, change)
    assert (proposal.decision, proposal.page) == ("supersede", "Nightly backup.md")
    assert proposal.plan is not None and [c.path for c in proposal.plan.changes] == ["Nightly backup.md"]
    assert "~~The nightly backup runs at 02:00" in (proposal.plan.changes[0].after or b"").decode()


def test_a_successor_in_a_folder_of_hyphenated_names_is_linked_by_its_file(tmp_path: Path) -> None:
    """An attacker's: `superseded_by: "[[Nightly backup job]]"` named no file; the next change found its name taken."""
    from curator.core.change.changes import plan_and_apply

    pages = {f"topics/{n}.md": f"# {n}\n\nA page on {n}.\n" for n in ("pi-hole", "home-assistant", "wg-easy")}
    pages["topics/nightly-backup-job.md"] = "# Nightly backup job\n\nThe nightly backup job runs at 03:00.\n"
    root = make_vault(tmp_path / "v", pages)
    for text in (
        "The nightly backup job now runs at 04:00 every night instead of 03:00.",
        "The nightly backup job now runs at 05:00 every night instead of 04:00.",
    ):
        proposal = remember(load_vault(root), text)
        assert proposal.decision == "supersede" and proposal.plan is not None, proposal.reason
        plan_and_apply(root, lambda _, plan=proposal.plan: plan)  # type: ignore[misc]
    vault = load_vault(root)
    first = vault.pages["topics/nightly-backup-job.md"].frontmatter["superseded_by"]
    assert first == "[[nightly-backup-job-updated]]" and "topics/nightly-backup-job-updated.md" in vault.pages
    assert not [rl for rl in vault.links if rl.resolution.kind == "dead"]


def test_the_diff_remember_shows_escapes_what_would_hide_a_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = BACKUPS.replace("Backups run daily", "\x1b[8mBackups\u202e run daily")
    root = make_vault(tmp_path / "v", {"Postgres.md": page, "Kafka.md": "# Kafka\n\nThe event bus.\n"})
    assert main(["remember", str(root), "Postgres backups now run daily at 01:30 UTC instead of 03:00."]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and "\\x1b[8m" in out and "\\u202e" in out


def test_a_domain_or_a_version_before_a_period_ends_its_sentence() -> None:
    page = (
        "# D\n\nPlease use Gandi[https://admin.gandi.net].\nIn order to start, run v1.3.2. Then log in, z.B. as root.\n"
    )
    said = [page[start:end] for start, end in prose_sentences(page)]
    assert said == [
        "Please use Gandi[https://admin.gandi.net].",
        "In order to start, run v1.3.2.",
        "Then log in, z.B. as root.",
    ]


def test_a_page_marked_manual_in_a_header_yaml_cannot_read_is_still_a_persons(tmp_path: Path) -> None:
    """An attacker's: one broken YAML line hid `source: manual`, and the strike was applied unasked."""
    page = BACKUPS.replace("owner: ops\n", "source: manual\nowner: [ops\n")
    root = make_vault(tmp_path / "v", {"Postgres.md": page, "Kafka.md": "# Kafka\n\nThe event bus.\n"})
    proposal = remember(load_vault(root), "Postgres backups now run daily at 01:30 UTC instead of 03:00.")
    assert proposal.decision == "supersede" and proposal.review


def test_a_page_that_is_no_utf8_is_named_and_left_to_a_person(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An attacker's: a Latin-1 byte made the apply say "changed since the change was planned", which
    no retry mends; then a refusal (exit 2) told the agent nothing of where the memory belongs."""
    root = make_vault(tmp_path / "v", {"Postgres.md": BACKUPS.encode().replace(b"standby", b"Stand\xe9by")})
    before = {path.name: path.read_bytes() for path in root.iterdir() if path.is_file()}
    text = "Postgres backups now run daily at 01:30 UTC instead of 03:00."
    assert main(["remember", str(root), text, "--apply"]) == 0
    said = capsys.readouterr().out
    assert "MERGE-INTO: Merge into Postgres.md by hand" in said and "not UTF-8 text" in said
    assert {path.name: path.read_bytes() for path in root.iterdir() if path.is_file()} == before


def test_a_value_up_from_the_old_one_strikes_the_old_statement(tmp_path: Path) -> None:
    """A new user's agent workspace: "up from $9.99" named the old value, but "$9.99/month" was not
    taken to hold it, and the line said both values."""
    page = (
        "# Finances\n\n## Revenue\n\n- Stripe MRR: $9.99/month from 1 active subscription.\n"
        "- Costs: $40/month for hosting.\n- Runway: twelve months.\n"
        "- Payouts go to the business account every Friday.\n"
    )
    vault = load_vault(make_vault(tmp_path / "v", {"Finances.md": page}))
    text = "Stripe MRR is now $29.97/month from 3 active subscriptions, up from $9.99."
    proposal = remember(vault, text)
    assert proposal.plan is not None
    old = "- Stripe MRR: $9.99/month from 1 active subscription."
    assert (proposal.plan.changes[0].after or b"").decode() == page.replace(old, f"- ~~{old[2:]}~~ {text}")


MONITORING = """# Monitoring

Prometheus scrapes every target every 30 seconds and keeps 15 days of data. Alertmanager sends
its mail to the ops list.
"""


@pytest.mark.parametrize(
    "text",
    [
        "Prometheus scrapt jetzt alle 15 Sekunden statt alle 30.",  # no title named, in the other language
        "The scrape interval is shorter now: 10 seconds, it used to be 30.",
        "Prometheus now scrapes every target every 10 seconds, not 30.",  # a new user's "X now, not Y"
    ],
)
def test_a_change_naming_the_value_it_replaces_supersedes_the_page_stating_it(tmp_path: Path, text: str) -> None:
    root = make_vault(
        tmp_path / "v",
        {"Observability/Stack.md": MONITORING, "Grafana.md": "# Grafana\n\nDashboards for the 30 team boards.\n"},
    )
    proposal = remember(load_vault(root), text)
    assert proposal.decision == "supersede", proposal.reason
    assert proposal.plan is not None and proposal.plan.details["superseded"] == "Observability/Stack.md"


@pytest.mark.parametrize(
    "text",
    [
        "The Repair Café opens on the first Saturday from 2 to 5 pm.",  # a span, no value replaced
        "Prometheus scrapes every 30 seconds, not every 15 as the old runbook said.",  # the page's value again
    ],
)
def test_a_span_or_the_pages_own_value_replaces_nothing(text: str) -> None:
    from curator.core.curate.replaced import states_replaced

    page = MONITORING + "\nThe Repair Café opens on the first Saturday from 2 to 5 pm.\n"
    assert not states_replaced(text, page)


@pytest.mark.parametrize(
    ("text", "old"),
    [
        ("Prometheus scrapt jetzt alle 15 Sekunden statt alle 30.", {"30"}),
        ("Die Lizenzen wurden von 19 auf 22 aufgestockt.", {"19"}),
        ("The fee is €8 now; it used to be €5.", {"5"}),
        # an attacker's: a contrast, a span, the old value said to hold on
        ("The new VLAN is 30, not 10 or 20.", set()),
        ("Mileage is now reimbursed at $0.725/mile, not $0.70/mile.", {"0.70"}),  # beside "now", the old value
        ("Der Timeout ist jetzt 15 Sekunden, nicht 30.", {"30"}),
        ("Die Öffnungszeit von 8 bis 23 Uhr wurde verlängert.", set()),
        ("The timeout was raised from 60 to 300 seconds; the primary keeps 60.", set()),
    ],
)
def test_the_value_a_change_replaces_is_the_one_it_marks_as_old(text: str, old: set[str]) -> None:
    from curator.core.curate.replaced import replaced_numbers

    assert replaced_numbers(text) == old


CLUB = {
    "Kontakt.md": "# Kontakt\n\nPost an den Verein geht an Karlstraße 43, 08523 Plauen.\n",
    "Vorstand.md": "# Vorstand\n\nDer Vorstand trifft sich monatlich im Vereinsheim.\n",
    "Server.md": "# Server\n\nDie Samba-Freigabe nvme_share zeigt auf /mnt/nvme/share auf dem Server.\n",
    "Notes.md": "# Notes\n\nThe VPS lives in ca-toronto-1. Updates come from Renovate on every repository.\n",
}


@pytest.mark.parametrize(
    ("text", "page"),
    [
        ("Die Vereinsanschrift lautet jetzt Bahnhofstraße 12, 08523 Plauen – nicht mehr Karlstraße 43.", "Kontakt.md"),
        ("Die Samba-Freigabe zeigt jetzt auf /mnt/nvme2/share statt auf /mnt/nvme/share.", "Server.md"),
        ("The VPS was rebuilt in us-sanjose-1; it is no longer in ca-toronto-1.", "Notes.md"),
    ],
)
def test_a_change_naming_the_thing_it_replaces_goes_to_the_page_naming_it(tmp_path: Path, text: str, page: str) -> None:
    """Set 24's and earlier sets' changes: the old value a name, not a number ("nicht mehr
    Karlstraße 43"), stated on a page no title of the text names."""
    proposal = remember(load_vault(make_vault(tmp_path / "v", CLUB)), text)
    assert proposal.decision == "supersede", proposal.reason
    assert proposal.plan is not None and proposal.plan.details["superseded"] == page


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Die Vereinsanschrift lautet jetzt Bahnhofstraße 12 – nicht mehr Karlstraße 43.", {"karlstrasse"}),
        ("The VPS is no longer in ca-toronto-1.", {"ca-toronto-1"}),
        ("Der nächtliche Lauf startet jetzt um 01:30 statt um 03:00.", set()),  # a number, not a name
        # a choice, no change: "rather than", "instead of" with no "now"
        ("Home Assistant gets updated by its own supervisor rather than Renovate.", set()),
        ("Bisa-Code has been switched from Codex 5.3 to gpt-5.4-codex.", set()),  # the old name said again
    ],
)
def test_the_name_a_change_replaces_is_one_it_marks_as_old_and_says_once(text: str, names: set[str]) -> None:
    from curator.core.curate.replaced import replaced_names

    assert replaced_names(text) == names


def test_a_time_after_a_preposition_is_the_old_value() -> None:
    from curator.core.curate.replaced import old_values

    assert old_values("Der nächtliche Duplicati-Lauf startet jetzt um 01:30 statt um 03:00.") == {"03:00"}
    assert old_values("It now costs 25 cents, up from the old 20 cents.") == {"20"}


def test_a_phone_number_in_groups_is_one_old_value() -> None:
    """An attacker's: "+49" of "+49 30 1234 5678" was the old value, which every number of the
    country holds: of two lines giving +49 numbers, the one holding the whole number is struck."""
    from curator.core.curate.replaced import old_values

    text = "The support number is now +49 30 2222 3333 instead of +49 30 1234 5678."
    assert old_values(text) == {"+49 30 1234 5678"}
    assert old_values("Die Hotline ist jetzt 0711 998877, nicht mehr 0711 123456.") == {"0711 123456"}
    assert old_values("Retention is now 14 days instead of 30 days, 2 copies.") == {"30"}
    assert old_values("The web server now listens on 80 and 443 instead of 8080 8443.") == {"8080"}  # two ports
    page = "# Phones\n\nThe support number for the fax is +49 30 1234 9999.\nCall +49 30 1234 5678 for support.\n"
    found = old_statement(text, page, "Phones")
    assert found is not None and found.named and page[found.start : found.end].startswith("Call")
    for written in ("+49 30 1234-5678", "+49 (0)30 1234 5678"):  # the page's way of joining the groups
        found = old_statement(text, page.replace("+49 30 1234 5678", written), "Phones")
        assert found is not None and found.named, written


def test_a_number_in_a_range_is_no_old_value_the_text_replaces() -> None:
    """A new user's: "every 15 minutes instead of every 10" struck "Bodyweight circuit 10–15 reps"."""
    from curator.core.curate.replaced import states_replaced

    text = "The email pull cron now runs every 15 minutes instead of every 10."
    assert states_replaced(text, "The email pull cron: after the email check, a bodyweight circuit of 10–15 reps.") == 0
    assert states_replaced(text, "The email pull cron runs every 10 minutes.") > 0
    for dash in ("–", " – ", "—", " − "):  # an attacker's: the range's dash spaced or another
        assert states_replaced(text, f"The email pull cron: after it a circuit of 10{dash}15 reps.") == 0, dash
    page = "# Cron\n\nThe email pull cron is followed by a circuit of 10–15 reps.\n"
    found = old_statement(text, page, "Cron")
    assert found is None or not found.named


def test_a_pages_sentences_end_where_a_texts_do() -> None:
    """The page's sentences and the text's are split by one rule: an ordinal after its article or
    preposition ends none ("im 2. Stock")."""
    from curator.core.curate.facts import sentences

    page = "# Heizung\n\nDie Therme im 2. Stock ist defekt. Sie wird am 3. März getauscht.\n"
    assert [page[a:b] for a, b in prose_sentences(page)] == sentences(page.split("\n\n", 1)[1])


def test_of_two_sentences_holding_the_old_values_first_word_the_one_saying_more_of_it_is_changed(
    tmp_path: Path,
) -> None:
    """A new user's radar page: "Weekly" opens its description too; the Timing line says the old
    value whole ("weekly Sunday projection")."""
    page = (
        "# Porto Cultural Radar\n\nWeekly cultural radar for Tiago focused on Grande Porto events that match his"
        " interests.\n\nScope:\n- Geography: Grande Porto\n- Style: tight curation, delivered via Telegram\n"
        "- Timing: weekly Sunday projection for the following week\n"
    )
    root = make_vault(
        tmp_path / "v", {"projects/porto-cultural-radar/README.md": page, "Kafka.md": "# Kafka\n\nx y z\n"}
    )
    text = "The Porto Cultural Radar is now sent on Friday evenings instead of the weekly Sunday projection."
    proposal = remember(load_vault(root), text)
    assert proposal.plan is not None and proposal.decision == "supersede"
    after = (proposal.plan.changes[0].after or b"").decode()
    assert "~~Timing: weekly Sunday projection for the following week~~ " + text in after
    assert "~~Weekly" not in after


@pytest.mark.parametrize(
    ("text", "page"),
    [
        # an attacker's: one more thing ("also"), a plain word after "instead of", a name's second word
        (
            "Uptime Kuma now also checks jellyfin.home.arpa instead of only the public endpoints.",
            "Uptime Kuma on the cloud VPS checks the public endpoints every 60 seconds.",
        ),
        (
            "Snapshots now run every night at 03:00, which is after restic at 02:00 rather than before it.",
            "Certificates are renewed 30 days before expiry.",
        ),
        ("Mei Lin now reviews frontend PRs instead of Priya Shah.", "- Priya Shah leads the team."),
        # a comparison, a while, a section of how things were
        ("Thomas Berger ist nicht mehr Vorsitzender als Anja Kühn.", "- Vorsitzender: Thomas Berger"),
        (
            "Jetzt im Winter trainiert die erste Mannschaft in der Turnhalle statt auf dem Sportplatz.",
            "Die erste Mannschaft trainiert auf dem Sportplatz am Waldweg.",
        ),
        (
            "Der Mediaserver läuft jetzt mit Jellyfin statt mit Plex.",
            "# Verlauf\n\n## Alte Version\n\n- Der Mediaserver lief auf pve-03 mit Plex.\n",
        ),
    ],
)
def test_what_changes_no_statement_finds_none_it_replaces(text: str, page: str) -> None:
    from curator.core.curate.replaced import states_replaced

    assert not states_replaced(text, page)


def test_a_comparison_names_no_old_value() -> None:
    from curator.core.curate.replaced import old_values

    assert old_values("Es passen nicht mehr als 4 Kästen in den Keller.") == set()
    assert old_values("The call should take no longer than 10 minutes.") == set()


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("Uptime Kuma now also checks jellyfin.home.arpa instead of only the public endpoints.", False),
        ("Right now, during the Oracle maintenance, Uptime Kuma runs on pve-01 instead of the cloud VPS.", False),
        ("Wir kaufen Getränke bei Kaufland statt bei Getränke Hoffmann, wenn es Angebote gibt.", False),
        ("Thomas Berger ist nicht mehr Vorsitzender als Anja Kühn, beide sind gleichberechtigt.", False),
        ("Die Restmülltonne wird jetzt jeden Dienstag statt jeden zweiten Dienstag geleert.", True),
        ("The API now runs on FastAPI rather than Flask.", True),
    ],
)
def test_instead_of_with_one_more_thing_for_a_while_or_under_a_condition_is_no_change(text: str, change: bool) -> None:
    """An attacker's: each of the first four struck a page's sentence that still held."""
    from curator.core.curate.facts import says_change

    assert bool(says_change(text)) is change


def test_a_sentence_naming_only_the_old_value_is_not_the_one_a_change_strikes() -> None:
    """An attacker's: "instead of Priya Shah" struck "Priya Shah leads the team"."""
    page = "# Team\n\n- Priya Shah leads the team.\n- Mei Lin builds the frontend.\n"
    assert old_statement("Mei Lin now reviews frontend PRs instead of Priya Shah.", page, "Team") is None


def test_a_change_of_a_fact_an_agents_prose_memory_states_is_struck_there(tmp_path: Path) -> None:
    """A new user's agent workspace: the CC rule stood only in its 30 KiB MEMORY.md, which lists no
    pages; the change became a new page `Sophia-CC-Regel.md`."""
    memory = "# MEMORY\n\n" + "".join(f"- Fact {n}: the agent keeps note {n} of the week.\n" for n in range(60))
    memory += "- **CC protocol**: Always CC josh@example.com + salah@example.com on customer mails.\n"
    root = make_vault(tmp_path / "v", {"MEMORY.md": memory, "Tools.md": "# Tools\n\nThe mail tools.\n"})
    text = "Sophia now only CCs josh@example.com on customer mails, no longer salah@example.com."
    proposal = remember(load_vault(root), text)
    assert (proposal.decision, proposal.page) == ("supersede", "MEMORY.md"), proposal.reason
    assert proposal.plan is not None
    assert "~~**CC protocol**: Always CC" in (proposal.plan.changes[0].after or b"").decode()


def test_a_day_log_or_a_number_inside_an_id_does_not_keep_a_change_from_the_prose_memory(tmp_path: Path) -> None:
    """A new user's agent workspace: "GCP credits: 180 left now instead of 255" became a new page
    `GCP credits`, since a day's log also gave 255 and a message id held its digits."""
    memory = "# MEMORY\n\n" + "".join(f"- Fact {n}: the agent keeps note {n} of the week.\n" for n in range(60))
    memory += "- **GCP Credits:** 255 euros available (expires April 28, 2026).\n"
    pages = {
        "MEMORY.md": memory,
        "memory/2026-02-02.md": "# 2026-02-02\n\n- Ayoub has 255 euros of GCP credits (expires April 28, 2026)\n",
        "Summary.md": "# Summary\n\nThe report went out as message id 1468775255093809223.\n",
    }
    root = make_vault(tmp_path / "v", pages)
    text = "GCP credits: 180 euros left now instead of 255; they still expire on April 28, 2026."
    proposal = remember(load_vault(root), text)
    assert (proposal.decision, proposal.page) == ("supersede", "MEMORY.md"), proposal.reason


@pytest.mark.parametrize(
    ("text", "page", "held"),
    [
        # a third attacker's: a number with its unit is that number in the unit's family
        (
            "Prometheus now scrapes every 15 seconds instead of 30 seconds.",
            "The second Pi-hole syncs with Gravity Sync every 30 minutes.",
            False,
        ),
        (
            "Prometheus now scrapes every 15 seconds instead of 30 seconds.",
            "Prometheus scrapes every 30 seconds and keeps 15 days of data.",
            True,
        ),
        # a subsection of a history section is the past too
        (
            "Pi-hole now runs on 10.0.10.60 instead of 10.0.10.2.",
            "# Old setup\n\n## History\n\n### DNS\n\nPi-hole ran on 10.0.10.2 with a short query log.\n",
            False,
        ),
    ],
)
def test_the_value_a_change_replaces_is_given_in_its_unit_and_not_in_the_past(text: str, page: str, held: bool) -> None:
    from curator.core.curate.replaced import states_replaced

    assert bool(states_replaced(text, page)) is held


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("Use the cluster staging-eu-1 instead of prod-eu-1 for load tests.", False),  # bidding: a choice
        ("Wir kaufen jetzt bei Kaufland statt bei Edeka Hoffmann ein, auch samstags.", True),
        ("Das Jugendtraining ist nicht mehr freitags, als neuer Termin gilt jetzt Mittwoch 16:30.", True),
    ],
)
def test_a_bidding_is_a_choice_and_a_clause_after_a_comma_no_comparison(text: str, change: bool) -> None:
    from curator.core.curate.facts import says_change

    assert bool(says_change(text)) is change


def test_a_change_an_agents_prose_memory_shares_with_a_topic_page_is_not_struck_there(tmp_path: Path) -> None:
    """A third attacker's: the home server's address stood in MEMORY.md and in its project page's
    URL; the route for facts only MEMORY.md states struck it there."""
    memory = "# MEMORY\n\n" + "".join(f"- Fact {n}: the agent keeps note {n} of the week.\n" for n in range(60))
    memory += "- The home server pi-home is at 192.168.178.40 and runs Home Assistant.\n"
    pages = {"MEMORY.md": memory, "projects/Homeserver.md": "# Homeserver\n\n- url: http://192.168.178.40:8123\n"}
    text = "The home server pi-home is now at 192.168.178.50 instead of 192.168.178.40."
    proposal = remember(load_vault(make_vault(tmp_path / "v", pages)), text)
    assert proposal.page != "MEMORY.md", proposal.reason


def test_a_wildcard_is_no_emphasis_a_sentence_is_cut_at() -> None:
    page = "# Caddy\n\nCaddy runs on docker-01 and terminates TLS for *.lab.example.net.\n\nIt has no state.\n"
    statement = old_statement("Caddy now runs on docker-02 instead of docker-01.", page, "Caddy")
    assert statement is not None and page[statement.start : statement.end].startswith("Caddy runs on docker-01")


def test_a_number_the_page_gives_with_no_unit_it_reads_may_be_the_old_value() -> None:
    from curator.core.curate.facts import says_change
    from curator.core.curate.replaced import states_replaced

    text = "Der Mitgliedsbeitrag ist ab Juli 25 € im Monat statt bisher 20 €."
    assert states_replaced(text, "(1) Der Mitgliedsbeitrag beträgt 20,-- € pro Monat.")
    assert says_change("Die Tagesberichte werden jetzt 30 Tage lang aufbewahrt statt nur 14 Tage.")


@pytest.mark.parametrize(
    ("text", "sentence", "struck"),
    [
        # a third attacker's: a clause of another thing the change leaves true is not struck with it
        ("pve-02 now has 64 GB RAM instead of 32 GB.", "pve-01 has 64 GB RAM and pve-02 has 32 GB RAM.", False),
        ("Ingrid no longer lives in Dresden.", "Ingrid lives in Dresden; he calls her every Sunday at six.", False),
        # a sentence going on of its thing is struck whole, as before
        (
            "The nightly backup now runs at 01:30 instead of 03:00.",
            "The nightly backup runs at 03:00 and keeps 14 days.",
            True,
        ),
    ],
)
def test_a_clause_of_another_thing_is_not_struck_with_the_one_a_change_replaces(
    text: str, sentence: str, struck: bool
) -> None:
    page = f"# Notes\n\n{sentence}\n\nThe rest is unrelated here.\n"
    statement = old_statement(text, page, "Notes")
    assert statement is not None and page[statement.start : statement.end] == sentence
    assert statement.named is struck


@pytest.mark.parametrize(
    ("text", "sentence", "after"),
    [
        (
            "pve-02 now has 64 GB RAM instead of 32 GB.",
            "pve-01 has 64 GB RAM and pve-02 has 32 GB RAM.",
            "pve-01 has 64 GB RAM and pve-02 has ~~32~~ GB RAM. pve-02 now has 64 GB RAM instead of 32 GB.",
        ),
        # a new user's: the old value stood unstruck beside the new one in a sentence saying more
        (
            "VM105 (win11pro) hat jetzt 28 GB RAM statt 24 GB.",
            "- VM105 (win11pro): **24 GB RAM**, 4 vCPU, und 20 GB sind das Minimum.",
            "- VM105 (win11pro): **~~24~~ GB RAM**, 4 vCPU, und 20 GB sind das Minimum."
            " VM105 (win11pro) hat jetzt 28 GB RAM statt 24 GB.",
        ),
        (
            "Trash and Spam are now cleared every week instead of every two weeks.",
            "- As of May, permanently clear Trash and Spam in `DRS@example.net` every two weeks at midnight.",
            "- As of May, permanently clear Trash and Spam in `DRS@example.net` every ~~two~~ weeks at midnight."
            " Trash and Spam are now cleared every week instead of every two weeks.",
        ),
    ],
)
def test_a_changed_value_in_a_sentence_saying_more_is_struck_alone(text: str, sentence: str, after: str) -> None:
    page = f"# Notes\n\n{sentence}\n\nThe rest is unrelated here.\n"
    statement = old_statement(text, page, "Notes")
    assert statement is not None and not statement.named and statement.value is not None
    assert updated(page, statement, text) == f"# Notes\n\n{after}\n\nThe rest is unrelated here.\n"


def test_a_change_strikes_one_bold_field_line_and_keeps_its_line_break() -> None:
    """A second new user's: "**Cron job:** ... (21:00 CET)" and the two bold field lines after it,
    each ending in a hard line break, were struck as one sentence."""
    page = (
        "# Daily sources\n\n## Automation Setup\n**Cron job:** `daily-ai-brief` (21:00 CET)  \n"
        "**Target channel:** #ai-newsletter  \n**Format:** Unchanged (summary + source links)\n"
    )
    text = "The daily-ai-brief cron now runs at 20:00 CET instead of 21:00."
    statement = old_statement(text, page, "Daily sources")
    assert statement is not None and statement.named
    assert updated(page, statement, text) == page.replace(
        "**Cron job:** `daily-ai-brief` (21:00 CET)  \n", f"~~**Cron job:** `daily-ai-brief` (21:00 CET)~~ {text}  \n"
    )


def test_a_change_strikes_one_field_line_of_a_paragraph_of_fields(tmp_path: Path) -> None:
    """A new user's client page: two "Key: value" lines of one paragraph were struck as one sentence,
    the unchanged second rule with the first."""
    page = (
        "# Vanta Studios\n\nLeads are scored from their profile.\n\n"
        "Minimum score to email: 50\nMinimum score for premium personalized: 70\n\n## Outreach\n\nShort and warm.\n"
    )
    root = make_vault(tmp_path / "v", {"clients/vanta/CONTEXT.md": page, "Other.md": "# Other\n\nNothing.\n"})
    text = "Vanta Studios minimum lead score to email is now 60 instead of 50."
    proposal = remember(load_vault(root), text)
    assert proposal.plan is not None, proposal.reason
    after = (proposal.plan.changes[0].after or b"").decode()
    assert f"~~Minimum score to email: 50~~ {text}\nMinimum score for premium personalized: 70\n" in after


def test_a_changed_value_goes_to_its_things_page_rather_than_a_new_one(tmp_path: Path) -> None:
    """A new user's: "... now runs at 10:00 AM instead of 1:00 PM", the old time only in day logs and
    the thing's page under the bar, became a new page; a change is to a fact of a thing a page is about."""
    day = "# {}\n\n- Checked the inbox; the weekday timer fired at 1:00 PM as set.\n- Filed two receipts.\n"
    pages = {f"memory/2026-06-{d}.md": day.format(f"2026-06-{d}") for d in (23, 24)}
    pages["memory/planhubguy.md"] = "# PlanHubGuy\n\nPlanHubGuy replies to bid invitations. One email per contact.\n"
    pages["memory/expenses.md"] = "# Expenses\n\nReceipts go into Expensify every Friday.\n"
    vault = load_vault(make_vault(tmp_path / "v", pages))
    text = "The PlanHubGuy weekday timer now runs at 10:00 AM instead of 1:00 PM."
    proposal = remember(vault, text, threshold=0.9)  # its page under the bar, as on the user's vault
    assert (proposal.decision, proposal.page) == ("supersede", "memory/planhubguy.md"), proposal.reason
    other = remember(vault, "The Zapier weekday timer now runs at 10:00 AM instead of 1:00 PM.", threshold=0.9)
    assert other.decision == "add", other.reason  # no page names Zapier: the day logs are no place for it


def test_a_change_of_one_persons_value_strikes_no_namesakes_sentence(tmp_path: Path) -> None:
    """An attacker's: "Anna Schmidt ... instead of Berlin" struck Anna Müller's Berlin sentence,
    the two sharing a first name; a name of capitalised words is named only whole."""
    pages = {
        "people/Anna Müller.md": "# Anna Müller\n\nAnna Müller leads billing and works from the Berlin office.\n",
        "Home Assistant.md": "# Home Assistant\n\nHome Assistant runs on the NUC at port 8123 and drives the lights.\n",
    }
    vault = load_vault(make_vault(tmp_path / "v", pages))
    other = remember(vault, "Anna Schmidt now works from the Hamburg office instead of Berlin.")
    assert (other.decision, other.page) == ("add", "people/Anna Schmidt.md"), other.reason
    for text, page in (
        ("Anna Müller now works from the Hamburg office instead of Berlin.", "people/Anna Müller.md"),
        ("Home Assistant now runs on port 8124 instead of 8123.", "Home Assistant.md"),
    ):
        proposal = remember(vault, text)
        assert (proposal.decision, proposal.page) == ("supersede", page), proposal.reason
    # a second attacker's: "Anna" inside "Johanna", and a desk decided for Anna Müller's page
    pages = {
        "people/Johanna Schmidt.md": "# Johanna Schmidt\n\nShe lives in Graz and her phone is 0316 445566.\n",
        "people/Anna Müller.md": "# Anna Müller\n\nAnna Müller leads billing. Her desk is in room 12.\n",
    }
    vault = load_vault(make_vault(tmp_path / "w", pages))
    for text in (
        "Anna Schmidt now lives in Linz instead of Graz.",
        "The desk of Anna Schmidt is now in room 14 instead of room 12.",
    ):
        proposal = remember(vault, text)
        assert proposal.plan is None or not any(b"~~" in (c.after or b"") for c in proposal.plan.changes), text


def test_a_change_of_one_things_value_strikes_no_other_things_sentence(tmp_path: Path) -> None:
    """An attacker's: "Grafana now runs on port 3000 instead of 8080" struck the Jenkins page's
    "Jenkins listens on port 8080", and a netmask 255.255.255.0 kept MEMORY.md's credits of 255."""
    pages = {
        "Jenkins.md": "# Jenkins\n\nJenkins listens on port 8080 on ci-01.\n\nBuilds run nightly.\n",
        "Wiki.md": "# Wiki\n\nDas Wiki läuft auf Port 8443 auf web-02.\n",
    }
    vault = load_vault(make_vault(tmp_path / "v", pages))
    for text in (
        "Grafana now runs on port 3000 instead of 8080 on mon-01.",
        "Grafana läuft jetzt auf Port 3000 statt 8443.",
    ):
        proposal = remember(vault, text)
        assert (proposal.decision, proposal.page) == ("add", "Grafana.md"), proposal.reason
    memory = "# MEMORY\n\n" + "".join(f"- Fact {n}: the agent keeps note {n} of the week.\n" for n in range(60))
    memory += "- **GCP Credits:** 255 euros available (expires April 28, 2026).\n"
    network = "# Network\n\nThe office LAN uses the netmask 255.255.255.0 and the gateway 10.0.0.1.\n"
    root = make_vault(tmp_path / "w", {"MEMORY.md": memory, "Network.md": network})
    proposal = remember(load_vault(root), "GCP credits: 180 euros left now instead of 255.")
    assert (proposal.decision, proposal.page) == ("supersede", "MEMORY.md"), proposal.reason
