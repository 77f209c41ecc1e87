"""A memory a page seems to say already in other words: a drop a person confirms, the merge waiting
for them in the queue; and the slot words by which a fact near a page's sentence says something else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from edit_helpers import tree
from helpers import make_vault
from test_mcp import allow_agent_writes, call, connected

from curator.cli.main import main
from curator.core.change.changes import undo
from curator.core.curate.remember import remember
from curator.core.curate.suggestions import load_suggestions
from curator.core.read.loading import load_vault

BACKUPS = (
    "# Backups\n\nThe nightly backup of the production database runs at 02:00 with restic and goes to the Hetzner "
    "storage box.\n\nSnapshots are kept for 30 days on the box.\n"
)
SAID_AGAIN = "Every night at 02:00 restic backs up the production database to the Hetzner storage box."


@pytest.fixture
def backups(tmp_path: Path) -> Path:
    return make_vault(tmp_path / "v", {"Backups.md": BACKUPS, "Proxmox.md": "# Proxmox\n\nThe hypervisor.\n"})


def test_a_fact_said_again_in_other_words_is_a_drop_a_person_confirms(backups: Path) -> None:
    proposal = remember(load_vault(backups), SAID_AGAIN)
    assert (proposal.decision, proposal.page, proposal.review) == ("drop", "Backups.md", True)
    assert "seems to say it already" in proposal.reason and "The nightly backup of the production" in proposal.reason
    assert proposal.plan is not None  # the merge, should the person ask for it
    assert [c.path for c in proposal.plan.changes] == ["Backups.md"]


@pytest.mark.parametrize(
    "text",
    [
        # an attacker's facts beside the page's sentence, each taken for a repeat by meaning alone
        "Every night at 02:00 restic backs up the staging database to the Hetzner storage box.",
        "Every week restic backs up the production database to the Hetzner storage box.",
        "Every night at 02:00 restic backs up the production database to the Hetzner storage box, including logs.",
        "Every night at 02:00 restic backs up the production database to a Backblaze bucket.",
        "Every night at 02:00 restic backs up the production database to two Hetzner storage boxes.",
        "Every night at 02:00 restic must back up the production database to the Hetzner storage box.",
        "Die Testdatenbank wird jede Nacht um 02:00 mit restic auf die Hetzner Storage Box gesichert.",
    ],
)
def test_a_slot_filled_otherwise_in_other_words_is_news(backups: Path, text: str) -> None:
    assert remember(load_vault(backups), text).decision != "drop"


DEPLOYS = (
    "# Deploys\n\nDeploys to production happen on Tuesdays after the standup.\nThe on-call engineer approves each"
    " deploy in the release channel.\nDevelopers can deploy to staging whenever they like.\n"
)


@pytest.mark.parametrize(
    "text",
    [  # an attacker's: a rule where the page says "can", and an "only" that narrows it
        "Developers must deploy to staging whenever they like.",
        "Only developers may deploy to staging.",
    ],
)
def test_a_rule_or_an_only_the_page_does_not_say_is_news(tmp_path: Path, text: str) -> None:
    proposal = remember(load_vault(make_vault(tmp_path / "v", {"Deploys.md": DEPLOYS, "o.md": "# O\n\nx\n"})), text)
    assert proposal.decision != "drop", proposal.reason


def test_a_held_drop_is_queued_not_written_and_merges_when_accepted(
    backups: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start = tree(backups)
    assert main(["remember", str(backups), SAID_AGAIN, "--apply", "--json"]) == 0
    decided = json.loads(capsys.readouterr().out)
    assert (decided["decision"], decided["applied"], decided["files"]) == ("drop", False, ["Backups.md"])
    assert decided["review"] is True  # what tells a held drop from a plain one
    assert decided["suggestion"] and tree(backups) == start  # nothing lost, nothing written
    assert main(["remember", str(backups), SAID_AGAIN, "--apply"]) == 0
    told = capsys.readouterr().out
    assert "a person confirms it" in told and "or --apply" not in told  # --apply cannot apply it
    assert main(["apply", str(backups), decided["suggestion"], "--json"]) == 0  # the person merges it anyway
    applied = json.loads(capsys.readouterr().out)
    assert SAID_AGAIN in (backups / "Backups.md").read_text(encoding="utf-8")
    undo(backups, applied["change"])
    assert tree(backups) == start


def test_a_proposal_a_person_rejected_is_not_queued_again_while_its_page_stays(
    backups: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A new user's: `reject` says so, yet the same memory was queued again under a new id; an
    attacker's: and in other spacing, and `--apply` wrote it."""
    text = "The nightly backup also copies the Proxmox host's /etc to the storage box."
    assert main(["remember", str(backups), text, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    first = shown["suggestion"]
    assert shown["rejected"] is False
    assert main(["reject", str(backups), first]) == 0
    capsys.readouterr()
    assert main(["remember", str(backups), text, "--json"]) == 0
    again = json.loads(capsys.readouterr().out)  # a new user's: the JSON did not say it was rejected
    assert (again["suggestion"], again["rejected"]) == (first, True)
    assert [s.status for s in load_suggestions(backups)] == ["rejected"]
    assert main(["remember", str(backups), text]) == 0
    assert "a person rejected this proposal" in capsys.readouterr().out
    start = tree(backups)  # nor in other spacing or case, nor by --apply: the person decided it
    assert main(["remember", str(backups), "  " + text.upper().replace(" ", "  "), "--apply", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["applied"] is False and tree(backups) == start
    assert [s.status for s in load_suggestions(backups)] == ["rejected"]
    (backups / "Backups.md").write_text(BACKUPS + "\nRestores are tested monthly.\n", encoding="utf-8")
    assert main(["remember", str(backups), text, "--json"]) == 0  # its page changed: asked again
    again = json.loads(capsys.readouterr().out)["suggestion"]
    assert again != first and [s.status for s in load_suggestions(backups)] == ["rejected", "pending"]


@pytest.mark.anyio
async def test_an_agent_allowed_to_write_has_a_held_drop_queued(backups: Path) -> None:
    allow_agent_writes(backups)
    start = tree(backups)
    async with connected(backups) as client:
        decided = await call(client, "remember", text=SAID_AGAIN)
    assert (decided["decision"], decided["applied"], decided["review"]) == ("drop", False, True)
    assert tree(backups) == start
    assert {s.id: s.status for s in load_suggestions(backups)}[decided["suggestion"]] == "pending"


def test_every_name_and_number_held_is_a_drop_a_person_confirms(tmp_path: Path) -> None:
    """An attacker's: the page pairs the numbers the other way round, and the drop lost the fact."""
    page = (
        "# Network\n\nThe router forwards port 443 from the internet to the reverse proxy on the DMZ.\n"
        "The home network uses VLAN 10 for servers and VLAN 20 for IoT devices.\n"
        "DNS is answered by Pi-hole, which forwards to Quad9 over DNS-over-TLS.\n"
    )
    vault = load_vault(make_vault(tmp_path / "v", {"Network.md": page}))
    proposal = remember(vault, "Servers are on VLAN 20 and IoT devices on VLAN 10.")
    assert (proposal.decision, proposal.review) == ("drop", True)
    assert proposal.plan is not None and [c.path for c in proposal.plan.changes] == ["Network.md"]


@pytest.mark.parametrize(
    ("text", "drop"),
    [
        ("Outbound port 25 is blocked on pve-01 and pve-02; notifications go out only via smtp.gmail.com:587.", True),
        ("Outbound port 25 is blocked on pve-01 and pve-02; notifications go out only via smtp.gmail.com:465.", False),
    ],
)
def test_a_host_and_port_the_page_gives_apart_is_held(tmp_path: Path, text: str, drop: bool) -> None:
    """A German runbook gives the server and the port on lines of their own; the text says them as one."""
    page = (
        "# SMTP policy\n\n- Outbound TCP/25 is blocked on pve-01 and pve-02.\n- Notifications go out only via:\n"
        "  - Server: `smtp.gmail.com`\n  - Port: `587`\n"
    )
    vault = load_vault(make_vault(tmp_path / "v", {"SMTP policy.md": page, "o.md": "# O\n\nx\n"}))
    proposal = remember(vault, text)
    assert proposal.page == "SMTP policy.md" and (proposal.decision == "drop") is drop


APTLY = (
    "# Aptly\n\nOur Aptly server hosts custom packages.\n\nWhen prompted for the passphrase for the GPG key, you can "
    'find it in 1Password in the DevOps vault under item "Aptly GPG Passphrase".\n'
)


@pytest.mark.parametrize(
    ("text", "drop"),
    [
        ("Die GPG-Passphrase für Aptly steht im 1Password, im DevOps-Vault.", True),
        ("Die GPG-Passphrase für Aptly steht im Bitwarden, im DevOps-Vault.", False),
        ("Die GPG-Passphrase für Aptly steht im 1Password, im Ops-Vault.", False),
    ],
)
def test_a_page_line_said_again_in_the_other_language_is_a_drop_to_confirm(
    tmp_path: Path, text: str, drop: bool
) -> None:
    """A held-out set's repeat, a line of a runbook in German: the model scores the translation
    0.68, under what a text in the page's language needs; the glossary meets its words."""
    vault = load_vault(make_vault(tmp_path / "v", {"Aptly.md": APTLY, "Backups.md": BACKUPS}))
    proposal = remember(vault, text)
    assert proposal.page == "Aptly.md"
    assert (proposal.decision, proposal.review) == (("drop", True) if drop else ("merge-into", False))


KEPT = "# Aptly\n\nOur Aptly server hosts custom packages.\n\nThe GPG passphrase for Aptly is kept in 1Password.\n"


@pytest.mark.parametrize(
    ("page", "text"),
    [  # an attacker's: each says something else than the page, and was proposed as a drop
        (KEPT, "Die GPG-Passphrase für Aptly wird nirgends im 1Password aufbewahrt."),
        (KEPT, "Die GPG-Passphrase für Aptly wird im 1Password gelöscht."),
        (KEPT, "Die GPG-Passphrase für Aptly wird außerhalb von 1Password aufbewahrt."),
        (KEPT, "Die GPG-Passphrase für Aptly wurde früher im 1Password aufbewahrt."),
        (KEPT, "Die GPG-Passphrase für Aptly wird bald im 1Password aufbewahrt."),
        (KEPT, "The GPG passphrase for Aptly used to be kept in 1Password."),
        (
            "# Mail\n\nOutgoing mail uses smtp.gmail.com on port 465. Internal relay port 587 is closed.\n",
            "Outgoing mail uses smtp.gmail.com:587.",
        ),
        (
            "# Proxy\n\nThe proxy listens on proxy.lan port 8080, the metrics on 9090.\n",
            "The proxy listens on proxy.lan:9090.",
        ),
        (
            "# Deploys\n\nDeploys use the canary strategy. The green dashboard shows the blue-team alerts.\n",
            "Deploys use the Blue-Green strategy.",
        ),
    ],
)
def test_a_statement_moved_in_place_time_or_value_is_no_repeat(tmp_path: Path, page: str, text: str) -> None:
    vault = load_vault(make_vault(tmp_path / "v", {"P.md": page, "Backups.md": BACKUPS}))
    assert remember(vault, text).decision != "drop"


def test_a_page_that_is_no_utf8_offers_no_merge_with_its_drop(tmp_path: Path) -> None:
    page = (
        "# Network\n\nThe router forwards port 443 from the internet to the reverse proxy on the DMZ.\n"
        "The home network uses VLAN 10 for servers and VLAN 20 for IoT devices in the Keller.\n"
    )
    root = make_vault(tmp_path / "v", {"Network.md": page.encode().replace(b"Keller", b"K\xe9ller")})
    proposal = remember(load_vault(root), "Servers are on VLAN 20 and IoT devices on VLAN 10.")
    assert (proposal.decision, proposal.plan, proposal.review) == ("drop", None, False)


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("The media box runs Kodi/XBMC and answers on 80/443.", True),  # names a slash joins
        ("The build volume is 20.5 cm high.", True),  # the page writes 20,5
        ("Logs are kept for a 26-hour window, e.g. for the nightly job.", True),  # a glued unit, "e.g."
        ("The media box runs Kodi/Plex.", False),  # one of the two is not on the page
        ("The build volume is 21.5 cm high.", False),
        ("Neu: die Medienbox spielt Kodi ab.", False),  # a text saying it is new
    ],
)
def test_a_name_is_read_as_the_page_writes_it(text: str, held: bool) -> None:
    from curator.core.curate.facts import restated

    page = "Die Medienbox: Kodi und XBMC, Ports 80 und 443. Bauraum 20,5 cm hoch. Logs bleiben 26 Stunden."
    assert restated(text, page) is held


def test_a_page_holding_most_of_a_text_with_a_word_changed_is_a_drop_to_confirm(tmp_path: Path) -> None:
    """An attacker's: "... on pve2" against the page's "... on pve1" held 86 % of the text and was
    dropped outright, even with --apply: the new host lost."""
    page = "# Cleanup job\n\nThe cleanup job runs every night at 03:00 on pve1.\n"
    root = make_vault(tmp_path / "v", {"notes/Cleanup-Job.md": page, "o.md": "# O\n\nx\n"})
    proposal = remember(load_vault(root), "The cleanup job runs every night at 03:00 on pve2.")
    assert proposal.decision != "drop" or (proposal.review and proposal.plan is not None)


def test_a_repeat_in_other_words_the_model_puts_less_near_is_a_drop_to_confirm(tmp_path: Path) -> None:
    """A repeat at a cosine of 0.5-0.7 to its passage (tldr's uname note): merged again before."""
    page = (
        "# uname\n\nPrint details about the current machine and the operating system running on it.\n\n"
        "__NOTE:__ If you run this on a container, the output will refer to the host machine's operating "
        "system, not the container's (technically, the container doesn't have an operating system, it has a "
        "distribution).\n\n- Print kernel name: `uname`\n- Print all available system information: `uname --all`\n"
    )
    vault = load_vault(make_vault(tmp_path / "v", {"uname.md": page}))
    text = "Careful: running uname inside a container describes the host machine, not the container."
    proposal = remember(vault, text)
    assert (proposal.decision, proposal.page, proposal.review) == ("drop", "uname.md", True), proposal.reason
    # less near, and the passage's "nightly" unsaid: news, merged
    nightly = page.replace("a distribution).", "a distribution). The image is rebuilt nightly.")
    vault = load_vault(make_vault(tmp_path / "w", {"uname.md": nightly}))
    assert remember(vault, "The uname container image is rebuilt before every deploy.").decision == "merge-into"


@pytest.mark.parametrize(
    "where",
    [
        "the team vault (Bitwarden)",
        "the team vault: Bitwarden",
        'the team vault, see "Bitwarden"',
        "the team vault - Bitwarden",
        "the \u200bBitwarden team vault",
    ],
)
def test_a_name_after_a_bracket_a_colon_a_quote_or_a_dash_is_news(tmp_path: Path, where: str) -> None:
    """An attacker's: a new name the page lacks passed the name check after anything but a space."""
    page = "# Secrets\n\nThe Grafana admin password lives in the team vault.\n\nAPI tokens are rotated every 90 days.\n"
    vault = load_vault(make_vault(tmp_path / "v", {"secrets.md": page}))
    proposal = remember(vault, f"The admin password for Grafana is stored in {where}.")
    assert proposal.decision != "drop", proposal.reason


GLUED = (
    "Venus: Ryzen 7 3700X, 64gb Kingston Fury. The P1S build volume: 256mm x 256mm x 256mm. Get the chain with "
    "`curl https://cert.lab.space/fullchain.pem`. Calmo Tiny Pro: Intel i5 9500, 16GB RAM. BAFA zahlt 80% von "
    "8.330€. Router: TP TL-WR841*."
)


@pytest.mark.parametrize(
    ("text", "held"),
    [  # the tuning sets' repeats, each written as a page of a fetched vault writes it
        ("Venus has 64 GB Kingston Fury RAM.", True),
        ("The P1S builds up to 256 × 256 × 256 mm.", True),
        ("Fetch the chain from cert.lab.space with curl.", True),
        ("The Calmo runs an i5-9500 with 16 GB RAM.", True),
        ("BAFA pays 80% of 8,330 €.", True),
        ("Stay away from the TL-WR841.", True),
        ("Venus has 128 GB RAM.", False),
        ("Fetch the chain from evil.cert.lab.space.", False),
        ("The Calmo runs an i5-9600.", False),
        ("BAFA pays 80% of 8,430 €.", False),
        ("The P1S builds 256 × 300 mm.", False),
    ],
)
def test_a_number_glued_to_its_unit_or_a_name_inside_a_longer_token_is_held(text: str, held: bool) -> None:
    from curator.core.curate.facts import restated

    assert restated(text, GLUED) is held


CHILLER = (
    "# Laser chiller\n\nThe laser's chiller pumps water through the tube.\n\n## Before you start\n\n"
    "There is a display on the front of the chiller. It is safe to operate the laser when the chiller is "
    "displaying 26C or lower. If the temperature is above that, wait a few minutes and check again.\n\n"
    "## Maintenance\n\nThe water is distilled. The filter sits behind the left panel; the pump is a 12 V model.\n"
)


def test_a_repeat_in_the_pages_other_language_with_few_of_its_words_is_a_drop_to_confirm(tmp_path: Path) -> None:
    """A tuning set's repeat: the German text shares under half its terms with the English page,
    which the model alone puts near it (0.77); a page about more than it is not near enough to take it."""
    vault = load_vault(make_vault(tmp_path / "v", {"Chiller.md": CHILLER, "Backups.md": BACKUPS}))
    text = (
        "Vor dem Start aufs Chiller-Display schauen: erst bei 26 °C oder weniger ist der Betrieb sicher, sonst ein "
        "paar Minuten warten und nochmal prüfen."
    )
    proposal = remember(vault, text)
    assert (proposal.decision, proposal.page, proposal.review) == ("drop", "Chiller.md", True), proposal.reason
    # a page too far in score to take the text (a vault's bar above it) still says it: no new page
    far = remember(vault, text, threshold=0.99)
    assert (far.decision, far.page, far.review) == ("drop", "Chiller.md", True), far.reason
    assert far.plan is not None and [c.path for c in far.plan.changes] == ["Chiller.md"]
    for news in (  # a value, a slot, a name the page lacks
        "Vor dem Start aufs Chiller-Display schauen: erst bei 24 °C oder weniger ist der Betrieb sicher.",
        "Vor dem Start jede Woche aufs Chiller-Display schauen: erst bei 26 °C oder weniger ist der Betrieb sicher.",
        "Vor dem Start aufs Chiller-Display schauen: erst bei 26 °C ist der Betrieb sicher, sagt Jonas von Trotec.",
    ):
        assert remember(vault, news).decision != "drop", news
        # far in score, news on the page's subject: the page of the passage it is about, or a page of its own
        far_news = remember(vault, news, threshold=0.99)
        assert far_news.decision == "add" or (far_news.decision, far_news.page) == ("merge-into", "Chiller.md"), news


def test_a_page_named_by_a_year_is_not_named_by_a_dated_memory(tmp_path: Path) -> None:
    """A new user's agent memory: a memoir page `2026.md` was ranked second for every memory with a
    2026 date, and `[[2026]]` written into the merged text."""
    root = make_vault(
        tmp_path / "v",
        {
            "mylife/2026.md": "# 2026\n\nThe year we moved to the coast.\n",
            "Dave.md": "# Dave\n\n## Personal\n\nDave drives a Land Rover and is a member of the Four By Four club.\n",
        },
    )
    vault = load_vault(root)
    proposal = remember(vault, "Since March 2026 Dave sits on the board of the Four By Four club.")
    assert "mylife/2026.md" not in [c.path for c in proposal.evidence if c.score >= 0.8], proposal.evidence
    written = [(c.after or b"").decode() for c in proposal.plan.changes] if proposal.plan else []
    assert "[[2026]]" not in json.dumps(written)


@pytest.mark.parametrize(
    ("page", "text"),
    [  # an attacker's new facts, each taken for a repeat after repeats were found across languages
        (
            "The NAS has 20gb of RAM. The UPS gives it 15min of runtime before it shuts down.",
            "The UPS gives the NAS 20min of runtime.",
        ),
        (
            "The nightly backup runs at 02:00 to Backblaze B2 and keeps 30 versions. The NAS's IP is 192.168.1.20.",
            "B2 holds on to 20 old copies of each night's NAS backup.",
        ),
        (
            "The printer is a Brother HL-L2350DW at 10.0.40.12, bought on 2022-11-25. Toner cartridges TN-2420 "
            "are stored in the supply cabinet.",
            "In the supply cabinet there are 11 spare TN-2420 cartridges.",
        ),
        (
            "Die GPG-Passphrase für das Backup liegt im 1Password.",
            "Die GPG-Passphrase für das Backup liegt im Bitwarden.",
        ),
        ("Die GPG-Passphrase für das Backup liegt im 1Password.", "Die GPG-Passphrase für das Backup liegt im Tresor."),
        (
            "Der Gaszähler hängt im Keller neben dem Sicherungskasten.",
            "Der Wasserzähler hängt im Keller neben dem Gaszähler.",
        ),
        (
            "Das Backup des Servers läuft täglich um 03:00 auf die Hetzner Storage Box.",
            "Der Laptop von Alice wird täglich um 03:00 auf die Hetzner Storage Box gesichert.",
        ),
        ("The Wi-Fi password is kept in 1Password.", "The Wi-Fi password is also written on the router's label."),
        (
            "The internal CA lives at https://ca.example.org/acme/ and signs certificates for .home.lan hosts.",
            "The internal CA at ca.example.org also signs certificates for .example.org hosts.",
        ),
        (
            "Die Heizung ist tagsüber auf 21C eingestellt und wird nachts auf 17C abgesenkt.",
            "Die Heizung wird nachts auf 21 Grad abgesenkt.",
        ),
        # a second attacker's: a number glued to a unit standing in for a count or another unit, a
        # German text naming another thing or place than its English page
        (
            "The NAS is a Synology DS920+ at 192.168.1.20 with four 8TB drives in SHR-1. It has 20gb RAM.",
            "The Synology DS920+ at 192.168.1.20 has 20 TB of usable space in SHR-1.",
        ),
        (
            "The dev workstation is a Dell OptiPlex 7070 with an i5-9500 CPU and 64gb RAM.",
            "The Dell OptiPlex 7070 with the i5-9500 runs 64 containers.",
        ),
        (
            "Support tickets are answered within 4 hours on weekdays. Their VPN endpoint is vpn.acme.de on port 1194.",
            "Acme GmbH answers tickets within 4 days on vpn.acme.de port 1194.",
        ),
        (
            "Grafana is at https://grafana.example.org and uses Google login.",
            "Grafana ist unter https://grafana.example.org erreichbar und nutzt den Login von Microsoft.",
        ),
        (
            "Deploys go through GitLab CI on the shared runner.",
            "Deployments laufen über GitLab CI auf dem gemeinsamen Runner in der Cloud.",
        ),
    ],
)
def test_a_new_value_thing_or_place_beside_a_pages_sentence_is_no_repeat(tmp_path: Path, page: str, text: str) -> None:
    vault = load_vault(make_vault(tmp_path / "v", {"P.md": f"# P\n\n{page}\n", "Backups.md": BACKUPS}))
    assert remember(vault, text).decision != "drop"
    assert remember(vault, text, threshold=0.99).decision != "drop"  # the nearest page read when none takes it


KIDS_WEEK = """# Kids' week

Anna goes to swimming at the leisure centre on Tuesdays after school.
Anna goes to piano at Mrs. Hill's house on Wednesdays after school.
Anna goes to football at the park on Thursdays after school.
Anna goes to Brownies at the church hall on Fridays after school.
Ben goes to judo at the sports hall on Mondays after school.
Ben goes to chess club at the library on Saturday mornings.
Ben goes to swimming at the leisure centre on Thursdays after school.
Grandma picks Anna and Ben up from school on Wednesdays.
Anna needs her swimming kit and a towel packed on Monday evening.
The school bus leaves the corner of Elm Road at 07:45.
Anna is allergic to peanuts; her EpiPen is in the blue school bag.
Screen time is one hour on school days, after homework.
"""


def test_a_repeat_of_one_line_among_alike_lines_is_found_and_a_colour_said_otherwise_is_news() -> None:
    """An attacker's list page: the line a memory repeats shares as many words with it as its
    neighbours do, and spans of two lines share one more; a colour is a slot ("red" for "blue")."""
    from curator.core.curate.repeats import saying_it

    said = saying_it("On Wednesdays after school Grandma collects both children.", KIDS_WEEK)
    assert said == "Grandma picks Anna and Ben up from school on Wednesdays."
    assert saying_it("Anna's EpiPen is kept in the red school bag.", KIDS_WEEK) is None


def test_a_unit_is_one_after_a_count() -> None:
    """ "its second NIC" measures nothing: the repeat of a page's two network cards was refused for
    a unit ("second") its passage lacks."""
    from curator.core.curate.repeats import _SLOT_OF, _filled

    assert ("unit", "s") not in _filled("The NAS has its second NIC on VLAN 60.", _SLOT_OF)
    assert ("unit", "s") in _filled("The probe answers within 30 seconds.", _SLOT_OF)
    assert ("unit", "h") in _filled("It uses a 26-hour window.", _SLOT_OF)
    assert ("unit", "min") in _filled("Es dauert fünf Minuten.", _SLOT_OF)


def test_an_article_after_an_opening_colon_is_no_noun_the_page_must_hold() -> None:
    """Set 15's status: "Stand heute: Das Syslog ..." was refused for a noun "Das" its English page has in no form."""
    from curator.core.curate.repeats import saying_it

    page = (
        "# Firewall\n\nThe PAN firewall sends its syslog to syslog.example.org.\n\n"
        "The syslog of the PAN firewall to syslog.example.org fails, because only TLS is configured there.\n"
    )
    text = (
        "Stand heute: Das Syslog der PAN-Firewall an syslog.example.org schlägt weiterhin fehl, "
        "weil nur TLS konfiguriert ist."
    )
    assert saying_it(text, page) == page.splitlines()[-1]


@pytest.mark.parametrize(
    ("page", "text"),
    [
        (
            "Members edit the wiki in the browser instead of the desktop app.",
            "Only members edit the wiki in the browser.",
        ),
        ("Die Kasse wird von Anna geführt, außer im August.", "Die Kasse wird nur von Anna geführt."),
        (
            "Der Schlüssel für den Keller liegt im Büro statt im Flur.",
            "Nur der Schlüssel für den Keller liegt im Büro.",
        ),
        ("Der Vorstand hat Zugang zum Konto, ausgenommen die Kassenprüfer.", "Nur der Vorstand hat Zugang zum Konto."),
    ],
)
def test_an_only_against_a_bound_of_another_thing_is_news(page: str, text: str) -> None:
    """An attacker's: an "except" or "instead" of the page's sentence bounds another thing than the
    memory's "only" does."""
    from curator.core.curate.repeats import saying_it

    assert saying_it(text, f"# Page\n\n{page}\n") is None


def test_an_only_the_page_says_by_a_not_is_a_repeat() -> None:
    """Set 11's: "only guide dogs are allowed" where the page says pets are not allowed but guide dogs."""
    from curator.core.curate.repeats import saying_it

    page = (
        "# House rules\n\nUnfortunately, pets such as dogs and cats are not allowed in the Makerspace, except for "
        "guide dogs. This is due to the house rules of the RUB.\n"
    )
    assert saying_it("No pets in the makerspace because of the RUB house rules; only guide dogs are allowed.", page)
