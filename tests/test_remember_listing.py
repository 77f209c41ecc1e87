"""Where a new page is listed, and the event notes a memory is pointed on from: a new user's wiki
(a home page with a section a folder, a changelog's index linked from each dated entry)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_vault

from curator.core.curate.agreement import search_first
from curator.core.curate.remember import candidates, remember
from curator.core.read.loading import load_vault

HOME = """# Homelab Wiki

## Services

- [[Grafana]] - dashboards
- [[Loki]] - logs
- [[Pi-hole]] - DNS

## Infrastructure

- [[Network-Topology]] - addresses

---

*Built with Quartz | Updated: 2026-02-05*
"""


def _wiki(root: Path, home: str = HOME) -> Path:
    pages = {
        "index.md": home,
        "Services/Grafana.md": "# Grafana\n\nDashboards for the Prometheus metrics of every host.\n",
        "Services/Loki.md": "# Loki\n\nLogs of every container, kept 30 days.\n",
        "Services/Pi-hole.md": "# Pi-hole\n\nDNS with ad blocking for the home network.\n",
        "Infrastructure/Network-Topology.md": "# Network-Topology\n\nThe VLANs and their addresses.\n",
    }
    return make_vault(root, pages)


def test_a_new_page_is_listed_in_the_section_of_its_folder_on_the_home_page(tmp_path: Path) -> None:
    """A wiki without MEMORY.md: its home page `index.md` lists the pages a section a folder."""
    root = _wiki(tmp_path / "v")
    proposal = remember(load_vault(root), "Uptime Kuma watches every service.", page_type=None)
    assert proposal.decision == "add" and proposal.plan is not None
    # a page at the root: no section of the home page lists the root's pages, and its end is a footer's
    assert [c.path for c in proposal.plan.changes] == [proposal.page]
    assert proposal.page is not None and "/" not in proposal.page
    # a page placed in Services/ (beside pages of its type) goes under "## Services"
    for name in ("Grafana", "Loki", "Pi-hole"):
        path = root / "Services" / f"{name}.md"
        path.write_text("---\ntype: system\n---\n" + path.read_text())
    proposal = remember(load_vault(root), "Uptime Kuma watches every service.", page_type="system")
    assert proposal.plan is not None and proposal.page == "Services/Uptime-Kuma.md"  # as its neighbours are named
    after = next(c.after for c in proposal.plan.changes if c.path == "index.md")
    assert after is not None
    expected = HOME.replace("- [[Pi-hole]] - DNS\n", "- [[Pi-hole]] - DNS\n- [[Uptime-Kuma]]\n")
    assert after.decode() == expected


def test_a_folder_page_that_lists_no_pages_is_no_table_of_contents(tmp_path: Path) -> None:
    root = _wiki(tmp_path / "v", "# Homelab Wiki\n\nWelcome. See [[Grafana]] for the dashboards.\n")
    proposal = remember(load_vault(root), "Uptime Kuma watches every service.")
    assert proposal.plan is not None and [c.path for c in proposal.plan.changes] == [proposal.page]


def test_a_flat_list_on_a_folder_page_gets_the_line_after_its_last_link(tmp_path: Path) -> None:
    home = "# Home\n\n- [[Grafana]]\n- [[Loki]]\n- [[Pi-hole]]\n\nLast updated 2026-02-05.\n"
    root = _wiki(tmp_path / "v", home)
    proposal = remember(load_vault(root), "Uptime Kuma watches every service.")
    assert proposal.plan is not None and proposal.title is not None
    after = next(c.after for c in proposal.plan.changes if c.path == "index.md")
    assert after is not None
    assert after.decode() == home.replace("- [[Pi-hole]]\n", f"- [[Pi-hole]]\n- [[{proposal.title}]]\n")


ENTRIES = (("02", "Wazuh-Deployment"), ("03", "NAS-Monitoring"), ("04", "Container-Resources"))
CHANGELOG = "# Changelog\n\n" + "".join(f"- [[2026-02-{day}-{name}]]\n" for day, name in ENTRIES)


def _changelog(root: Path) -> Path:
    entry = "# {title}\n\nPart of [[_Changelog-Index]]. {body}\n"
    pages = {
        "Changelog/_Changelog-Index.md": CHANGELOG,
        "Changelog/2026-02-02-Wazuh-Deployment.md": entry.format(
            title="2026-02-02 Wazuh Deployment", body="Deployed [[Wazuh-SIEM]] with agents on every host."
        ),
        "Changelog/2026-02-03-NAS-Monitoring.md": entry.format(
            title="2026-02-03 NAS Monitoring", body="The NAS exports SNMP metrics to [[Prometheus]]."
        ),
        "Changelog/2026-02-04-Container-Resources.md": entry.format(
            title="2026-02-04 Container Resources",
            body="Set memory limits on every container; checked in [[Portfolio-Site]] and [[Security-Hardening]].",
        ),
        "Wazuh-SIEM.md": "# Wazuh-SIEM\n\nSecurity monitoring with agents on the hosts.\n",
        "Prometheus.md": "# Prometheus\n\nMetrics of every host and the NAS.\n",
        "Portfolio-Site.md": "# Portfolio-Site\n\nA Hugo site behind Caddy.\n",
        "Security-Hardening.md": "# Security-Hardening\n\nSSH keys only, fail2ban, updates weekly.\n",
    }
    return make_vault(root, pages)


def test_a_changelogs_index_is_no_thing_an_event_is_about(tmp_path: Path) -> None:
    """A new user's: a fact went to `_Changelog-Index` through a dated entry linking it."""
    vault = load_vault(_changelog(tmp_path / "v"))
    text = "Every container now has a memory limit set from the container resources review."
    found = {c.path: c.why for c in candidates(vault, text)}
    assert "one event of it" not in found.get("Changelog/_Changelog-Index.md", ""), found


