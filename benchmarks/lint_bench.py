"""Time `curator lint --format json` cold (no cache) and warm (unchanged vault) against a bare pass.

    python -m benchmarks.lint_bench [--pages 1000 10000 100000] [--runs 3] [--real-lengths] [--curator PATH]

The bare pass only walks the vault, reads every `.md` file and runs one wikilink regex: the least
any linter must do. Every measurement is a fresh process (start-up included); the OS file cache is
warm for all of them (the vault was just written). Each run times the bare pass, a cold and a
warm lint in turn; the figures are medians over the runs, and `fastest` is the cold/bare ratio of
the fastest run of each (on a shared machine the more stable figure). Peak memory is the child's
max RSS. The duplicate rule is off in these vaults: embedding is timed by similarity_bench.py. curator's
modules are byte-compiled first, as `pip install` does (an environment with
PYTHONDONTWRITEBYTECODE=1 would otherwise compile them again in every run). By default curator
runs as `python -m curator`; `--curator` names an installed console script instead (an editable
install's import hook adds about 15 ms to every start).
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

BARE_PASS = r"""
import os, re, sys
rx = re.compile(r"\[\[([^\[\]\n]*?)\]\]")
n = 0
for folder, dirs, files in os.walk(sys.argv[1]):
    dirs[:] = [d for d in dirs if not d.startswith(".")]
    for name in files:
        if name.endswith(".md"):
            with open(os.path.join(folder, name), "rb") as f:
                n += len(rx.findall(f.read().decode("utf-8", "replace")))
print(n)
"""
LINT = ["lint", "--format", "json"]


def timed(cmd: list[str]) -> tuple[float, float]:
    """(seconds, peak RSS in MiB) of one child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} exited {code}: {proc.stderr.read().decode() if proc.stderr else ''}")
    return elapsed, usage.ru_maxrss / 1024


def bench(pages: int, runs: int, workdir: Path, real_lengths: bool, curator: list[str]) -> dict[str, float]:
    vault = generate(workdir / f"vault-{pages}{'-real' if real_lengths else ''}", pages, real_lengths=real_lengths)
    # The duplicate rule embeds every page with the model (about 100 pages a second here); it is
    # measured in similarity_bench.py, so this benchmark times the vault core's rules alone.
    (vault / ".curator.toml").write_text('[rules]\nduplicate = "off"\n')
    bare, cold, warm = [], [], []
    for _ in range(runs):  # each run in turn, so that a machine slower for a while slows all three
        bare.append(timed([sys.executable, "-c", BARE_PASS, str(vault)]))
        shutil.rmtree(vault / ".curator", ignore_errors=True)
        cold.append(timed([*curator, *LINT, str(vault)]))
        warm.append(timed([*curator, *LINT, str(vault)]))
    return {
        "pages": pages,
        "bare_s": statistics.median(t for t, _ in bare),
        "cold_s": statistics.median(t for t, _ in cold),
        "warm_s": statistics.median(t for t, _ in warm),
        # The fastest run of each: what the machine does undisturbed (a shared machine slows runs
        # at random, by up to a third here, and the medians of a few runs move with it).
        "fastest_cold_ratio": min(t for t, _ in cold) / min(t for t, _ in bare),
        "cold_peak_mib": max(m for _, m in cold),
        "warm_peak_mib": max(m for _, m in warm),
    }


def compile_curator() -> None:
    import compileall

    import curator

    compileall.compile_dir(str(Path(curator.__file__).parent), quiet=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workdir", type=Path, help="where to generate vaults (default: a temp folder)")
    parser.add_argument("--real-lengths", action="store_true", help="pages as long as real ones (synth.py)")
    parser.add_argument("--curator", help="the curator program to time (default: this Python's -m curator)")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="curator-bench-"))
    compile_curator()
    curator = [args.curator] if args.curator else [sys.executable, "-m", "curator"]
    print(
        f"{'pages':>7} {'bare s':>8} {'cold s':>8} {'cold/bare':>9} {'fastest':>8}"
        f" {'warm s':>8} {'warm/bare':>9} {'cold MiB':>9}"
    )
    for pages in args.pages:
        r = bench(pages, args.runs, workdir, args.real_lengths, curator)
        print(
            f"{r['pages']:>7} {r['bare_s']:>8.2f} {r['cold_s']:>8.2f} {r['cold_s'] / r['bare_s']:>9.2f}"
            f" {r['fastest_cold_ratio']:>8.2f} {r['warm_s']:>8.2f} {r['warm_s'] / r['bare_s']:>9.2f}"
            f" {r['cold_peak_mib']:>9.0f}",
            flush=True,
        )
    if not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
