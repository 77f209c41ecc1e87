"""How long the page index takes to fill and to narrow on one key, on a real vault.

    python -m benchmarks.tui_index [--vault NAME] [--runs N]

Runs the app headless (160x45) on the vault (read first, as `curator VAULT` does), then times the
index pane's refill (every page, as on opening or a new sort) and one key typed into its filter,
and prints the medians. The index draws only the rows on screen, so both grow with the pages'
count only through the filter and the sort, not through drawing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path

from benchmarks.real_vaults import checkout


async def measure(root: Path, runs: int) -> tuple[float, float, int]:
    from textual.widgets import Input

    from curator.core.curate.opening import open_vault
    from curator.tui.app import CuratorApp
    from curator.tui.widgets.index import IndexPane

    first = open_vault(root, None, lambda *_: None, lambda *_: None)
    app = CuratorApp(root, first=first)
    fills, keys = [], []
    async with app.run_test(size=(160, 45)) as pilot:
        while app.main.vault is None:
            await pilot.pause(0.05)
        pane = app.main.query_one(IndexPane)
        box = app.main.query_one("#filter", Input)
        for run in range(runs):
            started = time.perf_counter()
            pane.refresh_rows()
            fills.append(time.perf_counter() - started)
            started = time.perf_counter()
            box.value = "ab"[run % 2]  # Input.Changed refills the rows, as a key typed does
            await pilot.pause()
            keys.append(time.perf_counter() - started)
            box.value = ""
            await pilot.pause()
        pages = len(app.main.vault.pages) if app.main.vault else 0
    return statistics.median(fills), statistics.median(keys), pages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vault", default="obsidian-hub")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    fill, key, pages = asyncio.run(measure(checkout(args.vault), args.runs))
    print(f"{args.vault}: {pages} pages; index filled in {fill * 1000:.0f} ms, one filter key {key * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
