"""Suspected duplicates: two stages over what each page says that other pages do not.

Text: a page's title and its sentences minus the vault's template text (boilerplate.py), so pages
built from one template are compared on what differs between them (their filled-in slots).

Scores align pieces, not averages: a page is read as its title and its sentences (short ones
joined), each piece's best match on the other page is averaged by length, both ways. Reworded
copies match piece for piece; pages on one topic that say different things do not.

Stage one uses only a static token table distilled from the bundled model (StaticEmbedder): each
page's STAGE_ONE_NEIGHBOURS nearest pages by whole-page vector (centred on the vault's mean), kept
where their pieces align within STAGE_ONE_MARGIN of the duplicate threshold. Stage two runs the
transformer only on the pages of those pairs and reports the pairs whose aligned score reaches the
threshold.

Pages that say the same thing in other words score below that threshold (the bundled MiniLM gives
such pairs 0.5-0.85, and docs of two commands that share a layout 0.88-0.97), but everything
each page says is said best by the other: each of its pieces finds its closest match there,
not on any other page, as each sentence of a translation finds its own (bitext mining). So a
pair whose two pages are each other's best match in stage one (by aligned score, REWORDED_STATIC
and REWORDED_STATIC_MARGIN, or by whole-page vector, REWORDED_NEAREST), each page saying
REWORDED_WORDS words of its own, goes to the transformer with each page's next REWORDED_CONTEXT
matches; it is reported when it scores `[thresholds] reworded` or more and every piece of each
page is closer to the other page than to those rivals (a page's copies above the threshold
aside). Related pages on one topic share some of what they say, not all of it.

Both stages are cached by the hash of the text they read, so a changed page costs one page. With
the lexical provider (no model) one stage compares whole-page vectors of every page, with
thresholds calibrated for near-verbatim copies. Thresholds and what they cost in recall:
benchmarks/duplicates_eval.py.

Candidates come without comparing all pairs: below EXACT_LIMIT pages one matrix product; above,
an inverted-file index (faiss IVF-Flat, about 4·√N clusters, PROBES probed, NEIGHBOURS kept).
"""

from __future__ import annotations

import functools
import hashlib
import re
import threading
import time
import zipfile
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple

import numpy as np

from curator.core import boilerplate, cache, markdown
from curator.core.embeddings import (
    EmbeddingProvider,
    LexicalProvider,
    StaticEmbedder,
    Vectors,
    chunks,
    load_provider,
)
from curator.core.errors import CuratorError
from curator.core.memory import release_free_memory
from curator.core.page import content_hash
from curator.core.parse import split_frontmatter
from curator.core.progress import Phased, phase
from curator.core.resolve import fold

if TYPE_CHECKING:
    from curator.core.config import Config
    from curator.core.vault import Vault

EXACT_LIMIT = 3000
NEIGHBOURS = 24
PROBES = 16
STAGE_ONE_COARSE = 0.3  # centred whole-page static cosine a pair needs to be looked at closer
STAGE_ONE_NEIGHBOURS = 5  # pages each page is compared with closer, at most
# Stage one passes a pair to the transformer when its aligned static score is within this much
# of the threshold the transformer's score must reach: on the labelled set, every pair the
# transformer scores at 0.8 or more scores no more than 0.22 lower here.
STAGE_ONE_MARGIN = 0.23
# A pair of pages stage one passes on as a possible reworded duplicate: its aligned static score
# and how far it is above either page's next best static match (chosen on the labelled set of
# benchmarks/duplicates_eval.py, with REWORDED_CONTEXT and the two thresholds in Config).
REWORDED_STATIC = 0.5
REWORDED_STATIC_MARGIN = 0.03
REWORDED_CONTEXT = 2  # each such page's best static matches the transformer scores too (its pair is one)
# Whole-page cosine (centred, static) from which two pages that are each other's nearest, by
# REWORDED_NEAREST_MARGIN over either page's next, are a possible rewording: the aligned static
# score misses heavy rewordings (0.40-0.50 on the labelled set) that the whole-page vector still
# pairs off (0.54-0.61, 0.05-0.11 ahead). The margin keeps 91 of the 382 such pairs of the
# 13,000 real-length pages of benchmarks/duplicates_bench.py (each pair costs the transformer).
REWORDED_NEAREST = 0.5
REWORDED_NEAREST_MARGIN = 0.05
# Words of its own (its sentences less the template's) a page needs to be judged a rewording: with
# fewer, its title decides, and catalogue entries whose names share a word stand out by far (on the
# 1,000-page catalogue of benchmarks/duplicates_bench.py, 9 such pairs of 6 words a page).
REWORDED_WORDS = 20
PIECE_WORDS = 8  # sentences shorter than this are read together with the next
MAX_PIECES = 48  # a long page is scored on this many pieces, spread over it
MODEL_PIECES = 1500  # pieces the transformer embeds in one run, at most: what its time is spent on
PAGES_PER_BATCH = 500  # pages embedded together (their pieces' vectors are held at once)
TEXT_RECIPE = "v3"  # bump when page_text or section_texts change: every cached vector is then rebuilt
Progress = Callable[[int, int], None]

_TITLE_WORD = re.compile(r"\w+", re.UNICODE)
STOPWORDS = frozenset(
    "a an the and or of on in at to for from by with without is are was were be been it its this that these "
    "those as into over after before again not no vs via der die das und oder von vom zum zur im am an auf "
    "mit für ist sind war ein eine einer eines den dem des bei nach aus".split()
)


def page_text(title: str, text: str) -> str:
    """What a page's vector for search is made of: its title and body, without frontmatter, heading
    lines (template headings are the same on unrelated pages) and link brackets."""
    _, _, body_at = split_frontmatter(text)
    return f"{title}\n\n{_plain_words(text[body_at:])}"


def _plain_words(markdown_text: str) -> str:
    """The words of a stretch of Markdown: heading lines out, links as the words they show."""
    return " ".join(boilerplate.wikilinks_as_shown(markdown.without_heading_lines(markdown_text)).split())


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    score: float
    merge_worthy: bool
    shared_title_words: tuple[str, ...]
    shared_neighbours: tuple[str, ...]
    reworded: bool = False  # below the threshold, but each page says best what the other says


