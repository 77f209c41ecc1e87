"""Stage one of the similar-page search: from the static table's vectors of what pages say of
their own, the pairs worth the transformer's time (an inverted-file index of the vectors, each
page's nearest neighbours, mutual nearest pairs), with its stores so a warm run searches again
only the pages that changed."""

from __future__ import annotations

import functools
import hashlib
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple

import numpy as np

from curator.core.common.memory import release_free_memory
from curator.core.common.progress import Phased, phase
from curator.core.meaning.distinct import (
    MAX_PIECES,
    PIECE_WORDS,
    Distinct,
    aligned_score,
    piece_vectors,
    title_words,
    whole_text_vectors,
    word_overlap,
)
from curator.core.meaning.embeddings import (
    StaticEmbedder,
    Vectors,
)
from curator.core.meaning.vectors import store_name
from curator.core.read import boilerplate
from curator.core.state import cache

if TYPE_CHECKING:
    from curator.core.read.vault import Vault

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


@dataclass(frozen=True)
class Stage:
    """What one stage of the duplicate search did this run."""

    name: str  # "static", "model" or "lexical"
    pages: int  # pages the stage looked at
    embedded: int  # of those, pages embedded now (not cached)
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "pages": self.pages, "embedded": self.embedded, "seconds": round(self.seconds, 3)}


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
    store = store_name("static", embedder.id, boilerplate.RECIPE)
    counted = phase(progress, "stage one: page vectors")
    vectors, embedded = whole_text_vectors(vault, store, pages, lambda t: embedder.embed(t, counted))
    said = [i for i, page in enumerate(pages) if page.words]
    if len(said) < 2:
        return StageOne([], set(), embedded)
    if len(said) < len(pages):
        vectors = vectors[said]
    frame = store_name("frame", embedder.id, boilerplate.RECIPE, EXACT_LIMIT)
    mean, centroids, kept = _kept_frame(vault, frame, vectors)
    centre(vectors, mean)  # in place: one copy of the vault's vectors at a time (100 MB at 100k pages)
    if not kept:
        centroids = index_centroids(vectors) if len(vectors) > EXACT_LIMIT else None
        _store_frame(vault, frame, mean, centroids)
    frame_id = _frame_id(mean, centroids)
    searched = store_name("searched", embedder.id, boilerplate.RECIPE, EXACT_LIMIT, NEIGHBOURS, PROBES)
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
    pair_store = store_name("pairs", embedder.id, boilerplate.RECIPE, PIECE_WORDS, MAX_PIECES)
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
        centre(row[:, :-1], mean)
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


def centre(vectors: np.ndarray, mean: np.ndarray) -> np.ndarray:
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
