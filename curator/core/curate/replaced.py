"""The value a change says it replaces, and the page sentence that gives it.

"Prometheus scrapt jetzt alle 15 Sekunden statt alle 30", "nicht mehr Karlstraße 43", "raised from
10 GB": the words after "instead of", "statt", "no longer" or "raised from" name the old value
(`old_values`). A number of it (`replaced_numbers`) or a name (`replaced_names`) that a sentence of
a page gives tells the page a change goes to (`states_replaced`, `agreement.replacing_pages`) and
the sentence it strikes (`update.old_statement`); a value of now where a sentence gives another of
its kind changes a fact too (`sets_value_anew`).
"""

from __future__ import annotations

import itertools
import re
from typing import NamedTuple

from curator.core.curate.facts import (
    CHOICE,
    EDGES,
    FOR_A_WHILE,
    MORE,
    NOW,
    ONE_TIME,
    PROBLEM,
    SAME,
    SENTENCE,
    SPECIFIC,
    STOP,
    content,
    happened_once,
    measured,
    no_change,
    value_slots,
    values_of,
)
from curator.core.read.resolve import fold

# What the text says the old value was: "instead of 03:00", "statt auf huextertor", "nicht mehr bei
# LWLcom", "raised from 10 GB", "it used to be €5", "von 19 auf 22" (a span, "von 8 bis 23", is none;
# nor a contrast, "VLAN 30, not 10", but beside "now": "now 95%, not 92%"; nor a comparison,
# "nicht mehr als 4", "no longer than 10 minutes").
OLD_VALUE = re.compile(
    r"(?i)\b(?:instead of|rather than|(?:an)?statt|anstelle von|no longer|not any ?more|nicht mehr|"
    r"(?:raised|lowered|increased|reduced|bumped|moved|changed|switched|migrated|upgraded|updated|up|down) from|"
    r"previously|formerly|used to be|vorher|zuvor|bisher|früher|von(?=\s+\S*\d\S*\s+auf\s)|"
    r"replac(?:ed|es)(?!\s+by)|ersetzt(?!\s+durch)|(?<=, )(?P<contrast>not|nicht)(?=\s+\S*\d))\s+"
    r"(?P<value>(?:[^\s,;!?()]+[ \t]+){0,3}[^\s,;!?()]+)"
)
_COMPARED = re.compile(r"(?i)\b(?:als|than)\b")
_DIGITS = re.compile(r"\+?\d+")
_FILLER = STOP | frozenset(  # "statt um 03:00", "up from the old 20/70"
    "auf im bei über uns our just only nur mehr more longer in at on to from use uses used alle all every jede jeden "
    "bisher noch etwa ca about around approx um bis ab seit zu old alte alten alter altes former previous".split()
)
# A heading of how things were: a value in its section is the past, no statement a change replaces.
_PAST = re.compile(
    r"(?i)\b(?:old|older|previous|former|history|alte\w*|verlauf|chronik|changelog|früher\w*|bisherig\w*|veraltet\w*|"
    r"archiv\w*)\b"
)
_HEADING = re.compile(r"(#{1,6})[ \t]")
# In a name too ("v2.9", "M365"): both sides read alike; a range is one value ("10–15 reps" gives
# no 10; "statt auf udp/10000–10099" names that range).
DASH = "–—‒−"  # the dashes of a range: "10–15", "10 – 15"
_NUMBER = re.compile(rf"(?<![\d.,:])\d+(?:[.:,]\d+)*(?: ?[{DASH}] ?\d+(?:[.:,]\d+)*)?(?!\d)")


class OldValue(NamedTuple):
    said: str  # the words that say it is old, folded: "instead of", "nicht mehr"
    word: str  # its first word that is no filler, as written
    words: str  # it and the words after it, to the clause's end


def old_values(text: str) -> set[str]:
    """The old value after each "instead of", "statt", "raised from" ...: the first word there that
    is no filler ("statt auf huextertor"); after "no longer" or "nicht mehr", which a verb or an
    adjective follows ("no longer writes to nas01", "no longer manual"), the first that names a
    thing (a number, a name with a digit or a sign, a capitalised word) before the clause ends; none
    in what happened once ("Last night the backup ran at 05:00 instead of 02:00")."""
    return {old.word.casefold() for old in said_old(text)}


def said_old(text: str) -> list[OldValue]:
    """Each old value of `old_values`, with the words that say it is old and the words it runs on to."""
    found: list[OldValue] = []
    if happened_once(text):
        return found
    for match in OLD_VALUE.finditer(text):
        if _COMPARED.search(match.group("value")) or (match.group("contrast") and not NOW.search(text)):
            continue  # a comparison; a contrast (", not 10") names an old value only beside "now"
        naming = re.match(r"(?i)no|not|nicht", match.group(0)) is not None
        said = match.group(0)[: match.start("value") - match.start()].strip().casefold()
        words = match.group("value").split()
        for at, raw in enumerate(words):
            word = raw.strip(EDGES + "~≈")
            if word and word.casefold() not in _FILLER and (not naming or SPECIFIC.search(word) or word[:1].isupper()):
                # A phone number in groups is one value: "+49 30 1234 5678", not "+49" ("8080 8443" are two ports).
                groups = list(itertools.takewhile(_DIGITS.fullmatch, (w.rstrip(".:") for w in words[at:])))
                if raw.rstrip(".:") == word and (len(groups) > 2 or (len(groups) == 2 and word[0] in "+0")):
                    word = " ".join(groups)
                found.append(OldValue(said, word, " ".join(words[at:])))
                break
            if raw.endswith((":", ";", ",", ".")):  # the clause ends
                break
    return found