@dataclass(frozen=True)
class Stage:
    """What one stage of the duplicate search did this run."""

    name: str  # "static", "model" or "lexical"
    pages: int  # pages the stage looked at
    embedded: int  # of those, pages embedded now (not cached)
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "pages": self.pages, "embedded": self.embedded, "seconds": round(self.seconds, 3)}


@dataclass
class SimilarReport:
    provider: str  # the provider's label
    pairs: list[Pair] = field(default_factory=list)
    warning: str | None = None  # why the model did not load, when it fell back
    embedded: int = 0  # pages the transformer (or the lexical provider) embedded this run
    stages: list[Stage] = field(default_factory=list)


_PROVIDERS: dict[tuple[str, str | None, str | None, str | None], Future[tuple[EmbeddingProvider, str | None]]] = {}
_PROVIDERS_LOCK = threading.Lock()


def _load(
    kind: str, model_path: str | None, model_name: str | None, cache_dir: str | None
) -> tuple[EmbeddingProvider, str | None]:
    """Each provider once a process; a second caller (another thread) waits for the first."""
    key = (kind, model_path, model_name, cache_dir)
    with _PROVIDERS_LOCK:
        future = _PROVIDERS.get(key)
        first = future is None
        if future is None:
            future = _PROVIDERS[key] = Future()
    if first:
        try:
            choice = load_provider(kind, model_path, model_name, cache_dir)  # a model that fails falls back
        except BaseException as exc:  # an interrupt: whoever waits hears of it too
            future.set_exception(exc)
            raise
        future.set_result((choice.provider, choice.warning))
    return future.result()


def preload_provider(config: Config) -> None:
    """Start loading the configured model in a thread, so that it loads while the vault does
    (the model's runtime does its work without holding the GIL): `remember` and `search` start
    0.2 s sooner on a large vault. Not a daemon: the interpreter waits for it before it exits, as
    leaving while onnxruntime builds its session frees what that session is being built from
    (`std::bad_alloc`, then `terminate`: exit code 134 after a refused write or a bad query)."""
    threading.Thread(target=provider_for, args=(config,), name="curator-model").start()


def provider_for(config: Config) -> tuple[EmbeddingProvider, str | None]:
    """The configured provider (loaded once a process) and why it is not the one the vault asked
    for, if it is not: the model fell back, or the vault's model setting needs trust."""
    provider, warning = _load(
        config.embedding_provider, config.embedding_model_path, config.embedding_model_name, config.embedding_cache_dir
    )
    untrusted = [note for note in config.untrusted if "[embedding]" in note]
    return provider, "; ".join([*untrusted, *([warning] if warning else [])]) or None


def page_vectors(
    vault: Vault, provider: EmbeddingProvider, progress: Progress | None = None
) -> tuple[list[str], Vectors, int]:
    """(paths, unit vectors, pages embedded now) of every readable page's whole text (for search
    and remember); cached by content hash on disk, and on the loaded vault for the rest of its life."""
    paths, rows, embedded = _page_rows(vault, provider, progress)
    if provider.id not in vault.derived.page_vectors:
        matrix = np.stack([row[0] for row in rows]) if rows else np.zeros((0, 384), dtype=np.float32)
        vault.derived.page_vectors[provider.id] = (paths, matrix.astype(np.float32))
    return (*vault.derived.page_vectors[provider.id], embedded)


def search_vectors(vault: Vault, provider: EmbeddingProvider) -> tuple[list[str], Vectors]:
    """Rows search compares a query with, and the page each belongs to: every page's vector, then
    the vectors of the sections of pages that have several (measured on benchmarks/search_eval.py,
    they find the page one of whose sections answers a question)."""
    if provider.id not in vault.derived.search_vectors:
        paths, pages, _ = page_vectors(vault, provider)
        _, rows, _ = _page_rows(vault, provider)
        owners = [*paths, *(path for path, row in zip(paths, rows, strict=True) for _ in range(len(row) - 1))]
        sections = [row[1:] for row in rows if len(row) > 1]
        matrix = np.concatenate([pages, *sections]).astype(np.float32) if sections else pages
        vault.derived.search_vectors[provider.id] = (owners, matrix)
    return vault.derived.search_vectors[provider.id]


SECTION_WORDS = 20  # a section shorter than this says too little to be matched on its own


def section_texts(title: str, text: str) -> list[tuple[str, int]]:
    """(text, words) of each section of a page (heading path, then its words), for a page with two
    or more sections of SECTION_WORDS words; [] otherwise (its page vector says it all)."""
    _, _, body_at = split_frontmatter(text)
    found = []
    for heading, part in markdown.sections(title, text[body_at:]):
        words = _plain_words(part)
        if words:
            found.append((f"{heading}\n\n{words}", len(words.split())))
    return found if sum(n >= SECTION_WORDS for _, n in found) >= 2 else []


def _page_rows(
    vault: Vault, provider: EmbeddingProvider, progress: Progress | None = None
) -> tuple[list[str], list[np.ndarray], int]:
    """Per readable page, its vector then the vectors of its sections (see section_texts): a page
    with sections is embedded section by section, its vector their mean weighted by words, so no
    text is read twice."""
    if provider.id in vault.derived.page_rows:
        paths, rows = vault.derived.page_rows[provider.id]
        return paths, rows, 0
    paths = [p.path for p in vault.pages.values() if p.unreadable is None and p.sha]

    def compute(missing: list[int]) -> list[np.ndarray]:
        plain: list[int] = []
        parts: dict[int, list[tuple[str, int]]] = {}
        for i in missing:
            page = vault.pages[paths[i]]
            found = section_texts(page.title, vault.text_of(page.path))
            if found:
                parts[i] = found
            else:
                plain.append(i)
        texts = [page_text(vault.pages[paths[i]].title, vault.text_of(paths[i])) for i in plain]
        texts += [text for i in parts for text, _ in parts[i]]
        vectors = provider.embed(texts, progress)
        out: dict[int, np.ndarray] = {i: vectors[k][None] for k, i in enumerate(plain)}
        at = len(plain)
        for i, found in parts.items():
            sections = vectors[at : at + len(found)]
            at += len(found)
            weights = np.array([n for _, n in found], dtype=np.float32)[:, None]
            mean = (sections * weights).sum(axis=0)
            page = mean / max(float(np.linalg.norm(mean)), 1e-12)
            keep = [k for k, (_, n) in enumerate(found) if n >= SECTION_WORDS]
            out[i] = np.vstack([page[None], sections[keep]]).astype(np.float32)
        return [out[i] for i in missing]

    store = _store_name("vectors", provider.id, TEXT_RECIPE)
    rows, embedded = _cached_rows(vault, store, [vault.pages[p].sha for p in paths], compute)
    vault.derived.page_rows[provider.id] = (paths, rows)
    return paths, rows, embedded


