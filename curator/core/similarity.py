"""Suspected duplicates: page vectors (cached by content hash and model), candidate pairs without
comparing all pairs, exact cosine on the candidates, and the evidence a person can check.

Candidates: below EXACT_LIMIT pages every pair is scored with one matrix product (exact, and
cheaper than building an index); above it, an inverted-file index (faiss IVF-Flat, inner product
on unit vectors) splits the pages into about 4·√N clusters (at most N/40), and each page is compared only with
the pages of its PROBES nearest clusters, keeping its NEIGHBOURS best: about N^1.5·PROBES/4
comparisons instead of N². A near-copy sits in the same or a neighbouring cluster; a page with
more than NEIGHBOURS near-copies can miss some pairs. Recall against all pairs is measured in
tests/test_similarity.py, benchmarks/similarity_bench.py and benchmarks/candidates_bench.py.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from curator.core import cache
from curator.core.embeddings import EmbeddingProvider, Vectors, load_provider
from curator.core.parse import split_frontmatter
from curator.core.resolve import fold

if TYPE_CHECKING:
    from curator.core.config import Config
    from curator.core.vault import Vault

EXACT_LIMIT = 3000
NEIGHBOURS = 24
PROBES = 16
TEXT_RECIPE = "v1"  # bump when page_text changes: every cached vector is then rebuilt
Progress = Callable[[int, int], None]

_HEADING = re.compile(r"^[ ]{0,3}#{1,6}[ \t].*$|^[ ]{0,3}(?:=+|-+)[ \t]*$", re.MULTILINE)
_LINK = re.compile(r"!?\[\[([^\[\]|#\n]*)(?:#[^\[\]|\n]*)?(?:\|([^\[\]\n]*))?\]\]")
_TITLE_WORD = re.compile(r"\w+", re.UNICODE)
STOPWORDS = frozenset(
    "a an the and or of on in at to for from by with without is are was were be been it its this that these "
    "those as into over after before again not no vs via der die das und oder von vom zum zur im am an auf "
    "mit für ist sind war ein eine einer eines den dem des bei nach aus".split()
)


def page_text(title: str, text: str) -> str:
    """What a page's vector is made of: its title and body, without frontmatter, heading lines
    (template headings are the same on unrelated pages) and link brackets."""
    _, _, body_at = split_frontmatter(text)
    body = _HEADING.sub("", text[body_at:])
    body = _LINK.sub(lambda m: m.group(2) or m.group(1), body)
    return f"{title}\n\n{' '.join(body.split())}"


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    score: float
    merge_worthy: bool
    shared_title_words: tuple[str, ...]
    shared_neighbours: tuple[str, ...]


@dataclass
class DuplicateReport:
    provider: str  # the provider's label
    pairs: list[Pair] = field(default_factory=list)
    warning: str | None = None  # why the model did not load, when it fell back
    embedded: int = 0  # pages embedded this run (cache misses)


@lru_cache(maxsize=4)
def _load(kind: str, model_path: str | None, model_name: str | None) -> tuple[EmbeddingProvider, str | None]:
    choice = load_provider(kind, model_path, model_name)
    return choice.provider, choice.warning


def provider_for(config: Config) -> tuple[EmbeddingProvider, str | None]:
    """The configured provider (loaded once a process) and why the model fell back, if it did."""
    return _load(config.embedding_provider, config.embedding_model_path, config.embedding_model_name)


def page_vectors(
    vault: Vault, provider: EmbeddingProvider, progress: Progress | None = None
) -> tuple[list[str], Vectors, int]:
    """(paths, unit vectors, pages embedded now) for every readable page; cached by content hash
    on disk, and on the loaded vault for the rest of its life."""
    memo_key = f"vectors:{provider.id}"
    if memo_key in vault.memo:
        paths, matrix = vault.memo[memo_key]
        return paths, matrix, 0
    paths = [p.path for p in vault.pages.values() if p.unreadable is None and p.sha]
    key = hashlib.blake2b(f"{provider.id}\0{TEXT_RECIPE}".encode(), digest_size=8).hexdigest()
    stored = _load_vectors(vault, key) if vault.use_cache else {}
    shas = [vault.pages[p].sha for p in paths]
    missing = [i for i, sha in enumerate(shas) if sha not in stored]
    fresh: Vectors | None = None
    if missing:
        texts = []
        for i in missing:
            page = vault.pages[paths[i]]
            raw = (vault.root / page.path).read_bytes().decode("utf-8", "replace")
            texts.append(page_text(page.title, raw))
        fresh = provider.embed(texts, progress)
    dim = fresh.shape[1] if fresh is not None else (next(iter(stored.values())).shape[0] if stored else 384)
    matrix = np.zeros((len(paths), dim), dtype=np.float32)
    fresh_rows = dict(zip(missing, range(len(missing)), strict=True))
    for i, sha in enumerate(shas):
        matrix[i] = fresh[fresh_rows[i]] if i in fresh_rows and fresh is not None else stored[sha]
    if vault.use_cache and missing:
        _store_vectors(vault, key, shas, matrix)
    vault.memo[memo_key] = (paths, matrix)
    return paths, matrix, len(missing)


def _load_vectors(vault: Vault, key: str) -> dict[str, np.ndarray]:
    index = cache.read_large_json(cache.cache_path(vault.root, f"vectors-{key}.json"))
    try:
        matrix = np.load(cache.cache_path(vault.root, f"vectors-{key}.npy"), allow_pickle=False)
    except (OSError, ValueError):
        return {}
    if not isinstance(index, list) or len(index) != len(matrix):
        return {}
    return dict(zip(index, matrix, strict=True))


def _store_vectors(vault: Vault, key: str, shas: list[str], matrix: Vectors) -> None:
    """Keep exactly the current pages' vectors: a changed or deleted page leaves nothing behind."""
    unique: dict[str, int] = {}
    for i, sha in enumerate(shas):
        unique.setdefault(sha, i)
    buffer = io.BytesIO()
    np.save(buffer, matrix[list(unique.values())], allow_pickle=False)
    try:
        folder = cache.ensure_state_dir(vault.root) / "cache"
        folder.mkdir(exist_ok=True)
        cache.write_atomic(folder / f"vectors-{key}.npy", buffer.getvalue())
    except OSError:
        return
    cache.write_json(vault.root, f"vectors-{key}.json", list(unique))


