"""Where a memory's sentences go on a page it joins: after the statement they change (`update`),
as a line of the page's history section when they tell an event, or as a paragraph at the end of
its best-matching section."""

from __future__ import annotations

import re
from collections.abc import Iterable
from contextvars import ContextVar
from datetime import date

from curator.core.change.edits import FileChange, Plan
from curator.core.curate.agreement import names_whole_name
from curator.core.curate.facts import STOP
from curator.core.curate.linking import linked
from curator.core.curate.observations import (
    category_of,
    item_end,
    items_of,
    next_lead,
    observation,
    observations_heading,
)
from curator.core.curate.update import old_statement, updated
from curator.core.read.markdown import lines_of
from curator.core.read.page import Heading
from curator.core.read.parse import split_frontmatter
from curator.core.read.resolve import fold
from curator.core.read.titles import day_said, find_date, says_relative_day, tells_occasion
from curator.core.read.vault import Vault
from curator.core.read.words import WORD, language_of


def plan_update(vault: Vault, path: str, text: str, page_text: str) -> Plan | None:
    """The page with the text after its old statement (struck through where named); None when
    no sentence of the page can be told as the one the text changes, or the edit would change
    more of the page than its words."""
    statement = old_statement(text, page_text, vault.pages[path].title)
    if statement is None:
        return None
    if not names_whole_name(vault, path, text):  # another person's page: nothing of it is struck
        statement = statement._replace(named=False, value=None)
    after = updated(page_text, statement, linked(vault, text, path))
    if after is None:
        return None
    old = " ".join(page_text[statement.start : statement.end].split())
    details = {"decision": "supersede", "page": path, "superseded": path, "statement": old}
    change = FileChange(path, page_text.encode("utf-8"), after.encode("utf-8"))
    verb = "strike" if statement.named else "follow"
    return Plan("remember", f"Remember: {verb} a statement of {path}", (change,), {}, 0, (), details)


_HISTORY = frozenset("history verlauf chronik timeline incidents vorfälle störungen changelog".split())
# What was done to a thing once (a release, a restart): an event of its history, dated or not.
_DONE_ONCE = re.compile(
    r"(?i)\b(deployed|released|shipped|rolled (?:out|back)|reverted|restarted|upgraded|crashed|went (?:down|offline)|"
    r"ausgerollt|deployt|neu gestartet|in Produktion gebracht|abgestürzt)\b"
)


# The day a memory was handed over: today, or the day a queued one was proposed, when a person
# accepts it days later (`remember.decided_again`).
handed_over: ContextVar[date | None] = ContextVar("handed_over", default=None)


def _event(sentences: list[str]) -> str | None:
    """The sentences as an event of a page's history (a text with a date, a ticket or a weekday,
    or one that says a thing was deployed, restarted ...), dated when it tells a day as "last
    night"; None when they tell no event."""
    text = " ".join(sentences)
    if not tells_occasion(text) and not (len(text) <= 240 and _DONE_ONCE.search(text)):
        return None
    # "Last night ...": a line keeping only it would date nothing (a new user's); the day it tells
    # of, counted from the day it was handed over, dates it ("gestern" handed over on the 7th: the 6th)
    written = handed_over.get() or date.today()
    if find_date(text) is None and says_relative_day(text) and (told := day_said(text, written)) is not None:
        text = f"{told.isoformat()}: {text}"
    return text


