"""Held-out search questions on real vaults: recall@5 and MRR@10 for BM25, vectors and the fusion, per kind.

    python -m benchmarks.search_heldout [--labels PATH] [--kind en|de|cross] [--keep DIR] [--misses] [--check]

The questions (benchmarks/labels/search_heldout.jsonl; `--labels` scores another file of the same
form, e.g. the untouched sets search_heldout2.jsonl to search_heldout7.jsonl) were
written from a user's task, not from a page's words, and their answers found by reading, before any
search ran on them; nobody tunes on them (see benchmarks/labels/README.md). Kinds: `en` English
questions on English pages, `de` German questions on German pages, `cross` German questions on
English pages and English questions on German pages; `zh` and `ja` Chinese and Japanese questions on
pages in their language (search_cjk.jsonl), with no target of the issue's. Each vault is searched in a copy (search
writes `.curator/` state); `--keep DIR` keeps the copies there so a later run reuses their index
instead of embedding every page again. `--check` exits 1 when the fusion misses issue 32's targets (recall@5 >= 0.9
en, >= 0.85 de, >= 0.8 cross, each above BM25 alone).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.real_vaults import BY_NAME, checkout
from curator.core.meaning.embeddings import MultilingualModel, _TransformerProvider
from curator.core.meaning.search import search
from curator.core.meaning.vectors import fill_all, provider_for
from curator.core.read.loading import load_vault
from curator.core.read.vault import Vault
from curator.core.state.config import CONFIG_NAME

LABELS = Path(__file__).resolve().parent / "labels" / "search_heldout.jsonl"
LABELS2 = LABELS.with_name("search_heldout2.jsonl")  # the second set, kept for reporting
LABELS3 = LABELS.with_name("search_heldout3.jsonl")  # the third set, on two more vaults, kept for reporting
LABELS4 = LABELS.with_name("search_heldout4.jsonl")  # the fourth set, on two more vaults, kept for reporting
LABELS5 = LABELS.with_name("search_heldout5.jsonl")  # the fifth set, on two more vaults, kept for reporting
LABELS6 = LABELS.with_name("search_heldout6.jsonl")  # the sixth set, on two more vaults, kept for reporting
LABELS7 = LABELS.with_name("search_heldout7.jsonl")  # the seventh set, mostly across languages, kept for reporting
LABELS8 = LABELS.with_name("search_heldout8.jsonl")  # the eighth set, German and across languages, kept for reporting
LABELS9 = LABELS.with_name("search_heldout9.jsonl")  # the ninth set, German and English vaults, kept for reporting
LABELS10 = LABELS.with_name("search_heldout10.jsonl")  # the tenth set, two German vaults, kept for reporting
KINDS = ("en", "de", "cross", "zh", "ja")  # zh, ja: Chinese and Japanese questions on their pages
RANKERS = ("bm25", "vector", "fusion")
TARGETS = {"en": 0.9, "de": 0.85, "cross": 0.8}  # fused recall@5, issue 32


@dataclass(frozen=True)
class Question:
    vault: str
    lang: str
    question: str
    answers: tuple[str, ...]
    kind: str
    task: str


def load_questions(path: Path = LABELS) -> list[Question]:
    """The labelled questions, one JSON object a line."""
    questions = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            questions.append(
                Question(row["vault"], row["lang"], row["question"], tuple(row["answers"]), row["kind"], row["task"])
            )
    return questions


def rank_of(ranked: list[str], wanted: tuple[str, ...], depth: int) -> int | None:
    """The 1-based rank of the first answering page within `depth`, or None."""
    for i, path in enumerate(ranked[:depth]):
        if path in wanted:
            return i + 1
    return None


def measures(results: list[tuple[list[str], tuple[str, ...]]]) -> dict[str, float]:
    """recall@5, recall@10 and MRR@10 of the first answering page, averaged over the questions."""
    ranks = [rank_of(ranked, wanted, 10) for ranked, wanted in results]
    return {
        "recall@5": statistics.mean(1.0 if r and r <= 5 else 0.0 for r in ranks),
        "recall@10": statistics.mean(1.0 if r else 0.0 for r in ranks),
        "MRR@10": statistics.mean(1.0 / r if r else 0.0 for r in ranks),
    }


def copy_vault(name: str, work: Path) -> Path:
    """A writable copy of the vault's pages under `work` (made once; reused when already there)."""
    dest = work / name
    if not dest.is_dir():
        source = checkout(name)
        shutil.copytree(source, dest, ignore=shutil.ignore_patterns(".git", ".curator"))
    return dest