def candidate_pairs(vectors: Vectors, threshold: float, exact_limit: int = EXACT_LIMIT) -> list[tuple[int, int, float]]:
    """(i, j, cosine) with i < j and cosine >= threshold."""
    n = len(vectors)
    if n < 2:
        return []
    found: dict[tuple[int, int], float] = {}
    if n <= exact_limit:
        scores = vectors @ vectors.T
        rows, cols = np.nonzero(np.triu(scores, k=1) >= threshold)
        for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
            found[(i, j)] = float(scores[i, j])
    else:
        import faiss

        dim = vectors.shape[1]
        lists = max(min(int(4 * np.sqrt(n)), n // 40), 1)  # faiss wants about 40 training points a list
        data = np.ascontiguousarray(vectors, dtype=np.float32)
        index = faiss.IndexIVFFlat(faiss.IndexFlatIP(dim), dim, lists, faiss.METRIC_INNER_PRODUCT)
        sample = np.random.default_rng(0).choice(n, size=min(n, 40 * lists), replace=False)
        index.train(data[np.sort(sample)])
        index.add(data)
        index.nprobe = min(PROBES, lists)
        scores, neighbours = index.search(data, min(NEIGHBOURS + 1, n))
        for i in range(n):
            for score, j in zip(scores[i].tolist(), neighbours[i].tolist(), strict=True):
                if j < 0 or j == i or score < threshold:
                    continue
                found[(min(i, j), max(i, j))] = score
    return sorted(((i, j, s) for (i, j), s in found.items()), key=lambda t: (-t[2], t[0], t[1]))


def title_words(title: str) -> set[str]:
    return {w for w in (fold(m) for m in _TITLE_WORD.findall(title)) if w not in STOPWORDS and not w.isdigit()}


def find_duplicates(
    vault: Vault,
    threshold: float | None = None,
    merge_threshold: float | None = None,
    progress: Progress | None = None,
) -> DuplicateReport:
    """Pairs of pages at or above the suspicion threshold, most similar first, with their evidence."""
    config = vault.config
    threshold = config.duplicate_threshold if threshold is None else threshold
    merge_threshold = config.merge_threshold if merge_threshold is None else merge_threshold
    provider, warning = provider_for(config)
    paths, vectors, embedded = page_vectors(vault, provider, progress)
    neighbours: dict[str, set[str]] = {}
    for rl in vault.links:
        target = rl.resolution.path
        if rl.resolution.kind == "page" and target and target != rl.source:
            neighbours.setdefault(rl.source, set()).add(target)
            neighbours.setdefault(target, set()).add(rl.source)
    pairs = []
    for i, j, score in candidate_pairs(vectors, threshold):
        a, b = sorted((paths[i], paths[j]))
        shared_words = title_words(vault.pages[a].title) & title_words(vault.pages[b].title)
        shared = (neighbours.get(a, set()) & neighbours.get(b, set())) - {a, b}
        pairs.append(
            Pair(a, b, round(score, 4), score >= merge_threshold, tuple(sorted(shared_words)), tuple(sorted(shared)))
        )
    return DuplicateReport(provider.label, pairs, warning, embedded)
