"""What a page says that other pages do not: its text without the vault's template sentences.

Pages made from one template (catalogue entries, people pages, incident reports) share most of
their words without being duplicates. A sentence that recurs on TEMPLATE_PAGES or more pages is
the vault's boilerplate, and so is a sentence of a template with slots filled in ("Minimal is a
theme by kepano"): most of its word triples recur on TEMPLATE_PAGES pages. What is left, with the
title, is what duplicates are judged on. A page copied once or twice stays itself: its sentences
recur on two or three pages, not four.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from curator.core.markdown import without_heading_lines
from curator.core.parse import split_frontmatter

TEMPLATE_PAGES = 4  # a sentence on this many pages or more is template text
SLOT_SHARE = 2 / 3  # a sentence whose word triples recur this often is a filled-in template
RECIPE = "b3"  # names this module's rules in cache keys: bump when what it returns changes

_LINK = re.compile(r"!?\[\[([^\[\]|#\n]*)(?:#[^\[\]|\n]*)?(?:\|([^\[\]\n]*))?\]\]")
_MD_LINK = re.compile(r"!?\[([^\[\]\n]*)\]\([^()\n]*\)")
# A paragraph ends at a blank line or where a list item, quote or table row begins; lines
# wrapped inside a paragraph are one text.
_BLOCK_END = re.compile(r"\n[ \t]*(?:\n|(?=(?:[-*+]|\d+[.)]|>|\|)[ \t]))")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_LIST_MARK = re.compile(r"^(?:[-*+]|\d+[.)])[ \t]+")
_KEY = re.compile(r"\W+")


def body_sentences(text: str) -> list[str]:
    """The sentences (and non-sentence lines) of a page's body: no frontmatter, no heading lines
    (a template's headings are the same on unrelated pages), links as the words they show."""
    _, _, body_at = split_frontmatter(text)
    body = without_heading_lines(text[body_at:])
    body = _MD_LINK.sub(r"\1", wikilinks_as_shown(body))
    return [
        s
        for block in _BLOCK_END.split(body)
        for s in (piece.strip(" \t-*+>|") for piece in _SENTENCE_END.split(_LIST_MARK.sub("", " ".join(block.split()))))
        if s
    ]


def wikilinks_as_shown(text: str) -> str:
    """`text` with each wikilink replaced by the words it shows: its label, else its target."""
    return _LINK.sub(lambda m: m.group(2) or m.group(1), text)


def _key(sentence: str) -> str:
    return _KEY.sub(" ", sentence.casefold()).strip()


def _triples(words: list[str]) -> list[str]:
    return [" ".join(words[i : i + 3]) for i in range(len(words) - 2)]


class Template:
    """The vault's template text: whole sentences and word triples that recur on many pages.

    Counted as 64-bit hashes in arrays, not as strings in a Counter: a vault of millions of words
    has millions of distinct triples.
    """

    def __init__(self, pages: Iterable[list[str]]) -> None:
        sentences: list[np.ndarray] = []
        triples: list[np.ndarray] = []
        for found in pages:
            keys = {_key(s) for s in found}
            sentences.append(np.fromiter((hash(k) for k in keys if k), dtype=np.int64))
            triples.append(np.unique(np.fromiter((hash(t) for k in keys for t in _triples(k.split())), dtype=np.int64)))
        self.sentences = _recurring(sentences)
        self.triples = _recurring(triples)

    def distinctive(self, sentences: list[str]) -> list[str]:
        """The sentences that are not template text, then the words that fill the slots of the
        filled-in template sentences (a theme's name, its author), as one more sentence."""
        kept: list[str] = []
        slots: list[str] = []
        for sentence in sentences:
            key = _key(sentence)
            if not key or hash(key) in self.sentences:
                continue
            words = key.split()
            common = [hash(triple) in self.triples for triple in _triples(words)]
            if len(common) < 3 or sum(common) < SLOT_SHARE * len(common):
                kept.append(sentence)
                continue
            covered = [False] * len(words)  # a word inside a recurring triple is template text
            for i, is_common in enumerate(common):
                if is_common:
                    covered[i : i + 3] = [True, True, True]
            slots += [word for word, done in zip(words, covered, strict=True) if not done]
        if slots:
            kept.append(" ".join(slots))
        return kept


def _recurring(per_page: list[np.ndarray]) -> frozenset[int]:
    """The hashes found on TEMPLATE_PAGES pages or more (each page's array holds each hash once).

    Empties `per_page` as it merges it. Sorted in place, a hash on n pages is a run of n equal
    values, so it recurs when the value TEMPLATE_PAGES - 1 places on is the same: no count of
    every hash is made (np.unique's counts held four copies of 9M hashes at 100k pages, 0.3 GB)."""
    if not per_page:
        return frozenset()
    merged = np.concatenate(per_page)
    per_page.clear()
    merged.sort()
    reach = TEMPLATE_PAGES - 1
    return frozenset(np.unique(merged[reach:][merged[reach:] == merged[:-reach]]).tolist())
