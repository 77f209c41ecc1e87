"""What a user waits for on a real vault that curator has never opened: the first search, a second
search with other words, `remember`, the whole index (`curator index`), and a search after it, each
as a new process, with wall time and peak memory.

    python -m benchmarks.first_search --vault yoshixi-zettelkasten [--no-index | --cold-index]

The vault (a name from benchmarks/real_vaults.py, or a folder) is copied to a temporary folder
without its `.curator/`, so every run starts cold. `--no-index` leaves out `curator index`, which
has the model read every page; `--cold-index` runs only `curator index` on the cold copy (the words
and the model's whole index from nothing) and a search after it.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.real_vaults import VAULTS, checkout

FIRST = "how do I stop two writers from corrupting shared state"
SECOND = "what is the difference between a process and a thread"
MEMORY = "The nightly backup job failed again because the disk was full."


def timed(args: list[str]) -> tuple[float, int, str]:
    """(seconds, peak MiB, the note lines on stderr) of one curator command as a new process."""
    command = ["/usr/bin/time", "-f", "%e %M", sys.executable, "-m", "curator", *args]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = done.stderr.strip().splitlines()
    seconds, kib = lines[-1].split()
    if done.returncode not in (0, 1):
        raise SystemExit(f"curator {args[0]} exited {done.returncode}: {done.stderr[-500:]}")
    return float(seconds), int(kib) // 1024, " | ".join(line for line in lines[:-1] if "first stage" in line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vault", required=True, help="a name in benchmarks/real_vaults.py, or a folder")
    parser.add_argument("--no-index", action="store_true", help="leave out curator index (the model reads every page)")
    parser.add_argument("--cold-index", action="store_true", help="only curator index on the cold copy, then a search")
    args = parser.parse_args()
    names = {v.name: v for v in VAULTS}
    source = checkout(args.vault) if args.vault in names else Path(args.vault)
    work = Path(tempfile.mkdtemp(prefix="curator-first-")) / "vault"
    shutil.copytree(source, work, ignore=shutil.ignore_patterns(".curator", ".git"))
    if args.vault in names:
        vault = names[args.vault]
        print(f"{vault.name}: {vault.repo} @ {vault.commit[:12]}")
    steps: list[tuple[str, list[str]]] = [
        ("first search, cold", ["search", str(work), FIRST]),
        ("second search, other words", ["search", str(work), SECOND]),
        ("the first search again", ["search", str(work), FIRST]),
        ("remember (a proposal)", ["remember", str(work), MEMORY, "--json"]),
    ]
    if args.cold_index:
        steps = [("curator index, cold", ["index", str(work)]), ("a search after it", ["search", str(work), SECOND])]
    elif not args.no_index:
        steps += [
            ("curator index (every page)", ["index", str(work)]),
            ("a search after it", ["search", str(work), SECOND]),
        ]
    for label, command in steps:
        seconds, mib, note = timed(command)
        print(f"{label:<30} {seconds:>8.1f} s {mib:>6} MiB  {note}")
    shutil.rmtree(work.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
