"""Whether a memory says a page's fact again, or changes it.

A change says so in words ("no longer", "replaced by", "raised from", "nicht mehr", "umgezogen"),
or it sets anew a value the page states: "TargetDown now triggers at 5% of a Service's targets"
against the page's "It fires when at least 10% of scrape targets are unreachable" (the same
thing, a value of the same kind, another value). A fact said again holds the page's every name
and number.
"""

from __future__ import annotations

import itertools
import re

from curator.core.curate.titlecover import phrase
from curator.core.read.resolve import fold
from curator.core.read.titles import find_date, is_eventish, opens_with_occasion
from curator.core.read.words import WORD

CHANGED = re.compile(
    r"(?i)\b(no longer|not anymore|any ?more|replaced by|replaces|deprecated|superseded|"
    r"has changed|changed to|changed(?=:)|moved to|(?<!we )(?<!wir )now (?:uses?|runs?|is|are|renews?|happens?|lives?)|"
    r"new (?:id|ip|ip address|address|url|port|path|host|owner|location) (?:is|ist|lautet)|"
    r"correction(?=:)|korrektur(?=:)|nicht mehr|ersetzt|"
    # a role or a thing handed on, a value said with the old one beside it ("now costs £0.015 (was £0.012)")
    r"stepped (?:down|back)|ausgemustert|an (?:seiner|ihrer|dessen|deren) Stelle|"
    r"(?<=\()(?:was|vorher|bisher|früher|previously|formerly) [^\s)\d]{0,3}\d[^\s)]*(?: [^\s)\d]+)?(?=\))|"
    r"(?<!we )(?<!wir )now (?:costs?|connects?)|"
    r"(?:heißt|heißen|kostet|kosten|beträgt) (?:\S+ )?jetzt|jetzt (?:heißt|kostet|beträgt)|"
    r"swapped (?:out )?(?:the|our|my) \S+(?: \S+){0,3} for)\b"
)
# "instead of" says a fact changed, or, in an incident, how it was fixed ("the fix was to set the
# npm prefix instead of using sudo"): a change only when the text tells no incident. So does a
# value set anew ("bumped to v1.5", "raised from 10 GB", "von 15 auf 30 Tage erhöht").
SET_ANEW = re.compile(
    r"(?i)\b(instead of|statt|(?:bumped|upgraded|raised|increased|lowered|reduced|switched|migrated) "
    r"(?:to|from)|erhöht|gesenkt|umgezogen|umgestellt|gewechselt|hochgesetzt|heraufgesetzt|herabgesetzt|angehoben|"
    r"shortened|lengthened|(?:dropped|removed) from|t(?:akes|ook) (?:its|their) place)\b"
)
# The same said with words between the verb and its value: "Raised the query log retention to 30
# days", "PBS auf 4.2 aktualisiert". In a text that tells an event ("Ticket OPS-219: ... we bumped
# maxPods to 150 and restarted kubelet") it is what was done to fix it.
_SET_FAR = re.compile(
    r"(?i)\b(?:(?:raised|increased|lowered|reduced|bumped|upgraded|moved|changed|set|extended)\s+"
    r"(?:[\w'.-]+\s+){1,6}?(?:to|from)\s+[^\s\d]{0,3}\d+|"
    r"auf\s+[^\s\d]{0,3}\d\S*(?:\s+\S+){0,2}?\s+(?:aktualisiert|geändert|gesetzt|reduziert|verkürzt|verlängert|verlegt))\b"
)
PROBLEM = (
    r"\b(?:outage|incident|error|fail|fails|failed|failure|expired|broke|broken|down|bug|died|crash\w*|"
    r"timed out|could not|couldn't|ran out|abgelaufen|störung|vorfall|fehler|ausfall|ausgefallen|voll)\b"
)
_ONLY_NOW = re.compile(r"(?i)\b(now only|nur noch)\b")
# A thing that no longer starts, boots or answers failed: an incident, no fact changed ("no longer
# runs on monitor-01" may be one).
_STOPPED = re.compile(
    r"(?i)\b(?:(?:no longer|not any ?more|nicht mehr)\s+(?:\w+\s+){0,2}?(?:start\w*|gestartet|boot\w*|"
    r"hochgefahren|respond\w*|geantwortet|load\w*|geladen|reachable|erreichbar|ansprechbar|verfügbar)|"
    r"(?:startete?|bootete?|antwortete?|lädt|lud|lief|läuft|funktionierte?|ging|geht)\s+(?:\S+\s+){0,8}?nicht mehr)\b"
)
_INSTEAD = re.compile(r"(?i)\b(sondern|stattdessen|instead|jetzt|now)\b")  # "nicht mehr unter X, sondern unter Y"
# Words that say a value holds from now on ("for now" says it may not); a second or another thing
# is one more, not a new value.
NOW = re.compile(
    r"(?i)\b((?<!for )now|jetzt|nun|inzwischen|mittlerweile|nur noch|ab sofort|from now on|korrektur|correction|"
    r"angehoben|verlängert|verkürzt)\b"
)
# "too" at a clause's end is "also" ("the staging box, too"); before a word it is a measure ("too slow").
MORE = re.compile(
    r"(?i)\b(second|another|additional(?:ly)?|in addition|besides|extra|also|too(?=\s*(?:[.,;:!?)]|$))|as well|"
    r"zweite[nrms]?|weitere[nrms]?|zusätzlich\w*|außerdem|auch)\b"
)
# A fact said as it was ("as before", "nothing has changed") changes nothing; a value "still" so is
# none set anew ("all widgets still load" says nothing of the version a text bumps).
_AS_BEFORE = re.compile(r"(?i)\b(as before|unchanged|nothing (?:has )?changed|wie bisher|unverändert)\b")
# A fact said not to have changed yet, when no "now" says what changed besides ("now kept 30 days
# instead of 14; the prune job has not yet run" changes a fact).
_NOT_YET = re.compile(r"(?i)\b(still not|not yet|noch nicht|immer noch nicht|noch immer nicht)\b")
SAME = re.compile(
    r"(?i)\b(as before|still|unchanged|wie bisher|weiterhin|nach wie vor|unverändert|noch immer|immer noch)\b"
)
# "n t" is "n't" as `phrase` spells it ("doesn t").
_NEGATION = re.compile(r"(?i)n['’ ]t\b|\b(cannot|not|no|never|none|nothing|nicht|kein\w*|nie|niemals|nichts)\b")
# Units of one measure, each group one family ("20 min" is no "20 GB"; "26 Grad" is "26 °C").
_UNIT_FAMILIES = (
    "ms|s sec secs second seconds sekunde sekunden|min mins minute minutes minuten|h hr hrs hour hours stunde "
    "stunden|d day days tag tage tagen|woche wochen week weeks|monat monate month months|jahr jahre year years|"
    "gb gib|mb mib|tb tib|kb kib|bit bits|byte bytes|rpm|rps|qps|%|mm|cm|km|x mal|lts|eur €|px|"
    "cores kerne vcpu vcpus cpus threads|grad celsius|kg kilo kilogramm|lb lbs pound pounds pfund|watt|volt|"
    "meter metre meters|liter litre liters"
)
_UNIT_OF = {unit: family.split()[0] for family in _UNIT_FAMILIES.split("|") for unit in family.split()}
UNITS = frozenset(_UNIT_OF)
# A value: a number with its unit ("10 %", "300ms", "1.3.2", "19:00"), or a path.
_VALUE = re.compile(r"(?<![\w.-])(\d+(?:[.:,]\d+)*)(?:\s?([%€]|[^\W\d_]{1,11}\b))?|(?<!\w)(/[\w.-]+(?:/[\w.-]+)+)")
SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")  # where a sentence or a line ends
STOP = frozenset(  # words that say nothing of what a text is about
    "a an the and or of on in at to for from by with is are was were be been it its this that these those as "
    "der die das und oder von vom zum zur im am an auf mit für ist sind war ein eine den dem des bei nach aus".split()
)
_NOT_THING = STOP | {"now", "jetzt", "nun", "noch", "nur"}
# A word that names one thing: with a digit, a camel hump or a sign inside (10.0.40.50, zone=dev,
# pve-02, vCPU, smtp.gmail.com:587); a hyphen alone makes a compound ("systemd-Dienst"), not a name.
SPECIFIC = re.compile(r"\d|[a-z][A-Z]|\w[_.:=/@]\w")
EDGES = "()[]{}<>\"'`,;.:!?-/|*"  # what a word carries that is no part of it


