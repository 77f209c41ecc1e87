"""What the duplicate rule costs, and what it reports, on vaults of real size.

    python -m benchmarks.duplicates_bench [--pages 13000] [--catalogue 1000] [--workdir DIR]

- Real-length vault (benchmarks/synth.py --real-lengths) with 20 planted near-copies (a line
  dropped, two swapped, the title changed): a cold `curator lint --format json` with the default
  config (duplicate rule on, nothing cached), its time, peak memory and the stages it reports;
  then one page edited and lint run again (a warm run: what it embeds).
- Catalogue folder: N pages from one template (theme entries with an author, a place, two
  features and one of six descriptions), 20 of them entered twice under another title: which
  pairs the rule reports.
Each lint is a fresh process, so the figures include start-up and loading the model.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.duplicates_eval import TEMPLATE, theme
from benchmarks.synth import generate, real_words


def lint(vault: Path) -> tuple[float, float, dict]:  # type: ignore[type-arg]
    """(seconds, peak RSS in MiB, the JSON report) of one `curator lint` process."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "curator", "lint", "--format", "json", str(vault)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out = proc.stdout.read() if proc.stdout else b""
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(proc.stderr.read().decode() if proc.stderr else "lint failed")
    return elapsed, usage.ru_maxrss / 1024, json.loads(out)


def pairs_of(report: dict) -> set[tuple[str, str]]:  # type: ignore[type-arg]
    return {tuple(sorted((f["path"], f["data"]["other"]))) for f in report["findings"] if f["rule"] == "duplicate"}


def plant_copies(root: Path, count: int, rng: random.Random) -> set[tuple[str, str]]:
    pages = sorted(p for p in root.rglob("*.md") if len(p.read_text().split()) >= 60)
    planted = set()
    for original in rng.sample(pages, count):
        lines = original.read_text().splitlines()
        filled = [i for i, line in enumerate(lines) if line.strip() and not line.startswith(("---", "#"))]
        if len(filled) > 4:
            k = rng.randrange(1, len(filled) - 1)
            lines[filled[k]], lines[filled[k + 1]] = lines[filled[k + 1]], lines[filled[k]]
        copy = original.with_name(f"{original.stem} (notes).md")
        copy.write_text("\n".join(lines) + "\n")
        planted.add(tuple(sorted((original.relative_to(root).as_posix(), copy.relative_to(root).as_posix()))))
    then = time.time_ns() - 60 * 10**9
    for path in root.rglob("*.md"):
        os.utime(path, ns=(then, then))
    return planted


def real_length_vault(pages: int, work: Path) -> None:
    root = work / f"real-{pages}"
    shutil.rmtree(root, ignore_errors=True)  # and its cache, the copies planted and the page edited before
    generate(root, pages, real_lengths=True)
    planted = plant_copies(root, 20, random.Random(3))
    words = sum(len(p.read_text().split()) for p in root.rglob("*.md"))
    seconds, peak, report = lint(root)
    found = pairs_of(report)
    stages = report["summary"]["similarity"]["stages"]
    print(f"real-length vault: {pages + 20} pages, {words:,} words")
    print(f"  cold lint (default config): {seconds:.1f} s, peak RSS {peak:.0f} MiB")
    for stage in stages:
        print(
            f"    stage {stage['name']}: {stage['pages']} pages, {stage['embedded']} embedded, {stage['seconds']:.1f} s"
        )
    print(f"  planted copies found: {len(found & planted)}/{len(planted)}; other pairs: {len(found - planted)}")
    edited = root / min(planted)[0]  # the same page every run (a set's order changes with the hash seed)
    edited.write_text(edited.read_text() + "\nOne more line written today.\n")
    seconds, peak, report = lint(root)
    stages = ", ".join(f"{s['name']} embedded {s['embedded']}" for s in report["summary"]["similarity"]["stages"])
    print(f"  warm lint, one page edited: {seconds:.1f} s, peak RSS {peak:.0f} MiB ({stages})")


def catalogue_vault(pages: int, work: Path) -> None:
    rng = random.Random(9)
    root = work / f"catalogue-{pages}"
    shutil.rmtree(root, ignore_errors=True)  # and its cache: each run is cold
    (root / "themes").mkdir(parents=True)
    words = [w for w in real_words() if w.isalpha() and w.islower() and 4 <= len(w) <= 9]
    picked = rng.sample(words, 2 * pages)  # two words a name, none shared: different themes
    names = [f"{a.capitalize()} {b.capitalize()}" for a, b in zip(picked[::2], picked[1::2], strict=True)]
    planted = set()
    for i, name in enumerate(names):
        values = theme(name, f"author{rng.randrange(60)}", rng)
        (root / "themes" / f"{name}.md").write_text(TEMPLATE.format(**values))
        if i % (pages // 20) == 0 and len(planted) < 20:
            twin = f"{name} - Theme"
            (root / "themes" / f"{twin}.md").write_text(TEMPLATE.format(**{**values, "downloads": 1}))
            planted.add(tuple(sorted((f"themes/{name}.md", f"themes/{twin}.md"))))
    then = time.time_ns() - 60 * 10**9
    for path in root.rglob("*.md"):
        os.utime(path, ns=(then, then))
    seconds, peak, report = lint(root)
    found = pairs_of(report)
    print(f"catalogue: {pages} theme pages from one template, {len(planted)} entered twice")
    print(f"  cold lint: {seconds:.1f} s, peak RSS {peak:.0f} MiB")
    print(f"  planted pairs found: {len(found & planted)}/{len(planted)}; other pairs: {len(found - planted)}")
    for a, b in sorted(found - planted)[:10]:
        print(f"    other: {a} ~ {b}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=13000, help="real-length vault size (0: skip)")
    parser.add_argument("--catalogue", type=int, default=1000, help="catalogue size (0: skip)")
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="curator-dupbench-"))
    try:
        if args.catalogue:
            catalogue_vault(args.catalogue, work)
        if args.pages:
            real_length_vault(args.pages, work)
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
