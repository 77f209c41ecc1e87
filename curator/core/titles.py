"""Turn an event-style title into the name of the thing it is about.

"Ticket 4711 vom 29.07.2026: Zertifikat abgelaufen" names one incident; the memory is about the
certificate. Dates, weekdays, times, ticket numbers, date clauses and status words go; a long
title is cut at its first clause; what remains is the subject. English and German.
"""

from __future__ import annotations

import re

from curator.core.dates import find_date

_WEEKDAYS = (
    "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
    "|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonnabend|sonntag"
)
_DAY_PARTS = "morning|afternoon|evening|night|morgen|vormittag|nachmittag|abend|nacht"
_NUMBERED = re.compile(
    r"(?i)\b(?:ticket|issue|incident|inc|bug|case|jira|change|cr|pr|mr|pull request|merge request|störung|vorfall)"
    r"\s*(?:no\.?|nr\.?|number)?\s*#?\s*\d+\b|#\d+\b|\b[A-Z][A-Z0-9]{1,9}-\d+\b"
)
_TIME = re.compile(r"(?i)\b\d{1,2}[:.h]\d{2}(?:\s*(?:am|pm|uhr|h))?\b|\b\d{1,2}\s*(?:am|pm|uhr)\b")
_WEEKDAY = re.compile(rf"(?i)\b(?:{_WEEKDAYS})\b\.?(?:\s+(?:{_DAY_PARTS}))?")
_YEAR_OR_QUARTER = re.compile(
    r"(?i)\b(?:19|20)\d{2}-?w\d{2}\b|\b(?:q[1-4]\s*)?(?:19|20)\d{2}\b(?![.\d])(?:\s*q[1-4])?"
    r"|\bkw\s*\d{1,2}\b|\bweek\s+\d{1,2}\b"
)
_PREPOSITION = r"(?:on|at|from|of|vom|von|am|um|im|zum|zur|seit|bis|ab)"
_STATUS = re.compile(
    r"(?i)\b(?:fixed|resolved|done|closed|merged|open|wip|solved|finished|completed|again|update|updated|"
    r"follow[- ]?up|hotfix|erledigt|behoben|gelöst|abgelaufen|expired|fertig|offen|erneut|wieder|nochmal|"
    r"postmortem|post-mortem|retro|retrospective|recap|notes|notizen|protokoll|minutes|log)\b"
)
_FILLER = re.compile(r"(?i)\b(?:meeting|besprechung|termin|daily|weekly|today|heute|gestern|yesterday)\b")
# Prepositions and articles left dangling at either end once a date or number is gone.
_DANGLING = re.compile(
    r"(?i)^(?:(?:vom|von|am|um|im|ab|bis|seit|on|at|from|of|in|for|the|a|an|der|die|das|den|dem|des|"
    r"und|and|re|fw|fwd|aw|wg|zum|zur|über|about|regarding|with|mit)\b(?:[\s:,.]+|\s*[-–—]\s+|$))+|(?:[\s:,.\-–—]+(?:vom|von|am|um|im|ab|bis|seit|on|at|from|of|in|"
    r"for|the|a|an|der|die|das|und|and|with|mit|zum|zur|to)\b)+$"
)
# A long title is cut where its first clause ends.
_CLAUSE = re.compile(
    r"(?i)\s+(?:and|because|while|when|after|before|during|since|but|so|as|und|weil|während|nachdem|bevor|"
    r"als|aber|obwohl|wobei)\s+|\s*[:;(]\s*|\s+[-–—]\s+|,\s+"
)


def _strip_dates(text: str) -> str:
    """Remove every date, with the preposition that introduced it ("vom 29.07.2026", "on July 29")."""
    while (m := find_date(text)) is not None:
        before = re.sub(rf"(?i)\b{_PREPOSITION}\.?\s*$", "", text[: m.start()])
        text = before + " " + text[m.end() :]
    return text


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s+([,.:;!?])", r"\1", text)
    for _ in range(3):
        text = _DANGLING.sub("", text.strip(" \t:,.;-–—/|()[]")).strip(" \t:,.;-–—/|()[]")
    return text.strip()


def subject_of(title: str) -> str:
    """The thing an event-style title is about, or "" when nothing is left (a bare date)."""
    text = re.sub(r"(?i)\bon[ -]call\b", "On-call", title)
    text = _strip_dates(text)
    text = _NUMBERED.sub(" ", text)
    text = _TIME.sub(" ", text)
    text = _WEEKDAY.sub(" ", text)
    text = _YEAR_OR_QUARTER.sub(" ", text)
    text = _STATUS.sub(" ", text)
    text = _FILLER.sub(" ", text)
    text = _tidy(text)
    if not text:
        return ""
    # Keep the first clause that still says something; the rest narrates the event.
    parts = [_tidy(p) for p in _CLAUSE.split(text)]
    parts = [p for p in parts if p and any(ch.isalpha() for ch in p)]
    if not parts:
        return ""
    best = next((p for p in parts if len(p.split()) >= 2), parts[0])
    if len(best) > 60:
        best = " ".join(best.split()[:6])
    return _capitalise(_tidy(best))


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text
