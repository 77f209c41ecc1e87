"""`curator remember` on a fact the page states: a value set anew supersedes it; news in the page's
words (a "not", roles swapped, one more of a thing, a value as before) is neither dropped nor
supersedes the page."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_vault

from curator.core.curate.facts import new_sentences, says_change
from curator.core.curate.remember import remember
from curator.core.curate.replaced import sets_value_anew
from curator.core.read.loading import load_vault

RUNBOOK = {
    "TargetDown.md": (
        "# TargetDown\n\nIt fires when at least 10% of scrape targets in a Service are unreachable. "
        "Check the Service's endpoints first, then the network policy.\n"
    ),
    "Docker stack.md": (
        "# Docker stack\n\nThe compose file pins the server image:\n\n    image: svwsnrw/svws-server:1.3.2\n\n"
        "The database runs as its own container with a volume for its data.\n"
    ),
    "Backups.md": (
        "# Backups\n\nPackageCloud is set up to back up its database only, once per day. The dumps go to the "
        "offsite bucket and are kept for a month.\n"
    ),
}


@pytest.fixture()
def vault(tmp_path: Path):  # type: ignore[no-untyped-def]
    return load_vault(make_vault(tmp_path / "v", RUNBOOK))


@pytest.mark.parametrize(
    ("text", "page", "anew"),
    [
        ("TargetDown now triggers as soon as 5% of a Service's scrape targets are unreachable.", "TargetDown.md", True),
        ("Der Docker-Stack nutzt jetzt das Image svwsnrw/svws-server:1.4.0.", "Docker stack.md", True),
        # no word says it holds from now on: a value beside the page's, not in place of it
        ("TargetDown fires at 5% for the staging Service.", "TargetDown.md", False),
        # an incident's numbers tell what happened
        ("TargetDown now fires after the 3 nodes of the staging Service crashed.", "TargetDown.md", False),
        # "too" before a word is a measure, not "also"
        (
            "TargetDown now fires when 5% of scrape targets are unreachable; the old line was too late.",
            "TargetDown.md",
            True,
        ),
        ("TargetDown now fires when 5% of scrape targets are unreachable, for staging too.", "TargetDown.md", False),
        # one more of a thing adds one
        ("There is now a second image, svwsnrw/svws-client:1.4.0, for the web client.", "Docker stack.md", False),
        # another kind of value than the page's
        ("The TargetDown runbook now lives at /runbooks/target-down.", "TargetDown.md", False),
    ],
)
def test_a_value_set_anew_is_one_of_the_kind_the_page_gives_for_the_same_thing(
    vault, text: str, page: str, anew: bool
) -> None:  # type: ignore[no-untyped-def]
    assert sets_value_anew(text, vault.text_of(page)) is anew


def test_a_value_set_anew_supersedes_the_page(vault) -> None:  # type: ignore[no-untyped-def]
    proposal = remember(vault, "TargetDown now triggers as soon as 5% of a Service's scrape targets are unreachable.")
    assert proposal.decision == "supersede"
    assert proposal.plan is not None and proposal.plan.details["superseded"] == "TargetDown.md"


STAGING = (
    "# Staging environment\n\nStaging runs on the cluster stg-01 in Frankfurt. Staging uses the corporate VPN for "
    "all access.\nThe staging database is backed up nightly. Deploys to staging happen automatically after every "
    "merge.\nBackups of staging are stored in /srv/backups/staging. The cluster runs three replicas of the API.\n"
)


@pytest.mark.parametrize(
    "text",
    [
        "Staging does NOT use the corporate VPN for access.",  # a negation
        "The production database is backed up nightly.",  # another thing in the same words
        "The cluster runs five replicas of the API.",  # a count written as a word
        "Staging runs on the cluster stg-01 in Berlin.",  # a place the page does not name
        "Deploys to staging happen automatically after every merge. The staging database is backed up before "
        "every deploy.",  # one sentence said again, one new
        "The cluster runs three replicas of the API and three of the worker.",  # one more of a thing
        "The staging database is not backed up.",  # the page's words, its "not" taken away
        "Backups of staging are stored in /srv/backups/staging. They are encrypted.",  # a second sentence new
    ],
)
def test_news_in_the_pages_words_is_merged(tmp_path: Path, text: str) -> None:
    vault = load_vault(make_vault(tmp_path / "v", {"Staging environment.md": STAGING}))
    assert remember(vault, text).decision == "merge-into"


@pytest.mark.parametrize(
    "text",
    [
        "The nightly build now also runs the integration suite, which takes 15 minutes.",
        "The nightly build now runs a second job for the docs, which takes 10 minutes.",
    ],
)
def test_what_now_happens_besides_retires_no_page(tmp_path: Path, text: str) -> None:
    page = "# Release process\n\nThe nightly build starts at 19:00 and takes 40 minutes.\n"
    vault = load_vault(make_vault(tmp_path / "v", {"Release process.md": page}))
    assert remember(vault, text).decision == "merge-into"


@pytest.mark.parametrize(
    "text",
    [
        "db-02 is the primary and db-01 is the standby.",  # roles swapped
        "The staging database is backed up.",  # the page's "not" left out
    ],
)
def test_the_pages_words_in_another_order_or_without_its_not_are_news(tmp_path: Path, text: str) -> None:
    page = "# Database\n\ndb-01 is the primary and db-02 is the standby. The staging database is not backed up.\n"
    vault = load_vault(make_vault(tmp_path / "v", {"Database.md": page}))
    assert remember(vault, text).decision != "drop"


@pytest.mark.parametrize(
    "text",
    [
        "The nightly build now sends a report at 07:00.",  # a time of another thing
        "Additionally, the nightly build now starts a docs job at 21:00.",
        "The nightly build now runs at 19:00 as before.",
    ],
)
def test_a_value_of_another_thing_or_as_before_retires_no_page(tmp_path: Path, text: str) -> None:
    page = "# Release process\n\nThe nightly build starts at 19:00 and takes 40 minutes.\n"
    vault = load_vault(make_vault(tmp_path / "v", {"Release process.md": page}))
    assert remember(vault, text).decision != "supersede"


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("Homepage was bumped to ghcr.io/gethomepage/homepage:v1.5.0; all widgets still load.", True),
        ("Kibana for the staging logs is replaced by Grafana.", True),
        ("Staging still uses the corporate VPN; it was not replaced by the ZTNA proxy.", False),
        ("Checked again: releases are still cut on Tuesdays, nothing has changed.", False),
        ("The nightly build now also runs the integration suite.", False),
        ("The #outreach channel was recreated; its new ID is 1481002233445566778.", True),
        ("Pi-hole's new IP is 192.168.1.3.", True),
        ("The new ID scheme for Proxmox VMs is documented in the wiki.", False),
        ("Staubbrudi's schedule changed: it runs on Tuesdays at 10:00.", True),
        ("Ab 2027 erscheinen Releases nur noch halbjährlich.", True),
        # a measure "nur noch" gives changes a fact only where the page gives another (sets_value_anew)
        ("Mit der neuen Pipeline dauert ein Build nur noch vier Minuten.", False),
        # an outage is no change ("abgeschaltet", "switched off" for two hours: an attacker's pages were retired)
        ("Am 03.12.2026 war Redis zwei Stunden abgeschaltet.", False),
        ("Pi-hole was switched off for two hours on 2026-12-01.", False),
        # an incident's "nur noch" tells what went wrong
        ("Am 21.01.2026 lief /var/www/firmware voll und der Selector lieferte nur noch 404.", False),
        ("The schedule has not changed: backups run at 02:00.", False),
        # a thing that no longer starts failed
        ("Am 2026-11-25 ist Uptime Kuma nach einem Image-Update nicht mehr gestartet; ein Rollback half.", False),
        ("After the kernel update pve-02 no longer boots.", False),
        ("Grafana startet seit dem Update auf Version 11 nicht mehr.", False),
        ("Grafana no longer runs on monitor-01; it moved to docker-02.", True),
        # a value set anew with words between the verb and its value, or said the German way
        ("Moved the nightly restic backup to 02:00 so it is done before the cron jobs.", True),
        ("ntfy cache-duration auf 48h hochgesetzt, 12h war zu knapp.", True),
        ("PBS auf 4.2 aktualisiert.", True),
        ("We shortened KubeAPIDown: it pages after 5 minutes.", True),
        ("Ubuntu 22.04 LTS has been dropped from the tested list.", True),
        ("We moved the docs to the wiki.", False),
        ("We set up the backup to run nightly.", False),
        # a dated or ticketed failure is an incident, whatever it no longer did (a new user's memories)
        ("INC-0142 (2026-10-21): transcoding failed after a kernel update; the box no longer saw the GPU.", False),
        ("Vorfall 2026-09-30: der Container startete nicht, weil der Dongle als ttyUSB1 statt ttyUSB0 kam.", False),
        ("Since 2026-10-01 Grafana no longer runs on monitor-01; it moved to docker-02.", True),
        # what an incident's fix set is no new fact of the page
        ("Ticket OPS-219, 2026-01-19: worker-3 hit its pod cap; we bumped maxPods to 150 and restarted.", False),
    ],
)
def test_a_change_said_not_to_be_or_as_before_is_none(text: str, change: bool) -> None:
    assert bool(says_change(text)) is change


def test_a_thing_we_now_run_is_new_not_a_change() -> None:
    assert not says_change("We now run Vaultwarden as our password manager in a container.")
    assert says_change("Vaultwarden now runs on the OMV host.")


PACKAGECLOUD = (
    "# PackageCloud\n\nPackageCloud hosts our Debian and RPM packages for the runners.\n\n## What is backed up\n\n"
    "PackageCloud is currently set up to back up its database only, once a day. The packages themselves live in "
    "an S3 bucket with versioning turned on.\n"
)


@pytest.mark.parametrize(
    "text",
    [
        "PackageCloud backup alerts are sent to a Discord webhook in the ops channel.",  # words the page never says
        "PackageCloud now backs up its database twice a day.",  # a change
        "PackageCloud does not back up its database.",  # a "not"
        "PackageCloud backs up its packages, and only once a day.",  # a word put in the page's sentence
    ],
)
def test_news_near_a_sentence_in_meaning_is_not_a_repeat(tmp_path: Path, text: str) -> None:
    """A check that dropped memories said again in other words (taken back) dropped these."""
    vault = load_vault(make_vault(tmp_path / "v", {"PackageCloud.md": PACKAGECLOUD}))
    assert remember(vault, text).decision != "drop"


HOMELAB = (
    "# Backups\n\nBackups are kept for 30 days on the NAS. The NAS keeps 14 snapshots of each share.\n"
    "Traffic goes from the VPN to the DMZ through the firewall. db-01 is backed up at 02:00.\n"
)


@pytest.mark.parametrize(
    "text",
    [
        "Backups are kept for 14 days on the NAS.",  # a value the page gives for another thing
        "Traffic goes from the DMZ to the VPN through the firewall.",  # the page's words in another order
        "db-02 is backed up at 02:00.",  # another host
    ],
)
def test_an_attackers_detail_in_a_page_sentences_words_is_not_dropped(tmp_path: Path, text: str) -> None:
    """An attacker's memories that a check by meaning (taken back) dropped as said already."""
    vault = load_vault(make_vault(tmp_path / "v", {"Backups.md": HOMELAB}))
    assert remember(vault, text).decision != "drop"


