"""What each page says of its own: its title and the sentences that are not template text (see
boilerplate.py), kept by content hash; their words and the vectors of their pieces, as the
similar-page search compares them."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from curator.core.common.errors import CuratorError
from curator.core.common.progress import Phased, phase
from curator.core.meaning.embeddings import (
    StaticEmbedder,
    chunks,
)
from curator.core.meaning.vectors import Progress, cached_rows, store_name
from curator.core.read import boilerplate
from curator.core.read.page import content_hash
from curator.core.read.resolve import fold
from curator.core.state import cache

if TYPE_CHECKING:
    from curator.core.read.vault import Vault

PIECE_WORDS = 8  # sentences shorter than this are read together with the next


MAX_PIECES = 48  # a long page is scored on this many pieces, spread over it


PAGES_PER_BATCH = 500  # pages embedded together (their pieces' vectors are held at once)


_TITLE_WORD = re.compile(r"\w+", re.UNICODE)


STOPWORDS = frozenset(
    "a an the and or of on in at to for from by with without is are was were be been it its this that these "
    "those as into over after before again not no vs via der die das und oder von vom zum zur im am an auf "
    "mit für ist sind war ein eine einer eines den dem des bei nach aus".split()
)


def title_overlap(a: str, b: str) -> float:
    """The share of the shorter title's words that the other title has too: "Minimal" and
    "Minimal - Theme" name the same thing; a model reading the two titles may not think so."""
    return word_overlap(title_words(a), title_words(b))


def word_overlap(words_a: set[str], words_b: set[str]) -> float:
    """`title_overlap` of two titles' `title_words`."""
    if not words_a or not words_b:
        return 0.0
    return len(words_a & words_b) / min(len(words_a), len(words_b))


def title_words(title: str) -> set[str]:
    return {w for w in (fold(m) for m in _TITLE_WORD.findall(title)) if w not in STOPWORDS and not w.isdigit()}


class Distinct:
    """What a page says that other pages do not: its title and its non-template sentences.

    Reused from the last run (see `distinctive_texts`), a page's sentences are found again only
    when something asks for them: to embed a page whose vectors are not stored.
    """

    __slots__ = ("_find", "_sentences", "key", "title", "words")

    def __init__(self, title: str, key: str, words: int, find: Callable[[], list[str]]) -> None:
        self.title = title
        self.key = key  # the hash of its `text`, which the vector stores know it by
        self.words = words  # how many words the page says of its own (its title aside)
        self._find = find
        self._sentences: list[str] | None = None

    @classmethod
    def of(cls, title: str, sentences: list[str]) -> Distinct:
        words = sum(len(sentence.split()) for sentence in sentences)
        found = cls(title, _text_key(_joined(title, sentences)), words, lambda: sentences)
        found._sentences = sentences
        return found

    @property
    def sentences(self) -> list[str]:
        if self._sentences is None:
            self._sentences = self._find()
        return self._sentences

    @property
    def text(self) -> str:
        return _joined(self.title, self.sentences)

    def pieces(self) -> list[str]:
        """The pieces the transformer reads: the title, then the sentences, short ones joined to the
        next until PIECE_WORDS words; at most MAX_PIECES, spread from first to last."""
        grouped: list[str] = []
        current: list[str] = []
        words = 0
        for sentence in self.sentences:
            current.append(sentence)
            words += len(sentence.split())
            if words >= PIECE_WORDS:
                grouped.append(" ".join(current))
                current, words = [], 0
        if current:
            grouped.append(" ".join(current))
        grouped = [piece for text in grouped for piece in chunks(text)]  # a sentence of 300 words
        if len(grouped) > MAX_PIECES - 1:
            picks = np.linspace(0, len(grouped) - 1, MAX_PIECES - 1).round().astype(int)
            grouped = [grouped[i] for i in sorted(set(picks.tolist()))]
        return [self.title, *grouped]


def _joined(title: str, sentences: list[str]) -> str:
    return f"{title}\n\n{' '.join(' '.join(sentences).split())}"


