"""Time a rename of one page linked from N pages in a 10k-page synthetic vault.

    python -m benchmarks.rename_bench [--pages 10000] [--linkers 100 300 1000 3000] [--runs 1]

For each N, a fresh copy of the vault gets `[[Target]]` appended to N pages; then it times loading
the vault (warm cache), planning the rename (every link rewritten and re-resolved), and applying it
(journal, atomic writes, no git), each in this process; and, on a second copy, the whole
`curator rename` command as a user runs it (a new process: start-up, the vault's lock, load, plan,
apply). Prints one row per N.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.synth import generate
from curator.core.change.changes import apply
from curator.core.change.edits import plan_rename
from curator.core.read.loading import load_vault


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--linkers", type=int, nargs="+", default=[100, 300, 1000, 3000])
    parser.add_argument("--runs", type=int, default=1, help="repeat each row (medians shown)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="curator-rename-"))
    base = generate(work / "base", args.pages)
    print(
        f"{'linking pages':>13} {'links':>6} {'load s':>7} {'plan s':>7} {'apply s':>8} {'command s':>10} {'files':>6}"
        + ("   command min / max" if args.runs > 1 else "")
    )
    for linkers in args.linkers:
        runs = [_run_once(work, base, linkers) for _ in range(args.runs)]
        load, plan, apply_s, command = (statistics.median(run[k] for run in runs) for k in range(4))
        links, files = runs[0][4], runs[0][5]
        spread = f"   {min(r[3] for r in runs):.2f} / {max(r[3] for r in runs):.2f}" if args.runs > 1 else ""
        print(
            f"{linkers:>13} {links:>6} {load:>7.2f} {plan:>7.2f} {apply_s:>8.2f} {command:>10.2f} {files:>6}{spread}",
            flush=True,
        )
    shutil.rmtree(work)


def _run_once(work: Path, base: Path, linkers: int) -> tuple[float, float, float, float, int, int]:
    """(load, plan, apply, whole command) seconds, links rewritten and files changed, on fresh copies."""
    vault = work / f"v{linkers}"
    shutil.copytree(base, vault)
    pages = sorted(p for p in vault.rglob("*.md"))
    target = pages[0]
    for page in pages[1 : linkers + 1]:
        with open(page, "a", encoding="utf-8") as handle:
            handle.write(f"\nAlso see [[{target.stem}]].\n")
    by_command = work / f"c{linkers}"
    shutil.copytree(vault, by_command)
    load_vault(vault)  # warm the cache, as a vault in use would be
    load_vault(by_command)
    os.sync()  # start with nothing of the copies left to write back
    t0 = time.perf_counter()
    loaded = load_vault(vault)
    t1 = time.perf_counter()
    plan = plan_rename(loaded, target.stem, f"{target.stem} renamed")
    t2 = time.perf_counter()
    apply(vault, plan)
    t3 = time.perf_counter()
    command = [sys.executable, "-m", "curator", "rename", str(by_command), target.stem, f"{target.stem} renamed"]
    subprocess.run(command, check=True, capture_output=True)
    t4 = time.perf_counter()
    shutil.rmtree(vault)
    shutil.rmtree(by_command)
    return t1 - t0, t2 - t1, t3 - t2, t4 - t3, plan.links_rewritten, len(plan.changes)


if __name__ == "__main__":
    main()
