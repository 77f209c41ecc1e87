"""Time to first paint, to fully loaded, per-keystroke filtering, and selection moves in the
findings and the graph of the TUI on a large vault.

    python -m benchmarks.tui_bench [--pages 10000]

Runs the real app headless (Textual's pilot) on a synthetic vault whose cache is warm, as a vault
in daily use is. First paint: the main screen is on screen. Loaded: pages, links and findings
shown (duplicates follow in the background). Filtering: one character typed into the filter
until the list is redrawn, over a typed word, next to the same through the pilot in a bare app
(the pilot's own floor), and curator's own work per keystroke timed directly.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from textual.app import App, ComposeResult
from textual.widgets import Input, OptionList

from benchmarks.synth import generate
from curator.core.check.lint import lint
from curator.tui.app import CuratorApp
from curator.tui.messages import PageSelected
from curator.tui.screens.main import MainScreen
from curator.tui.widgets.findings import FindingsPane
from curator.tui.widgets.graph import GraphPane
from curator.tui.widgets.index import IndexPane


async def measure(root: Path) -> dict[str, float]:
    started = time.perf_counter()
    app = CuratorApp(root)
    marks: dict[str, float] = {}
    async with app.run_test(size=(160, 45)) as pilot:
        marks["first_paint"] = time.perf_counter() - started
        while not any(isinstance(s, MainScreen) and s.vault is not None for s in app.screen_stack):
            await asyncio.sleep(0.005)
        marks["loaded"] = time.perf_counter() - started
        await pilot.press("f")
        keystrokes = []
        for char in "payment cache":
            t0 = time.perf_counter()
            await pilot.press(char if char != " " else "space")
            await pilot.pause()
            keystrokes.append(time.perf_counter() - t0)
        marks["keystroke_median"] = statistics.median(keystrokes)
        marks["keystroke_max"] = max(keystrokes)
        # The app's own work per keystroke: filter the index and rebuild the visible rows.
        pane = app.screen.query_one(IndexPane)
        filter_box = app.screen.query_one("#filter", Input)
        handler = []
        for end in range(1, len("payment cache") + 1):
            filter_box.value = "payment cache"[:end]
            t0 = time.perf_counter()
            pane.refresh_rows()
            handler.append(time.perf_counter() - t0)
        marks["handler_median"] = statistics.median(handler)
        marks["handler_max"] = max(handler)
        # Moving the selection in the findings list: the detail under it, and the page shown in the
        # graph picture and the preview (what the handlers of one arrow key do).
        screen = app.screen
        findings = screen.query_one(FindingsPane)
        if findings.groups:  # open the largest group, as a person would, to move among its rows
            findings.only_rule(max(findings.groups, key=lambda rule: findings.groups[rule]))
        marks["finding_rows"] = len(findings.shown)
        moves, own = [], []
        graph = screen.query_one(GraphPane)
        for row in range(min(30, len(findings.shown))):
            finding = findings.shown[row]
            t0 = time.perf_counter()
            findings._select(row + len(findings.groups))
            graph.show(screen.vault, finding.path, screen.query_one(IndexPane).marks)
            own.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            findings._select(row + len(findings.groups))
            await screen.show_page(PageSelected(finding.path, finding.line))
            moves.append(time.perf_counter() - t0)
        marks["finding_own_median"] = statistics.median(own)
        marks["finding_own_max"] = max(own)
        marks["finding_move_median"] = statistics.median(moves)
        marks["finding_move_max"] = max(moves)
        marks["finding_move_first"] = moves[0]
        marks["finding_move_max_after_first"] = max(moves[1:])
        # Moving in the graph's lists: the neighbour marked in the picture.
        hub = max(screen.vault.pages, key=lambda p: screen.vault.graph.degree(p))
        graph.show(screen.vault, hub)
        neighbours = [n for n in screen.vault.graph.successors(hub)][:30]
        moves = []
        for node in neighbours:
            t0 = time.perf_counter()
            graph.highlighted = node
            graph.draw()
            moves.append(time.perf_counter() - t0)
        marks["graph_move_median"] = statistics.median(moves)
        marks["graph_move_max"] = max(moves)
        marks["graph_degree"] = screen.vault.graph.degree(hub)
        await app.workers.wait_for_complete()
    return marks


class _Bare(App[None]):
    """An Input and a 100-row list, nothing else: the pilot's own floor per keystroke."""

    def compose(self) -> ComposeResult:
        yield Input()
        yield OptionList(*[f"row {i}" for i in range(100)])


async def pilot_floor() -> float:
    app = _Bare()
    async with app.run_test(size=(160, 45)) as pilot:
        app.query_one(Input).focus()
        times = []
        for char in "payment cache":
            t0 = time.perf_counter()
            await pilot.press(char if char != " " else "space")
            await pilot.pause()
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


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
    floor = asyncio.run(pilot_floor())
    print(f"pages {args.pages}: first paint {marks['first_paint']:.2f} s, loaded {marks['loaded']:.2f} s")
    print(
        f"keystroke through the pilot (press + repaint): median {marks['keystroke_median'] * 1000:.0f} ms, "
        f"max {marks['keystroke_max'] * 1000:.0f} ms; the same in a bare Input+list app: {floor * 1000:.0f} ms"
    )
    print(
        f"curator's own work per keystroke (filter {args.pages} pages, rebuild the rows): median "
        f"{marks['handler_median'] * 1000:.0f} ms, max {marks['handler_max'] * 1000:.0f} ms"
    )
    print(
        f"curator's own work per selection move among {marks['finding_rows']:.0f} findings (detail, graph picture, "
        "preview): median "
        f"{marks['finding_move_median'] * 1000:.0f} ms, max {marks['finding_move_max'] * 1000:.0f} ms; the first move "
        f"{marks['finding_move_first'] * 1000:.0f} ms, the slowest after it "
        f"{marks['finding_move_max_after_first'] * 1000:.0f} ms"
    )
    print(
        "of which curator's own (the detail, the links and their picture; the rest is Textual's Markdown "
        f"preview): median {marks['finding_own_median'] * 1000:.0f} ms, max {marks['finding_own_max'] * 1000:.0f} ms"
    )
    print(
        f"curator's own work per move in the graph's lists (redraw the picture of a page with "
        f"{marks['graph_degree']:.0f} links): median {marks['graph_move_median'] * 1000:.1f} ms, "
        f"max {marks['graph_move_max'] * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
