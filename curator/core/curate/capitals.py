"""The names a text gives in capitals inside a sentence, and whether a page names them: "Redis" for
"Postgres", "Anna Schmidt" beside Anna Müller's page. A page lacking one is about another thing,
however near its words or its meaning."""

from __future__ import annotations

import re

from curator.core.common.names import INVISIBLE
from curator.core.curate.facts import written_together
from curator.core.read.resolve import fold
from curator.core.read.titles import ENGLISH_WEEKDAYS
from curator.core.read.words import language_of

_INVISIBLE = re.compile(f"[\u00ad{INVISIBLE}]")  # a soft hyphen or a zero-width space inside a name
_CAPITALISED = re.compile(r"(?<![\w-])[A-ZÄÖÜ]\w*(?:-\w+)*")
_OPENERS = " (\"'«»„“”‘’[-–—:"  # what may stand between a word and a name after it: "vault (Bitwarden)"


def inner_capitals(text: str) -> list[str]:
    """The words of a text written with a capital inside a sentence (not its first word), after
    a space, a bracket, a colon, a quote or a dash; "Blue-Green" whole."""
    said = " ".join(_INVISIBLE.sub("", text).split())
    found = []
    for match in _CAPITALISED.finditer(said):
        before = said[: match.start()].rstrip(_OPENERS)
        if before and before[-1] not in ".!?":
            found.append(match.group(0))
    return found


def proper_names_held(text: str, page_text: str) -> bool:
    """Whether the page names every thing a text not in German names in capitals inside a
    sentence: "Redis" for "Postgres", "Bitwarden" for "1Password", "Blue-Green" for a page's "green
    ... blue" (German capitalises every noun; a text of capitals alone is in no language told)."""
    if language_of(text) == "de":
        return True
    folded = fold(page_text)
    names = [name for name in inner_capitals(text) if not _names_no_thing(name)]
    return all(written_together(fold(name).split("-"), folded) for name in names)


# Capitals that name a kind of thing, not one thing ("the web UI", "256 GB", "PDFs"), and "I": the
# page may say them otherwise ("interface", "the dump"), where a repeat in other words is no news.
_KINDS_IN_CAPITALS = frozenset("i ui gui api db pc pdf led gb mb kb tb os vm id url faq".split())
_WEEKDAYS = frozenset(ENGLISH_WEEKDAYS)  # a weekday names no thing (the repeat check's "day" slot compares them)


def _names_no_thing(name: str) -> bool:
    """Whether a capitalised word is a kind of thing, a weekday or "I"."""
    word = fold(name)
    word = word[:-1] if name[:-1].isupper() and name.endswith("s") else word  # "PCs", "LEDs"
    return word in _KINDS_IN_CAPITALS or word in _WEEKDAYS