def _observation_line(vault: Vault, path: str, sentences: list[str], page_text: str) -> Plan | None:
    """The sentences as one more observation after the last of the page's `## Observations` list
    (a basic-memory page, `observations`: after its continuation lines and sub-items, before a
    sub-heading), in its items' bullet and indent; None when the page keeps no observations, or
    for an event when it has a history section (the event goes there)."""
    lines = lines_of(page_text)
    headings = vault.pages[path].headings
    kept = observations_heading(vault, path, lines)
    event = _event(sentences)
    if kept is None or (event is not None and any(_is_history(h) for h in headings)):
        return None
    newline = "\r\n" if "\r\n" in page_text else "\n"
    bare = [line.rstrip("\r\n") for line in lines]
    stop = min([h.line - 1 for h in headings if h.line > kept.line] + [_body_end(page_text, lines, headings)])
    items = items_of(bare, kept.line, max(stop, kept.line))
    last = category_of(bare[items[-1]]) if items else None
    if last is not None:
        at, gap, lead = item_end(bare, items[-1]), "", next_lead(last["lead"])
    else:  # after the section's text, a blank line between (an empty section: right under its heading)
        at, lead = max(stop, kept.line), "- "
        while at > kept.line and not bare[at - 1].strip():
            at -= 1
        gap = newline if at > kept.line else ""
    entry = observation(linked(vault, event or " ".join(sentences), path), event is not None, bare, lead)
    head = "".join(lines[:at])
    head = head if head.endswith("\n") else head + newline
    after = head + gap + entry + newline + "".join(lines[at:])
    details = {"decision": "merge-into", "page": path, "section": "observations"}
    change = FileChange(path, page_text.encode("utf-8"), after.encode("utf-8"))
    return Plan("remember", f"Remember: add an observation to {path}", (change,), {}, 0, (), details)


def _history_line(vault: Vault, path: str, sentences: list[str], page_text: str) -> Plan | None:
    """An event (a text with a date, a ticket or a weekday, or one that says a thing was deployed,
    restarted ...) as a line of the page's history section, made at the page's end ("## History",
    "## Verlauf" on a German page) when it has none: its date and ticket belong there, not in a
    title or the page's description."""
    text = _event(sentences)
    if text is None:
        return None
    newline = "\r\n" if "\r\n" in page_text else "\n"
    entry = "- " + linked(vault, text, path)
    lines = lines_of(page_text)
    headings = vault.pages[path].headings
    body = _body_end(page_text, lines, headings)
    found = next((h for h in headings if _is_history(h)), None)
    if found is None:
        name = "Verlauf" if language_of(page_text) == "de" else "History"
        after = _at_end(lines, body, f"## {name}" + newline + newline + entry, newline)
    else:
        head, offset = _section_end(page_text, lines, headings, found, newline, body)
        rest = page_text[offset:]
        entry = _table_row(head, linked(vault, text, path)) or entry
        after = head + entry + newline + (newline if rest.strip() else "") + rest.lstrip("\r\n")
    details = {"decision": "merge-into", "page": path, "section": "history"}
    change = FileChange(path, page_text.encode("utf-8"), after.encode("utf-8"))
    return Plan("remember", f"Remember: add to the history of {path}", (change,), {}, 0, (), details)


_DATE_COLUMN = frozenset("date datum when wann day tag time zeit".split())


def _table_row(head: str, text: str) -> str | None:
    """The event as a row of the table a history section ends with (`head` ends with it), its
    date in the first column when that column is one of dates; None when the section ends with
    no table."""
    rows = [line.strip() for line in lines_of(head)]
    table: list[str] = []
    for line in reversed(rows):
        if not (line.startswith("|") and line.endswith("|") and len(line) > 1):
            break
        table.insert(0, line)
    if len(table) < 2 or not re.fullmatch(r"\|(?:\s*:?-+:?\s*\|)+", table[1].replace(" ", "")):
        return None  # no header and rule: not a table
    columns = [cell.strip() for cell in table[0].strip("|").split("|")]
    cells = [text.replace("|", "\\|")]
    if len(columns) >= 2 and fold(columns[0]).strip("* ") in _DATE_COLUMN:
        # The date in its column, out of the text only where it opens it ("2026-03-04: ..."): cut
        # from inside a sentence it would leave a hole ("restarted on  after ...").
        date = find_date(text)
        opens = date is not None and not text[: date.start()].strip(" *_([")
        rest = text[date.end() :].strip(" :;,-–") if date is not None and opens else text
        cells = [date.group(0) if date is not None else "", rest.replace("|", "\\|")]
    cells += [""] * (len(columns) - len(cells))
    return "| " + " | ".join(cells) + " |"


def _is_history(heading: Heading) -> bool:
    return heading.level >= 2 and fold(heading.text).strip() in _HISTORY


