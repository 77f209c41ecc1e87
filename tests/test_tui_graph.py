"""The graph pane: its link count is the one `curator stats` gives, and two pages of one title are
told apart in the picture."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import settle
from textual.widgets import Static

from curator.core.check.lint import lint
from curator.core.read.loading import load_vault
from curator.core.read.stats import stats
from curator.tui.app import CuratorApp
from curator.tui.widgets.graph_picture import draw

pytestmark = pytest.mark.anyio


async def test_the_link_count_is_the_one_stats_gives(sample_vault: Path) -> None:
    vault = load_vault(sample_vault)
    links = stats(vault, lint(sample_vault, use_cache=False).findings).links
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        figures = str(app.main.query_one("#figures", Static).render())
        assert f"{links['total']} links ({links['resolved']} resolve, {links['dead']} dead)" in figures


async def test_two_pages_of_one_title_show_their_folders(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        app.main.select("MEMORY.md")
        await settle(pilot)
        picture = str(app.main.query_one("#graph-picture", Static).render())
        assert "search/Runbook" in picture  # the other Runbook, where there is room, says payments/
        assert "Runbook" not in picture.replace("search/Runbook", "").replace("payments/Runbook", "")


def test_labels_never_touch() -> None:
    positions = {"a": (0.0, 0.0), "b": (0.47, 0.0), "c": (-0.9, 0.9)}  # beta would start right after alpha
    shown = draw(positions, [], {"a": "alpha", "b": "beta", "c": "gamma"}, {}, 40, 5).plain
    assert "alpha" in shown and "gamma" in shown
    assert "beta" not in shown and "alpha  ●" in shown


def test_a_long_label_keeps_its_start_and_its_distinctive_end() -> None:
    shown = draw({"a": (0.0, 0.0)}, [], {"a": "2026-08-14 checkout outage postmortem"}, {}, 40, 3).plain
    label = shown.split("\n")[1].strip()
    assert label.startswith("2026-") and label.endswith("mortem") and "…" in label  # the date and the kind


def test_an_emoji_title_keeps_every_row_as_wide_as_the_canvas() -> None:
    from rich.cells import cell_len

    positions = {"a": (0.0, 0.0), "b": (0.9, 0.9), "c": (-0.9, -0.9)}
    labels = {"a": "🗂️ Templates", "b": "📝 Notes 🚀🚀🚀🚀🚀🚀", "c": "plain"}
    shown = draw(positions, [("a", "b"), ("a", "c")], labels, {}, 30, 6).plain
    assert "🗂️ Templates" in shown and "plain" in shown
    assert [cell_len(row) for row in shown.split("\n")] == [30] * 6
