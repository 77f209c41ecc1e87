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

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from curator.core.common.memory import release_free_memory
from curator.core.common.progress import Phased, phase
from curator.core.meaning.distinct import (
    Distinct,
    aligned_score,
    distinctive_texts,
    piece_vectors,
    title_overlap,
    title_words,
    whole_text_vectors,
)
from curator.core.meaning.embeddings import (
    LexicalProvider,
    StaticEmbedder,
)
from curator.core.meaning.stage_one import Stage, candidate_pairs, centre, said_best_by, static_candidates
from curator.core.meaning.vectors import provider_for, store_name
from curator.core.read import boilerplate

if TYPE_CHECKING:
    from curator.core.read.vault import Vault

MODEL_PIECES = 1500  # pieces the transformer embeds in one run, at most: what its time is spent on


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    score: float
    merge_worthy: bool
    shared_title_words: tuple[str, ...]
    shared_neighbours: tuple[str, ...]
    reworded: bool = False  # below the threshold, but each page says best what the other says


@dataclass
class SimilarReport:
    provider: str  # the provider's label
    pairs: list[Pair] = field(default_factory=list)
    warning: str | None = None  # why the model did not load, when it fell back
    embedded: int = 0  # pages the transformer (or the lexical provider) embedded this run
    stages: list[Stage] = field(default_factory=list)


def _within_model_budget(
    pairs: list[tuple[int, int, float]], pages: list[Distinct], piece_cost: float
) -> list[tuple[int, int, float]]:
    """Stage one's pairs, closest first, for as long as their pages bring the transformer no more
    than the time of MODEL_PIECES pieces of the bundled model (`piece_cost`: the model's time a
    piece, as a multiple of that): on a vault of short notes stage one passes a third of the pages,
    and the transformer's time, a piece at a time, is what a user waits for."""
    kept: list[tuple[int, int, float]] = []
    taken: set[int] = set()
    pieces = 0
    sizes: dict[int, int] = {}
    for i, j, score in sorted(pairs, key=lambda pair: -pair[2]):
        new = {i, j} - taken
        more = sum(sizes.setdefault(k, len(pages[k].pieces())) for k in new)
        if (pieces + more) * max(piece_cost, 1.0) > MODEL_PIECES:
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
    from curator.core.meaning.duplicates import comparable

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
    provider, warning = provider_for(vault)
    lexical = isinstance(provider, LexicalProvider)  # asked for, or the model did not load
    if threshold is None:
        threshold = config.lexical_duplicate_threshold if lexical else config.duplicate_threshold
    if merge_threshold is None:
        merge_threshold = config.lexical_merge_threshold if lexical else config.merge_threshold
    scored: list[tuple[int, int, float, bool]] = []  # (page, page, score, reworded)
    started = time.perf_counter()
    if lexical or stage_one is None:
        store = store_name("lexical", provider.id, boilerplate.RECIPE)
        counted = phase(progress, "lexical vectors")
        vectors, embedded = whole_text_vectors(vault, store, pages, lambda t: provider.embed(t, counted))
        scored = [(i, j, score, False) for i, j, score in candidate_pairs(vectors, threshold)]
        stages.append(Stage("lexical", len(pages), embedded, time.perf_counter() - started))
    else:
        stage_one = stage_one._replace(pairs=_within_model_budget(stage_one.pairs, pages, provider.piece_cost))
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
    from curator.core.meaning.duplicates import comparable

    # An empty page is like every other empty page (1.00 for two notes not written yet): none is shown.
    by_path = {
        p: d
        for p, d in distinctive_texts(vault).items()
        if comparable(vault, vault.pages[p]) and vault.pages[p].body_chars
    }
    if path not in by_path or len(by_path) < 2:
        return [], None
    paths = list(by_path)
    pages = list(by_path.values())
    embedder = StaticEmbedder()
    store = store_name("static", embedder.id, boilerplate.RECIPE)
    vectors, _ = whole_text_vectors(vault, store, pages, embedder.embed)
    centre(vectors, vectors.mean(axis=0))
    me = paths.index(path)
    cosines = vectors @ vectors[me]
    cosines[me] = -np.inf
    picked = [int(i) for i in np.argsort(-cosines)[:LIKE_CANDIDATES] if np.isfinite(cosines[i])]
    provider, warning = provider_for(vault)
    if isinstance(provider, LexicalProvider):
        return [(paths[i], round(float(cosines[i]), 3)) for i in picked[:limit]], warning
    rows, _ = piece_vectors(vault, provider, [pages[me], *(pages[i] for i in picked)], others=pages)
    scored = [
        (paths[i], round(aligned_score(rows[0], row, title_overlap(pages[me].title, pages[i].title)), 3))
        for i, row in zip(picked, rows[1:], strict=True)
    ]
    return sorted(scored, key=lambda item: (-item[1], item[0]))[:limit], warning
