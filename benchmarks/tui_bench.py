"""Time to first paint, to fully loaded, and per-keystroke filtering of the TUI on a large vault.

    python -m benchmarks.tui_bench [--pages 10000]

Runs the real app headless (Textual's pilot) on a synthetic vault whose cache is warm, as a vault
in daily use is. First paint: the main screen is on screen. Loaded: pages, links and findings
shown (duplicates follow in the background). Filtering: one character typed into the filter
until the list is redrawn, over a typed word.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.synth import generate
from curator.core.lint import lint
from curator.tui.app import CuratorApp
from curator.tui.screens.main import MainScreen


async def measure(root: Path) -> dict[str, float]:
    started = time.perf_counter()
    app = CuratorApp(root)
    marks: dict[str, float] = {}
    async with app.run_test(size=(160, 45)) as pilot:
        marks["first_paint"] = time.perf_counter() - started
        while not any(isinstance(s, MainScreen) and s.vault is not None for s in app.screen_stack):
            await asyncio.sleep(0.005)
        marks["loaded"] = time.perf_counter() - started
        await pilot.press("slash")
        keystrokes = []
        for char in "payment cache":
            t0 = time.perf_counter()
            await pilot.press(char if char != " " else "space")
            await pilot.pause()
            keystrokes.append(time.perf_counter() - t0)
        marks["keystroke_median"] = statistics.median(keystrokes)
        marks["keystroke_max"] = max(keystrokes)
        await app.workers.wait_for_complete()
    return marks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    args = parser.parse_args()
    root = generate(Path(tempfile.mkdtemp(prefix="curator-tui-")) / "vault", args.pages)
    # Duplicate scoring is off here: embedding 10k pages cold takes minutes and would run in the
    # background during the keystroke measurement; it is measured in similarity_bench.py.
    (root / ".curator.toml").write_text('[rules]\nduplicate = "off"\n')
    lint(root)  # warm the parsed-page cache, as daily use would
    marks = asyncio.run(measure(root))
    print(
        f"pages {args.pages}: first paint {marks['first_paint']:.2f} s, loaded {marks['loaded']:.2f} s, "
        f"filter keystroke median {marks['keystroke_median'] * 1000:.0f} ms, max {marks['keystroke_max'] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
