"""The duplicate rules on real vaults written by others, judged by the labels of benchmarks/labels/.

    python -m benchmarks.duplicates_real [--split tune|heldout|fresh|fresh2..fresh23|trial|all]
                                         [--rule duplicate|similar] [--vault NAME ...] [--unlabelled FILE]

For each vault (pinned by repository and commit in benchmarks/real_vaults.py) the rule runs with
the default config on a fresh load (nothing cached). A reported pair labelled `merge` is a true
positive, `related` a false one, `unsure` is counted apart and left out of precision; a pair
without a label is listed (and written to FILE with --unlabelled) to be labelled by reading.
Recall is over the vault's `merge` labels. "Joined" recall also counts a `merge` pair whose pages
the reported true pairs join through others (three copies reported as two pairs to one page are
merged into one page: the third pair is found too). Prints one line per vault and one per split.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import networkx as nx

from benchmarks.real_vaults import VAULTS, checkout

LABELS = Path(__file__).parent / "labels"


def labels_of(name: str) -> dict[frozenset[str], str]:
    path = LABELS / f"{name}.jsonl"
    if not path.exists():
        return {}
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {frozenset((r["a"], r["b"])): r["label"] for r in rows}


def reported(root: Path, rule: str) -> tuple[list[tuple[str, str, str]], float]:
    """(page, other, evidence) for each pair the rule reports, and the seconds it took."""
    from curator.core.read.loading import load_vault
    from curator.core.state.config import load_config

    config = load_config(root)
    vault = load_vault(root, config, use_cache=False)
    started = time.perf_counter()
    if rule == "duplicate":
        from curator.core.meaning.duplicates import find

        pairs = [(d.page, d.other, "; ".join(d.evidence)) for d in find(vault)]
    else:
        from curator.core.meaning.similarity import find_similar

        report = find_similar(vault)
        pairs = [(p.a, p.b, f"similarity {p.score:.2f}") for p in report.pairs]
    return pairs, time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    splits = ["tune", "heldout", "fresh", *(f"fresh{n}" for n in range(2, 24)), "trial", "all"]
    parser.add_argument("--split", default="all", choices=splits)
    parser.add_argument("--rule", default="duplicate", choices=["duplicate", "similar"])
    parser.add_argument("--vault", action="append", default=[])
    parser.add_argument("--unlabelled")
    args = parser.parse_args()
    chosen = [v for v in VAULTS if (not args.vault or v.name in args.vault) and args.split in ("all", v.split)]
    totals: dict[str, list[int]] = {}
    unlabelled: list[dict[str, str]] = []
    print(f"rule {args.rule}: vault, split, pages, reported, merge, related, unsure, unlabelled, precision, recall")
    for vault in chosen:
        root = checkout(vault.name)
        labels = labels_of(vault.name)
        pairs, seconds = reported(root, args.rule)
        counts = {"merge": 0, "related": 0, "unsure": 0, "none": 0}
        false = []
        for a, b, evidence in pairs:
            label = labels.get(frozenset((a, b)), "none")
            counts[label] += 1
            if label == "none":
                unlabelled.append({"vault": vault.name, "a": a, "b": b, "evidence": evidence})
            if label == "related":
                false.append(f"  false: {a} | {b} | {evidence}")
        positives = sum(1 for label in labels.values() if label == "merge")
        merged = nx.Graph((a, b) for a, b, _ in pairs if labels.get(frozenset((a, b))) == "merge")
        joined = sum(
            1
            for pair, label in labels.items()
            if label == "merge" and pair <= merged.nodes and nx.has_path(merged, *pair)
        )
        judged = counts["merge"] + counts["related"]
        precision = f"{counts['merge'] / judged:.2f}" if judged else "-"
        recall = f"{counts['merge'] / positives:.2f}, joined {joined / positives:.2f}" if positives else "-"
        pages = sum(1 for _ in root.rglob("*.md"))
        print(
            f"{vault.name}, {vault.split}, {pages}, {len(pairs)}, {counts['merge']}, {counts['related']}, "
            f"{counts['unsure']}, {counts['none']}, {precision}, {recall} ({positives} labelled), {seconds:.1f} s"
        )
        print("\n".join(false), end="\n" if false else "")
        total = totals.setdefault(vault.split, [0, 0, 0, 0, 0, 0])
        for k, key in enumerate(("merge", "related", "unsure", "none")):
            total[k] += counts[key]
        total[4] += positives
        total[5] += joined
    for split, (tp, fp, unsure, none, positives, joined) in totals.items():
        precision = f"{tp / (tp + fp):.2f}" if tp + fp else "-"
        recall = f"{tp / positives:.2f}, joined {joined / positives:.2f}" if positives else "-"
        print(
            f"split {split}: {tp} merge, {fp} related, {unsure} unsure, {none} unlabelled; "
            f"precision {precision}, recall {recall}"
        )
    if args.unlabelled:
        Path(args.unlabelled).write_text("".join(json.dumps(row) + "\n" for row in unlabelled))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
