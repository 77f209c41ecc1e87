"""Minted titles name a thing: each agent sentence of `title_cases` gets a title a person accepts."""

from __future__ import annotations

import pytest
from title_cases import TITLE_CASES

from curator.core.curate.titling import title_for
from curator.core.read.titles import find_date


@pytest.mark.parametrize(("text", "accepted"), TITLE_CASES, ids=[t[:40] for t, _ in TITLE_CASES])
def test_a_minted_title_is_a_noun_phrase_from_the_text(text: str, accepted: set[str]) -> None:
    title = title_for(text)
    assert title.casefold() in {a.casefold() for a in accepted}, title
    assert find_date(title) is None


def test_the_list_is_long_enough_in_both_languages() -> None:
    german = [t for t, _ in TITLE_CASES if any(w in t.split() for w in ("der", "die", "das", "Der", "Die", "Das"))]
    assert len(TITLE_CASES) >= 40 and len(german) >= 10


def test_every_date_goes_in_one_pass_and_as_before() -> None:
    from curator.core.read.titles import without_dates

    text = "Ticket 4711 vom 29.07.2026: Zertifikat abgelaufen, again on 2026-08-01."
    assert without_dates(text) == "Ticket 4711  : Zertifikat abgelaufen, again  ."
    assert "2026" not in without_dates("the cache on 2026-11-02 was a miss. " * 2000)


@pytest.mark.parametrize(
    ("title", "log"),
    [  # an attacker's week's and month's logs took memories a day's log would not
        ("2026-03-03", True),
        ("2026-03-04 Tuesday", True),
        ("2025-W23", True),
        ("2025-06 monthly", True),
        ("2024-12 Budget", False),
        ("Release 2025-06", False),
        ("v2025-06", False),
    ],
)
def test_a_title_of_a_date_alone_names_a_days_weeks_or_months_log(title: str, log: bool) -> None:
    from curator.core.read.titles import names_a_day

    assert names_a_day(title) is log


def test_a_rule_names_its_thing_only_where_one_follows_its_bidding() -> None:
    """An attacker's: past "Don't"/"Always"/"Nie", a small word was taken for the thing ("When",
    "Why", "Out", "As root", "Within", "Als", "Force", "Vergessen"), a name lost its first word
    ("Starve server", "Sunny"), and a code span's backticks went into a file name."""
    cases = {
        "Don't panic when the build fails.": "When",
        "Don't know why the printer jams.": "Why",
        "Always log out of the admin panel.": "Out",
        "Never ssh as root.": "As root",
        "Always reply within 24 hours to customers.": "Within",
        "Nie mehr als 3 Retries einstellen.": "Als",
        "Never push --force to main.": "Force",
        "Nicht vergessen, die Heizung abzustellen.": "Vergessen",
        "Don't Starve server needs a restart every week.": "Starve server",
        "Always Sunny is the show we quote most.": "Sunny",
    }
    for text, worse in cases.items():
        assert title_for(text) != worse, text
    assert title_for("Always `make lint` before committing.") == "Make lint"