# A statement said to be out of date ("die Angabe von 128 GB pro Modul ist veraltet"): not a thing
# that is ("the Caddy docs are outdated", "thumbnails are out of date when ...").
_SAID_OUTDATED = re.compile(
    r"(?i)\b(?:die |the )?(?:angabe|information|info|eintrag|hinweis|wert|zahl|statement|entry|figure|value|number)\b"
    r"(?:(?!\b(?:if|when|whenever|wenn|falls|sobald|ob)\b)[^.;:!?,]){0,60}?\b(?:is|are|ist|sind)\s+"
    r"(?:veraltet|überholt|outdated|obsolete|out of date)\b"
)


# What marks a dated text as one time, not a rule from that day on: it went wrong, again, for a
# while (not a reason: "because" comes with lasting changes too).
# A change for a while is no fact changed ("right now, during the maintenance", "jetzt im Winter").
FOR_A_WHILE = re.compile(r"(?i)\b(?:right now|during|während|im (?:winter|sommer)|in (?:winter|summer))\b")
# "instead of" with one more thing, for a while, under a condition or bidding is a choice, no change
# ("now also checks X instead of only Y", "bei Kaufland statt bei Hoffmann, wenn es Angebote gibt",
# "Use staging-eu-1 instead of prod-eu-1 for load tests").
_CHOICE_ONLY = re.compile(
    r"(?i)\b(?:if|when|unless|wenn|falls|sofern)\b|"
    r"\b(?:also|too|auch|zusätzlich)\b.*\b(?:instead of|statt)\s+(?:only|just|nur|lediglich|bloß)\b|"
    r"^(?:please\s+|bitte\s+)?(?:use|prefer|try|pick|choose|take|nimm|nutze|verwende|benutze)\b"
)
CHOICE = re.compile(r"instead of|rather than|(?:an)?statt|anstelle von")  # a choice as often as a change (folded)
# A comparison after "nicht mehr", "no longer": "als 4", "than 10 minutes"; not ", als neuer Termin".
_COMPARED = re.compile(r"(?i)\s*(?:(?!rather\b)[^\s,;]+\s+){0,3}?(?:als|than)\b")
ONE_TIME = re.compile(
    r"(?i)\b(again|wieder|erneut|for the rest of|temporarily|vorübergehend|for now|lost|verloren|for (?:one|the)"
    r" night|for a day|für eine nacht|für einen tag|über nacht|this once|ausnahmsweise|einmalig|one-off)\b"
)
# A SET verb names a lasting change ("instead of" or "nicht mehr" alone may tell an event).
_SET = re.compile(
    r"(?i)\b(raised|lowered|increased|reduced|bumped|upgraded|downgraded|switched|migrated|moved|changed|extended|"
    r"shortened|renamed|replaced|erhöht|gesenkt|umgestellt|gewechselt|umgezogen|hochgesetzt|heraufgesetzt|"
    r"herabgesetzt|angehoben|verlegt|verlängert|verkürzt|geändert|aktualisiert|ersetzt|umbenannt)\b"
)