# Sections a page ends with that point elsewhere: new text goes before them, as before a footer.
_BACK_MATTER = frozenset(
    "quellen|quelle|sources|references|referenzen|see also|siehe auch|links|weblinks|external links|further reading|"
    "weiterführende links|literatur|footnotes|fußnoten|einzelnachweise|related|verwandte themen|related notes|"
    "related pages|backlinks|navigation|resources|ressourcen|useful links|nützliche links".split("|")
)
_RULE = re.compile(r"\s{0,3}(?:-\s*){3,}|\s{0,3}(?:\*\s*){3,}|\s{0,3}(?:_\s*){3,}")
_LINK = re.compile(r"!?\[[^\]]*\]\([^)]*\)|\[\[[^\]]*\]\]")
_ARROW = re.compile(r"[←→«»]")
_BLOCK_LINE = re.compile(r"\s|[|>*+-]|\d+[.)]\s")  # indented, a table row, a quote or callout, a list item
# A closing line about the page, not its subject: "**Last updated:** 2026-02-03", "*Stand: März 2026*".
_FIELD_LINE = re.compile(
    r"\s{0,3}(?:\*\*|__)[^*_\n]{1,40}?(?::\*\*|\*\*:|:__|__:)[^\n]{0,120}|\s{0,3}[*_][^*_\n]{3,160}[*_]\s*"
)
_ABOUT_PAGE = re.compile(
    r"(?i)\b(updated|reviewed|maintained|generated|last (?:edited|changed|modified)|next review|"
    r"stand|zuletzt|aktualisiert|geändert|gepflegt)\b"
)
_HEADING_LINE = re.compile(r" {0,3}#{1,6}(?:\s|$)")


def _body_end(page_text: str, lines: list[str], headings: Iterable[Heading]) -> int:
    """How many of the page's lines hold its body: all but a footer at its end (links or fields
    after a rule; one line of two links or an arrow: "[← Zurück](../README.md) | [Nächstes
    Thema](04.md)"; lines about the page: "*Last updated: 2026-02-03*") and the sections of sources,
    links and "see also" it ends with; never fewer than its frontmatter's."""
    header = len(lines_of(page_text[: split_frontmatter(page_text)[2]]))  # its closing line too, with no newline

    def blank(i: int) -> bool:
        return not lines[i].strip()

    def thematic_break(i: int) -> bool:  # under a line of text it underlines a heading instead
        return i >= header and _RULE.fullmatch(lines[i].rstrip("\r\n")) is not None and (i == header or blank(i - 1))

    def footer_line(i: int) -> bool:
        line = lines[i]
        rest = _LINK.sub("", line)
        return rest != line and not _BLOCK_LINE.match(line) and not re.search(r"\w", _ARROW.sub("", rest))

    def field_line(i: int) -> bool:
        return _FIELD_LINE.fullmatch(lines[i].rstrip("\r\n")) is not None

    end = len(lines)
    while end > header and blank(end - 1):
        end -= 1
    tail = end
    while tail > header and (blank(tail - 1) or footer_line(tail - 1) or field_line(tail - 1)):
        tail -= 1
    closing = [i for i in range(tail, end) if not blank(i)]
    if tail < end and thematic_break(tail - 1):
        end = tail - 1
    elif (  # lines about the page after its body (not the fields a section or the page is made of)
        tail > header
        and not _HEADING_LINE.match(lines[tail - 1])
        and 0 < len(closing) <= 4
        and all(field_line(i) and _ABOUT_PAGE.search(lines[i]) for i in closing)
    ):
        end = tail
    elif (  # one line of its own at the end: two links or an arrow
        end - 2 > header
        and footer_line(end - 1)
        and blank(end - 2)
        and (len(_LINK.findall(lines[end - 1])) >= 2 or _ARROW.search(lines[end - 1]))
    ):
        end -= 1
    for heading in sorted((h for h in headings if h.level >= 2), key=lambda h: -h.line):
        if heading.line > end:
            continue
        if fold(heading.text).strip(" :") not in _BACK_MATTER and not _relations(heading, lines[heading.line : end]):
            break
        end = heading.line - 1
    while end > header and (blank(end - 1) or thematic_break(end - 1)):
        end -= 1
    return max(end, header)