def _text_key(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def distinctive_texts(vault: Vault, progress: Phased | None = None) -> dict[str, Distinct]:
    """Each readable page's title and non-template sentences (see boilerplate.py), by path.

    What the template counts of each page is kept by the page's content hash, and what each page
    says of its own by its title, content hash and the template text it holds: a warm run reads
    the pages that changed and those whose template text did (a sentence now on enough pages to
    count), not every page.
    """
    if "distinct.texts" in vault.derived:
        known_texts: dict[str, Distinct] = vault.derived["distinct.texts"]
        return known_texts
    readable = [page.path for page in vault.pages.values() if page.unreadable is None and page.sha]
    shas = [vault.pages[path].sha for path in readable]
    known = boilerplate.WordHashes()
    read: dict[int, list[str]] = {}  # the sentences of the pages read this time, by index

    def sentences_of(i: int) -> list[str]:
        if i not in read:
            read[i] = _sentences_read(vault.root, readable[i], shas[i])
        return read[i]

    counted = phase(progress, "finding template text", "pages")

    def counts_of(missing: list[int]) -> list[np.ndarray]:
        rows = []
        for done, i in enumerate(missing, 1):
            rows.append(boilerplate.page_row(sentences_of(i), known)[:, None])
            if counted is not None and done % 500 == 0:
                counted(done, len(missing))
        return rows

    recipe = boilerplate.RECIPE, boilerplate.TEMPLATE_PAGES, boilerplate.SLOT_SHARE
    rows, _ = cached_rows(vault, store_name("template", *recipe), shas, counts_of)
    if counted is not None:
        counted(len(readable), len(readable))
    counts = [row[:, 0] for row in rows]  # views: the stores keep each row as a column
    template = boilerplate.Template(counts, known)
    store = f"{store_name('distinct', *recipe)}.json"
    stored = cache.read_large_json(cache.cache_path(vault.root, store)) if vault.use_cache else None
    if not isinstance(stored, dict):
        stored = {}
    held = [  # what each page says of its own is known by its title, content and the template text it holds
        _text_key(f"{vault.pages[path].title}\0{sha}\0{template_text}")
        for path, sha, template_text in zip(readable, shas, template.held_by_each(counts), strict=True)
    ]
    del rows, counts  # about 8 bytes a word (0.1 GB at 100,000 pages): free before the sentences are found
    found: dict[str, Distinct] = {}
    kept: dict[str, list[Any]] = {}
    for i, (path, key) in enumerate(zip(readable, held, strict=True)):
        title = vault.pages[path].title
        last = stored.get(key)
        if isinstance(last, list) and len(last) == 2 and isinstance(last[0], str) and isinstance(last[1], int):
            again = partial(_found_again, template, vault.root, path, shas[i])  # holds no vault: no cycle
            found[path] = Distinct(title, last[0], last[1], again)
        else:
            found[path] = Distinct.of(title, template.distinctive(sentences_of(i)))
        kept[key] = [found[path].key, found[path].words]
    read.clear()  # a page asked for later is read again, and the template it is read with
    template.known = boilerplate.WordHashes()  # need not keep every word's hash for that
    if vault.use_cache and kept != stored:
        cache.write_json(vault.root, store, kept)
    vault.derived["distinct.texts"] = found
    return found


def _sentences_read(root: Path, path: str, sha: str) -> list[str]:
    """The page's sentences, from its file as it was loaded: what is kept by its content hash must
    come from that content."""
    data = (root / path).read_bytes()
    if content_hash(data) != sha:
        raise CuratorError(f"{path} changed while its duplicates were looked for; run again")
    return boilerplate.body_sentences(data.decode("utf-8", "replace"))


def _found_again(template: boilerplate.Template, root: Path, path: str, sha: str) -> list[str]:
    return template.distinctive(_sentences_read(root, path, sha))


def piece_vectors(
    vault: Vault,
    provider: Any,
    pages: list[Distinct],
    progress: Progress | None = None,
    others: list[Distinct] | None = None,
) -> tuple[list[np.ndarray], int]:
    """Per page, its pieces' unit vectors with one more column, each piece's word count; and how
    many pages were embedded now (the rest came from the cache). `provider` is an embedding
    provider or the static embedder; the cache keeps what it has of `others` too (the vault's
    other pages)."""
    store = store_name("pieces", provider.id, boilerplate.RECIPE, PIECE_WORDS, MAX_PIECES)
    # The static embedder's rows are many and only pick candidates: half precision is plenty.
    dtype = np.float16 if isinstance(provider, StaticEmbedder) else np.float32

    def compute(indexes: list[int]) -> list[np.ndarray]:
        out: list[np.ndarray] = []
        for start in range(0, len(indexes), PAGES_PER_BATCH):  # bounded memory on any vault
            out += embed_pages([pages[i] for i in indexes[start : start + PAGES_PER_BATCH]], start, len(indexes))
        return out

    def embed_pages(batch: list[Distinct], done_before: int, total: int) -> list[np.ndarray]:
        per_page = [page.pieces() for page in batch]
        flat = [piece for pieces in per_page for piece in pieces]
        if progress is None:
            vectors = provider.embed_pieces(flat)
        else:  # counted in pages: a page is done when its last piece is
            ends = np.cumsum([len(pieces) for pieces in per_page])

            def pages_done(done: int, _total: int) -> None:
                progress(done_before + int(np.searchsorted(ends, done, side="right")), total)

            vectors = provider.embed_pieces(flat, pages_done)
        out, at = [], 0
        for pieces in per_page:
            weights = np.array([[max(len(p.split()), 1)] for p in pieces], dtype=np.float32)
            out.append(np.hstack([vectors[at : at + len(pieces)], weights]).astype(dtype))
            at += len(pieces)
        return out

    also_keep = {p.key for p in others} if others else None
    return cached_rows(vault, store, [p.key for p in pages], compute, also_keep)


def aligned_score(a: np.ndarray, b: np.ndarray, titles: float = 0.0) -> float:
    """Two pages' piece rows (vector, then weight; the title first): each piece's best match on
    the other page, averaged by length, both ways. Reworded copies match piece for piece; pages on
    one topic that say different things do not, though their averages may be close. `titles` is
    how much the titles share by name (`title_overlap`): the titles match at least that well."""
    a, b = a.astype(np.float32, copy=False), b.astype(np.float32, copy=False)
    sims = a[:, :-1] @ b[:, :-1].T
    sims[0, 0] = max(sims[0, 0], titles)
    wa, wb = a[:, -1], b[:, -1]
    forward = float(sims.max(axis=1) @ wa / wa.sum())
    backward = float(sims.max(axis=0) @ wb / wb.sum())
    return (forward + backward) / 2


def whole_text_vectors(
    vault: Vault, store: str, pages: list[Distinct], embed: Callable[[list[str]], np.ndarray]
) -> tuple[np.ndarray, int]:
    """One unit vector per page's text (a row of the matrix), cached by the text's hash in `store`."""
    rows, embedded = cached_rows(
        vault, store, [p.key for p in pages], lambda missing: list(embed([pages[i].text for i in missing])[:, None])
    )
    matrix = np.concatenate(rows) if rows else np.zeros((0, 1), dtype=np.float32)
    return matrix.astype(np.float32, copy=False), embedded
