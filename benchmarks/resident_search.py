"""A warm search and a warm `remember` as new processes, with and without the vault's resident.

    python -m benchmarks.resident_search --vault NAME|PATH [--runs 7] [--keep DIR]

NAME is a vault of benchmarks/real_vaults.py, searched in a copy under DIR (kept: a second run
reuses its index; `curator index DIR/NAME` first has the model read every page, as a warm vault
has). Each figure is the wall time of the whole `curator` process, median (min-max) over the runs,
with the questions below in turn: first with CURATOR_RESIDENT=0 (the vault loaded by each
process), then with a resident started by one search and warmed for a few seconds. `remember`
proposes only (no --apply): each run queues a suggestion, as an agent's would.
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

from benchmarks.real_vaults import BY_NAME, checkout
from curator.cli.resident import address

QUESTIONS = [
    "how does a hash table resolve collisions",
    "virtual memory page fault",
    "what is a monad",
    "sorting in linear time",
    "TCP handshake",
]
MEMORY = "The nightly backup job now keeps fourteen days of snapshots instead of seven."
CURATOR = [sys.executable, "-m", "curator"]


def timed(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, check=False)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.decode(errors='replace').strip()}")
    return took


def figures(times: list[float]) -> str:
    return f"{statistics.median(times):.2f} s ({min(times):.2f}-{max(times):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vault", required=True, help="a registry name or a folder")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--keep", type=Path, help="where the copy of a registry vault is kept")
    args = parser.parse_args()
    if args.vault in BY_NAME:
        keep = args.keep or Path(tempfile.mkdtemp())
        vault = keep / args.vault
        if not vault.is_dir():
            shutil.copytree(checkout(args.vault), vault, ignore=shutil.ignore_patterns(".git"))
    else:
        vault = Path(args.vault)
    runtime = Path(tempfile.mkdtemp())
    runtime.chmod(0o700)
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "CURATOR_RESIDENT_IDLE": "300"}
    pages = sum(1 for _ in vault.rglob("*.md"))
    print(f"{vault} ({pages:,} pages), {args.runs} runs each, load average {os.getloadavg()[0]:.1f}")
    search = [[*CURATOR, "search", str(vault), QUESTIONS[i % len(QUESTIONS)]] for i in range(args.runs)]
    remember = [*CURATOR, "remember", str(vault), MEMORY]
    alone = {**env, "CURATOR_RESIDENT": "0"}
    timed(search[0], alone)  # the index and the page cache warm
    print(f"search, each process loads the vault:   {figures([timed(argv, alone) for argv in search])}")
    print(f"remember, each process loads the vault: {figures([timed(remember, alone) for _ in range(3)])}")
    timed(search[0], env)  # answered in the process; starts the resident
    where = address(os.path.realpath(vault))
    deadline = time.monotonic() + 300
    while where is not None and not where.exists() and time.monotonic() < deadline:
        time.sleep(0.5)
    time.sleep(2)
    print(f"search, through the resident:           {figures([timed(argv, env) for argv in search])}")
    print(f"remember, through the resident:         {figures([timed(remember, env) for _ in range(3)])}")
    pattern = f"curator.resident {os.path.realpath(vault)}"
    resident = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True, check=False)
    for pid in resident.stdout.split():
        rss = Path(f"/proc/{pid}/status").read_text().split("VmRSS:")[1].split("\n")[0].strip()
        print(f"the resident (pid {pid}) holds {rss}")
        os.kill(int(pid), 15)


if __name__ == "__main__":
    main()