def no_change(text: str) -> bool:
    """A fact said as it was (unless another value is said replaced besides: "now runs at 01:30
    instead of 03:00, the retention is unchanged"), or not yet changed with no "now" besides, or
    what happened once."""
    as_before = _AS_BEFORE.search(text) and not _REPLACED.search(text)
    return bool(as_before or (_NOT_YET.search(text) and not NOW.search(text)) or happened_once(text))


_REPLACED = re.compile(r"(?i)\b(instead of|statt|no longer|nicht mehr)\b")


# A state not reached or a wait that goes on: "still not deployed", "still pending", "not yet
# tested", "wartet weiterhin auf", "hängt weiterhin an", "ist immer noch nicht getestet". Not "still"
# alone ("the filter still needs cleaning", "still water", "angenehm still"), "still open on
# Sundays", nor "not yet 18".
_GOES_ON = re.compile(
    r"(?i)\b(?:still|immer noch|noch immer|weiterhin|nach wie vor)\s+(?:not|nicht|pending|waiting|"
    r"ausstehend|unresolved|blocked|parked|down|offline|broken|kaputt|defekt|unreachable|in progress)\b|"
    r"\bnot yet\s+(?:been\s+)?[a-z]+(?:ed|en)\b|"
    r"\bnoch nicht\s+(?:\w+\s+)?(?:(?:ab|an|auf|aus|bei|ein|fest|frei|mit|nach|um|vor|zu|zurück|fertig)?"
    r"ge\w+(?:t|en)|\w+iert)\b|"  # "gelöst", "eingetragen", "aufgesetzt", "installiert"
    r"\b(?:wartet|warten|hängt|hängen)\s+(?:\S+\s+){0,4}?(?:weiterhin|immer noch|noch immer|nach wie vor)\b|"
    r"\bstill waiting\b"
)


