"""What `curator lint` and `curator dream` cost on a real vault written by others, as a user waits for them.

    python -m benchmarks.lint_real [--vault yoshixi-zettelkasten] [--runs 3] [--dream obsidian-hub]

Each figure is a fresh process (`python -m curator ...`), wall time and peak memory from the
operating system (wait4), the median of --runs runs with min and max:

- cold: nothing cached (the vault's .curator/ removed first), the default rules, then the same
  with `--ignore duplicate` (the duplicate rule's share is the difference);
- warm: the cache from the run before, nothing changed, both ways;
- warm after one edit: one word appended to one page (put back after), both ways;
- dream: `curator dream` with nothing cached.

The vaults are checkouts of benchmarks/real_vaults.py (pinned by repository and commit), made in
a cache folder this script may write in: it refuses the shared vaults, which are never written.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.real_vaults import SHARED_ROOT, checkout


def timed(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and peak MiB of one process."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {process.returncode}")
    return time.perf_counter() - started, usage.ru_maxrss / 1024


def summary(name: str, runs: list[tuple[float, float]]) -> str:
    walls = [w for w, _ in runs]
    peaks = [p for _, p in runs]
    return (
        f"{name}: {statistics.median(walls):.2f} s (min {min(walls):.2f}, max {max(walls):.2f}), "
        f"peak {statistics.median(peaks):.0f} MiB (max {max(peaks):.0f})"
    )


def lint(root: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "curator", "lint", *extra, str(root)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vault", default="yoshixi-zettelkasten")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dream", default="obsidian-hub", help="the vault to dream on ('' to skip)")
    args = parser.parse_args()
    root = checkout(args.vault)
    if SHARED_ROOT in root.parents or root == SHARED_ROOT:
        raise SystemExit(f"{args.vault} is a shared vault: this benchmark writes a cache into the vault it reads")
    pages = sorted(root.rglob("*.md"))
    print(f"{args.vault} at {root}: {len(pages)} pages, {args.runs} runs each")
    state = root / ".curator"
    for label, extra in (("default rules", ()), ("--ignore duplicate", ("--ignore", "duplicate"))):
        cold = []
        for _ in range(args.runs):
            shutil.rmtree(state, ignore_errors=True)
            cold.append(timed(lint(root, *extra)))
        print(summary(f"cold lint, {label}", cold))
        print(summary(f"warm lint, nothing changed, {label}", [timed(lint(root, *extra)) for _ in range(args.runs)]))
        edited = pages[len(pages) // 2]
        before = edited.read_bytes()
        after_edit = []
        try:
            for run in range(args.runs):
                edited.write_bytes(before + f"\nedited {run}\n".encode())
                after_edit.append(timed(lint(root, *extra)))
        finally:
            edited.write_bytes(before)
        timed(lint(root, *extra))  # the cache as it was
        print(summary(f"warm lint after one edit, {label}", after_edit))
    if args.dream:
        dream_root = checkout(args.dream)
        dream_pages = sum(1 for _ in dream_root.rglob("*.md"))
        dreams = []
        for _ in range(args.runs):
            shutil.rmtree(dream_root / ".curator", ignore_errors=True)
            dreams.append(timed([sys.executable, "-m", "curator", "dream", str(dream_root)]))
        print(summary(f"dream on {args.dream} ({dream_pages} pages), nothing cached", dreams))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