# basic-memory's relations: "- implements [[Search Design]]", a relation's name then a link.
_RELATION = re.compile(r"[ \t]*[-*+][ \t]+[^\s\[\]]+(?:[ \t]+[^\s\[\]]+)*[ \t]+\[\[")


def _relations(heading: Heading, section: list[str]) -> bool:
    """Whether a section is basic-memory's `## Relations` list, which points elsewhere as a
    footer does: its items name a relation and link a page."""
    items = [line for line in section if line.strip()]
    return (
        fold(heading.text).strip(" :") == "relations" and bool(items) and all(_RELATION.match(line) for line in items)
    )


def _at_end(lines: list[str], end: int, paragraph: str, newline: str) -> str:
    """The page with a paragraph after its first `end` lines (its body, `_body_end`: before a
    footer of links and the sections of sources and links it ends with; or a block the paragraph
    follows), a blank line before it, the page's own space after it."""
    body = "".join(lines[:end]).rstrip("\r\n")
    rest = "".join(lines[end:])
    before = body + newline + newline if body.strip() else ""
    after = rest if not rest or rest.startswith(("\n", "\r\n")) else newline + rest
    return before + paragraph + newline + after


def plan_merge_into(
    vault: Vault, path: str, sentences: list[str], page_text: str, after_line: int | None = None
) -> Plan:
    """The new sentences as a paragraph at the end of the page's best-matching section (the
    section whose heading shares most words with them; the end of the page when none does), or
    after the page's first `after_line` lines; an event as a line of its history section; on a page
    keeping basic-memory's observations, one more of them."""
    if after_line is None:  # a basic-memory observation, or a line of the page's history
        line = _observation_line(vault, path, sentences, page_text) or _history_line(vault, path, sentences, page_text)
        if line is not None:
            return line
    words = {fold(w) for s in sentences for w in WORD.findall(s)} - STOP
    newline = "\r\n" if "\r\n" in page_text else "\n"
    paragraph = linked(vault, " ".join(sentences), path)
    lines = lines_of(page_text)
    if after_line is not None:
        return _merge_plan(path, page_text, _at_end(lines, after_line, paragraph, newline))
    headings = vault.pages[path].headings
    body = _body_end(page_text, lines, headings)  # never a section of sources or links at its end
    # Nor into a history section the page ends with: a fact goes before it, as before its footer.
    sections = [h for h in headings if h.level >= 2 and h.line <= body]
    if sections and _is_history(sections[-1]):
        body = sections[-1].line - 1
        while body > 0 and not lines[body - 1].strip():
            body -= 1
    best = max(
        (h for h in headings if h.level >= 2 and h.line <= body and not _is_history(h)),
        key=lambda h: (len(words & {fold(w) for w in WORD.findall(h.text)}), -h.line),
        default=None,
    )
    if best is not None and words & {fold(w) for w in WORD.findall(best.text)}:
        head, offset = _section_end(page_text, lines, headings, best, newline, body)
        text = head + newline + paragraph + newline + page_text[offset:]
    else:
        text = _at_end(lines, body, paragraph, newline)
    return _merge_plan(path, page_text, text)


def _merge_plan(path: str, page_text: str, text: str) -> Plan:
    details = {"decision": "merge-into", "page": path}
    change = FileChange(path, page_text.encode("utf-8"), text.encode("utf-8"))
    return Plan("remember", f"Remember: add to {path}", (change,), {}, 0, (), details)


def _section_end(
    page_text: str, lines: list[str], headings: Iterable[Heading], heading: Heading, newline: str, body: int
) -> tuple[str, int]:
    """The text up to the end of `heading`'s section (its last line that is not blank, ending in a
    newline), and that end's offset: where a line added to the section goes; a section in the
    page's body (its first `body` lines, `_body_end`) ends before its footer."""
    following = [h.line for h in headings if h.line > heading.line and h.level <= heading.level]
    end_line = (following[0] - 1) if following else len(lines)
    if heading.line <= body:
        end_line = min(end_line, body)
    while end_line > heading.line and not lines[end_line - 1].strip():
        end_line -= 1
    offset = sum(len(line) for line in lines[:end_line])
    head = page_text[:offset] if page_text[:offset].endswith("\n") else page_text[:offset] + newline
    return head, offset
