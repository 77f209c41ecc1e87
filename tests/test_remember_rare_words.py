"""`curator remember` on memories that name no page's title but share words few pages hold with the
page the search ranks first ("Ookla", "69406"): the memory belongs there. A plain word that is only
rare in a small vault ("Rack") is not enough, and a dated post that points to no other page is the
place for more of its event."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_vault

from curator.core.curate.agreement import rare_words_page
from curator.core.curate.remember import remember
from curator.core.curate.titling import title_for
from curator.core.meaning.vectors import unread_note
from curator.core.read.loading import load_vault

CLUB = {  # a German community network's site: service pages, contact, dated news posts
    "dienste.md": (
        "# Dienste\n\nWir betreiben für alle Nutzer einen Speedtest-Server bei Ookla (ID 69406), einen "
        "Jitsi-Server unter meet.example.net und ein Etherpad. Die Knotenkarte zeigt alle Router im Netz.\n"
    ),
    "firmware.md": (
        "# Firmware\n\nDie Firmware basiert auf Gluon. Neue Router werden mit dem factory-Image geflasht, "
        "bestehende mit sysupgrade aktualisiert.\n"
    ),
    "kontakt.md": "# Kontakt\n\nSchreib uns an info@example.net oder komm zum Treffen jeden Mittwoch.\n",
    "cold-shutdown.md": (
        "# Cold shutdown\n\nBei Stromausfall zuerst die Server im Rack herunterfahren, dann die Switches, "
        "zuletzt die USV abschalten.\n"
    ),
    "_posts/2026-06-20-corsoleopold.md": (
        "---\ntitle: Corso Leopold 2026\n---\n\nAm Wochenende sind wir mit einem Stand beim Straßenfest Corso "
        "Leopold: an unserem Stand gibt es Router zum Mitnehmen und einen offenen Knoten für alle Besucher.\n"
    ),
    "_posts/2025-03-16-vms-und-vpn.md": (
        "---\ntitle: VMs und VPN\n---\n\nMitglieder können jetzt VMs an zwei Standorten mieten, in München "
        "(member01) und Wien (member02); das VPN läuft über beide.\n"
    ),
}
SPEEDTEST = "Speedtest: Ookla 69406 is how fast our uplink looks to the outside."
HOMEBOX = "Homebox als Inventar für die Hardware im Rack angelegt (Seriennummern, Kaufdatum, Garantie)."
BOOTH = (
    "Ticket FFMUC-1207, 2026-06-21: at the Corso Leopold booth our node lost its uplink on Sunday afternoon; "
    "a power cycle of the LTE router fixed it."
)


def test_a_memory_sharing_names_only_one_page_holds_goes_to_that_page(tmp_path: Path) -> None:
    pages = {  # a page the meaning puts first: how fast the uplink is
        **CLUB,
        "bandwidth.md": (
            "# Bandwidth\n\nHow fast the uplink is: we measure throughput in Mbit/s from the office and from "
            "the gateways, morning and evening.\n"
        ),
    }
    vault = load_vault(make_vault(tmp_path / "v", pages))
    proposal = remember(vault, SPEEDTEST)
    assert (proposal.decision, proposal.page) == ("merge-into", "dienste.md")
    assert "words few pages hold" in proposal.reason and "'69406'" in proposal.reason


def test_a_german_sentence_with_few_stop_words_is_titled_as_german(tmp_path: Path) -> None:
    said = "Der OOKLA-Speedtest-Server 69406 steht in unserem Münchner Rechenzentrum."
    assert title_for(said) == "OOKLA-Speedtest-Server"  # not "... 69406 steht": "in" is English too
    proposal = remember(load_vault(make_vault(tmp_path / "v", CLUB)), said)
    assert (proposal.decision, proposal.page) == ("merge-into", "dienste.md")


def test_a_plain_word_rare_in_a_small_vault_makes_no_page_the_place(tmp_path: Path) -> None:
    vault = load_vault(make_vault(tmp_path / "v", CLUB))
    assert (
        rare_words_page(vault, HOMEBOX, title_for(HOMEBOX), None, "cold-shutdown.md") is None
    )  # it shares "Rack" alone
    assert remember(vault, HOMEBOX).decision == "add"


def test_a_rare_name_two_pages_hold_alike_decides_nothing(tmp_path: Path) -> None:
    pages = {**CLUB, "ookla.md": "# Speedtest\n\nUnser Server bei Ookla hat die ID 69406; er misst bis 10 Gbit/s.\n"}
    vault = load_vault(make_vault(tmp_path / "v", pages))
    assert rare_words_page(vault, SPEEDTEST, title_for(SPEEDTEST), None, "dienste.md") is None
    assert rare_words_page(vault, SPEEDTEST, title_for(SPEEDTEST), None, "ookla.md") is None


def test_a_dated_post_that_points_nowhere_takes_more_of_its_event(tmp_path: Path) -> None:
    vault = load_vault(make_vault(tmp_path / "v", CLUB))
    proposal = remember(vault, BOOTH)
    assert (proposal.decision, proposal.page) == ("merge-into", "_posts/2026-06-20-corsoleopold.md")


@pytest.mark.parametrize("name", ["2026-03-03", "2026-03-03 Tuesday", "2026-03-03-session"])
def test_a_days_log_named_by_its_date_alone_is_never_the_place(tmp_path: Path, name: str) -> None:
    log = f"memory/{name}.md"
    pages = {**CLUB, log: f"# {name}\n\n- Sent the invoices.\n- Called the printer about the CRM trial.\n"}
    vault = load_vault(make_vault(tmp_path / "v", pages))
    said = "We're trialling Pipedrive as the CRM for the sales pipeline; the trial ends 2026-03-03."
    assert remember(vault, said).page != log


def test_a_new_thing_beside_a_host_only_an_inventory_names_stays_new(tmp_path: Path) -> None:
    pages = {
        **CLUB,
        "infra/Network inventory.md": (
            "# Network inventory\n\n| host | address | role |\n|---|---|---|\n| pve02 | 10.0.0.12 | Proxmox node |\n"
            "| nas01 | 10.0.0.20 | storage |\n| brother-mfc | 10.0.0.40 | printer |\n"
        ),
    }
    vault = load_vault(make_vault(tmp_path / "v", pages))
    said = "Paperless-ngx runs on pve02 now; scans come from the brother-mfc printer."
    assert rare_words_page(vault, said, title_for(said), None, "infra/Network inventory.md") is None
    assert remember(vault, said).page != "infra/Network inventory.md"


def test_a_new_page_goes_where_a_docs_site_keeps_its_pages(tmp_path: Path) -> None:
    pages = {f"docs/{name}": text for name, text in CLUB.items()}
    pages["drafts/idea.md"] = "# Idea\n\nA page outside the site.\n"  # one page in ten may lie elsewhere
    pages.update({f"docs/games/game{n}.md": f"# Game {n}\n\nA game for {n} players.\n" for n in range(4)})
    proposal = remember(load_vault(make_vault(tmp_path / "v", pages)), "The Nutzendenbeirat meets every semester.")
    assert proposal.decision == "add" and proposal.page is not None and proposal.page.startswith("docs/")
    pages["README.md"] = "# Readme\n\nHow to build the site.\n"  # the repository's, not the site's
    proposal = remember(load_vault(make_vault(tmp_path / "u", pages)), "The Nutzendenbeirat meets every semester.")
    assert proposal.decision == "add" and proposal.page is not None and proposal.page.startswith("docs/")
    pages["Ideas.md"] = "# Ideas\n\nThings to try at the club.\n"  # a page at the root: the root stays a place
    proposal = remember(load_vault(make_vault(tmp_path / "w", pages)), "The Nutzendenbeirat meets every semester.")
    assert proposal.decision == "add" and proposal.page is not None and "/" not in proposal.page


def test_an_add_says_how_much_of_the_vault_the_model_has_read(tmp_path: Path) -> None:
    vault = load_vault(make_vault(tmp_path / "v", CLUB))
    assert unread_note(vault) == f"the model has read 0 of {len(CLUB)} pages (curator index reads the rest)"
    remember(vault, SPEEDTEST)  # a small vault is read whole at the first look
    assert unread_note(vault) == ""