# A text opening on a new thing ("Unser neuer Hund Bello ...", "A new printer ...") tells of it,
# whatever state it is in ("... noch nicht angemeldet"): no status of a thing someone knows of.
_NEW_THING = re.compile(r"(?i)^\W*(?:\w+\s+){0,2}(?:new|neue[rsnm]?)\b")


def goes_on(text: str) -> bool:
    """Whether the text says a state not reached or a wait goes on (`_GOES_ON`) and no change: a
    status of a thing someone knows of, never a page's first words."""
    return bool(_GOES_ON.search(text) and not says_change(text) and not _NEW_THING.search(text))


def happened_once(text: str) -> bool:
    """Whether the text tells of something that happened once: it opens with the day, the ticket
    or the night of it (`opens_with_occasion`), and says no change that holds from then on ("now",
    "raised to", "umgestellt": "Last night the backup ran at 05:00 instead of 02:00") unless it also
    says what went wrong, again or for a while ("wieder auf 'Completed' statt 'Online' gelandet",
    "switched to LTE for the rest of the day"). What such a text says instead of what is the event,
    no changed fact; "2026-03-01: cache-duration auf 48h hochgesetzt, weil ..." stays a change."""
    if not opens_with_occasion(text):
        return False
    lasting = NOW.search(text) or _SET.search(text) or _SET_FAR.search(text)
    return not lasting or bool(re.search(PROBLEM, fold(text)) or ONE_TIME.search(text))


def says_change(text: str) -> re.Match[str] | bool:
    """Whether the text says in words that a fact changed: the words of CHANGED that say so (a page
    that says them already may be what they name), or True for a value set anew. What "now" does
    besides ("now runs a second job", "now also runs") is one more thing, no change; nor is a
    change said not to be ("was not replaced by") or a fact as before, nor what happened once
    ("04.04.2026: ... statt 'Online' gelandet", `happened_once`)."""
    if no_change(text):  # "wie bisher", "noch nicht"; an event
        return False
    found = CHANGED.search(text)
    if found and found.group(0).casefold().startswith("now") and MORE.search(text):
        found = None
    if found and re.fullmatch(r"(?i)no longer|nicht mehr", found.group(0)) and _COMPARED.match(text, found.end()):
        found = None  # "ist nicht mehr Vorsitzender als ...", "no longer than 10 minutes": a comparison
    if found and _NEGATION.search(text[max(found.start() - 12, 0) : found.start()]):  # "was not replaced by"
        found = None
    if found and _STOPPED.search(text) and not _INSTEAD.search(text):  # "ist ... nicht mehr gestartet": a failure
        found = None
    if found and is_eventish(text) and re.search(PROBLEM, fold(text)):  # "INC-0142: ... failed; no longer saw"
        found = None
    outdated = None if found else _SAID_OUTDATED.search(text)
    if outdated and not _NEGATION.search(text[max(outdated.start() - 12, 0) : outdated.end()]):  # "not every value"
        found = outdated
    if found:
        return found
    # "erscheinen nur noch halbjährlich" narrows a rule; "dauert nur noch vier Minuten" gives a
    # value, which changes a fact only where the page gives another (`sets_value_anew`).
    narrowed = _ONLY_NOW.search(text) and not _measures(text)
    far = _SET_FAR.search(text) and not is_eventish(text)
    anew = SET_ANEW.search(text)
    if anew and CHOICE.fullmatch(anew.group(0).casefold()) and _choice(text):
        anew = None
    return bool((anew or far or narrowed) and not re.search(PROBLEM, fold(text)))


