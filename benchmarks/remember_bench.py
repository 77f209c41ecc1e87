"""Time `curator remember` on a large vault whose caches are warm, as a vault in daily use is.

    python -m benchmarks.remember_bench [--pages 10000] [--runs 3] [--vault DIR]

Warms the caches once (`curator search` builds the search index and every page's vector), then
times the whole command (a new process: start-up, load, evidence, decision) for a few texts,
each `--runs` times (the figures: fastest, median, slowest). `--vault DIR` times an existing
vault (a synthetic one is generated there first when DIR does not exist), so a second run need
not warm the caches again.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.synth import generate

TEXTS = (
    "The Redis cache cluster evicts keys with allkeys-lru; the memory limit is 8 GB per node.",
    "PR #482 merged",
    "Kafka consumer group billing-events must be reset after schema changes.",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--vault", type=Path)
    args = parser.parse_args()
    root = args.vault or Path(tempfile.mkdtemp(prefix="curator-remember-")) / "vault"
    if not root.exists():
        generate(root, args.pages)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "curator", "search", str(root), "warm up"], check=True, capture_output=True)
    print(f"{root}: caches warmed in {time.perf_counter() - started:.0f} s")
    for text in TEXTS:
        times = []
        for _ in range(args.runs):
            started = time.perf_counter()
            out = subprocess.run(
                [sys.executable, "-m", "curator", "remember", str(root), text, "--json"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            times.append(time.perf_counter() - started)
        decision = out.split('"decision": "', 1)[1].split('"', 1)[0]
        times.sort()
        print(f"  {times[0]:.2f} / {times[len(times) // 2]:.2f} / {times[-1]:.2f} s  {decision:<10} {text}")


if __name__ == "__main__":
    main()
