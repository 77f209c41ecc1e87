"""`curator remember` on memories that name no page's title: the page the words and the meaning
both put first takes the memory when it names what the memory is about; a new thing stays new."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from helpers import make_vault

from curator.core.common.errors import EditError
from curator.core.curate.agreement import agreed_page, outranking_weak_names
from curator.core.curate.remember import _by_meaning, remember
from curator.core.curate.titlecover import subject_head
from curator.core.curate.titling import title_for
from curator.core.meaning.search import indexed
from curator.core.read.loading import load_vault

HOMELAB = {
    "Article digest podcast.md": (
        "# Article digest podcast\n\nEvery morning orchestrator.py collects the saved articles, writes a script "
        "and has kokoro-tts on CT 120 read it aloud. The episode lands in the podcast feed on the media share.\n\n"
        "## Usage\n\n- `orchestrator.py --generate-now` makes today's episode at once\n"
        "- `orchestrator.py --dry-run` writes the script only\n\n"
        "kokoro-tts runs in CPU mode at about 2.5x real time.\n"
    ),
    "Hardware overview.md": (
        "# Hardware overview\n\nNode 1 is a Ryzen workstation with an RTX 5070 Ti for the GPU workloads. Node 2 "
        "is a Dell Precision 5820 with the storage pool. Both hang on the same 2.5 GbE switch in the rack.\n"
    ),
    "Services overview.md": (
        "# Services overview\n\nNode 2 runs the stable services: Immich for photos, Nextcloud for files, Uptime "
        "Kuma on port 3001 for monitoring and AdGuard Home for DNS. Node 1 keeps the GPU services: Ollama and "
        "the text-to-speech containers.\n"
    ),
    "GPU switching.md": (
        "# GPU switching\n\nThe RTX card moves between the gaming VM and the AI containers with "
        "nvidia-gpu-switch.sh; the script stops the containers first and rebinds the card to vfio-pci.\n"
    ),
}
INCIDENT = (
    "On 2026-03-09 kokoro-tts on CT 120 died halfway through synthesis and the episode came out truncated; "
    "restarted the service and re-ran orchestrator.py --generate-now."
)
NEW_THING = "Vaultwarden now keeps the household passwords, on Node 2 behind the proxy at vault.home.arpa."


def test_an_incident_naming_no_title_goes_to_the_page_its_words_and_meaning_agree_on(tmp_path: Path) -> None:
    vault = load_vault(make_vault(tmp_path / "v", HOMELAB))
    proposal = remember(vault, INCIDENT)
    assert (proposal.decision, proposal.page) == ("merge-into", "Article digest podcast.md")
    assert "its words and its meaning put it first" in proposal.reason


def test_a_new_thing_stays_new_though_both_rankers_find_its_neighbour(tmp_path: Path) -> None:
    vault = load_vault(make_vault(tmp_path / "v", HOMELAB))
    found, _ = indexed(vault).bm25("vaultwarden household passwords node 2 proxy vault home arpa", limit=3)
    meaning = _by_meaning(vault, NEW_THING, 5)
    assert found[0][0] == meaning[0][0] == "Services overview.md"  # both put the neighbour first
    subject = title_for(NEW_THING)
    own = subject_head(vault, subject, NEW_THING)
    assert agreed_page(vault, NEW_THING, subject, meaning, own, found[0][0]) is None  # which does not name Vaultwarden
    assert remember(vault, NEW_THING).decision == "add"


def test_a_page_whose_file_name_is_stored_decomposed_is_named_by_its_name(tmp_path: Path) -> None:
    decomposed = unicodedata.normalize("NFD", "Müller")
    root = make_vault(
        tmp_path / "v",
        {
            f"{decomposed}.md": f"# {decomposed}\n\nHans Müller, our contact at the utility, phone 0441 123.\n",
            "Routers.md": "# Routers\n\nThe routers in the office are flashed with OpenWrt and updated monthly.\n",
        },
    )
    vault = load_vault(root)
    for said in ("Müller: his new phone number is 0441 999 from January.", "Mueller has a new extension, 0441 998."):
        proposal = remember(vault, said)
        assert (proposal.decision, proposal.page) == ("merge-into", f"{decomposed}.md")


def test_a_page_inside_a_named_project_folder_comes_before_the_folders_overview(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "projects/becker-odoo/README.md": (
                "# Becker Odoo\n\nThe Odoo installation of Becker Sicherheitstechnik: the modules, the server and "
                "its care. See [[BACKUP]] for the nightly backups and [[PROJECT]] for the customer.\n"
            ),
            "projects/becker-odoo/BACKUP.md": (
                "# Backup\n\nEvery night at 03:00 a pg_dump of the Odoo database is written to /srv/backup and "
                "copied with rclone to the storage box; archives older than 30 days are pruned.\n"
            ),
            "projects/becker-odoo/PROJECT.md": (
                "# Project\n\nBecker Sicherheitstechnik installs alarm systems; the Odoo project covers sales, "
                "stock and invoicing for its office.\n"
            ),
            "Servers.md": "# Servers\n\nThe customer servers run Ubuntu 24.04 behind nginx, patched monthly.\n",
        },
    )
    said = "2026-02-09: the becker-odoo pg_dump failed, /srv/backup was full; pruned the old archives by hand."
    proposal = remember(load_vault(root), said)
    assert (proposal.decision, proposal.page) == ("merge-into", "projects/becker-odoo/BACKUP.md")


def test_two_pages_of_one_name_stored_two_ways_are_refused_not_guessed(tmp_path: Path) -> None:
    decomposed = unicodedata.normalize("NFD", "Müller")
    root = make_vault(
        tmp_path / "v",
        {
            "people/Müller.md": "# Müller\n\nBerlin office, phone 1234, works on the billing system.\n",
            f"people/{decomposed}.md": f"# {decomposed}\n\nMunich warehouse, phone 5678, runs the stock.\n",
        },
    )
    with pytest.raises(EditError, match="go by one name; rename all but one first"):
        remember(load_vault(root), "Müller: now works from the Hamburg office.")


SERVICES = {
    "backups.md": (
        "# Backups\n\nThe databases are dumped every night to the offsite bucket and kept for thirty days. "
        "Restores are tested once a quarter.\n"
    ),
    "setup-a-yubikey.md": (
        "# Set up a YubiKey\n\nEvery developer signs in with a hardware key. Ask the delivery manager for a key, "
        "register it with your account and keep a second key somewhere safe.\n"
    ),
    "TLS.md": (
        "# TLS certificates\n\nacme.sh renews the certificates for elselevy7.org with the DNS-01 challenge at "
        "Cloudflare; the API token lives in /root/.acme.sh/account.conf.\n"
    ),
    "on-call.md": "# On call\n\nThe on-call developer answers pages within fifteen minutes and hands over on Monday.\n",
    "Other.md": "# Other\n\nSomething else entirely, about the office plants and who waters them.\n",
}


HOME = {  # an attacker's homelab vault
    "Home Assistant.md": (
        "# Home Assistant\n\nHome Assistant runs on a Raspberry Pi 4 with Zigbee2MQTT. Automations "
        "for lights, heating and the garage door.\n"
    ),
    "NAS.md": (
        "# NAS\n\nnas-01 is a TrueNAS box with four 8 TB disks in RAIDZ1. Scrubs run on the first "
        "Sunday of the month.\n"
    ),
    "Network.md": (
        "# Network\n\nThe LAN is 192.168.1.0/24. VLAN 20 is for IoT devices, VLAN 30 for guests. The "
        "router is an OPNsense box.\n"
    ),
    "Backups.md": (
        "# Backups\n\nRestic backs up nas-01 to a Hetzner storage box every night at 02:30. Retention"
        " is 7 daily, 4 weekly, 6 monthly. The repository password is in Vaultwarden.\n"
    ),
    "Proxmox.md": (
        "# Proxmox\n\nProxmox VE runs on pve-01 with 64 GB RAM. VM backups go to the NAS every Sunday night.\n"
    ),
    "Docker hosts.md": (
        "# Docker hosts\n\ndocker-01 and docker-02 are Proxmox VMs running Debian 12. Compose files "
        "live in /opt/stacks.\n"
    ),
    "Grafana.md": (
        "# Grafana\n\nGrafana runs on monitor-01 at grafana.home.lan. Dashboards for the UPS, the NAS"
        " disks and the router. Alerts go to a Telegram bot.\n"
    ),
    "Pi-hole.md": (
        "# Pi-hole\n\nPi-hole is the DNS server for the LAN at 192.168.1.2. Upstream is Unbound. "
        "Blocklists update weekly on Sunday.\n"
    ),
    "Redis.md": (
        "# Redis\n\nRedis runs on nas-01 in a container on port 6379. It caches sessions for "
        "Nextcloud and Paperless. Persistence is AOF with fsync every second.\n"
    ),
}


def test_an_event_of_a_new_thing_stays_new_though_both_rankers_put_a_neighbour_first(tmp_path: Path) -> None:
    vault = load_vault(make_vault(tmp_path / "v", HOME))
    text = "2026-11-03: Mosquitto broker crashed and Zigbee2MQTT lost its connection; restarted it by hand."
    assert remember(vault, text).decision == "add"  # `Home Assistant` mentions Zigbee2MQTT, not Mosquitto


@pytest.mark.parametrize(
    "text",
    [
        "Das Team hat 12 YubiKey 5C NFC als Ersatz für neue Developer bestellt; der Backup-Key liegt offline im Safe.",
        "The team ordered twelve spare YubiKeys for new developers; each backup key is kept offline in the safe.",
    ],
)
def test_a_title_said_on_the_way_loses_to_the_page_words_and_meaning_put_above_it(tmp_path: Path, text: str) -> None:
    vault = load_vault(make_vault(tmp_path / "v", SERVICES))
    proposal = remember(vault, text)  # "Backup-Key" holds the title `Backups`
    assert (proposal.decision, proposal.page) == ("merge-into", "setup-a-yubikey.md")


def test_a_weak_name_stands_when_the_meaning_puts_it_above_the_first_by_words() -> None:
    scores = {"backups.md": 0.82, "setup-a-yubikey.md": 0.3}
    assert outranking_weak_names("setup-a-yubikey.md", scores, {"setup-a-yubikey.md": 0.4}) == 0.83
    assert outranking_weak_names("setup-a-yubikey.md", scores, {"backups.md": 0.5, "setup-a-yubikey.md": 0.4}) is None
    near = {"setup-a-yubikey.md": 0.4}
    named = {**scores, "backups.md": 0.9}  # a name of two words
    assert outranking_weak_names("setup-a-yubikey.md", named, near) is None