def test_an_event_note_points_on_fully_only_to_the_one_thing_or_the_things_it_names(tmp_path: Path) -> None:
    vault = load_vault(_changelog(tmp_path / "v"))
    text = "Container resources: every container now has a memory limit, checked weekly."
    found = {c.path: c.score for c in candidates(vault, text)}
    entry = "Changelog/2026-02-04-Container-Resources.md"
    # two pages it links and names neither of: neither is what the event is about
    assert entry in found and all(found[p] < found[entry] for p in ("Portfolio-Site.md", "Security-Hardening.md"))
    text = "Wazuh deployment: the agents on every host now report to the manager."
    found = {c.path: c.score for c in candidates(vault, text)}
    assert found.get("Wazuh-SIEM.md", 0.0) >= found.get("Changelog/2026-02-02-Wazuh-Deployment.md", 0.0) > 0.0


def test_the_pages_bm25_puts_first_are_pages_not_one_pages_sections(tmp_path: Path) -> None:
    """A German memory on an English vault: "die" matched a title's "Dies" in each of its
    sections, and the three best sections were one page's."""
    sections = "".join(f"## Step {n}\n\nRestore the services in order, step {n}.\n\n" for n in range(1, 8))
    pages = {
        "Disaster-Recovery-Reese-Dies.md": f"# Disaster Recovery: Reese Dies\n\n{sections}",
        "UPS.md": "# UPS\n\nThe UPS Bear reports its battery through NUT to the monitoring.\n",
        "NUT.md": "# NUT\n\nThe NUT server reads the UPS and tells the hosts to shut down.\n",
    }
    vault = load_vault(make_vault(tmp_path / "v", pages))
    first = search_first(vault, "Die USV liefert über NUT keinen Wert für die Restlaufzeit.")
    assert first[:2] == ["NUT.md", "UPS.md"] or first[:2] == ["UPS.md", "NUT.md"], first