def vault_line(name: str) -> str:
    vault = BY_NAME[name]
    where = f" ({vault.subdir})" if vault.subdir else ""
    return f"{name}: {vault.repo} @ {vault.commit or 'shared'}{where}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--labels", type=Path, default=LABELS, metavar="PATH", help=f"the questions (default: {LABELS.name})"
    )
    parser.add_argument("--kind", choices=KINDS, help="only the questions of this kind")
    parser.add_argument("--vault", help="only the questions on this vault")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep (and reuse) the vault copies in DIR")
    parser.add_argument("--misses", action="store_true", help="list the questions the fusion missed in its top 5")
    parser.add_argument("--check", action="store_true", help="exit 1 when the fusion misses issue 32's targets")
    parser.add_argument(
        "--provider", choices=("fastembed", "multilingual"), help="the [embedding] provider of the copies"
    )
    parser.add_argument("--index", action="store_true", help="have the model read every page first (curator index)")
    parser.add_argument(
        "--floor", type=float, help="the cosine floor in the fusion of the model reading each vault (a sweep's step)"
    )
    args = parser.parse_args()
    if args.floor is not None:  # each vault is read by one model: the English or the multilingual one
        _TransformerProvider.floor = MultilingualModel.floor = args.floor
    try:
        labelled = load_questions(args.labels)
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        print(f"search_heldout: cannot read the questions in {args.labels}: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    unknown = sorted({q.vault for q in labelled} - set(BY_NAME))
    if unknown:
        print(
            f"search_heldout: {args.labels} names vaults not in benchmarks/real_vaults.py: {unknown}", file=sys.stderr
        )
        raise SystemExit(2)
    print(f"{args.labels.name}: {len(labelled)} questions")
    questions = [q for q in labelled if args.kind in (None, q.kind) and args.vault in (None, q.vault)]
    work = args.keep or Path(tempfile.mkdtemp(prefix="curator-heldout-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        vaults: dict[str, Vault] = {}
        for name in sorted({q.vault for q in questions}):
            root = copy_vault(name, work)
            if args.provider:
                (root / CONFIG_NAME).write_text(f'[embedding]\nprovider = "{args.provider}"\n', encoding="utf-8")
            vaults[name] = load_vault(root)
            print(vault_line(name), f"- {len(vaults[name].pages)} pages")
            if args.index:
                started = time.perf_counter()
                provider, _ = provider_for(vaults[name])
                read = fill_all(vaults[name], provider)
                print(f"  the model ({provider.label}) read {read} pages in {time.perf_counter() - started:.0f} s")
        results: dict[tuple[str, str], list[tuple[list[str], tuple[str, ...]]]] = {}
        misses: list[str] = []
        for q in questions:
            started = time.perf_counter()
            result = search(vaults[q.vault], q.question, limit=10)
            seconds = time.perf_counter() - started
            fused = [h.path for h in result.hits]
            for ranker, ranked in (
                ("bm25", result.rankers.get("bm25", [])),
                ("vector", result.rankers.get("vector", [])),
                ("fusion", fused),
            ):
                results.setdefault((q.kind, ranker), []).append((ranked, q.answers))
            if seconds > 30:  # the first question of a vault builds its index
                print(f"  ({q.vault}: first search {seconds:.0f} s, building the index)")
            if not rank_of(fused, q.answers, 5):
                top = fused[0] if fused else "nothing"
                misses.append(f"{q.kind:<5} {q.vault}: {q.question!r} -> {top}")
        print(f"\n{len(questions)} questions")
        print(f"{'kind':<6} {'n':>3} {'ranker':<7} {'recall@5':>9} {'recall@10':>9} {'MRR@10':>7}")
        failed = []
        for kind in KINDS:
            if (kind, "fusion") not in results:
                continue
            figures = {ranker: measures(results[(kind, ranker)]) for ranker in RANKERS}
            for ranker in RANKERS:
                found = figures[ranker]
                print(
                    f"{kind:<6} {len(results[(kind, ranker)]):>3} {ranker:<7} "
                    f"{found['recall@5']:>9.3f} {found['recall@10']:>9.3f} {found['MRR@10']:>7.3f}"
                )
            fused_r5, bm25_r5 = figures["fusion"]["recall@5"], figures["bm25"]["recall@5"]
            if kind in TARGETS and (fused_r5 < TARGETS[kind] or fused_r5 <= bm25_r5):
                failed.append(
                    f"{kind}: fused recall@5 {fused_r5:.3f} (target {TARGETS[kind]}, BM25 alone {bm25_r5:.3f})"
                )
        if args.misses:
            print("\nnot in the fusion's top 5:")
            for miss in misses:
                print(f"  {miss}")
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    for line in failed:
        print(f"search_heldout: below target: {line}", file=sys.stderr if args.check else sys.stdout)
    if args.check and failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
