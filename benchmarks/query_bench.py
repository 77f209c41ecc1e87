"""Time `curator query` on a large vault with warm caches, as a person or an agent runs it.

    python -m benchmarks.query_bench [--pages 10000] [--runs 5] [--vault DIR] [--curator PATH]

The synthetic vault (benchmarks/synth.py) gets a `broader` hierarchy: page i is narrower than
page i // 4, so the tree is about seven levels deep. The caches are warmed by one query; then
each query is a new process (start-up, load, evaluation, output), timed `--runs` times: by
default `python -m curator`; `--curator` names an installed console script instead (an editable
install's import hook adds about 10 ms to every start).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.synth import generate

QUERIES = (
    "type:problem",
    "broader+:[[{root}]]",
    "broader+:[[{mid}]] AND type:problem sort:-updated",
    "related:* OR (tag:cache AND NOT path:area-000/)",
    "edges:related AND a.scheme!=b.scheme",
)


def add_hierarchy(root: Path) -> tuple[str, str]:
    """Give every page but the first a `broader` edge to page i // 4; (the top's title, a mid one's)."""
    pages = sorted(root.rglob("*.md"))
    for i, page in enumerate(pages[1:], start=1):
        text = page.read_text(encoding="utf-8")
        parent = f'broader: "[[{pages[i // 4].stem}]]"\n'
        fixed = text.replace("---\n", "---\n" + parent, 1) if text.startswith("---\n") else f"---\n{parent}---\n{text}"
        page.write_text(fixed, encoding="utf-8")
    return pages[0].stem, pages[5].stem


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--vault", type=Path)
    parser.add_argument("--curator", help="the curator program to time (default: this Python's -m curator)")
    args = parser.parse_args()
    root = args.vault or Path(tempfile.mkdtemp(prefix="curator-query-")) / "vault"
    if not root.exists():
        generate(root, args.pages)
        add_hierarchy(root)
    curator = [args.curator] if args.curator else [sys.executable, "-m", "curator"]
    pages = sorted(root.rglob("*.md"))
    top, mid = pages[0].stem, pages[5].stem
    subprocess.run([*curator, "query", str(root), "type:x"], check=True, capture_output=True)
    print(f"{root} ({len(pages)} pages), min / median / max of {args.runs} runs, results")
    for template in QUERIES:
        text = template.format(root=top, mid=mid)
        times = []
        for _ in range(args.runs):
            started = time.perf_counter()
            out = subprocess.run([*curator, "query", str(root), text], check=True, capture_output=True, text=True)
            times.append(time.perf_counter() - started)
        times.sort()
        found = out.stderr.strip().splitlines()[-1]
        print(f"  {times[0]:.3f} / {times[len(times) // 2]:.3f} / {times[-1]:.3f} s  {found:>14}  {text}")


if __name__ == "__main__":
    main()
