"""Time `curator remember` on a large vault whose caches are warm, as a vault in daily use is.

    python -m benchmarks.remember_bench [--pages 10000] [--runs 3] [--vault DIR]

Warms the caches once (`curator search` builds the search index and every page's vector), then
times the whole command (a new process: start-up, load, evidence, decision) for a few texts,
each `--runs` times (the figures: fastest, median, slowest), as a proposal that waits for review
and with `--apply` (each applied change is undone again, untimed). `--vault DIR` times an existing
vault (a synthetic one is generated there first when DIR does not exist), so a second run need
not warm the caches again.
"""

from __future__ import annotations

import argparse
import json
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
    print("  proposed (min / median / max)   --apply (min / median / max)   decision")
    for text in TEXTS:
        proposed, applied = [], []
        for _ in range(args.runs):
            started = time.perf_counter()
            out = json.loads(_curator("remember", str(root), text, "--json"))
            proposed.append(time.perf_counter() - started)
            started = time.perf_counter()
            done = json.loads(_curator("remember", str(root), text, "--apply", "--json"))
            applied.append(time.perf_counter() - started)
            if done.get("change"):
                _curator("undo", str(root), done["change"])
        print(f"  {_spread(proposed)}          {_spread(applied)}          {out['decision']:<10} {text}")


def _curator(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "curator", *args], check=True, capture_output=True, text=True).stdout


def _spread(times: list[float]) -> str:
    times = sorted(times)
    return f"{times[0]:.2f} / {times[len(times) // 2]:.2f} / {times[-1]:.2f} s"


if __name__ == "__main__":
    main()
