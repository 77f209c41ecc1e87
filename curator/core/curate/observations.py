"""A basic-memory page's observations: the lines `- [category] what was learned #tag` under its
`## Observations` heading, which basic-memory reads into its knowledge graph, one fact a line.
A memory joining such a page is one more of them, not a paragraph after its `## Relations`; a new
page of a vault whose pages keep them keeps it too."""

from __future__ import annotations

import re

from curator.core.read.page import Heading
from curator.core.read.resolve import fold
from curator.core.read.vault import Vault

HEADING = "Observations"
# A list item opening with a category in brackets; "[ ]" and "[x]" are tasks, "[[" a link.
_OBSERVATION = re.compile(r" {0,3}[-*] \[(?![ xX]\])[^\[\]\n]+\] \S")


def is_observation(line: str) -> bool:
    return _OBSERVATION.match(line) is not None


def observations_heading(vault: Vault, path: str, lines: list[str]) -> Heading | None:
    """The page's `## Observations` heading when its section holds an observation (`lines`: the
    page's lines, a heading's `line` counted from 1)."""
    headings = vault.pages[path].headings
    for at, heading in enumerate(headings):
        if heading.level != 2 or fold(heading.text).strip(" :") != fold(HEADING):
            continue
        end = next((h.line - 1 for h in headings[at + 1 :] if h.level <= 2), len(lines))
        if any(is_observation(line) for line in lines[heading.line : end]):
            return heading
    return None


def keeps_observations(vault: Vault) -> bool:
    """Whether a new page keeps its text as an observation: in a basic-memory vault (links name
    pages by `title:`), half of whose pages or more have an `## Observations` section."""
    if not vault.resolver.named_title:
        return False
    pages = list(vault.pages.values())
    kept = sum(any(h.level == 2 and fold(h.text).strip(" :") == fold(HEADING) for h in p.headings) for p in pages)
    return kept >= max(2, len(pages) / 2)


def observation(text: str, event: bool) -> str:
    """The text as one observation line: an event's category is `event`, any other's `fact` (the
    category basic-memory's vaults use most)."""
    return f"- [{'event' if event else 'fact'}] {' '.join(text.split())}"
