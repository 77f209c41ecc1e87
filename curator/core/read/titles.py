"""Dates and event titles: what makes a title name an event rather than a thing, and the thing it names.

"Ticket 4711 vom 29.07.2026: Zertifikat abgelaufen" names one incident; the memory is about the
certificate. `find_date` finds a date (ISO, dd.mm.yyyy, dd/mm/yyyy, English or German month
names); `diary_title` says why a title is diary-style (the lint rule and the dream use it);
`is_eventish` says whether a candidate title still speaks of an event; `subject_of` strips dates,
weekdays, times, ticket numbers, date clauses and status words, cuts a long title at its first
clause, and returns the subject. English and German.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, timedelta
from typing import NamedTuple

import re2

from curator.core.read.markdown import without_heading_lines
from curator.core.read.parse import split_frontmatter

# Full month and weekday names, English and German: every pattern below is built from these.
_MONTH_NAMES = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|januar|jänner|februar|märz|maerz|marz|mai|juni|juli|oktober|dezember"
)
_WEEKDAY_NAMES = (
    "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    "|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonnabend|sonntag"
)
_MONTHS = _MONTH_NAMES + "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|jän|mär|okt|dez"
_M = rf"(?:{_MONTHS})\.?"
_DATE = re.compile(
    r"(?<![\d.])(?P<iso>\d{4}-\d{1,2}-\d{1,2})(?!\d)"
    # a two-digit year only with two-digit day and month, so "1.2.26" stays a version number
    r"|(?<![\d.])(?P<dot>\d{1,2}\.\d{1,2}\.\d{4}|\d{2}\.\d{2}\.\d{2})(?![\d.])"
    r"|(?<![\d/])(?P<slash>\d{1,2}/\d{1,2}/\d{4}|\d{2}/\d{2}/\d{2})(?![\d/])"
    rf"|\b(?P<dmy>\d{{1,2}}\.?\s+{_M},?\s+\d{{4}})\b"
    rf"|\b(?P<mdy>{_M}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}})\b"
    rf"|\b(?P<my>{_M}\s+\d{{4}})\b",
    re.IGNORECASE,
)


_DIGIT = re.compile(r"\d")


def find_date(text: str, start: int = 0) -> re.Match[str] | None:
    """The first plausible date in `text` from `start` on (day 1-31, month 1-12), or None."""
    if not _DIGIT.search(text, start):  # every date form has digits
        return None
    for m in _DATE.finditer(text, start):
        if m.group("iso"):
            _, month, day = (int(x) for x in m.group("iso").split("-"))
            if 1 <= month <= 12 and 1 <= day <= 31:
                return m
        elif m.group("dot"):
            day, month, _ = (int(x) for x in m.group("dot").split("."))
            if 1 <= month <= 12 and 1 <= day <= 31:
                return m
        elif m.group("slash"):
            a, b, _ = (int(x) for x in m.group("slash").split("/"))
            if min(a, b) >= 1 and max(a, b) <= 31 and min(a, b) <= 12:
                return m
        else:
            return m
    return None


class DiaryTitle(NamedTuple):
    """Why a title names an event rather than a thing."""

    date: str | None  # the date it holds, as written
    length: int
    too_long: bool

    @property
    def reasons(self) -> list[str]:
        found = [f"it holds a date ({self.date})"] if self.date else []
        return found + ([f"it is {self.length} characters long"] if self.too_long else [])


def own_title(title: str, hierarchy: bool) -> str:
    """The part of a title that names the page: in a Dendron vault (`hierarchy`), the last part
    of its dotted name (`recipes.italian.tiramisu`); the rest is where the page stands."""
    return title.rsplit(".", 1)[-1] if hierarchy else title


def in_place_of(title: str, new: str, hierarchy: bool) -> str:
    """A new title for a page called `title`: in a Dendron vault, in the same place of the hierarchy."""
    return title[: len(title) - len(own_title(title, hierarchy))] + new


DAY_WORDS = frozenset(  # with a date alone, a title of a day's log ("2026-03-04 Tuesday", "2026-03-03-session")
    "daily day log worklog journal diary notes note session standup tag tagebuch notizen protokoll "
    "monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun "
    "montag dienstag mittwoch donnerstag freitag samstag sonntag week weekly woche month monthly monat".split()
)


def names_a_day(title: str) -> bool:
    """Whether a title says nothing but its date, the title of a day's log ("2026-03-03",
    "2026-03-04 Tuesday", "2026-03-03-session"), or of a week's or a month's ("2025-W23", "2025-06")."""
    date = find_date(title) or _WEEK_OR_MONTH.search(title)
    rest = title.replace(date.group(0), " ") if date else title
    said = [w for w in _WORD.findall(rest) if not w.isdigit() and w.casefold() not in DAY_WORDS]
    return date is not None and not said


def diary_title(title: str, limit: int) -> DiaryTitle | None:
    """A title is diary-style when it holds a date or is `limit` characters or longer."""
    date = find_date(title)
    too_long = len(title) >= limit
    if date is None and not too_long:
        return None
    return DiaryTitle(date.group(0) if date else None, len(title), too_long)


_COMPACT_DATE = re.compile(r"(?<!\d)(?:19|20)\d\d[-._ ]?[01]\d[-._ ]?[0-3]\d(?!\d)")
_WEEK_OR_MONTH = re.compile(r"(?<!\d)(?:19|20)\d\d[-._ ]?(?:w\d\d|[01]\d)(?!\d)", re.IGNORECASE)
_WORD = re.compile(r"\w+")
_YEAR = re.compile(r"(?:1[89]|20)\d\d")


def dated(title: str) -> bool:
    """A title that is a date with at most two more words ("2024-05-01", "Daily 2024-05-01 Mon",
    "daily.journal.2021.01.01"), or a year alone ("1985", a memoir's year files): one page of a
    series, like its neighbours by design."""
    if _YEAR.fullmatch(title.strip()):
        return True
    rest = title
    for pattern in (_COMPACT_DATE, _WEEK_OR_MONTH):
        rest = pattern.sub(" ", rest)
    date = find_date(rest)
    if date is not None:
        rest = rest[: date.start()] + " " + rest[date.end() :]
    if rest == title:
        return False
    return len(_WORD.findall(rest)) <= 2


# The patterns below only `subject_of` and `is_eventish` use are compiled on first use (re's own
# cache), so that the lint, which needs only `find_date`, does not pay for them at import.
_WEEKDAYS = _WEEKDAY_NAMES + "|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
_DAY_PARTS = "morning|afternoon|evening|night|morgen|vormittag|nachmittag|abend|nacht"
# A ticket's key is written in capitals ("OPS-118"); "pve-01" and "plex-01" are hosts.
_NUMBERED = (
    r"(?i)\b(?:ticket|issue|incident|inc|bug|case|jira|change|cr|pr|mr|pull request|merge request|störung|vorfall|"
    r"session|sitzung)"
    r"\s*(?:no\.?|nr\.?|number)?\s*[#!]?\s*(?:[A-Z][A-Z0-9]{0,9}-)?\d+(?:-\d+)*\b|#\d+\b|(?-i:\b[A-Z][A-Z0-9]{1,9}-\d+(?:-\d+)*\b)"
)
_ZONE = r"(?:am|pm|uhr|h|utc|gmt|z|cet|cest|mez|mesz|est|edt|pst|pdt)"  # "22:03:32 UTC" is one time
_TIME = rf"(?i)\b\d{{1,2}}[:.h]\d{{2}}(?:[:.]\d{{2}})?(?:\s*{_ZONE})?\b|\b\d{{1,2}}\s*(?:am|pm|uhr)\b"
_WEEKDAY = rf"(?i)\b(?:{_WEEKDAYS})\b\.?(?:\s+(?:{_DAY_PARTS}))?"
_YEAR_OR_QUARTER = (
    r"(?i)\b(?:19|20)\d{2}-?w\d{2}\b|\b(?:q[1-4]\s*)?(?:19|20)\d{2}\b(?![.\d])(?:\s*q[1-4])?"
    r"|\bkw\s*\d{1,2}\b|\bweek\s+\d{1,2}\b"
)
_PREPOSITION = r"(?:on|at|from|of|vom|von|am|um|im|zum|zur|seit|bis|ab)"
_STATUS = (
    r"(?i)(?<![\w-])(?:fixed|resolved|done|closed|merged|open|wip|solved|finished|completed|again|update|updated|"
    r"follow[- ]?up|hotfix|erledigt|behoben|gelöst|abgelaufen|expired|fertig|offen|erneut|wieder|nochmal|"
    r"postmortem|post-mortem|retro|retrospective|recap|notes|notizen|protokoll|minutes|log)(?![\w-])"
)
# Neither inside a compound: "BAfA-Termin" keeps its "Termin", "Post-mortem" is one word. A day's
# part goes with its day ("gestern Abend"), a month named alone with its preposition ("ab Dezember").
_FILLER = (
    rf"(?i)(?<![\w-])(?:(?:today|heute|gestern|yesterday)(?:\s+(?:{_DAY_PARTS}))?|meeting|besprechung|termin|"
    rf"daily|weekly|sofort|(?:ab|im|seit|bis|since|from|until)\s+(?:{_MONTH_NAMES}))(?![\w-])"
)
# Prepositions and articles left dangling at either end once a date or number is gone. The end's
# separators are matched from the start of their run only: from every place in a run of 20,000
# dashes the search took minutes.
_DANGLING = (
    r"(?i)^(?:(?:vom|von|am|um|im|ab|bis|seit|on|at|from|of|in|for|the|a|an|der|die|das|den|dem|des|"
    r"und|and|re|fw|fwd|aw|wg|zum|zur|über|about|regarding|with|mit)\b(?:[\s:,.]+|\s*[-–—]\s+|$))+|(?<![\s:,.\-–—])(?:[\s:,.\-–—]+(?:vom|von|am|um|im|ab|bis|seit|on|at|from|of|in|"
    r"for|the|a|an|der|die|das|und|and|with|mit|zum|zur|to)\b)+$"
)
# A long title is cut where its first clause ends.
_CLAUSE = (
    r"(?i)\s+(?:and|because|while|when|after|before|during|since|but|so|as|und|weil|während|nachdem|bevor|"
    r"als|aber|obwohl|wobei)\s+|\s*[:;(]\s*|\s+[-–—]\s+|,\s+"
)


_ISO_TIME = r"\b(\d{4}-\d{2}-\d{2})T\d{2}(?::?\d{2}){0,2}(?:Z|[+-]\d{2}:?\d{2})?\b"


def without_dates(text: str) -> str:
    """Remove every date, with the preposition that introduced it ("vom 29.07.2026", "on July 29"),
    in one pass (a text of thousands of dates took minutes when each search began at the start)."""
    kept, at = [], 0
    while (m := find_date(text, at)) is not None:
        kept.append(re.sub(rf"(?i)\b{_PREPOSITION}\.?\s*$", "", text[at : m.start()]) + " ")
        at = m.end()
    return "".join(kept) + text[at:] if kept else text


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s+([,.:;!?])", r"\1", text)
    for _ in range(3):
        text = re.sub(_DANGLING, "", text.strip(" \t:,.;-–—/|()[]")).strip(" \t:,.;-–—/|()[]")
    return text.strip()


def without_event(title: str) -> str:
    """`title` without what tells the event: dates, times, weekdays, tickets, status and filler
    words. A file name written as a slug ("librarian-session-report-2026-03-25") is read as its words."""
    text = re.sub(r"(?i)\bon[ -]call\b", "On-call", title)
    text = re.sub(_ISO_TIME, r"\1", text)  # "2026-04-11T08": the hour belongs to the date
    text = without_dates(text)
    # What joined the date to its neighbours: "SESSION-2026-02-09_01: ..." leaves "SESSION- _01".
    text = re.sub(r"(?<=[^\W_])[-_]+(?=\s)|(?:(?<=\s)|^)_+(?=\d)", " ", text)
    if " " not in title.strip() and re.search(r"[^\W\d_][-_][^\W\d_]", title):
        text = re.sub(r"[-_]+", " ", text)  # a slug's separators are its spaces (its dates are gone)
    text = re.sub(_NUMBERED, " ", text)
    text = re.sub(_TIME, " ", text)
    text = re.sub(_WEEKDAY, " ", text)
    text = re.sub(_YEAR_OR_QUARTER, " ", text)
    text = re.sub(_STATUS, " ", text)
    text = re.sub(_FILLER, " ", text)
    return _tidy(text)


# In lower case only: a title's capitalised word is its own ("War room", "Stand-up notes").
_FRONTED_VERB = re.compile(
    r"^(?:ist|sind|war|waren|hat|haben|hatte|hatten|wurde|wurden|wird|werden|lief|läuft|kam|gab|gibt|fiel|ging|"
    r"geht|stand|steht|startete|meldete|meldet|brach|zeigte|zeigt)\s+(?=\S)"
)


def subject_of(title: str) -> str:
    """The thing an event-style title is about, or "" when nothing is left (a bare date). A file
    name written as a slug ("librarian-session-report-2026-03-25-powerspec") is read as its words."""
    # A German sentence that opens with its date puts the verb next ("Am 2026-11-25 ist Uptime
    # Kuma ... gestartet"): the verb is no word of the thing.
    text = _FRONTED_VERB.sub("", without_event(title), count=1)
    if not text:
        return ""
    # Keep the first clause that still says something; the rest narrates the event.
    parts = [_tidy(p) for p in re.split(_CLAUSE, text)]
    parts = [p for p in parts if p and any(ch.isalpha() for ch in p)]
    if not parts:
        return ""
    # "Vaultwarden als Passwortmanager eingerichtet": the thing before "als" / "as", the rest its role.
    role = re.match(r"\s*([^\W\d_]\S*)(?:\s+\S+)?\s+als\s", text)
    role = role if role and role.group(1).casefold() not in _NOTE_KINDS | {"als", "auch", "so", "nur"} else None
    best = parts[0] if role else next((p for p in parts if len(p.split()) >= 2), parts[0])
    if len(best) > 60:
        best = " ".join(best.split()[:6])
    return _capitalise(_tidy(_without_leading_symbols(best)))


# A memory that opens with the name of what it is about and a colon ("Mailingliste: am 20.10. hat
# ein Spam-Bot ...", "Cloudflare-Zugang: ..."): that name is its subject, not the thing the rest
# narrates. A word that says what kind of note follows ("Reminder:", "Update:", "Wichtig:") names nothing.
_LABEL = re.compile(r"^\s*([^\W\d_][^\s:]*(?:\s+[^\W\d_][^\s:]*){0,2})\s*:\s+\S")
_NOTE_KINDS = frozenset(
    "reminder remember note notes tip tips hint heads up fyi update info psa warning important todo lesson lessons "
    "learned til idea decision question answer summary context status incident outage problem issue fix "
    "solution workaround hotfix bugfix patch cause result observation finding fact memory news change changes bug "
    "error task action follow next step steps ps nb edit correction btw also again postmortem "
    "erinnerung merke notiz notizen tipp hinweis wichtig achtung warnung idee entscheidung beschluss frage "
    "antwort zusammenfassung kontext vorfall störung ausfall lösung ursache ergebnis beobachtung "
    "fakt änderung fehler aufgabe korrektur nachtrag neu neue neuer neues new neuigkeit neuigkeiten "
    # who speaks in a transcript, a mail's prefix, a status, a kind of list: no thing's name either
    "user assistant system human ai agent me you ich du q a re fw fwd aw wg tl dr tldr faq done wip fixed "
    "resolved erledigt offen gelöst urgent dringend caveat gotcha learning learnings example examples "
    "beispiel e g p s key point random thought agenda readme index rule regel "
    # a log's entry: "Session: 2026-02-23 22:03:32 UTC" names no thing
    "session sitzung log entry eintrag".split()
)


def only_kinds(text: str) -> bool:
    """Whether a text names only kinds of note ("Session", "Lessons learned"), no thing."""
    words = _WORD.findall(text)
    return bool(words) and all(word.casefold() in _NOTE_KINDS for word in words)


_TICKET_ID = re.compile(r"[A-Z]{1,6}-\d+|[A-Z]\d{3,}")  # "OPS-118", "T1234"; "srv02" is a host
_GERMAN_JOINS = frozenset("im in der die das tool team".split())  # "Neu im Team:", "Neues Tool:"


def label_of(sentence: str) -> str:
    """The name a sentence opens with before a colon, of one to three words, when it names a thing
    (no kind of note, no date or ticket); "" otherwise."""
    m = _LABEL.match(sentence)
    if m is None:
        return ""
    label = m.group(1)
    if _TICKET_ID.fullmatch(label):  # "T1234:", "OPS-118:": the event's number, no thing's name
        return ""
    if len(label) < 2 or any(w.casefold() in _NOTE_KINDS for w in _WORD.findall(label)) or is_eventish(label):
        return ""
    return label


def without_note_kind(sentence: str) -> str:
    """The sentence past a label that says what kind of note follows ("Neues Tool: Seit Dezember
    nutzen wir Loom", "Heads up: ..."): the thing is in the rest."""
    m = _LABEL.match(sentence)
    words = _WORD.findall(m.group(1)) if m else []
    new = bool(words) and words[0].casefold() in ("neu", "neue", "neuer", "neues", "new")  # "Neue Kollegin:"
    if m is None or not (new or all(w.casefold() in _NOTE_KINDS | _GERMAN_JOINS for w in words)):
        # A longer label of a kind and when or for what ("Note for the next event:", "Idea for 2026:",
        # "Beschluss vom letzten Treffen:"): small words, numbers and times after the kind.
        m = _KIND_LABEL.match(sentence)
        said = _WORD.findall(m.group(1)) if m else []
        kind = bool(said) and said[0].casefold() in _NOTE_KINDS
        if m is None or not kind or not all(_said_of_a_note(w) for w in said[1:]):
            return sentence
    rest = sentence[sentence.index(":", m.end(1)) + 1 :].strip()
    return rest or sentence


_KIND_LABEL = re.compile(r"^\s*([^\W\d_]+(?:\s+[^\s:]+){1,7}?)\s*:\s+\S")
# What a note's label says besides its kind: when, at which meeting, for what occasion.
_OCCASIONS = frozenset(
    "treffen sitzung abstimmung besprechung versammlung mitgliederversammlung plenum termin meeting event "
    "januar februar märz april mai juni juli august september oktober november dezember woche monat jahr "
    "january february march april may june july august september october november december".split()
)


_SMALL = frozenset(
    "for to of on at in from the a an this that next last today tomorrow yesterday "
    "für vom von im am beim zum zur der die das den dem des seit ab aus letzten letzte letztes nächsten nächste "
    "nächstes heute morgen gestern".split()
)


def _said_of_a_note(word: str) -> bool:
    return word.isdigit() or word.casefold() in _NOTE_KINDS | _OCCASIONS | _SMALL


def _without_leading_symbols(text: str) -> str:
    """A title without the emoji or signs a heading opens with ("🔍 Verification report")."""
    rest = text.lstrip()
    while rest and (unicodedata.category(rest[0]).startswith("S") or rest[0] in "\ufe0f\u200d"):
        rest = rest[1:].lstrip()
    return rest


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


# A candidate title that still names a month, a weekday, a relative day or a ticket speaks of an event.
_EVENT_WORDS = rf"(?i)\b(?:{_MONTH_NAMES}|{_WEEKDAY_NAMES}|yesterday|today|gestern|heute)\b"


# The day or the night something happened, said without a date; the words before a date that make
# it the day a rule starts from.
_OCCASION = (
    r"(?i)\b(?:yesterday|last night|this morning|earlier today|overnight|(?:this|last|over the) weekend|gestern|"
    r"vorgestern|letzte nacht|heute nacht|in der nacht|heute morgen|heute früh|vorhin|"
    r"(?:am|letztes|übers) wochenende|(?:this|last) week|(?:diese|letzte|vergangene) woche)\b"
    # a day without its year, or a weekday: "Am 05.03.:", "on 5 March", "am Montag", "last Friday"
    rf"|\b(?:am|on|vom)\s+(?:\d{{1,2}}\.\s?\d{{1,2}}\.(?!\d)|\d{{1,2}}\.?\s+(?:{_MONTH_NAMES})\b"
    rf"|(?:{_MONTH_NAMES})\s+\d{{1,2}}\b)"
    rf"|\b(?:am|on|last|letzten|this|diesen)\s+(?:{_WEEKDAY_NAMES})\b"
)
_RULE_FROM = re.compile(
    r"(?i)\b(?:since|seit|ab|as of|from|effective|starting|beginning|until|bis|stand)(?:\s+(?:dem|den|the))?\W*$"
)
# A ticket as a happening has it: named so, or a key and a number of three digits or more that a
# colon, a comma, a bracket or its day follows ("CU-8842 vom 03.09.", "INC-2291:"; not "DNS-01" or
# "the RTX-3090 now runs", which `_NUMBERED` takes for a title's ticket).
_TICKET = (
    r"(?i)\b(?:ticket|issue|incident|inc|bug|case|jira|störung|vorfall)\s*(?:no\.?|nr\.?|number)?\s*#?\s*"
    r"(?:[A-Z][A-Z0-9]{0,9}-)*\d+\b|#\d+\b"
    r"|(?-i:\b[A-Z][A-Z0-9]{1,9}-[1-9]\d{2,}\b)(?=\s*(?:[:,(–-]|vom |from |on |am ))"
)


def is_eventish(text: str) -> bool:
    return (
        find_date(text) is not None
        or bool(re.search(_EVENT_WORDS, text))
        or bool(re.search(_NUMBERED, text))
        or bool(re.search(_OCCASION, text))
    )


# Words around a day or a month that make it a rule's: from when it holds ("seit Anfang Mai",
# "since early March", "starting in March") or how often ("every other Sunday", "am Sonntag ...
# immer", "on the first Monday of each month").
_FAILING = (
    r"(?i)\b(?:fail\w*|down|broken|crash\w*|errors?|timeouts?|times out|unreachable|hangs|kaputt|fehl|"
    r"schlägt\s+\S+\s+fehl|ausgefallen|stürzt\w*|hängt|nicht (?:mehr )?erreichbar|geht nicht)\b"
)
_SINCE = re.compile(r"(?i)\b(?:since|seit|seitdem|starting|beginning|as of|ab|effective)\b")
_HABIT = re.compile(
    r"(?i)\b(?:every|each|jede[nrsm]?|alle\s+(?:\d+|zwei|drei|vier|paar)|immer|jeweils|regelmäßig|usually|always|"
    r"normally|normalerweise|daily|nightly|weekly|monthly|täglich|nächtlich|wöchentlich|monatlich)\b"
)
# A month's name read as one only beside a number or a word that says when ("in May", "im Mai",
# "3. Mai", "May 2026"): "may" and "August" are also a verb and a name.
_MONTH_SAID = re.compile(
    rf"(?i)(?:\b(?:in|im|on|am|of|vom|to|bis|early|late|mid|anfang|ende|mitte|last|next|this|letzten|nächsten|"
    rf"diesen)\s+|\d\.?\s*)(?:{_MONTH_NAMES})\b|\b(?:{_MONTH_NAMES})\s+\d"
)


# A day said from the day it was written ("Last night", "gestern", "last Saturday"); a ticket or a
# weekday alone is not.
_RELATIVE_DAY = re.compile(
    r"(?i)\b(?:last night|yesterday|today|tonight|this (?:morning|afternoon|evening)|"
    rf"(?:last|this) (?:{_WEEKDAY_NAMES}|week)|gestern|vorgestern|heute|letzte nacht|vorhin|"
    rf"(?:letzten|letzte|diesen) (?:{_WEEKDAY_NAMES}|woche))\b"
)


def says_relative_day(text: str) -> bool:
    """Whether the text names its day only from the day it was written (`_RELATIVE_DAY`)."""
    return _RELATIVE_DAY.search(text) is not None


# A day and a month without a year ("26.02."): the text dates itself.
_DAY_AND_MONTH = re.compile(r"(?<![\d.])(?:0?[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])\.(?!\d)")
_DAYS_BACK = (
    (re.compile(r"(?i)\bvorgestern\b"), 2),
    (re.compile(r"(?i)\b(?:yesterday|last night|gestern|letzte nacht)\b"), 1),
    (re.compile(r"(?i)\b(?:today|tonight|this (?:morning|afternoon|evening)|heute|vorhin)\b"), 0),
)
ENGLISH_WEEKDAYS = tuple(_WEEKDAY_NAMES.split("|")[:7])
_DAY_ORDER = (  # Monday first, in English and in German ("sonnabend" is read as "samstag")
    list(ENGLISH_WEEKDAYS),
    [day for day in _WEEKDAY_NAMES.split("|")[7:] if day != "sonnabend"],
)
_LAST_WEEKDAY = re.compile(rf"(?i)\b(?:last|letzten|letzte|vergangenen) ({_WEEKDAY_NAMES})\b")


def day_said(text: str, written: date) -> date | None:
    """The day a text written on `written` tells of by its relative words ("gestern": the day
    before, "last Saturday": the Saturday before), `written` for words naming no one day ("last
    week"); None when it dates itself by a day and month of its own ("Gestern (26.02.)")."""
    if _DAY_AND_MONTH.search(text):
        return None
    for pattern, back in _DAYS_BACK:
        if pattern.search(text):
            return written - timedelta(days=back)
    if (named := _LAST_WEEKDAY.search(text)) is not None:
        word = named.group(1).casefold().replace("sonnabend", "samstag")
        weekday = next(names.index(word) for names in _DAY_ORDER if word in names)
        return written - timedelta(days=(written.weekday() - weekday - 1) % 7 + 1)
    return written


def tells_occasion(text: str) -> bool:
    """Whether the text tells of a day something happened: `is_eventish`, less a month's name
    that is no month ("may", "August maintains ..."), and less the days a rule runs from or on
    ("seit Mai", "ab Mitte März", "since 2026-11-01", "every other Sunday", "jeden Sonntag"),
    which a lasting fact names."""
    if re.search(_NUMBERED, text):
        return True
    date = find_date(text)
    days = [m for m in re.finditer(_EVENT_WORDS, text) if not re.fullmatch(_MONTH_NAMES, m.group(0), re.I)]
    days += [*_MONTH_SAID.finditer(text)]
    for mark in [*([date] if date else []), *re.finditer(_OCCASION, text), *days]:
        before = text[max(0, mark.start() - 24) : mark.start()]
        if _RULE_FROM.search(text[max(0, mark.start() - 16) : mark.start()]) or _SINCE.search(before):
            # A failure since a day just past ("Since yesterday the backup fails") is an incident
            # going on, not a rule from then on.
            if re.fullmatch(_OCCASION, mark.group(0)) and re.search(_FAILING, text):
                return True
            continue
        around = text[max(0, mark.start() - 30) : mark.end() + 40]  # a weekday's or a month's habit; a date is a day
        habit = _HABIT.search(around) or re.match(
            r"\w*\s+(?:nights|mornings|evenings|afternoons)\b", text[mark.end() :]
        )
        if habit and re.search(rf"(?i){_WEEKDAY_NAMES}|{_MONTH_NAMES}", mark.group(0)):
            continue
        return True
    return False


def opens_with_occasion(text: str) -> bool:
    """Whether the text opens (its first 45 characters) with the day, the ticket or the night of
    something ("04.04.2026: scanner not found ...", "Am 14.03.2026 ist der Deploy ...", "Ticket
    FFMUC-1207, 2026-06-21: ...", "Last night ..."), not with the day a rule starts from ("Since
    2026-11-01 ...", "Ab 01.01.2027 ...", "Stand 18.09.2026: ...")."""
    head = text[:45]
    marks = [m for m in (find_date(head), re.search(_TICKET, head), re.search(_OCCASION, head)) if m is not None]
    if not marks:
        return False
    first = min(m.start() for m in marks)
    return not _RULE_FROM.search(text[max(0, first - 16) : first])


# A status update: something was merged, deployed, closed ... with a ticket, a version or a date.
_STATUS_WORDS = (
    r"(?i)\b(merged|deployed|released|shipped|closed|resolved|fixed|done|reverted|rolled back|bumped|pushed|"
    r"committed|gemergt|deployt|ausgerollt|erledigt|geschlossen|behoben|gepusht|committet)\b"
)
# Whether a text holds a status word at all, asked of every short page as it is read: RE2 takes a
# tenth of the time of re here (its `\b` is ASCII's, which only adds boundaries).
_ANY_STATUS_WORD = re2.compile(_STATUS_WORDS)
_NAMED = (  # what a status update names: a ticket, a pull request, a version
    r"(?i)\b(?:pr|mr|pull request|ticket|issue|jira|change)\s*[#!]?\s*\d+|#\d+|\b[A-Z][A-Z0-9]{1,9}-\d+\b"
    r"|\bv?\d+\.\d+\.\d+\b|\bcommit\s+[0-9a-f]{7,40}\b|\baction\s+[A-Z]?-?\d+\b"
)
_SMALL_WORDS = frozenset(
    "a an the to of on in at for and or der die das und zu von vom am im repo repository successfully successful "
    "erfolgreich".split()
)


STATUS_CHARS = 300  # a page of more body text says more than a status


def only_logs_an_event(title: str, text: str) -> bool:
    """A page (its title and text) that is a status update: its body (without heading lines) is
    one, or it has no body and its title is one. Worked out as each page is read (Page.status_update)."""
    if not (_ANY_STATUS_WORD.search(text) or _ANY_STATUS_WORD.search(title)):
        return False  # most pages: nothing to split
    body = without_heading_lines(text[split_frontmatter(text)[2] :])
    return is_status_update(body) or (not body.strip() and is_status_update(title))


def is_status_update(text: str) -> bool:
    """Every sentence of `text` only says that something was merged, deployed, closed ... (naming
    a ticket, a version or a date): an event log that git or the tracker holds, no lasting fact."""
    if not _ANY_STATUS_WORD.search(text):  # every sentence needs one (most pages: none at all)
        return False
    sentences = [s for s in re.split(r"(?<=[.!?;])\s+|\n+", text.strip()) if s.strip()]  # "...; it now retries"
    return bool(sentences) and all(_one_status(s) for s in sentences)


# Why something happened is a lasting fact, whatever was fixed ("caused by a firewall rule"); so is
# a crash ("crashed after the v6.1 update ... rolled back").
_CAUSE = (
    r"(?i)\b(?:because|caused by|due to|root cause|weil|wegen|verursacht|ursache|lag an|crash(?:ed|es)?|"
    r"segfaults?|outage|kernel panic|abgestürzt|ausgefallen)\b"
)


_TRACKER_TITLE = re.compile(r"(?i)\s*\((?![^()]*(?:\d|\b(?:now|jetzt|instead|statt|nicht mehr|no longer)\b))[^()]*\)")


def _one_status(sentence: str) -> bool:
    if len(sentence) > 240 or not re.search(_STATUS_WORDS, sentence) or re.search(_CAUSE, sentence):
        return False
    if not (re.search(_NAMED, sentence) or find_date(sentence)):
        return False
    # A pull request's title in brackets is the tracker's ("Merged PR #41 (mobile bottom nav fix)"),
    # unless it gives a value ("(Postgres now listens on port 5433)"); a repository's name is one
    # name ("mission-control-hub").
    said = subject_of(_TRACKER_TITLE.sub("", sentence)) or ""
    # What a push carries, or what follows a colon, is said after the subject: "Pushed to main:
    # commit 8f3e2a1 pins numpy below 2", "Closed ABC-12: we use Hetzner" tell lasting facts.
    if (":" in sentence and len(_content(sentence.split(":", 1)[1])) >= 2) or _NOW.search(sentence):
        return False  # "...: the importer skips rows without an IBAN", "- Postgres runs on db-03 now"
    if re.search(r"(?i)\b(?:pushed|committed|gepusht|committet)\b", sentence):
        said = _TRACKER_TITLE.sub("", sentence)
    return len(_content(said)) <= 3


_NOW = re.compile(r"(?i)\b(?:now|jetzt|nun|ab sofort|from now on)\b")


def _content(said: str) -> set[str]:
    """The words of a status sentence that are none of its status words, names or small words."""
    rest = re.sub(_STATUS_WORDS, " ", re.sub(_NAMED, " ", said))
    return {w.casefold() for w in re.findall(r"[^\W\d_]+(?:[-_][^\W\d_]+)*", rest)} - _SMALL_WORDS