def _choice(text: str) -> bool:
    """Whether "instead of" in the text tells a choice rather than a change (`_CHOICE_ONLY`)."""
    return bool(ONE_TIME.search(text) or FOR_A_WHILE.search(text) or _CHOICE_ONLY.search(text))


def value_slots(text: str) -> list[tuple[str, str, set[str]]]:
    """Each value of the text: (the value, its shape, the words of the thing around it: two on either side)."""
    found = []
    for match in _VALUE.finditer(text):
        # A few words' reach either side: a page of one 40,000-word line has thousands of values.
        before = _content_words(text[max(match.start() - 100, 0) : match.start()])[-2:]
        after = _content_words(text[match.end() : match.end() + 100])[:2]
        value = _value(match)
        found.append((value, _shape(value), set(before + after)))
    return found


def negated(text: str) -> bool:
    """Whether the text says "not" (no, never, nicht, kein, n't)."""
    return bool(_NEGATION.search(text))


def specifics_held(text: str, page_text: str) -> bool:
    """Whether the page holds the text's every name and number, three or more, and most of its
    other words: a fact said again."""
    said = names_in(text)
    plain = {fold(w) for w in WORD.findall(text) if len(w) >= 3 and fold(w) not in STOP} - said
    return restated(text, page_text) and len(said) >= 3 and len(plain & _page_words(page_text)) * 2 >= len(plain)


_NEW = re.compile(r"(?i)\b(?:new|neu|neue[nrms]?|added|hinzugefügt)\b")  # "ist neu in der Strichliste"


def restated(text: str, page_text: str) -> bool:
    """Whether the text may say again what the page says: it tells no event (a text dated otherwise
    than the page is new whatever it names), nothing new or of now (a value of now may be one the
    page gives elsewhere), no failure and no "not" the page lacks, and every name and number of it
    is on the page."""
    date = find_date(text)
    if (date is not None and date.group(0) not in page_text) or NOW.search(text) or _NEW.search(text):
        return False
    if (negated(text) and not negated(page_text)) or re.search(PROBLEM, fold(text)):  # "does not take", "failed"
        return False
    if not measured(text) <= measured(page_text):
        return False  # a number with another unit's family ("20 TB" beside "20gb")
    page = _page_words(page_text) | _glued_numbers(text, page_text)
    folded = fold(page_text)
    return all(_held(word, page, folded) for word in _words(text) if is_name(word))


def _glued_numbers(text: str, page_text: str) -> set[str]:
    """The page's numbers glued to a unit or a sign ("64gb", "500mm×300mm", "8.330€", "26C") that
    the text gives with a unit or a sign: "64 GB" and "26 °C" are the page's, "64 containers" is not."""
    with_unit = [number for number, unit, _ in _VALUE.findall(text) if unit.lower() in UNITS]
    given = {number.replace(",", ".") for number in with_unit + _SIGNED.findall(text)}
    return {number for number in _GLUED_NUMBER.findall(page_text) if number.replace(",", ".") in given}


_ABBREVIATION = re.compile(r"(?:[^\W\d_]\.)+[^\W\d_]")  # "e.g", "i.e", "z.B", "d.h": no name
_HOST_PORT = re.compile(r"([\w.-]*[^\W\d_][\w.-]*):(\d{1,5})")  # a host and its port, not a time "02:00"
_PORT_AFTER = re.compile(r"(?<![\w.])\d{1,5}(?![\w.]\d)")
_SIGNED = re.compile(r"(?<![\w.,:-])(\d+(?:[.,]\d+)*)\s?[%€$£°×]")
_GLUED_NUMBER = re.compile(r"(?<![\w.,:-])(\d+(?:[.,]\d+)*)(?=[^\W\d_]|[%€$£°×])")
_BY = re.compile(r"(\d+(?:[.,]\d+)?)[x×](\d+(?:[.,]\d+)?)")  # "80x16": each side a number the page gives
_GLUED = re.compile(r"(\d+(?:[.,]\d+)?)(?:-?([^\W\d_]+)|×)")  # "26-hour", "24-month", "2×": a number and its unit


