"""Warm duplicate detection at scale without the model: candidate pairs on N unit vectors.

    python -m benchmarks.candidates_bench [--sizes 10000 100000] [--dim 384]

Vectors are random (like unrelated pages) with 1% planted near-copies (cosine about 0.9); this
times `candidate_pairs` (HNSW index build, search, threshold) and prints the recall of the planted
pairs. It stands in for the 100k-page run, whose cold embedding takes over an hour on 2 cores.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from curator.core.meaning.stage_one import candidate_pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--dim", type=int, default=384)
    args = parser.parse_args()
    print(f"{'vectors':>8} {'planted':>8} {'seconds':>8} {'recall':>7} {'pairs':>7}")
    for n in args.sizes:
        rng = np.random.default_rng(5)
        planted = n // 100
        base = rng.normal(size=(n - planted, args.dim)).astype(np.float32)
        base /= np.linalg.norm(base, axis=1, keepdims=True)
        noise = rng.normal(size=(planted, args.dim)).astype(np.float32)
        noise /= np.linalg.norm(noise, axis=1, keepdims=True)
        copies = base[:planted] * 0.92 + noise * 0.39  # cosine with the original about 0.92
        vectors = np.vstack([base, copies]).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        t0 = time.perf_counter()
        pairs = candidate_pairs(vectors, 0.85)
        elapsed = time.perf_counter() - t0
        found = {(i, j) for i, j, _ in pairs}
        wanted = {(i, n - planted + i) for i in range(planted)}
        recall = len(found & wanted) / len(wanted)
        print(f"{n:>8} {planted:>8} {elapsed:>8.2f} {recall:>7.3f} {len(pairs):>7}", flush=True)


if __name__ == "__main__":
    main()
