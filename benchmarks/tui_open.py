"""How long the terminal UI takes to show a real vault's findings, as a user opening it waits.

    python -m benchmarks.tui_open [--vault NAME] [--runs N]

Runs the app headless (Textual's test driver, 200x50) in a fresh process per run, reading the
vault first as `curator VAULT` does, and prints the seconds from the process's start (imports
included) until the findings pane holds the vault's findings: first with nothing cached
(the vault's .curator/ removed), then warm (what the first run left). Vaults are pinned in
benchmarks/real_vaults.py.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.real_vaults import BY_NAME, checkout

CHILD = """
import time
started = time.perf_counter()  # the process's start, imports included, as a user waits
import asyncio, sys
from pathlib import Path
root = Path(sys.argv[1])
try:  # as `curator VAULT` does: read before the app's imports start threads
    from curator.core.curate.opening import open_vault
    first = open_vault(root, None, print, print)
except ImportError:  # a curator from before open_vault: the app reads the vault in a worker
    first = None
from curator.tui.app import CuratorApp
from curator.tui.widgets.findings import FindingsPane

async def main() -> None:
    app = CuratorApp(root) if first is None else CuratorApp(root, first=first)
    async with app.run_test(size=(200, 50)) as pilot:
        while True:
            await pilot.pause(0.02)
            panes = app.screen.query(FindingsPane)
            if panes and panes.first().findings:
                break
            if time.perf_counter() - started > 300:
                raise SystemExit("no findings after 300 s")
        print(f"{time.perf_counter() - started:.2f} {len(panes.first().findings)}")

asyncio.run(main())
"""


def one_run(root: Path) -> tuple[float, int]:
    out = subprocess.run([sys.executable, "-c", CHILD, str(root)], capture_output=True, text=True, check=True)
    seconds, findings = out.stdout.split()
    return float(seconds), int(findings)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vault", default="yoshixi-zettelkasten")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    root = checkout(args.vault)
    if BY_NAME[args.vault].repo.startswith("shared:"):  # never written in: a copy is opened
        copy = Path(tempfile.mkdtemp(prefix="curator-tui-open-")) / root.name
        shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".curator"))
        root = copy
    for label, cold in (("nothing cached", True), ("warm", False)):
        times = []
        for _ in range(args.runs):
            if cold:
                shutil.rmtree(root / ".curator", ignore_errors=True)
            seconds, findings = one_run(root)
            times.append(seconds)
        print(
            f"{args.vault}: findings shown, {label}: {statistics.median(times):.2f} s "
            f"(min {min(times):.2f}, max {max(times):.2f}), {findings} findings"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