def _held(word: str, page: set[str], folded: str) -> bool:
    """Whether the page (its folded words; `folded`, its folded text) names what the name `word`
    names: itself, its German compound's name, each of the things a slash joins ("Kodi/XBMC",
    "80/443"), a number glued to its unit ("26-hour" as "26 Stunden"), a decimal written with the
    other mark ("20.5", "20,5"), words joined by hyphens written apart or joined ("DevOps-Vault" as
    "DevOps vault", "Node-RED" as "Nodered"), a host and the port the page gives next after it
    ("smtp.gmail.com:587" where a runbook gives server and port as two fields)."""
    if _compound_name(word) <= page or _ABBREVIATION.fullmatch(word):
        return True
    if {word.casefold().replace(",", "."), word.casefold().replace(".", ",")} & page:
        return True
    if (glued := _GLUED.fullmatch(word)) and (glued.group(2) is None or fold(glued.group(2)) in UNITS):
        return _held(glued.group(1), page, folded)
    if sides := _BY.fullmatch(word):
        return all(_held(side, page, folded) for side in sides.groups())
    if re.search(rf"(?<![\w.-]){re.escape(fold(word))}(?![\w-]|\.\w)", folded):
        return True  # within a longer token: "TL-WR841*", a host in a URL ("https://cert.example.org/x")
    words = [fold(part) for part in word.split("-")]
    if len(words) > 1 and all(w.isalnum() and len(w) >= 2 for w in words):
        return written_together(words, folded)  # "i5-9500" as "i5 9500"
    if address := _HOST_PORT.fullmatch(word):  # the first number after the host is its port
        host, port = fold(address.group(1)), address.group(2)
        after_host = (folded[m.end() : m.end() + 80] for m in re.finditer(re.escape(host), folded))
        return any((n := _PORT_AFTER.search(window)) is not None and n.group(0) == port for window in after_host)
    parts = [part for part in word.split("/") if part]
    return len(parts) > 1 and all(_held(part, page, folded) if is_name(part) else fold(part) in page for part in parts)


def written_together(words: list[str], folded: str) -> bool:
    """Whether the folded text has the folded `words` one after the other, apart, hyphenated or
    joined ("devops vault", "node-red", "nodered")."""
    return re.search(r"\b" + r"[\s_-]*".join(map(re.escape, words)) + r"\b", folded) is not None


def _page_words(page_text: str) -> set[str]:
    """The page's words, folded, both as written between spaces and as letters (a number as
    written between spaces: "20", "192.168.1.20", not a part of either)."""
    words = {fold(w) for w in WORD.findall(page_text) if not w.isdigit()}  # not "20" of "192.168.1.20" or a date
    return names_in(page_text, every=True) | words


def _compound_name(word: str) -> set[str]:
    """What a name says, folded: itself, or of a German compound of a name and nouns only that name
    ("5-Minuten-Kerzen" says "5" as "5-minute candles" does, "S3-Bucket" "s3"; "dev-node-01" itself)."""
    parts = word.split("-")
    named = {p.casefold() for p in parts if not p.isalpha()}
    nouns = [p for p in parts if p.isalpha()]
    if (
        len(named) == 1
        and nouns
        and all(n[:1].isupper() and len(n) >= 4 for n in nouns)
        and all(map(str.isalnum, parts))
    ):
        return named
    return {word.casefold()}


def _words(text: str) -> list[str]:
    """The text's words as written, without the marks around them and a possessive's "'s"."""
    return [re.sub(r"['’]s\Z", "", w.strip(EDGES)) for w in text.split()]


def measured(text: str) -> set[str]:
    """The numbers the text gives with a unit, each with its unit's family, in any of its languages
    ("206 gb"; "vier Stunden" is no digit): a page's "VMID 206" gives no 206 GB disk, its "20gb" no
    20 minutes."""
    found = set()
    for number, unit, _ in _VALUE.findall(text):
        family = _UNIT_OF.get(unit.lower())
        if family in _MEGABYTES and (amount := _amount(number)) is not None:  # "4 GB" is "4096 MB"
            found.add(f"{amount * _MEGABYTES[family]:g} mb")
        elif family is not None:
            found.add(f"{number.replace(',', '.')} {family}")  # "8,330 €" is the page's "8.330€"
    return found