def _numbers(text: str) -> set[str]:
    return {_as_one(number) for number in _NUMBER.findall(text)}


def _as_one(number: str) -> str:
    """A number as both sides are compared: its decimal mark a point, a range's dash one dash."""
    return re.sub(rf" ?[{DASH}] ?", "–", number.replace(",", "."))


def replaced_numbers(text: str) -> set[str]:
    """The numbers of the values the text says it replaces (`old_values`), their decimal mark a
    point; not one the text gives again ("raised from 60 to 300; the primary keeps 60")."""
    given = [_as_one(number) for number in _NUMBER.findall(text)]
    found = {number for value in old_values(text) for number in _numbers(value)}
    return {number for number in found if given.count(number) == 1}


def replaced_names(text: str) -> set[str]:
    """The values the text says it replaces that name a thing rather than count it, folded: "nicht
    mehr Karlstraße 43", "statt auf /mnt/nvme/share", "no longer in ca-toronto-1", "replaced CS:GO".
    A name is written with a capital, a digit or a sign ("instead of only the public endpoints",
    "rather than before it" name nothing); after "instead of" only with a change said ("jetzt ...
    statt": "updated by its supervisor rather than Renovate" is a choice); none said again ("from
    Codex 5.3 to gpt-5.4-codex"), nor in a text of one more thing ("now also", "too") or of a while."""
    if MORE.search(text) or ONE_TIME.search(text) or FOR_A_WHILE.search(text):
        return set()
    changed, folded = NOW.search(text) is not None, fold(text)
    names = set()
    for old in said_old(text):
        value = fold(old.word)
        if (changed or not CHOICE.fullmatch(old.said)) and len(value) >= 3 and any(c.isalpha() for c in value):
            named = SPECIFIC.search(old.word) or old.word[:1].isupper()
            if named and value not in _FILLER and len(whole_word(value).findall(folded)) == 1:
                names.add(value)
    return names


def _current(page_text: str) -> str:
    """The page without its sections of how things were, each to the next heading of its level or
    above (its subsections too)."""
    kept, past = [], 0  # the level of the past section we are in; 0: none
    for line in page_text.splitlines():
        if heading := _HEADING.match(line):
            level = len(heading[1])
            if past and level > past:
                continue
            past = level if _PAST.search(line) else 0
        if not past:
            kept.append(line)
    return "\n".join(kept)


def _units(text: str) -> dict[str, str]:
    """Each number the text gives with a unit, and its unit's family."""
    return dict(value.split(" ", 1) for value in measured(text))


def whole_word(word: str) -> re.Pattern[str]:
    """The word standing whole: no letter or digit just before or after it."""
    return re.compile(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])")


def states_replaced(text: str, page_text: str) -> int:
    """How many words of the text the page's sentence giving a value the text says it replaces
    shares with it, at most (0: none does): a number ("statt 30"), or a name ("nicht mehr Karlstraße
    43" beside "Karlstraße 43, 08523 Plauen"), in a sentence about the text's thing (a word of it in
    common but the old value's own: "instead of Priya Shah" is no sentence about Priya Shah), and the
    text gives a value the sentence lacks; never in a section of how things were."""
    old, names = replaced_numbers(text), replaced_names(text)
    if not old and not names:
        return 0
    given = _numbers(text) - old
    words = content(text)
    new_words = words - {word for value in said_old(text) for word in content(value.words)}
    # A number given with a unit is that number in the unit's family: "30 seconds" is no "30 minutes"
    # (a number the page gives with no unit it reads may be it: "20,-- €").
    units = _units(text)
    most = 0
    for sentence in SENTENCE.split(_current(page_text)):
        own = content(sentence)
        numbers = _numbers(sentence) - {n for n, unit in _units(sentence).items() if units.get(n, unit) != unit}
        number = bool(old & numbers and given - numbers and words & own)
        name = any(whole_word(name).search(fold(sentence)) for name in names) and new_words & own and new_words - own
        if number or name:
            most = max(most, len(words & own))
    return most


def sets_value_anew(text: str, page_text: str) -> bool:
    """Whether the text gives a value of now ("now", "jetzt", "nur noch") where a sentence of the
    page gives another of the same kind in the same place: "5 %" for "10 %", "1.4.0" for "1.3.2",
    "18:00" for "19:00", a path for a path, with a word of the thing around both ("5% of a
    Service's scrape targets", "10% of scrape targets"; not "sends a report at 07:00" against
    "starts at 19:00"). An incident's numbers tell what happened; one more of a thing, or a value
    as before, changes nothing."""
    if re.search(PROBLEM, fold(text)) or no_change(text):
        return False
    if states_replaced(text, page_text):  # "statt 30": the old value named, whatever else stays as it was
        return True
    if not NOW.search(text) or MORE.search(text) or SAME.search(text):
        return False
    slots, page = value_slots(text), values_of(page_text)
    said = {value for value, _, _ in slots}
    new = [(shape, around) for value, shape, around in slots if value not in page]
    if not new:
        return False
    words = content(text)
    for sentence in SENTENCE.split(page_text):
        shared = words & content(sentence)
        if not shared:
            continue
        for value, shape, around in value_slots(sentence):
            if value in said:
                continue
            # A bare number is any count: it needs two words of the thing to be the same value's.
            if any(shape == s and around & a and (shape != "0" or len(shared) >= 2) for s, a in new):
                return True
    return False
