"""Where `remember` lands a memory a new user's trials missed: never into an empty page (a tag
index, a title with no text) on its title alone, and across languages onto the page of the thing."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_vault

from curator.core.change.changes import plan_and_apply
from curator.core.curate.remember import remember
from curator.core.read.loading import load_vault

JWT_PAGE = """---
type: topic
---
# JWT Attacks

Attacks on JSON Web Tokens. A server that trusts the header's `alg` skips signature verification when
an attacker sets it to none. Key confusion signs an RS256 token with the public key as an HMAC secret.
"""


def _security(root: Path) -> Path:
    return make_vault(
        root,
        {
            "Tags/Defence.md": "",  # a tag's page, made by a click on the tag and never written
            "Tags/Security.md": "---\ntags: [security]\n---\n# Security\n",
            "Tags/Directory traversal.md": "# Directory traversal\n\n#web #pentest\n",
            "Tags/Hashcat.md": "2024-06-29 11:01\n\nSource: \n\nTags: [[Cracking]]\n",
            "Remote Thought/JWT Attacks.md": JWT_PAGE,
            "Remote Thought/Password hashing.md": "# Password hashing\n\nStore passwords with Argon2id or "
            "bcrypt, never with plain SHA-256. Each hash gets its own salt.\n",
        },
    )


def test_an_empty_page_is_no_merge_target_for_a_memory_about_another_thing(tmp_path: Path) -> None:
    vault = load_vault(_security(tmp_path / "v"))
    for text, title in (
        ("Defence teams watch the SIEM alerts around the clock.", "Defence teams"),
        ("Security headers must be set on every response of the API.", "Security headers"),
        ("Hashcat rules files mangle a wordlist before cracking.", "Hashcat rules"),
    ):
        proposal = remember(vault, text)
        assert (proposal.decision, proposal.title) == ("add", title), proposal.reason
        assert all(c.path.startswith("Remote") for c in proposal.evidence), proposal.evidence


def test_an_empty_page_whose_title_is_the_memorys_subject_is_filled(tmp_path: Path) -> None:
    root = _security(tmp_path / "v")
    text = "Directory traversal with ../ sequences read /etc/passwd on the target."
    proposal = remember(load_vault(root), text)
    assert (proposal.decision, proposal.page) == ("merge-into", "Tags/Directory traversal.md")
    assert proposal.plan is not None
    plan_and_apply(root, lambda _: proposal.plan)  # type: ignore[arg-type, return-value]
    assert (root / "Tags/Directory traversal.md").read_text() == f"# Directory traversal\n\n#web #pentest\n\n{text}\n"
    filled = remember(load_vault(root), "Defence is what the blue team does.")
    assert (filled.decision, filled.page) == ("merge-into", "Tags/Defence.md")
    assert filled.plan is not None and filled.plan.changes[0].after == b"Defence is what the blue team does.\n"


def test_a_german_memory_of_an_attack_lands_on_the_english_page_of_that_attack(tmp_path: Path) -> None:
    vault = load_vault(_security(tmp_path / "v"))
    for text in (
        "Der Angreifer hat das JWT mit alg=none signiert und so die Prüfung umgangen.",
        "Ein Angreifer kann JWTs mit alg=none fälschen.",  # an acronym's plural: JWTs is JWT
        "Unsignierte JWTs (alg=none) wurden beim Pentest vom Server akzeptiert.",
        "Angriffe auf JWTs über den Header alg=none sind bei uns geprüft.",
    ):
        proposal = remember(vault, text)
        assert (proposal.decision, proposal.page) == ("merge-into", "Remote Thought/JWT Attacks.md"), proposal.reason


def test_an_english_memory_lands_on_a_german_page_and_acronym_plurals_meet_their_singular(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "themen/Angriffe auf JWT.md": "# Angriffe auf JWT\n\nMit alg=none im Header prüft ein schlecht "
            "gebauter Server die Signatur nicht. Schwache HMAC-Schlüssel lassen sich offline erraten.\n",
            "themen/CVE triage.md": "# CVE triage\n\nThe security team reads new advisories each morning and "
            "rates them by how exposed our services are.\n",
            "themen/Passwort-Hashing.md": "# Passwort-Hashing\n\nPasswörter speichern wir mit Argon2id.\n",
        },
    )
    vault = load_vault(root)
    english = remember(vault, "An attacker forged JWTs by setting alg to none in the header.")
    assert (english.decision, english.page) == ("merge-into", "themen/Angriffe auf JWT.md"), english.reason
    plural = remember(vault, "CVEs in base images are triaged within two working days.")
    assert (plural.decision, plural.page) == ("merge-into", "themen/CVE triage.md"), plural.reason


def test_a_memory_whose_subject_has_a_page_of_that_name_goes_there(tmp_path: Path) -> None:
    # Below the threshold (an English memory on a German page scored 0.77 against 0.8), the page
    # to add would be named "UDP", which a page is already: that raised EditError.
    root = make_vault(
        tmp_path / "v",
        {
            "Protocols/UDP.md": "# UDP\n\nThe user datagram protocol of the transport layer.\n",
            "Protocols/TCP.md": "# TCP\n\nThe transmission control protocol.\n",
        },
    )
    text = "UDP is connectionless and best effort; lost datagrams are never resent."
    proposal = remember(load_vault(root), text, threshold=0.99)
    assert (proposal.decision, proposal.page) == ("merge-into", "Protocols/UDP.md"), proposal.reason


def test_a_one_word_title_inside_a_compound_of_the_text_is_no_place_for_it(tmp_path: Path) -> None:
    """A new user's OpenClaw workspace: a German memory about hens, their feed "next to the
    Werkzeugschrank", went into the agent's TOOLS.md ("tool" is a part of the compound's
    translation, no word of the text)."""
    root = make_vault(
        tmp_path / "v",
        {
            "TOOLS.md": "# TOOLS.md - Local Notes\n\nSkills define how tools work. This file is for your specifics.\n",
            "MEMORY.md": "# Memory\n\n- [[TOOLS]]\n- [[dave]]\n",
            "dave.md": "# Dave\n\nDave lives on a farm with a barn.\n",
        },
    )
    text = "Die Hühner bekommen Purina-Legemehl; der Sack steht in der Scheune neben dem Werkzeugschrank."
    assert remember(load_vault(root), text).page != "TOOLS.md"


def test_a_heading_its_file_name_spells_names_the_page_and_a_generic_one_does_not(tmp_path: Path) -> None:
    """A new user's fire brigade site: `mzf.md` is headed "# Mehrzweckfahrzeug", and a memory about
    the Mehrzweckfahrzeug became a new page of that name; an attacker's "# Overview" over a README
    and "# Instructions" over AGENTS.md took memories about an overview and instructions."""
    pages = {
        "fahrzeuge/mzf.md": "# Mehrzweckfahrzeug\n\n**Funkrufname** Florian 11/1\n\n**Besatzung** 1/8\n",
        "fahrzeuge/hlf20.md": "# Hilfeleistungslöschgruppenfahrzeug HLF 20\n\n**Besatzung** 1/8\n",
        "README.md": "# Overview\n\nThis site is built with MkDocs.\n",
        "AGENTS.md": "# Instructions\n\nRead MEMORY.md first.\n",
    }
    vault = load_vault(make_vault(tmp_path / "v", pages))
    text = "Das Mehrzweckfahrzeug hat zusätzlich sechs Leitkegel und zwei Blitzleuchten an Bord."
    proposal = remember(vault, text)
    assert (proposal.decision, proposal.page) == ("merge-into", "fahrzeuge/mzf.md")
    assert "the text names its heading 'Mehrzweckfahrzeug'" in proposal.reason
    for text in (
        "The overview of the sprint board is in Jira.",
        "The instructions for the coffee machine are taped to it.",
    ):
        assert not [c for c in remember(vault, text).evidence if "names its heading" in c.why]


CONTACT = """---
title: Kontakt
---