def candidate_pairs(vectors: Vectors, threshold: float, exact_limit: int = EXACT_LIMIT) -> list[tuple[int, int, float]]:
    """(i, j, cosine) with i < j and cosine >= threshold, most similar first."""
    a, b, scores = candidate_arrays(vectors, threshold, exact_limit)
    return list(zip(a.tolist(), b.tolist(), scores.tolist(), strict=True))


def candidate_arrays(
    vectors: Vectors,
    threshold: float,
    exact_limit: int = EXACT_LIMIT,
    centroids: np.ndarray | None = None,
    search: Callable[[IvfIndex], tuple[np.ndarray, np.ndarray]] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`candidate_pairs` as three arrays (i, j, cosine): on 100,000 pages a pair as a Python tuple
    in a dict cost 700 MB more at the peak than these. `centroids`: the index's cluster centres
    (`index_centroids`), when they were worked out before; `search`: what gives every vector's
    neighbours in the index (by default, searching it for all of them)."""
    n = len(vectors)
    empty = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32))
    if n < 2:
        return empty
    if n <= exact_limit:
        scores = vectors @ vectors.T
        a, b = np.nonzero(np.triu(scores, k=1) >= threshold)
        found = scores[a, b]
    else:
        data = np.ascontiguousarray(vectors, dtype=np.float32)
        if centroids is None or centroids.shape != (_index_lists(n), data.shape[1]):
            centroids = index_centroids(data)
        index = IvfIndex(data, centroids)
        found, neighbours = search(index) if search is not None else index.search(np.arange(n))[:2]
        del index, data
        own = np.repeat(np.arange(n, dtype=np.int64), neighbours.shape[1])
        other, found = neighbours.ravel().astype(np.int64), found.ravel()
        keep = (other >= 0) & (other != own) & (found >= threshold)
        own, other, found = own[keep], other[keep], found[keep]
        a, b = np.minimum(own, other), np.maximum(own, other)
        first = np.lexsort((-found, b, a))  # each pair once (found from both ends), its best score
        a, b, found = a[first], b[first], found[first]
        once = np.ones(len(a), dtype=bool)
        once[1:] = (a[1:] != a[:-1]) | (b[1:] != b[:-1])
        a, b, found = a[once], b[once], found[once]
    order = np.lexsort((b, a, -found))
    return a[order].astype(np.int64), b[order].astype(np.int64), found[order].astype(np.float32)


class IvfIndex:
    """An inverted-file index (faiss IVF-Flat, inner product) over `data` with the given cluster
    centres: each vector is filed under its nearest centre, and a search reads the PROBES lists
    whose centres are nearest the query."""

    def __init__(self, data: np.ndarray, centroids: np.ndarray) -> None:
        import faiss

        dim = data.shape[1]
        self.data = data
        self.quantizer = faiss.IndexFlatIP(dim)
        self.quantizer.add(np.ascontiguousarray(centroids, dtype=np.float32))
        self.index = faiss.IndexIVFFlat(self.quantizer, dim, len(centroids), faiss.METRIC_INNER_PRODUCT)
        self.index.train(data[:1])  # the quantizer holds its centres: nothing is trained
        self.index.add(data)
        self.probes = self.index.nprobe = min(PROBES, len(centroids))
        self.neighbours = min(NEIGHBOURS + 1, len(data))

    def search(self, queries: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For the vectors at `queries` (indexes into the data): the scores and indexes of their
        nearest vectors (-1 past the last found), and the lists each search read."""
        wanted = self.data[queries]
        found, neighbours = self.index.search(wanted, self.neighbours)
        _, lists = self.quantizer.search(wanted, self.probes)  # the search's own choice (faster than handing it in)
        return found, neighbours, lists


def _index_lists(n: int) -> int:
    return max(min(int(4 * np.sqrt(n)), n // 40), 1)  # faiss wants about 40 training points a list


def index_centroids(vectors: np.ndarray) -> np.ndarray:
    """The cluster centres of an inverted-file index over `vectors` (above EXACT_LIMIT of them):
    about 4·√N, by k-means on 40 sampled vectors a centre."""
    import faiss

    n, dim = vectors.shape
    lists = _index_lists(n)
    index = faiss.IndexIVFFlat(faiss.IndexFlatIP(dim), dim, lists, faiss.METRIC_INNER_PRODUCT)
    sample = np.random.default_rng(0).choice(n, size=min(n, 40 * lists), replace=False)
    index.train(np.ascontiguousarray(vectors[np.sort(sample)], dtype=np.float32))
    centroids: np.ndarray = index.quantizer.reconstruct_n(0, lists)
    return centroids


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
    if vault.derived.distinctive is not None:
        return vault.derived.distinctive
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
    rows, _ = _cached_rows(vault, _store_name("template", *recipe), shas, counts_of)
    if counted is not None:
        counted(len(readable), len(readable))
    counts = [row[:, 0] for row in rows]  # views: the stores keep each row as a column
    template = boilerplate.Template(counts, known)
    store = f"{_store_name('distinct', *recipe)}.json"
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
    vault.derived.distinctive = found
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


def _cached_rows(
    vault: Vault,
    store: str,
    keys: list[str],
    compute: Callable[[list[int]], list[np.ndarray]],
    also_keep: set[str] | None = None,
) -> tuple[list[np.ndarray], int]:
    """One 2-D array per key, from the store `store` under `.curator/cache/` where it has the key,
    else from `compute(missing indexes)`. The store then holds these keys' arrays and those it had
    for `also_keep` (the other current pages', when only some pages were asked for): a changed or
    deleted page leaves nothing behind."""
    stored = _load_rows(vault, store) if vault.use_cache else {}
    missing = [i for i, key in enumerate(keys) if key not in stored]
    fresh = dict(zip(missing, compute(missing), strict=True)) if missing else {}
    rows = [fresh[i] if i in fresh else stored[key] for i, key in enumerate(keys)]
    asked = set(keys)
    wanted = asked | (also_keep or set())
    if vault.use_cache and (missing or not stored.keys() <= wanted):
        kept = [(key, row) for key, row in stored.items() if key in wanted and key not in asked]
        _store_rows(vault, store, [*keys, *(k for k, _ in kept)], [*rows, *(r for _, r in kept)])
    return rows, len(missing)


def _load_rows(vault: Vault, store: str) -> dict[str, np.ndarray]:
    index = cache.read_large_json(cache.cache_path(vault.root, f"{store}.json"))
    try:
        with cache.open_binary(cache.cache_path(vault.root, f"{store}.npy")) as handle:
            matrix = np.load(handle, allow_pickle=False)
    except (OSError, ValueError, EOFError):  # missing, cut short or empty (a crash): made again
        return {}
    if not isinstance(index, list) or sum(n for _, n in index) != len(matrix):
        return {}
    rows, at = {}, 0
    for key, n in index:
        rows[key] = matrix[at : at + n]
        at += n
    return rows


def _store_rows(vault: Vault, store: str, keys: list[str], rows: list[np.ndarray]) -> None:
    """Keep exactly the current keys' rows: a changed or deleted page leaves nothing behind."""
    unique: dict[str, np.ndarray] = {}
    for key, row in zip(keys, rows, strict=True):
        unique.setdefault(key, row)
    if not unique:
        return
    first = next(iter(unique.values()))
    header = {
        "descr": np.lib.format.dtype_to_descr(first.dtype),
        "fortran_order": False,
        "shape": (sum(len(row) for row in unique.values()), first.shape[1]),
    }

    def write(handle: BinaryIO) -> None:  # row by row: no second copy of a large store in memory
        np.lib.format.write_array_header_1_0(handle, header)
        for row in unique.values():
            handle.write(np.ascontiguousarray(row, dtype=first.dtype).tobytes())

    if cache.write_with(vault.root, f"{store}.npy", write) is None:
        cache.write_json(vault.root, f"{store}.json", [[key, len(row)] for key, row in unique.items()])


def _store_name(kind: str, *parts: object) -> str:
    return f"{kind}-" + hashlib.blake2b("\0".join(map(str, parts)).encode(), digest_size=8).hexdigest()


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
    store = _store_name("pieces", provider.id, boilerplate.RECIPE, PIECE_WORDS, MAX_PIECES)
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
    return _cached_rows(vault, store, [p.key for p in pages], compute, also_keep)


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
    rows, embedded = _cached_rows(
        vault, store, [p.key for p in pages], lambda missing: list(embed([pages[i].text for i in missing])[:, None])
    )
    matrix = np.concatenate(rows) if rows else np.zeros((0, 1), dtype=np.float32)
    return matrix.astype(np.float32, copy=False), embedded


CENTRED_ROWS = 4096  # pages whose centred piece rows stage one keeps at hand (measured: see the notes)


class StageOne(NamedTuple):
    pairs: list[tuple[int, int, float]]  # (page, page, aligned static score) for the transformer
    reworded: set[tuple[int, int]]  # of those, the pairs that may be reworded duplicates
    embedded: int  # pages the static embedder embedded now


def static_candidates(
    vault: Vault, pages: list[Distinct], threshold: float, progress: Phased | None = None
) -> StageOne:
    """Stage one, with the static embedder only: each page's STAGE_ONE_NEIGHBOURS nearest pages by
    whole-page vector, kept where their pieces align (`aligned_score`) within STAGE_ONE_MARGIN of
    `threshold`, the score the transformer must give them; and the pairs that are both pages' best
    match by REWORDED_STATIC_MARGIN, each page with its REWORDED_CONTEXT best matches.

    Vectors are centred on the vault's mean first: what every page shares is no evidence. A page
    with nothing of its own (an empty stub, a template left unfilled) is no one's duplicate.
    """
    embedder = StaticEmbedder()  # loaded for stage one alone (0.1 s): its 42 MiB are free before the model loads
    store = _store_name("static", embedder.id, boilerplate.RECIPE)
    counted = phase(progress, "stage one: page vectors")
    vectors, embedded = whole_text_vectors(vault, store, pages, lambda t: embedder.embed(t, counted))
    said = [i for i, page in enumerate(pages) if page.words]
    if len(said) < 2:
        return StageOne([], set(), embedded)
    if len(said) < len(pages):
        vectors = vectors[said]
    frame = _store_name("frame", embedder.id, boilerplate.RECIPE, EXACT_LIMIT)
    mean, centroids, kept = _kept_frame(vault, frame, vectors)
    _centre(vectors, mean)  # in place: one copy of the vault's vectors at a time (100 MB at 100k pages)
    if not kept:
        centroids = index_centroids(vectors) if len(vectors) > EXACT_LIMIT else None
        _store_frame(vault, frame, mean, centroids)
    frame_id = _frame_id(mean, centroids)
    searched = _store_name("searched", embedder.id, boilerplate.RECIPE, EXACT_LIMIT, NEIGHBOURS, PROBES)
    search = partial(_kept_search, vault, searched, frame_id, _identities([pages[i] for i in said]))
    coarse = _by_page(candidate_arrays(vectors, STAGE_ONE_COARSE, EXACT_LIMIT, centroids, search))
    del vectors
    near = _best_neighbours(coarse, STAGE_ONE_NEIGHBOURS)
    nearest = {(said[i], said[j]) for i, j in _mutual_nearest(coarse, REWORDED_NEAREST, REWORDED_NEAREST_MARGIN)}
    del coarse
    release_free_memory()  # every page's text and vector, the index: what follows needs a few pages' pieces
    near = [(said[i], said[j], score) for i, j, score in near]
    # A pair's aligned score depends only on its two texts (their keys) and the frame: scores of
    # the last run are reused, and only pairs with a changed page are aligned again.
    pair_store = _store_name("pairs", embedder.id, boilerplate.RECIPE, PIECE_WORDS, MAX_PIECES)
    ids = _pair_ids(pages, near)
    known, stored = _known_scores(vault, pair_store, frame_id, ids)
    unknown = np.isnan(known)
    involved = sorted({page for (i, j, _), new in zip(near, unknown, strict=True) if new for page in (i, j)})
    rows, _ = (
        piece_vectors(
            vault, embedder, [pages[i] for i in involved], phase(progress, "stage one: sentence vectors"), others=pages
        )
        if involved
        else ([], 0)
    )
    row_of = dict(zip(involved, rows, strict=True))

    @lru_cache(maxsize=CENTRED_ROWS)  # made as pairs need them: every page's at once would double the rows
    def centred_row(page: int) -> np.ndarray:
        row = row_of[page].astype(np.float32)  # a copy: centred in place
        _centre(row[:, :-1], mean)
        return row

    @functools.cache  # a page is in many pairs: its title's words are found once
    def named(page: int) -> set[str]:
        return title_words(pages[page].title)

    scored = []
    for done, ((i, j, _), score, new) in enumerate(zip(near, known.tolist(), unknown.tolist(), strict=True), 1):
        if new:
            score = aligned_score(centred_row(i), centred_row(j), word_overlap(named(i), named(j)))
        scored.append((i, j, score))
        if progress is not None and (done % 2000 == 0 or done == len(near)):
            progress("stage one: aligning pairs", done, len(near), "pairs")
    if vault.use_cache and (unknown.any() or stored != len(ids)):  # a pair new, or one gone
        _store_scores(vault, pair_store, frame_id, ids, np.array([score for _, _, score in scored]))
    aligned = set(_mutual_nearest(_by_page(_arrays(scored)), REWORDED_STATIC, REWORDED_STATIC_MARGIN))
    reworded = {
        (i, j)
        for i, j, _ in scored
        if ((i, j) in aligned or (i, j) in nearest) and min(pages[i].words, pages[j].words) >= REWORDED_WORDS
    }
    in_reworded = {page for pair in reworded for page in pair}
    best = best_matches([pair for pair in scored if pair[0] in in_reworded or pair[1] in in_reworded], REWORDED_CONTEXT)
    wanted = {(i, j) for i, j, score in scored if score >= threshold - STAGE_ONE_MARGIN} | reworded
    for page in in_reworded:
        wanted |= {(min(page, other), max(page, other)) for _, other in best[page]}
    return StageOne([(i, j, score) for i, j, score in scored if (i, j) in wanted], reworded, embedded)


def _identities(pages: list[Distinct]) -> list[str]:
    """What stage one's stores know each page by: its text's key (a second page with the same text
    gets `#1`, a third `#2`...)."""
    seen: dict[str, int] = {}
    out = []
    for page in pages:
        n = seen[page.key] = seen.get(page.key, -1) + 1
        out.append(f"{page.key}#{n}" if n else page.key)
    return out


def _frame_id(mean: np.ndarray, centroids: np.ndarray | None) -> bytes:
    """What tells one frame from another, for the stores made in it."""
    frame = [mean] if centroids is None else [mean, centroids]
    return hashlib.blake2b(b"".join(np.asarray(a, dtype=np.float32).tobytes() for a in frame), digest_size=16).digest()


def _kept_search(
    vault: Vault, store: str, frame_id: bytes, identities: list[str], index: IvfIndex
) -> tuple[np.ndarray, np.ndarray]:
    """Every vector's neighbours in `index`, as searching it for all of them gives them, but only
    the searches that can come out otherwise are made again (see `_searched_again`). The last
    run's searches are kept (`store`) with the frame they were made in (`frame_id`);
    `identities` name the index's vectors (`_identities`)."""
    before = _load_search(vault, store, frame_id, index)
    again = _searched_again(index, identities, *before) if before is not None else None
    if again is None:
        found, neighbours, lists = index.search(np.arange(len(identities)))
        redone = len(identities)
    else:
        found, neighbours, lists, redone = again
    if vault.use_cache and redone:
        _store_search(vault, store, frame_id, identities, lists, found, neighbours)
    return found, neighbours


def _searched_again(
    index: IvfIndex,
    identities: list[str],
    old_identities: list[str],
    old_lists: np.ndarray,
    old_found: np.ndarray,
    old_neighbours: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int] | None:
    """Every vector's search (found, neighbours, lists read) from the last run's, made again where
    it can come out otherwise: a vector's search reads the same lists while the vector and the
    frame are the same, and finds the same while no vector left or joined one of them. Also how
    many searches changed (made again, or let go). None when the last run's searches name a
    vector that is gone from a list no vector left (they were not made in this frame)."""
    n = len(identities)
    position = {identity: j for j, identity in enumerate(old_identities)}
    was = np.array([position.get(identity, -1) for identity in identities], dtype=np.int64)  # now -> before
    kept = was >= 0
    now = np.full(len(old_identities), -1, dtype=np.int64)  # before -> now (-1: gone, or changed)
    now[was[kept]] = np.nonzero(kept)[0]
    lists = np.empty((n, index.probes), dtype=np.int64)
    lists[kept] = old_lists[was[kept]]
    new = np.nonzero(~kept)[0]
    if len(new):
        _, lists[new] = index.quantizer.search(index.data[new], index.probes)
    # A vector is filed under the first list its own search reads: the lists vectors left or joined.
    moved = np.union1d(old_lists[now < 0, 0], lists[new, 0])
    again = ~kept | np.isin(lists, moved).any(axis=1)
    same = np.nonzero(~again)[0]
    found = np.empty((n, index.neighbours), dtype=np.float32)
    neighbours = np.empty((n, index.neighbours), dtype=np.int64)
    found[same] = old_found[was[same]]
    old = old_neighbours[was[same]]
    neighbours[same] = np.where(old >= 0, now[old.clip(min=0)], -1)
    if ((old >= 0) & (neighbours[same] < 0)).any():
        return None
    redo = np.nonzero(again)[0]
    if len(redo):
        found[redo], neighbours[redo], lists[redo] = index.search(redo)
    return found, neighbours, lists, len(redo) + len(old_identities) - int(kept.sum())


def _load_search(
    vault: Vault, store: str, frame_id: bytes, index: IvfIndex
) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray] | None:
    loaded = _load_framed(vault, store, frame_id, ("identities", "lists", "found", "neighbours"))
    if loaded is None:
        return None
    identities, lists, found, neighbours = loaded
    m, k = len(identities), index.neighbours
    if (lists.shape, found.shape, neighbours.shape) != ((m, index.probes), (m, k), (m, k)):
        return None
    if m and (lists.min() < 0 or lists.max() >= index.index.nlist or neighbours.max() >= m or neighbours.min() < -1):
        return None
    return identities.tolist(), lists.astype(np.int64), found.astype(np.float32), neighbours.astype(np.int64)


def _store_search(
    vault: Vault,
    store: str,
    frame_id: bytes,
    identities: list[str],
    lists: np.ndarray,
    found: np.ndarray,
    neighbours: np.ndarray,
) -> None:
    arrays = {
        "identities": np.array(identities),
        "lists": lists.astype(np.int32),
        "found": found.astype(np.float32),
        "neighbours": neighbours.astype(np.int32),
    }
    _store_framed(vault, store, frame_id, arrays)


def _load_framed(vault: Vault, store: str, frame_id: bytes, names: tuple[str, ...]) -> list[np.ndarray] | None:
    """The arrays `names` of `store` (an .npz in the cache) when it was made in the frame
    `frame_id`; None when the cache is off, or the store is missing, damaged or of another frame."""
    if not vault.use_cache:
        return None
    try:
        with (
            cache.open_binary(cache.cache_path(vault.root, f"{store}.npz")) as handle,
            np.load(handle, allow_pickle=False) as stored,
        ):
            if stored["frame"].tobytes() != frame_id:
                return None
            return [stored[name] for name in names]
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile):  # missing or damaged: worked out again
        return None


def _store_framed(vault: Vault, store: str, frame_id: bytes, arrays: dict[str, np.ndarray]) -> None:
    """Keep `arrays` as `store`, with the frame they were worked out in (see `_load_framed`)."""
    savez: Any = np.savez  # its stubs read every keyword as one of its own options

    def write(handle: BinaryIO) -> None:
        savez(handle, frame=np.frombuffer(frame_id, dtype=np.uint8), **arrays)

    cache.write_with(vault.root, f"{store}.npz", write)


def _pair_ids(pages: list[Distinct], pairs: list[tuple[int, int, float]]) -> np.ndarray:
    """A 64-bit id of each pair's two texts, whichever order they come in (from their keys)."""
    if not pairs:
        return np.zeros(0, dtype=np.uint64)
    of_page = np.array([int(page.key[:16], 16) for page in pages], dtype=np.uint64)
    first = of_page[np.fromiter((i for i, _, _ in pairs), dtype=np.int64, count=len(pairs))]
    second = of_page[np.fromiter((j for _, j, _ in pairs), dtype=np.int64, count=len(pairs))]
    low, high = np.minimum(first, second), np.maximum(first, second)
    return low * np.uint64(0x9E3779B97F4A7C15) + high  # wraps around: a mix, not a sum


def _known_scores(vault: Vault, store: str, frame_id: bytes, ids: np.ndarray) -> tuple[np.ndarray, int]:
    """The stored aligned score of each pair (by `_pair_ids`), NaN where none is stored or the
    store was made in another frame; and how many pairs the store holds."""
    known = np.full(len(ids), np.nan)
    loaded = _load_framed(vault, store, frame_id, ("ids", "scores"))
    if loaded is None:
        return known, 0
    stored_ids, scores = loaded
    if stored_ids.dtype != np.uint64 or stored_ids.shape != scores.shape:
        return known, 0
    if len(stored_ids) and len(ids):
        at = np.searchsorted(stored_ids, ids).clip(max=len(stored_ids) - 1)
        found = stored_ids[at] == ids
        known[found] = scores[at[found]]
    return known, len(stored_ids)


def _store_scores(vault: Vault, store: str, frame_id: bytes, ids: np.ndarray, scores: np.ndarray) -> None:
    """Keep exactly this run's pairs' scores, in the frame they were worked out in."""
    order = np.argsort(ids, kind="stable")
    _store_framed(vault, store, frame_id, {"ids": ids[order], "scores": scores[order]})


def said_best_by(rows: dict[int, np.ndarray], page: int, partner: int, rivals: set[int]) -> bool:
    """Whether every piece of what `page` says (its piece rows in `rows` but the first, its title:
    a page written again in other words is filed under other words too) is closer to some piece
    of `partner` than to any piece of `rivals`."""
    if not rivals:
        return True
    pieces = rows[page][1:, :-1]
    own = (pieces @ rows[partner][:, :-1].T).max(axis=1)
    other = np.max([(pieces @ rows[rival][:, :-1].T).max(axis=1) for rival in sorted(rivals)], axis=0)
    return bool((own > other).all())


def best_matches(pairs: list[tuple[int, int, float]], keep: int) -> dict[int, list[tuple[float, int]]]:
    """Each page's `keep` best-scored pairs as (score, other page), best first."""
    found: dict[int, list[tuple[float, int]]] = {}
    for i, j, score in pairs:
        found.setdefault(i, []).append((score, j))
        found.setdefault(j, []).append((score, i))
    return {page: sorted(matches, reverse=True)[:keep] for page, matches in found.items()}


# How far the vault's mean may move (relative to its length) before stage one works out its frame
# again: the mean it centres on and the index's cluster centres. Every score moves with them, and
# pairs near the reworded gates move across: with a fresh frame for every run, one page edited in
# 100,000 moved 40 pairs across the gates and 97 pages into candidate pairs (to be embedded). One
# page changed among 13,000 moves the mean by 0.006 % (median; at most 0.01 %).
FRAME_DRIFT = 0.01


def _kept_frame(vault: Vault, store: str, vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray | None, bool]:
    """(mean, cluster centres or None below EXACT_LIMIT pages, kept): the stored ones while the
    vault's mean is within FRAME_DRIFT of the stored mean (and the index would have as many
    clusters), else the mean now, None and False."""
    mean = vectors.mean(axis=0)
    if not vault.use_cache:
        return mean, None, False
    try:
        with cache.open_binary(cache.cache_path(vault.root, f"{store}.npy")) as handle:
            stored = np.load(handle, allow_pickle=False)
    except (OSError, ValueError, EOFError):  # missing or damaged: worked out again
        return mean, None, False
    lists = _index_lists(len(vectors)) if len(vectors) > EXACT_LIMIT else 0
    if stored.ndim != 2 or stored.shape != (1 + lists, vectors.shape[1]) or stored.dtype != np.float32:
        return mean, None, False
    if np.linalg.norm(stored[0] - mean) > FRAME_DRIFT * np.linalg.norm(stored[0]):
        return mean, None, False
    return stored[0], (stored[1:] if lists else None), True


def _store_frame(vault: Vault, store: str, mean: np.ndarray, centroids: np.ndarray | None) -> None:
    if not vault.use_cache:
        return
    rows = np.vstack([mean[None, :], *([] if centroids is None else [centroids])]).astype(np.float32)
    cache.write_with(vault.root, f"{store}.npy", lambda handle: np.save(handle, rows, allow_pickle=False))


def _centre(vectors: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """`vectors` (float32) minus `mean`, made unit length, in place (no second copy of a vault's
    vectors); returned for convenience."""
    vectors -= mean
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors /= np.where(norms == 0, 1, norms)
    return vectors


Arrays = tuple[np.ndarray, np.ndarray, np.ndarray]  # pairs as `candidate_arrays` gives them: pages i < j, scores


def _arrays(pairs: list[tuple[int, int, float]]) -> Arrays:
    """(i, j, score) pairs as the three arrays `candidate_arrays` gives."""
    if not pairs:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)
    a, b, scores = zip(*pairs, strict=True)
    return np.array(a, dtype=np.int64), np.array(b, dtype=np.int64), np.array(scores)


def _by_page(pairs: Arrays) -> Arrays:
    """Each pair from both its pages, as (page, other page, score) sorted by page, best first.
    Pages as int32: at 100,000 pages the coarse pairs are millions, and this is stage one's peak."""
    a, b, scores = pairs
    pages = np.concatenate([a, b], dtype=np.int32)
    others = np.concatenate([b, a], dtype=np.int32)
    both = np.concatenate([scores, scores])
    order = np.lexsort((-both, pages))
    return pages[order], others[order], both[order]


def _best_neighbours(by_page: Arrays, keep: int) -> list[tuple[int, int, float]]:
    """The pairs (i < j, `_by_page` arrays) that are among the `keep` best of at least one of
    their two pages, most similar first."""
    pages, others, both = by_page
    if not len(pages):
        return []
    starts = np.flatnonzero(np.r_[True, pages[1:] != pages[:-1]])
    rank = np.arange(len(pages)) - np.repeat(starts, np.diff(np.r_[starts, len(pages)]))
    worst_kept = np.full(int(pages.max()) + 1, np.inf, dtype=both.dtype)
    in_top = rank < keep
    np.minimum.at(worst_kept, pages[in_top], both[in_top])  # each page's keep-th best score (or its last)
    once = pages < others  # each pair once
    a, b, scores = pages[once], others[once], both[once]
    kept = (scores >= worst_kept[a]) | (scores >= worst_kept[b])
    a, b, scores = a[kept], b[kept], scores[kept]
    order = np.lexsort((b, a, -scores))
    return list(zip(a[order].tolist(), b[order].tolist(), scores[order].tolist(), strict=True))


def _mutual_nearest(by_page: Arrays, floor: float, margin: float) -> list[tuple[int, int]]:
    """The pairs (i < j) scored `floor` or more whose two pages are each other's best-scored page,
    by `margin` over either page's next best (0 when it has none); from `_by_page` arrays (a
    tuple per pair would cost 100 MB at 100,000 pages)."""
    pages, others, both = by_page
    if not len(pages):
        return []
    first = np.flatnonzero(np.r_[True, pages[1:] != pages[:-1]])  # each page's best pair
    count = int(pages.max()) + 1
    best = np.full(count, -1, dtype=np.int64)
    score = np.full(count, -np.inf, dtype=both.dtype)
    second = np.zeros(count, dtype=both.dtype)
    best[pages[first]], score[pages[first]] = others[first], both[first]
    more = first[np.diff(np.r_[first, len(pages)]) > 1]  # pages with two pairs or more
    second[pages[more]] = both[more + 1]
    page = np.arange(count)
    partner = np.maximum(best, 0)
    kept = (
        (best > page)
        & (best[partner] == page)
        & (score >= floor)
        & (score - np.maximum(second, second[partner]) >= margin)
    )
    return list(zip(page[kept].tolist(), best[kept].tolist(), strict=True))


def _within_model_budget(pairs: list[tuple[int, int, float]], pages: list[Distinct]) -> list[tuple[int, int, float]]:
    """Stage one's pairs, closest first, for as long as their pages bring the transformer no more
    than MODEL_PIECES pieces: on a vault of short notes stage one passes a third of the pages, and
    the transformer's time, a piece at a time, is what a user waits for."""
    kept: list[tuple[int, int, float]] = []
    taken: set[int] = set()
    pieces = 0
    sizes: dict[int, int] = {}
    for i, j, score in sorted(pairs, key=lambda pair: -pair[2]):
        new = {i, j} - taken
        more = sum(sizes.setdefault(k, len(pages[k].pieces())) for k in new)
        if pieces + more > MODEL_PIECES:
            continue
        taken |= new
        pieces += more
        kept.append((i, j, score))
    return sorted(kept, key=lambda pair: (pair[0], pair[1]))


def find_similar(
    vault: Vault,
    threshold: float | None = None,
    merge_threshold: float | None = None,
    progress: Phased | None = None,
) -> SimilarReport:
    """Pairs of pages at or above the suspicion threshold, most similar first, with their evidence."""
    from curator.core.duplicates import comparable

    config = vault.config
    by_path = {
        path: distinct
        for path, distinct in distinctive_texts(vault, progress).items()
        if comparable(vault, vault.pages[path])  # a daily note, a drawing or a template is no one's duplicate
    }
    release_free_memory()  # the sentences of every page, dropped but for what each says of its own
    paths = list(by_path)
    pages = list(by_path.values())
    stages: list[Stage] = []
    stage_one = None
    started = time.perf_counter()
    if config.embedding_provider != "lexical":
        # Before the model loads: its weights (160 MiB once onnxruntime has folded them to float32)
        # are not held through stage one, whose peak is the run's on a large vault.
        limit = config.duplicate_threshold if threshold is None else threshold
        stage_one = static_candidates(vault, pages, limit, progress)
        stages.append(Stage("static", len(pages), stage_one.embedded, time.perf_counter() - started))
    release_free_memory()  # what stage one built and dropped, before the model comes on top
    provider, warning = provider_for(config)
    lexical = isinstance(provider, LexicalProvider)  # asked for, or the model did not load
    if threshold is None:
        threshold = config.lexical_duplicate_threshold if lexical else config.duplicate_threshold
    if merge_threshold is None:
        merge_threshold = config.lexical_merge_threshold if lexical else config.merge_threshold
    scored: list[tuple[int, int, float, bool]] = []  # (page, page, score, reworded)
    started = time.perf_counter()
    if lexical or stage_one is None:
        store = _store_name("lexical", provider.id, boilerplate.RECIPE)
        counted = phase(progress, "lexical vectors")
        vectors, embedded = whole_text_vectors(vault, store, pages, lambda t: provider.embed(t, counted))
        scored = [(i, j, score, False) for i, j, score in candidate_pairs(vectors, threshold)]
        stages.append(Stage("lexical", len(pages), embedded, time.perf_counter() - started))
    else:
        stage_one = stage_one._replace(pairs=_within_model_budget(stage_one.pairs, pages))
        involved = sorted({i for i, _, _ in stage_one.pairs} | {j for _, j, _ in stage_one.pairs})
        rows, embedded = piece_vectors(
            vault, provider, [pages[i] for i in involved], phase(progress, "stage two: embedding pages"), others=pages
        )
        piece_rows = dict(zip(involved, rows, strict=True))
        by_model = [
            (i, j, aligned_score(piece_rows[i], piece_rows[j], title_overlap(pages[i].title, pages[j].title)))
            for i, j, _ in stage_one.pairs
        ]
        scored = [(i, j, score, False) for i, j, score in by_model if score >= threshold]
        rivals: dict[int, set[int]] = {}  # the pages scored with each page (its copies above the threshold aside)
        for i, j, score in by_model:
            if score < threshold:
                rivals.setdefault(i, set()).add(j)
                rivals.setdefault(j, set()).add(i)
        for i, j, score in by_model:
            if (
                (i, j) in stage_one.reworded
                and config.reworded_threshold <= score < threshold
                and said_best_by(piece_rows, i, j, rivals[i] - {j})
                and said_best_by(piece_rows, j, i, rivals[j] - {i})
            ):
                scored.append((i, j, score, True))
        scored.sort(key=lambda t: (-t[2], t[0], t[1]))
        stages.append(Stage("model", len(involved), embedded, time.perf_counter() - started))
    neighbours: dict[str, set[str]] = {}
    for rl in vault.links:
        target = rl.resolution.path
        if rl.resolution.kind == "page" and target and target != rl.source:
            neighbours.setdefault(rl.source, set()).add(target)
            neighbours.setdefault(target, set()).add(rl.source)
    pairs = []
    for i, j, score, reworded in scored:
        a, b = sorted((paths[i], paths[j]))
        shared_words = title_words(vault.pages[a].title) & title_words(vault.pages[b].title)
        shared = (neighbours.get(a, set()) & neighbours.get(b, set())) - {a, b}
        pairs.append(
            Pair(
                a,
                b,
                round(score, 4),
                score >= merge_threshold,
                tuple(sorted(shared_words)),
                tuple(sorted(shared)),
                reworded,
            )
        )
    return SimilarReport(provider.label, pairs, warning, embedded, stages)


LIKE_CANDIDATES = 20  # pages the transformer compares one page with, picked by the static table


def pages_like(vault: Vault, path: str, limit: int = 5) -> tuple[list[tuple[str, float]], str | None]:
    """The pages closest in meaning to one page, with their aligned scores, best first, and why the
    model fell back if it did: the TUI's "pages like this one". The static table picks
    LIKE_CANDIDATES pages (centred on the vault's mean, as stage one does); the transformer
    scores only those. A suspicion to read, never a finding."""
    from curator.core.duplicates import comparable

    by_path = {p: d for p, d in distinctive_texts(vault).items() if comparable(vault, vault.pages[p])}
    if path not in by_path or len(by_path) < 2:
        return [], None
    paths = list(by_path)
    pages = list(by_path.values())
    embedder = StaticEmbedder()
    store = _store_name("static", embedder.id, boilerplate.RECIPE)
    vectors, _ = whole_text_vectors(vault, store, pages, embedder.embed)
    _centre(vectors, vectors.mean(axis=0))
    me = paths.index(path)
    cosines = vectors @ vectors[me]
    cosines[me] = -np.inf
    picked = [int(i) for i in np.argsort(-cosines)[:LIKE_CANDIDATES] if np.isfinite(cosines[i])]
    provider, warning = provider_for(vault.config)
    if isinstance(provider, LexicalProvider):
        return [(paths[i], round(float(cosines[i]), 3)) for i in picked[:limit]], warning
    rows, _ = piece_vectors(vault, provider, [pages[me], *(pages[i] for i in picked)], others=pages)
    scored = [
        (paths[i], round(aligned_score(rows[0], row, title_overlap(pages[me].title, pages[i].title)), 3))
        for i, row in zip(picked, rows[1:], strict=True)
    ]
    return sorted(scored, key=lambda item: (-item[1], item[0]))[:limit], warning