_MEGABYTES = {"kb": 1 / 1024, "mb": 1, "gb": 1024, "tb": 1024 * 1024}


def _amount(number: str) -> float | None:
    """A number as written with one decimal mark ("4", "1.5", "1,5"), or None ("1.3.2", "19:00")."""
    try:
        return float(number.replace(",", "."))
    except ValueError:
        return None


def names_in(text: str, every: bool = False) -> set[str]:
    """The text's words that name one thing (`is_name`), folded; with `every`, all its words so."""
    return {w.casefold() for w in _words(text) if every or is_name(w)}


def is_name(word: str) -> bool:
    """Whether a word as written (its marks stripped) names one thing: a digit, an inner capital, a
    "_.:=/@" inside (`SPECIFIC`)."""
    return (2 <= len(word) <= 80 or word.isdigit()) and SPECIFIC.search(word) is not None


def values_of(text: str) -> set[str]:
    return {_value(match) for match in _VALUE.finditer(text)}


def _value(match: re.Match[str]) -> str:
    number, unit, path = match.groups()
    if path:
        return str(path).rstrip(".").lower()
    unit = (unit or "").lower()
    return str(number) + (unit if unit in UNITS else "")


_COUNT = frozenset(
    "one two three four five six seven eight nine ten twelve zwei drei vier fünf sechs sieben acht neun zehn "
    "zwölf".split()
)


def _measures(text: str) -> bool:
    """Whether the text gives a measure: a number, in digits or a word, with its unit ("vier Minuten", "8 GB")."""
    words = [w.casefold() for w in re.findall(r"[%€]|[^\W_]+(?:[.,]\d+)?", text)]
    return any((w[0].isdigit() or w in _COUNT) and unit in UNITS for w, unit in itertools.pairwise(words))


def _shape(value: str) -> str:
    return "/path" if value.startswith("/") else re.sub(r"\d+", "0", value)


def said_word_for_word(text: str, page_text: str) -> bool:
    """Whether each sentence of the text stands in a line of the page word for word (case, marks
    and spacing aside): "Anna is responsible for the invoices and the domain renewals" is not said
    by "Anna is responsible for the invoices; Ben handles the domain renewals"."""
    lines = [" ".join(fold(w) for w in WORD.findall(line)) for line in page_text.splitlines()]
    said = [" ".join(fold(w) for w in WORD.findall(sentence)) for sentence in sentences(text)]
    return bool(said) and all(s and any(f" {s} " in f" {line} " for line in lines) for s in said)


def content(text: str) -> set[str]:
    return set(_content_words(text))


def _content_words(text: str) -> list[str]:
    return [fold(w) for w in WORD.findall(text) if len(w) >= 3 and fold(w) not in _NOT_THING and not w.isdigit()]


def sentences(text: str) -> list[str]:
    """The text's sentences and lines; no sentence ends after an abbreviation ("i.e.", "z. B.",
    "Dr.") or a day's number before its month ("am 4. März")."""
    found, start = [], 0
    for end in SENTENCE.finditer(text):
        if "\n" not in end.group(0) and text[end.start() - 1] == ".":
            before = text[start : end.start() - 1].split()[-2:]
            if before and abbreviation(before[-1], text[end.end() : end.end() + 12].split()[:1], " ".join(before[:-1])):
                continue
        found.append(text[start : end.start()])
        start = end.end()
    found.append(text[start:])
    return [s.strip() for s in found if s.strip()]


_ABBREVIATIONS = frozenset(
    "ca bzw usw vgl ggf inkl evtl sog nr no vs approx dr mr mrs prof st abs bspw zb resp fig etc inc ltd str "
    "mo di mi do fr sa jan feb mär mar apr jun jul aug sep sept okt oct nov dez dec".split()
)
# Words before a number that make it an ordinal ("im 2. Stock", "zum 3. Mal"), no sentence's end.
_BEFORE_ORDINAL = frozenset("im am vom zum zur beim bis ab seit der die das den dem des jeden jede".split())
_MONTHS = re.compile(r"(?i)(?:jan|feb|mär|mar|apr|mai|jun|jul|aug|sep|okt|nov|dez)")  # "am 3. März"