@pytest.mark.parametrize(
    "home",
    [
        # the links in its frontmatter, its prose, a readme's sentence, a table, a callout: no list of entries
        '---\nrelated:\n  - "[[Grafana]]"\n  - "[[Loki]]"\n  - "[[Pi-hole]]"\n---\n# Docs\n\nSome words.\n',
        "# Docs\n\nThis folder holds [[Grafana]], which talks to [[Loki]] and to [[Pi-hole]] through a queue.\n"
        "Everything else is described elsewhere.\n",
        "# my-homelab\n\nSee [Grafana](Services/Grafana.md) for dashboards,\n[Loki](Services/Loki.md) for logs and "
        "[Pi-hole](Services/Pi-hole.md) for DNS.\n\n## Installation\n\nRun it.\n",
        "# Docs\n\n| Page | Note |\n|---|---|\n| [[Grafana]] | a |\n| [[Loki]] | b |\n| [[Pi-hole]] | c |\n",
        "# Docs\n\n> [!note] Pages\n> - [[Grafana]]\n> - [[Loki]]\n> - [[Pi-hole]]\n",
    ],
)
def test_a_folder_page_whose_links_are_no_list_entries_gets_no_line(tmp_path: Path, home: str) -> None:
    """An attacker's: a line went into a folder page's frontmatter (its YAML broken), between two
    lines of a paragraph, under a table, after a callout."""
    root = _wiki(tmp_path / "v", home)
    proposal = remember(load_vault(root), "Uptime Kuma watches every service.")
    assert proposal.plan is not None and [c.path for c in proposal.plan.changes] == [proposal.page]


@pytest.mark.parametrize("closing", ["---\nSee also [[Network-Topology]].\n", "The architecture:\n![[arch.png]]\n"])
def test_a_line_goes_after_the_last_entry_not_a_closing_link(tmp_path: Path, closing: str) -> None:
    home = f"# Home\n\n- [[Grafana]]\n- [[Loki]]\n- [[Pi-hole]]\n\n{closing}"
    root = _wiki(tmp_path / "v", home)
    proposal = remember(load_vault(root), "Uptime Kuma watches every service.")
    assert proposal.plan is not None and proposal.title is not None
    after = next(c.after for c in proposal.plan.changes if c.path == "index.md")
    assert after is not None
    assert after.decode() == home.replace("- [[Pi-hole]]\n", f"- [[Pi-hole]]\n- [[{proposal.title}]]\n")


def test_a_things_page_listing_its_own_incidents_is_what_they_are_about(tmp_path: Path) -> None:
    """An attacker's: `NAS.md` lists its three incident notes, each linking [[NAS]] (a three-letter
    name its notes' titles name): it was taken for a changelog's index and passed over."""
    note = "# {title}\n\nOn [[NAS]]. {body}\n"
    pages = {
        "systems/NAS.md": "# NAS\n\nA Synology with four disks.\n\n## Incidents\n\n"
        "- [[2026-01-12-NAS-Fan-Noise]]\n- [[2026-02-03-NAS-Update-Reboot]]\n- [[2026-03-01-NAS-Disk-Failure]]\n",
        "events/2026-01-12-NAS-Fan-Noise.md": note.format(title="2026-01-12 NAS Fan Noise", body="The fans got loud."),
        "events/2026-02-03-NAS-Update-Reboot.md": note.format(
            title="2026-02-03 NAS Update Reboot", body="It rebooted; [[Backups]] ran late."
        ),
        "events/2026-03-01-NAS-Disk-Failure.md": note.format(
            title="2026-03-01 NAS Disk Failure", body="Disk 2 failed; [[Backups]] and [[Proxmox]] waited."
        ),
        "systems/Backups.md": "# Backups\n\nRestic to the NAS nightly.\n",
        "systems/Proxmox.md": "# Proxmox\n\nTwo nodes.\n",
    }
    vault = load_vault(make_vault(tmp_path / "v", pages))
    proposal = remember(vault, "The NAS fan noise came back: the fans need their dust filter cleaned every month.")
    assert (proposal.decision, proposal.page) == ("merge-into", "systems/NAS.md"), proposal.reason