Mastodon: [@FunkNetz](https://social.example.net/@funknetz)

### Chat

Matrix: [#funknetz:example.net](https://matrix.to/#/#funknetz:example.net)

### Presse

E-Mail: [presse@funknetz.example](mailto:presse@funknetz.example)

### Hilfe und Tickets

E-Mail: [hilfe@funknetz.example](mailto:hilfe@funknetz.example) / Web: [tickets.funknetz.example](https://tickets.funknetz.example)

### Daten

Von allen Besuchern werden Datum, Uhrzeit, die abgerufene Seite und der Browser gespeichert. Wir geben die Daten
nicht an Dritte weiter.
"""


def _club(root: Path) -> Path:
    return make_vault(
        root,
        {
            "kontakt.md": CONTACT,
            "spenden.md": "---\ntitle: Spenden\n---\n\nDer Verein ist gemeinnützig; Spenden sind steuerlich absetzbar. "
            "Für eine Spendenquittung schreib an kasse@funknetz.example mit deiner Anschrift.\n",
            "impressum.md": "---\ntitle: Impressum\n---\n\nFunkNetz e.V., Musterstraße 1, 80000 München. Vertreten "
            "durch den Vorstand.\n",
            "faq.md": "---\ntitle: FAQ\n---\n\n## Kostet das etwas?\n\nNein, das Netz ist frei und kostenlos.\n",
        },
    )


def test_a_memory_about_one_passage_of_a_page_about_more_lands_on_it(tmp_path: Path) -> None:
    # The page's evidence is under the bar (it is about chat, help, data too), but its press
    # passage is about what the memory says: the page, not a new page "Presseanfragen".
    vault = load_vault(_club(tmp_path / "v"))
    text = (
        "Presseanfragen bitte an vorstand@funknetz.example – das Postfach presse@funknetz.example wird nicht mehr"
        " gelesen."
    )
    proposal = remember(vault, text)
    assert proposal.decision in ("merge-into", "supersede") and proposal.page == "kontakt.md", proposal.reason
    assert "a passage of it is about this" in proposal.reason and "presse@funknetz.example" in proposal.reason


def test_a_new_thing_beside_a_page_about_more_is_a_page_of_its_own(tmp_path: Path) -> None:
    vault = load_vault(_club(tmp_path / "v"))
    proposal = remember(vault, "Für das Sommerfest im Juli brauchen wir noch zwei Grills und sechs Bierbänke.")
    assert proposal.decision == "add", proposal.reason


CAR = (
    "# Car\n\nOur car is a blue 2018 VW Golf estate.\n\n- Annual service at the VW garage on Station Road, usually"
    " in March.\n- MOT due every September.\n- Winter tyres are stored at the garage; changed over in late October.\n"
    "- Insurance with Admiral, renews on 3 February.\n"
)
MINKA = (
    "# Minka\n\n- Minka ist eine graue Tigerkatze, geboren 2019.\n- Tierarzt: Praxis am Park, Impfung jedes"
    " Frühjahr.\n- Sie bekommt morgens und abends Nassfutter.\n"
)


@pytest.mark.parametrize(
    ("page", "text", "passage"),
    [  # an attacker's: a thing of its own whose sentence is near a line of a page about another
        (CAR, "The campervan's winter tyres are stored at the garage too.", None),
        (MINKA, "Omas Katze Mohrle wird jedes Frühjahr in der Praxis am Park geimpft.", None),
        # a second attacker's: a name inside a longer word of the page ("maximum", "hundert"), a
        # compound whose head is the page's ("Ferienwohnung" beside "Wohnung"), another person's
        (MINKA + "- Futter: maximum zwei Dosen am Tag.\n", "Max is 3 years old and eats wet food twice a day.", None),
        (MINKA + "- Chip-Nummer: hundert und drei.\n", "Hund Bello ist 4 Jahre alt und frisst Nassfutter.", None),
        (
            "# Wohnung\n\n- Die Wohnung in der Isarstraße hat drei Zimmer.\n",
            "Die Ferienwohnung in Dänemark hat zwei Zimmer.",
            None,
        ),
        ("# Arbeit\n\n- Meine Vorgesetzte ist Frau Demir.\n", "Die Vorgesetzte von Jonas ist Frau Petersen.", None),
        (CAR, "The Golf's winter tyres go on at the garage in late October.", "Winter tyres are stored"),
        (MINKA, "Minka wird jedes Frühjahr in der Praxis am Park geimpft.", "Tierarzt: Praxis am Park"),
    ],
)
def test_a_passage_takes_a_text_only_on_a_page_naming_its_subject(
    tmp_path: Path, page: str, text: str, passage: str | None
) -> None:
    from curator.core.curate.repeats import passage_near
    from curator.core.curate.titling import title_for

    vault = load_vault(make_vault(tmp_path / "v", {"p.md": page}))
    found = passage_near(text, title_for(text), "p.md", vault)
    assert found is None if passage is None else passage in (found or ""), found


def test_a_quoted_passage_shows_no_escape_and_no_credential() -> None:
    from curator.core.curate.repeats import quoted

    assert quoted("Winter tyres \x1b[8mhidden\x1b[0m at the \u202egarage\u202c") == "Winter tyres hidden at the garage"
    assert "hunter2" not in quoted("The admin password is hunter2Xq9!zz for the garage locker")
    assert quoted("a" * 100, 60) == "a" * 57 + "..." and quoted("short line") == "short line"
