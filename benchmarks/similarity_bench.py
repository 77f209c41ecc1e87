"""Duplicate detection on synthetic vaults with planted reworded copies.

    python -m benchmarks.similarity_bench [--pages 1000 10000 100000] [--provider fastembed|lexical]

For each size: N pages plus N/100 planted copies (sentences reordered, words swapped for
synonyms, title changed). Prints the cold time (empty cache: every page embedded), the warm
time (every vector cached: load, candidate pairs, exact cosine, evidence), and the recall of the
planted pairs at the default threshold 0.85, with how many other pairs were also flagged.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from benchmarks.synth import generate, plant_duplicates
from curator.core.meaning.similarity import find_similar
from curator.core.read.loading import load_vault
from curator.core.state.config import Config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--provider", choices=("fastembed", "lexical"), default="fastembed")
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="curator-sim-"))
    config = Config(embedding_provider=args.provider)
    print(f"{'pages':>7} {'planted':>7} {'cold s':>8} {'warm s':>7} {'recall':>7} {'other pairs':>11}  provider")
    for pages in args.pages:
        root = work / f"vault-{pages}"
        if not root.exists():
            generate(root, pages)
            planted = plant_duplicates(root, max(pages // 100, 10))
            (root / "planted.txt").write_text("\n".join(f"{a}\t{b}" for a, b in planted))
        planted = [tuple(line.split("\t")) for line in (root / "planted.txt").read_text().splitlines()]
        shutil.rmtree(root / ".curator", ignore_errors=True)
        vault = load_vault(root, config)
        t0 = time.perf_counter()
        find_similar(vault)
        cold = time.perf_counter() - t0
        vault = load_vault(root, config)
        t1 = time.perf_counter()
        report = find_similar(vault)
        warm = time.perf_counter() - t1
        found = {(p.a, p.b) for p in report.pairs}
        wanted = {tuple(sorted(pair)) for pair in planted}
        recall = len(found & wanted) / len(wanted)
        print(
            f"{pages:>7} {len(wanted):>7} {cold:>8.1f} {warm:>7.2f} {recall:>7.3f} {len(found - wanted):>11}  "
            f"{report.provider}",
            flush=True,
        )
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
