"""A page as search reads it: section-sized chunks, each with the path of headings above it."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from curator.core.read import markdown
from curator.core.read.parse import split_frontmatter


@dataclass(frozen=True)
class Chunk:
    path: str
    number: int
    heading: str  # the heading path, "Page > Section > Subsection"
    body: str


# A plugin's query in a fence (Dataview's, Obsidian's own `query`, Tasks'): what it finds is other
# pages', its words no answer (a new user's snippets quoted `list from ... AND -"CHANGELOG"`).
_QUERY_FENCE = re.compile(r"[ \t>]*(?:`{3,}|~{3,})[ \t]*(?:dataview|dataviewjs|query|tasks|base)\b", re.IGNORECASE)


def chunks_of(title: str, path: str, text: str) -> list[Chunk]:
    """Split a page at its headings; each chunk keeps the path of headings above it; a plugin's
    query block is no text of it."""
    _, _, body_at = split_frontmatter(text)
    body = text[body_at:]
    for start, end in reversed(markdown.fence_ranges(body, 0)):
        if _QUERY_FENCE.match(body, start):
            body = body[:start] + body[end:]
    result: list[Chunk] = []
    for heading, section in markdown.sections(title, body):
        said = section.strip()
        if said or heading != title:
            result.append(Chunk(path, len(result), heading, said))
    return result or [Chunk(path, 0, title, "")]


def within(chunks: list[Chunk], budget: int) -> list[Chunk]:
    """The chunks, their text cut where the page's first `budget` characters end (at least one)."""
    kept: list[Chunk] = []
    for chunk in chunks:
        if budget <= 0 and kept:
            break
        kept.append(chunk if len(chunk.body) <= budget else dataclasses.replace(chunk, body=chunk.body[:budget]))
        budget -= len(chunk.body)
    return kept
