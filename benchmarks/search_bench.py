"""Search index build time and query latency (p50/p95, warm index) on a synthetic vault.

    python -m benchmarks.search_bench [--pages 10000] [--vault DIR] [--queries 100]

`--vault` reuses a generated vault (its page vectors cached by an earlier run, e.g. of
similarity_bench.py); otherwise one is generated, and its first query embeds every page.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.synth import WORDS, generate
from curator.core.meaning.search import SearchIndex, search
from curator.core.meaning.vectors import page_vectors, provider_for
from curator.core.read.loading import load_vault


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--vault", type=Path)
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    root = args.vault or generate(Path(tempfile.mkdtemp(prefix="curator-search-")) / "vault", args.pages)
    vault = load_vault(root)
    shutil.rmtree(root / ".curator" / "search", ignore_errors=True)
    t0 = time.perf_counter()
    SearchIndex(root).update(vault)
    build = time.perf_counter() - t0
    provider, _ = provider_for(vault)
    page_vectors(vault, provider)  # warm: vectors cached, model loaded
    rng = random.Random(3)
    queries = [" ".join(rng.sample(WORDS, rng.choice((1, 2, 3)))) for _ in range(args.queries)]
    search(vault, queries[0])
    latencies = []
    for query in queries:
        t1 = time.perf_counter()
        search(vault, query)
        latencies.append(time.perf_counter() - t1)
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(
        f"pages {len(vault.pages)}: index build {build:.1f} s; {len(queries)} queries: "
        f"p50 {statistics.median(latencies) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
