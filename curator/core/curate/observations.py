"""A basic-memory page's observations: the list items `- [category] what was learned #tag
(context)` under its `## Observations` heading, which basic-memory reads into its knowledge
graph, one fact an item. In a basic-memory vault (links name pages by `title:`) a memory joining
such a page is one more of them, not a paragraph after its `## Relations`; a change strikes the
old item's words and adds the new one after it; a new page keeps its text as one."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from curator.core.read.page import Heading
from curator.core.read.resolve import fold
from curator.core.read.vault import Vault

HEADING = "Observations"
# As basic-memory's parser reads an item: a category in brackets, no brackets or parentheses in
# it, then the content ("[ ]", "[x]", "[/]" are tasks, "[00:01:12]" a transcript's time).
_ITEM = re.compile(r"(?P<lead>[ \t]*(?:[-*+]|\d+[.)])[ \t]+)\[(?P<category>[^\[\]()\n]+)\][ \t]+(?=\S)")
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])(?:[ \t]|$)")
_TIME = re.compile(r"\d{1,3}:\d{2}(?::\d{2})?(?:[.,]\d{1,3})?(?:\s+-\s+\d{1,3}:\d{2}(?::\d{2})?(?:[.,]\d{1,3})?)?")
_FENCE = re.compile(r"[ \t]{0,3}(?:```|~~~)")
# What the text opens with that names its category: "[gotcha] ...", or "Gotcha: ..." where the
# page's items use that category.
_OWN_CATEGORY = re.compile(r"\[(?P<category>[^\[\]()\n]+)\][ \t]+(?=\S)")
_SAID_CATEGORY = re.compile(r"(?P<category>[^\W\d_][\w -]{0,30}?)[ \t]*:[ \t]+(?=\S)")
# An item's tags and context, which stay outside a strike: "~~old words~~ #cadence (2026 spec)".
TAIL = re.compile(r"(?:[ \t]+(?:#[^\s#]\S*|\([^()\n]*\)))+[ \t]*$")


def category_of(line: str) -> re.Match[str] | None:
    """The line as a basic-memory observation (its `lead` and `category` groups), or None."""
    found = _ITEM.match(line)
    if found is None:
        return None
    category = found["category"].strip()
    if (
        not category
        or _TIME.fullmatch(category)
        or (len(category) == 1 and (category in "xX" or not category.isalnum()))
    ):
        return None
    return found


def item_end(lines: Sequence[str], at: int) -> int:
    """The index of the line after the list item that opens at line `at`: its continuation lines
    and sub-items stand further in than it does."""
    indent = len(lines[at]) - len(lines[at].lstrip(" \t"))
    end = at + 1
    while end < len(lines) and lines[end].strip() and len(lines[end]) - len(lines[end].lstrip(" \t")) > indent:
        end += 1
    return end


def tail_of(item: str) -> re.Match[str] | None:
    """The `#tags` and `(context)` an item's text ends with, not inside a code span."""
    found = TAIL.search(item)
    return found if found is not None and item.count("`", 0, found.start()) % 2 == 0 else None


def next_lead(lead: str) -> str:
    """The lead of the item after one of `lead`: a numbered list counts on."""
    found = re.match(r"([ \t]*)(\d+)([.)][ \t]+)", lead)
    return f"{found[1]}{int(found[2]) + 1}{found[3]}" if found else lead


def _in_vault(vault: Vault) -> bool:
    return bool(vault.resolver.named_title)


def observations_heading(vault: Vault, path: str, lines: list[str]) -> Heading | None:
    """The page's `## Observations` heading, in a basic-memory vault, when its section holds an
    observation or no list item at all (a to-do list there keeps its prose); `lines`: the page's
    lines, a heading's `line` counted from 1."""
    if not _in_vault(vault):
        return None
    headings = vault.pages[path].headings
    for at, heading in enumerate(headings):
        if not _observations(heading):
            continue
        end = next((h.line - 1 for h in headings[at + 1 :] if h.level <= 2), len(lines))
        listed = [n for n in _outside_fences(lines, heading.line, end) if _LIST_ITEM.match(lines[n])]
        if not listed or items_of(lines, heading.line, end):
            return heading
    return None


def _observations(heading: Heading) -> bool:
    return heading.level == 2 and fold(heading.text).strip(" :") == fold(HEADING)


def items_of(lines: Sequence[str], start: int, stop: int) -> list[int]:
    """The indexes of the observation items among lines[start:stop], outside fenced code."""
    return [n for n in _outside_fences(lines, start, stop) if category_of(lines[n].rstrip("\r\n"))]


def _outside_fences(lines: Sequence[str], start: int, stop: int) -> list[int]:
    kept, fenced = [], False
    for n in range(start, stop):
        if _FENCE.match(lines[n]):
            fenced = not fenced
        elif not fenced:
            kept.append(n)
    return kept


def keeps_observations(vault: Vault) -> bool:
    """Whether a new page keeps its text as an observation: in a basic-memory vault, half of
    whose pages or more have an `## Observations` section."""
    if not _in_vault(vault):
        return False
    pages = list(vault.pages.values())
    kept = sum(any(map(_observations, p.headings)) for p in pages)
    return kept >= max(2, len(pages) / 2)


def observation(text: str, event: bool, lines: Sequence[str] = (), lead: str = "- ") -> str:
    """The text as one observation item after `lead` (the page's own bullet and indent): in the
    category it opens with ("[gotcha] ...", or "Gotcha: ..." where `lines` use that category),
    else `event` for an event and `fact` for any other (basic-memory's vaults use it most); a
    list marker it opens with is left out."""
    text = " ".join(text.split())
    text = re.sub(r"^(?:[-*+]|\d+[.)])[ \t]+", "", text)
    used = Counter(found["category"].strip() for line in lines if (found := category_of(line)))
    category = "event" if event else "fact"
    if (own := _OWN_CATEGORY.match(text)) and category_of(f"- {text}"):
        category, text = own["category"].strip(), text[own.end() :]
    elif (said := _SAID_CATEGORY.match(text)) and (named := _used(said["category"], used)):
        category, text = named, text[said.end() :]
        text = text[:1].upper() + text[1:]
    return f"{lead}[{category}] {text}"


def _used(word: str, used: Counter[str]) -> str | None:
    return next((category for category in used if fold(category) == fold(word.strip())), None)