def abbreviation(word: str, after: list[str], before: str = "") -> bool:
    """Whether the word before a period is an abbreviation ("ca", "z.B", "d", "e.V", "Okt"), a
    day's number before its month ("am 3. März") or an ordinal after its article or preposition
    (`before`: "im 2. Stock"): no sentence ends there."""
    word = word.strip("([\"'*_")
    if word.isdigit() and len(word) <= 2 and after and _MONTHS.match(after[0]):
        return True
    if word.isdigit() and len(word) <= 3 and before.casefold() in _BEFORE_ORDINAL:
        return True
    dotted = re.fullmatch(r"(?:[^\W\d_]{1,2}\.)+[^\W\d_]{1,2}", word) is not None  # "z.B", "e.V"; not "gandi.net"
    return dotted or word.casefold() in _ABBREVIATIONS or (len(word) == 1 and word.isalpha())


GAP = 2  # other words a page sentence may hold between a text sentence's words and still say it


def new_sentences(text: str, page_text: str, title: str = "") -> list[str]:
    """The text's sentences the page does not already hold: as they stand, or as words one sentence
    of the page holds all of, in their order and with its "not" ("the staging database is backed
    up" is news against "... is not backed up"), besides the page's own name, which the page says
    as "it" or leaves out ("The order service hands paid orders on" is held by "It takes orders ...
    and hands paid orders on"); a sentence that only names the page holds nothing of it."""
    page_text = _ORDINAL_DE.sub(r"\1th ", page_text)  # "jeden 2. Mittwoch" compared as one word
    have = f" {phrase(page_text)} "
    named = set(phrase(title).split())
    # Each page sentence's words and its "not", made when a sentence is not on the page as it stands.
    held: list[tuple[list[str], bool]] = []
    new = []
    for sentence in sentences(text):
        words = phrase(_ORDINAL_DE.sub(r"\1th ", sentence))
        if not words or f" {words} " in have:  # whole words: "limit is 10" is not in "limit is 100"
            continue
        said = [w for w in words.split() if w not in STOP and w not in named]
        held = held or [(one.split(), negated(one)) for one in map(phrase, sentences(page_text))]
        no, own = negated(words), set(words.split())
        if not (
            said
            and any(
                no == page_no
                and in_order(said, page_words, GAP)
                and {w for w in page_words if w in _QUALIFIERS or _ORDINAL.fullmatch(w)} <= own
                for page_words, page_no in held
            )
        ):
            new.append(sentence)
    return new


# Words that narrow what the words around them say: a page's "every second Wednesday" does not say
# "every Wednesday" (an attacker's new fact was dropped as said).
_QUALIFIERS = frozenset(
    fold(word)  # as `phrase` writes a page's words: "außer" is "ausser"
    for word in "first second third last other alternate only except unless erste ersten zweite zweiten dritte "
    "dritten letzte letzten andere anderen nur außer lediglich ausschließlich".split()
)
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)")  # "every 2nd Sunday"
# "jeden 2. Mittwoch", read as "2th"; a number ending a line ends its sentence ("... cabinet 12.\nItem"):
# joined, a page of such lines became one sentence, and the word order check took minutes on it.
_ORDINAL_DE = re.compile(r"\b(\d{1,2})\.[ \t]+(?=[A-ZÄÖÜ][a-zäöüß])")


def in_order(said: list[str], page_words: list[str], gap: int | None = None) -> bool:
    """Whether a page sentence's words hold a text sentence's `said` words in their order: "db-02
    is the primary and db-01 the standby" is news against "db-01 is the primary ...". With `gap`,
    no more than that many other words (stop words aside) between the first and the last: "runs
    nightly to the NAS" is not held by "runs nightly to the S3 bucket; weekly to the NAS"."""
    if gap is None:
        rest = iter(page_words)
        return all(word in rest for word in said)  # each found after the one before
    for start, word in enumerate(page_words):
        if not said or word != said[0]:
            continue
        at, found = start, 1
        for i in range(start + 1, len(page_words)):
            if found < len(said) and page_words[i] == said[found]:
                found, at = found + 1, i
        if found == len(said):
            others = [w for w in page_words[start : at + 1] if w not in STOP]
            if len(others) - len([w for w in said if w not in STOP]) <= gap:
                return True
    return False
