"""Find dates in titles: ISO, dd.mm.yyyy, dd/mm/yyyy, and English or German month names."""

from __future__ import annotations

import re

_MONTHS = (
    # English
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
    # German (März also as Maerz/Marz)
    "|januar|jänner|februar|märz|maerz|marz|mai|juni|juli|oktober|dezember|jän|mär|okt|dez"
)
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


def find_date(text: str) -> re.Match[str] | None:
    """The first plausible date in `text` (day 1-31, month 1-12), or None."""
    if not _DIGIT.search(text):  # every date form has digits
        return None
    for m in _DATE.finditer(text):
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
