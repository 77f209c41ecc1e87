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

from curator.core.common.fast import blake2b
from curator.core.read.markdown import without_heading_lines
from curator.core.read.parse import split_frontmatter

TEMPLATE_PAGES = 4  # a sentence on this many pages or more is template text
SLOT_SHARE = 2 / 3  # a sentence whose word triples recur this often is a filled-in template
RECIPE = "b3"  # names this module's rules in cache keys: bump when what it returns changes

_LINK = re.compile(r"!?\[\[([^\[\]|#\n]*)(?:#[^\[\]|\n]*)?(?:\|([^\[\]\n]*))?\]\]")
_MD_LINK = re.compile(r"!?\[([^\[\]\n]*)\]\([^()\n]*\)")
# A paragraph ends at a blank line or where a list item, quote or table row begins; lines
# wrapped inside a paragraph are one text.
_BLOCK_END = re.compile(r"\n[ \t]*(?:\n|(?=(?:[-*+]|\d+[.)]|>|\|)[ \t]))")
_LIST_MARK = re.compile(r"^(?:[-*+]|\d+[.)])[ \t]+")
_KEY = re.compile(r"\W+")


def body_sentences(text: str) -> list[str]:
    """The sentences (and non-sentence lines) of a page's body: no frontmatter, no heading lines
    (a template's headings are the same on unrelated pages), links as the words they show."""
    _, _, body_at = split_frontmatter(text)
    body = wikilinks_as_shown(without_heading_lines(text[body_at:]))
    if "](" in body:
        body = _MD_LINK.sub(r"\1", body)
    return [
        s
        for block in _BLOCK_END.split(body)
        for s in (piece.strip(" \t-*+>|") for piece in _sentences(_LIST_MARK.sub("", " ".join(block.split()))))
        if s
    ]


def _sentences(line: str) -> list[str]:
    """A paragraph made one line with single spaces, split after each `.`, `!` or `?` and its
    space (string replaces: a look-behind regex took two and a half times as long). The line has
    no newline, so one marks the splits."""
    return line.replace(". ", ".\n").replace("! ", "!\n").replace("? ", "?\n").split("\n")


def wikilinks_as_shown(text: str) -> str:
    """`text` with each wikilink replaced by the words it shows: its label, else its target."""
    if "[[" not in text:
        return text
    return _LINK.sub(lambda m: m.group(2) or m.group(1), text)


def _words(sentence: str) -> list[str]:
    """A sentence's words as template text compares them: case-folded, split at whatever is not a
    letter, digit or underscore (an ASCII sentence by a byte table: a fifth of the regex's cost)."""
    if sentence.isascii():
        return sentence.encode().translate(_ASCII_WORDS).decode().split()
    return _KEY.sub(" ", sentence.casefold()).split()


# An ASCII byte as `_KEY` and casefold leave it: capitals to small letters, non-word characters to spaces.
_ASCII_WORDS = bytes(
    c + 32 if 65 <= c <= 90 else c if c < 128 and (chr(c).isalnum() or c == 95) else 32 for c in range(256)
)
HELD_BATCH = 8192  # pages whose held template text is worked out at once
_MIX = np.uint64(0x9E3779B97F4A7C15)  # odd: hashes of word runs mixed from their words' hashes


def _stable_hash(text: str) -> int:
    """A 64-bit hash of `text` that is the same in every process (Python's own `hash` is not, and
    a page's hashes are kept from run to run)."""
    return int.from_bytes(blake2b(text.encode(), digest_size=8).digest(), "little", signed=True)


class WordHashes(dict[str, int]):
    """`_stable_hash` of words, each worked out once."""

    def __missing__(self, word: str) -> int:
        value = self[word] = _stable_hash(word)
        return value


def _triple_hashes(word_lists: list[list[str]], known: WordHashes) -> tuple[np.ndarray, list[int]]:
    """A hash for every run of three words in the sentences' words, as they stand one after
    another (runs across two sentences included: callers take a sentence's own), and where each
    sentence's words start. Made from the words' hashes with array arithmetic: joining and
    hashing each triple as a string took most of the template's time."""
    starts: list[int] = []
    flat: list[str] = []
    for words in word_lists:
        starts.append(len(flat))
        flat += words
    if len(flat) < 3:
        return np.zeros(0, dtype=np.int64), starts
    h = np.fromiter(map(known.__getitem__, flat), dtype=np.int64, count=len(flat)).view(np.uint64)
    return ((h[:-2] * _MIX + h[1:-1]) * _MIX + h[2:]).view(np.int64), starts


