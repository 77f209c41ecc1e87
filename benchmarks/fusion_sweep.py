"""Fusion variants on the tuning questions: how BM25 and the vectors could be combined.

    python -m benchmarks.fusion_sweep --keep DIR [--labels PATH ...] [--vault NAME ...] [--provider KIND] [--top 15]

For the tuning questions only: the 154 golden queries (benchmarks/search_eval.py) and the held-out
sets named by `--labels` (default the first, benchmarks/labels/search_heldout.jsonl; every set
named here is spent by the tuning), on the vaults named by `--vault` (default all). Each question's BM25
list (with whoosh scores) and vector scores are taken once from copies whose whole index is built
(`DIR` as kept by `benchmarks.search_heldout --keep DIR --index`; the golden vaults are copied and
read here); each variant then ranks from those lists alone, without the one link hop, the
superseded share or the weak tail that `search` adds.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import tempfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.search_eval import GOLDEN, VAULTS
from benchmarks.search_heldout import LABELS, copy_vault, load_questions, rank_of
from curator.core.meaning.search import indexed, parse_query
from curator.core.meaning.vectors import fill_all, nearest, provider_for
from curator.core.read.loading import load_vault
from curator.core.read.vault import Vault
from curator.core.state.config import CONFIG_NAME


@dataclass(frozen=True)
class Lists:
    group: str  # golden | en | de | cross
    words: list[tuple[str, float]]  # BM25: page, score of its best section, best first
    meaning: list[tuple[str, float]]  # vectors: page, cosine, best first
    wanted: tuple[str, ...]


def bm25_scored(vault: Vault, text: str) -> list[tuple[str, float]]:
    """BM25's pages for `text` with the score of each page's best section (as `search` asks)."""
    from whoosh import index
    from whoosh.qparser.default import MultifieldParser
    from whoosh.qparser.syntax import OrGroup

    store = indexed(vault)
    ix = index.open_dir(str(store.folder))
    query = MultifieldParser(["title", "content"], ix.schema, group=OrGroup).parse(text)
    found: dict[str, float] = {}
    with ix.searcher() as searcher:
        for hit in searcher.search(query, limit=60):
            found.setdefault(hit["path"], float(hit.score))
    return list(found.items())


def lists_of(vault: Vault, group: str, raw: str, wanted: tuple[str, ...]) -> Lists:
    text = parse_query(raw, set()).text
    provider, _ = provider_for(vault)
    found = nearest(vault, provider, text, set(vault.pages) - vault.templates)  # as `search` asks
    return Lists(group, bm25_scored(vault, text), list(found.scores.items())[:50], wanted)


Ranker = Callable[[Lists], list[str]]


def rrf(k: int, floor: float, depth: int, weight: float) -> Ranker:
    def rank(q: Lists) -> list[str]:
        scores: dict[str, float] = defaultdict(float)
        for i, (path, _) in enumerate(q.words):
            scores[path] += 1 / (k + i + 1)
        for i, (path, cosine) in enumerate(q.meaning[:depth]):
            if cosine >= floor:
                scores[path] += weight / (k + i + 1)
        return sorted(scores, key=lambda p: -scores[p])

    return rank


def convex(alpha: float, floor: float, depth: int) -> Ranker:
    """alpha * cosine + (1 - alpha) * BM25 / BM25's best (Bruch et al.'s convex combination)."""

    def rank(q: Lists) -> list[str]:
        top = q.words[0][1] if q.words else 1.0
        scores: dict[str, float] = defaultdict(float)
        for path, score in q.words:
            scores[path] += (1 - alpha) * score / top
        for path, cosine in q.meaning[:depth]:
            if cosine >= floor:
                scores[path] += alpha * cosine
        return sorted(scores, key=lambda p: -scores[p])

    return rank


def variants() -> dict[str, Ranker]:
    found: dict[str, Ranker] = {
        "search now: rrf k60 floor0.45 depth10 w1": rrf(60, 0.45, 10, 1.0),
        "search before: rrf k60 floor0.50 depth10 w1": rrf(60, 0.5, 10, 1.0),
    }
    for k, floor, depth, weight in itertools.product(
        (5, 10, 20, 60), (0.0, 0.3, 0.4, 0.45, 0.5), (5, 10, 20), (0.8, 1.0, 1.25, 1.5, 2.0, 3.0)
    ):
        found[f"rrf k{k} floor{floor:.2f} depth{depth} w{weight}"] = rrf(k, floor, depth, weight)
    for alpha, floor, depth in itertools.product((0.3, 0.4, 0.5, 0.6, 0.7, 0.8), (0.0, 0.3, 0.4), (10, 20, 50)):
        found[f"convex a{alpha} floor{floor:.2f} depth{depth}"] = convex(alpha, floor, depth)
    return found


def recall5(rows: list[tuple[list[str], tuple[str, ...]]]) -> float:
    return sum(1 for ranked, wanted in rows if rank_of(ranked, wanted, 5)) / len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, required=True, metavar="DIR", help="the held-out copies (whole index)")
    parser.add_argument("--provider", choices=("fastembed", "multilingual"), help="the [embedding] provider")
    parser.add_argument("--labels", type=Path, action="append", help="a held-out set to tune on (repeatable)")
    parser.add_argument("--vault", action="append", help="only the held-out questions on this vault (repeatable)")
    parser.add_argument("--top", type=int, default=15, help="variants shown, best first")
    args = parser.parse_args()
    questions: list[Lists] = []
    vaults: dict[str, Vault] = {}
    work = Path(tempfile.mkdtemp(prefix="curator-sweep-"))
    try:
        for name, source in VAULTS.items():
            shutil.copytree(source, work / name)
            if args.provider:
                (work / name / CONFIG_NAME).write_text(f'[embedding]\nprovider = "{args.provider}"\n')
            vaults[name] = load_vault(work / name)
            fill_all(vaults[name], provider_for(vaults[name])[0])
        questions += [lists_of(vaults[v], "golden", q, tuple(w)) for v, q, w in GOLDEN]
        for q in (q for path in args.labels or [LABELS] for q in load_questions(path)):
            if args.vault and q.vault not in args.vault:
                continue
            if q.vault not in vaults:
                vaults[q.vault] = load_vault(copy_vault(q.vault, args.keep))
                fill_all(vaults[q.vault], provider_for(vaults[q.vault])[0])
            questions.append(lists_of(vaults[q.vault], q.kind, q.question, q.answers))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    groups = ("golden", "en", "de", "cross")
    counts = {g: sum(1 for q in questions if q.group == g) for g in groups}
    print("questions: " + ", ".join(f"{g} {n}" for g, n in counts.items()))
    table = []
    for name, rank in variants().items():
        per = {g: recall5([(rank(q), q.wanted) for q in questions if q.group == g]) for g in groups}
        table.append((sum(per.values()) / len(per), name, per))
    table.sort(key=lambda row: -row[0])
    shown = [row for row in table if row[1].startswith("search ")]
    print(f"{'variant':<46} " + " ".join(f"{g:>7}" for g in groups) + "    mean")
    for mean, name, per in [*shown, *table[: args.top]]:
        print(f"{name:<46} " + " ".join(f"{per[g]:>7.3f}" for g in groups) + f"  {mean:.3f}")
    for ranker, pick in (("bm25", _words), ("vectors", _meaning)):
        per = {g: recall5([(pick(q), q.wanted) for q in questions if q.group == g]) for g in groups}
        print(f"{ranker + ' alone':<46} " + " ".join(f"{per[g]:>7.3f}" for g in groups))


def _words(q: Lists) -> list[str]:
    return [p for p, _ in q.words]


def _meaning(q: Lists) -> list[str]:
    return [p for p, _ in q.meaning]


if __name__ == "__main__":
    main()