def test_a_page_sentence_narrowed_by_a_word_the_text_lacks_does_not_hold_it() -> None:
    """An attacker's: "every Wednesday" was dropped as said by "every second Wednesday", with
    nothing queued."""
    from curator.core.curate.facts import new_sentences

    page = "Releases are tagged from main every second Wednesday. Alerts go out only during the day."
    assert new_sentences("Releases are tagged from main every Wednesday.", page)
    assert new_sentences("Alerts go out during the day.", page)
    assert not new_sentences("Releases are tagged from main every second Wednesday.", page)


def test_a_narrowing_word_with_an_umlaut_or_a_digit_counts_too() -> None:
    """A third attacker's: "außer am Sonntag", "jeden ersten Montag", "every 2nd Sunday"."""
    from curator.core.curate.facts import new_sentences

    assert new_sentences("Küche putzt Anna am Sonntag.", "Küche putzt Anna außer am Sonntag.")
    assert new_sentences("Der Vorstand trifft sich jeden Montag.", "Der Vorstand trifft sich jeden ersten Montag.")
    assert new_sentences("Offsite copies are verified every Sunday.", "Offsite copies are verified every 2nd Sunday.")


def test_a_german_ordinal_in_digits_narrows_too_and_is_written_as_it_was() -> None:
    from curator.core.curate.facts import new_sentences

    page = "Das Schnellschachtraining ist jeden 2. Mittwoch."
    assert new_sentences("Das Schnellschachtraining ist jeden Mittwoch.", page)
    assert not new_sentences("Das Schnellschachtraining ist jeden 2. Mittwoch.", page)
    assert new_sentences("Im 2. Stock ist die Therme defekt.", page) == ["Im 2. Stock ist die Therme defekt."]


def test_a_number_ending_a_line_ends_its_sentence() -> None:
    """An attacker's: "cabinet 11.\\nItem 5" was read as the ordinal "11th", joining every line of
    an inventory into one sentence: a line said again was news, and a 20,000-line page took minutes."""
    page = "Item 4 is in cabinet 11.\nItem 5 is in cabinet 12.\n"
    assert new_sentences("Item 4 is in cabinet 11.", page) == []
    assert new_sentences("Der Müll wird jeden 2. Mittwoch abgeholt.", "Der Müll wird jeden 2. Mittwoch abgeholt.") == []


def test_a_value_said_replaced_is_a_change_though_another_stays() -> None:
    """Set 13: "the GFS retention is unchanged", "Tailscale-IP unverändert" beside the value the
    text says it replaces read as a fact said again; a fact said as before alone still is one."""
    assert says_change("pg_dumpall now runs at 01:30 instead of 03:00, the GFS retention is unchanged.")
    assert says_change("Titan-1 hat eine neue LAN-Adresse: 192.168.1.50 statt 192.168.1.192; Tailscale-IP unverändert.")
    assert not says_change("pg_dumpall runs at 03:00 as before.")
    assert not says_change("Die Tailscale-IP ist unverändert 100.64.0.7.")