def page_row(sentences: list[str], known: WordHashes) -> np.ndarray:
    """What the template counts of a page, as one array: how many distinct sentences it has, their
    hashes, then the hashes of the distinct word triples within its sentences. Depends on the
    page's text alone, so it is kept by content hash."""
    keyed = {" ".join(words): words for words in map(_words, sentences) if words}  # each sentence once
    word_lists = list(keyed.values())
    triples, _ = _triple_hashes(word_lists, known)
    if len(triples):
        sentence = np.repeat(np.arange(len(word_lists)), [len(words) for words in word_lists])
        triples = np.unique(triples[sentence[:-2] == sentence[2:]])
    return np.concatenate([[len(keyed)], np.fromiter(map(_stable_hash, keyed), np.int64, len(keyed)), triples])


def _member(values: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Which of `values` are in `table` (sorted, unique)."""
    if not len(table):
        return np.zeros(len(values), dtype=bool)
    at = np.minimum(np.searchsorted(table, values), len(table) - 1)
    found: np.ndarray = table[at] == values
    return found


class Template:
    """The vault's template text: whole sentences and word triples that recur on many pages.

    Counted as 64-bit hashes in sorted arrays, not as strings in a Counter or a set: a vault of
    millions of words has millions of distinct triples. Made from each page's `page_row`.
    """

    def __init__(self, rows: Iterable[np.ndarray], known: WordHashes) -> None:
        self.known = known
        sentences: list[np.ndarray] = []
        triples: list[np.ndarray] = []
        for row in rows:
            count = int(row[0])
            sentences.append(row[1 : 1 + count])
            triples.append(row[1 + count :])
        self.sentences = _recurring(sentences)
        self.triples = _recurring(triples)

    @classmethod
    def of(cls, pages: Iterable[list[str]]) -> Template:
        """The template of pages given as their sentences."""
        known = WordHashes()
        return cls([page_row(sentences, known) for sentences in pages], known)

    def held_by_each(self, rows: list[np.ndarray]) -> list[str]:
        """For each page's `page_row`, what names the template text it holds (its sentences and
        word triples that are template text, each set summed as mixed 64-bit hashes): a page's
        distinctive text stays the same while its text and this stay the same. Many pages at once:
        one search of the template for all their hashes (one search a page took 2.2 s at 100k
        pages), HELD_BATCH pages at a time (all at once held 0.2 GB more at the peak)."""
        return [
            name for start in range(0, len(rows), HELD_BATCH) for name in self._held(rows[start : start + HELD_BATCH])
        ]

    def _held(self, rows: list[np.ndarray]) -> list[str]:
        if not rows:
            return []
        sizes = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
        counts = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
        flat = np.concatenate(rows)
        # What each value of a row is: 0 its sentence count, 1 a sentence's hash, 2 a triple's hash.
        runs = np.stack([np.ones_like(sizes), counts, sizes - 1 - counts], axis=1).ravel()
        kind = np.repeat(np.tile(np.array([0, 1, 2], dtype=np.int8), len(rows)), runs)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])  # every row holds its count: none is empty
        sums = []
        for which, table in ((1, self.sentences), (2, self.triples)):
            held = np.zeros(len(flat), dtype=np.uint64)
            at = kind == which
            values = flat[at]
            held[at] = np.where(_member(values, table), values.view(np.uint64) * _MIX, np.uint64(0))
            sums.append(np.add.reduceat(held, starts).tolist())
        return [f"{a:x}.{b:x}" for a, b in zip(*sums, strict=True)]

    def distinctive(self, sentences: list[str]) -> list[str]:
        """The sentences that are not template text, then the words that fill the slots of the
        filled-in template sentences (a theme's name, its author), as one more sentence."""
        word_lists = [_words(sentence) for sentence in sentences]
        keys = np.fromiter((_stable_hash(" ".join(words)) for words in word_lists), np.int64, len(word_lists))
        template_sentence = _member(keys, self.sentences).tolist()
        hashes, starts = _triple_hashes(word_lists, self.known)
        common_triple = _member(hashes, self.triples).tolist()
        kept: list[str] = []
        slots: list[str] = []
        for sentence, words, start, is_template in zip(sentences, word_lists, starts, template_sentence, strict=True):
            if not words or is_template:
                continue
            common = common_triple[start : start + max(len(words) - 2, 0)]  # a word or two has no triple
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


def _recurring(per_page: list[np.ndarray]) -> np.ndarray:
    """The hashes found on TEMPLATE_PAGES pages or more, sorted (each page's array holds each hash once).

    Empties `per_page` as it merges it. Sorted in place, a hash on n pages is a run of n equal
    values, so it recurs when the value TEMPLATE_PAGES - 1 places on is the same: no count of
    every hash is made (np.unique's counts held four copies of 9M hashes at 100k pages, 0.3 GB)."""
    if not per_page:
        return np.zeros(0, dtype=np.int64)
    merged = np.concatenate(per_page)
    per_page.clear()
    merged.sort()
    reach = TEMPLATE_PAGES - 1
    return np.unique(merged[reach:][merged[reach:] == merged[:-reach]])
