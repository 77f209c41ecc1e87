"""Reading findings and changes: every finding whole at both sizes, rows told apart, the cursor kept
after a fix, and a change shown in full in the history before it is undone."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import settle
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from curator.core.change.changes import apply, history
from curator.core.change.edits import plan_rename
from curator.core.read.loading import load_vault
from curator.tui.app import CuratorApp
from curator.tui.screens.history import ChangeScreen, HistoryScreen
from curator.tui.screens.modals import Confirm, Reading
from curator.tui.widgets.findings import FindingsPane
from curator.tui.words import words as _words

pytestmark = pytest.mark.anyio


def _text(widget: Static) -> str:
    return str(widget.render()).replace("\n", " ")


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_the_longest_finding_reads_whole_in_the_pane_or_on_enter(
    sample_vault: Path, size: tuple[int, int]
) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        pane = app.main.query_one(FindingsPane)
        longest = max(pane.shown, key=lambda f: len(f.message))
        await pilot.press("3")
        table = app.main.query_one("#findings", DataTable)
        table.move_cursor(row=pane.shown.index(longest))
        await settle(pilot)
        detail = app.main.query_one("#finding-detail-scroll", VerticalScroll)
        if size == (160, 45):
            assert detail.max_scroll_y == 0, "the detail box is cut at 160x45"
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, Reading)
        shown = " ".join(_text(app.screen.query_one("#reading-text", Static)).split())
        assert " ".join(longest.message.split()) in shown
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, Reading)


def test_evidence_reads_as_words() -> None:
    assert _words(["a", "b"]) == "a, b"
    assert _words([("x", 0.5)]) == "x, 0.50"
    assert _words({"title": "A", "score": 0.912}) == "title A, score 0.91"
    assert "[" not in _words([["a", 1], ["b", 2]])


async def test_rows_keep_the_end_of_a_long_name_and_the_line(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = app.main.query_one(FindingsPane)
        table = app.main.query_one("#findings", DataTable)
        row = next(
            i for i, f in enumerate(pane.shown) if f.rule == "dead-link" and f.path.startswith("incidents/Ticket")
        )
        page = str(table.get_row_at(row + len(pane.groups))[2])
        assert page.endswith("Zertifikat abgelaufen:9") and page.startswith("…")


async def test_the_cursor_stays_on_its_row_after_a_fix_and_on_its_finding_after_the_undo(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        pane = app.main.query_one(FindingsPane)
        table = app.main.query_one("#findings", DataTable)
        target = next(f for f in pane.shown if f.rule == "dead-link" and "Certificate Renewl" in f.message)
        row = pane.shown.index(target)
        await pilot.press("3")
        table.move_cursor(row=row)
        await settle(pilot)
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("y")
        await settle(pilot)
        assert target.fingerprint not in {f.fingerprint for f in pane.shown}
        assert table.cursor_row == row  # the next finding to triage, not the first
        next_one = pane.selected()
        assert next_one is not None
        await pilot.press("u")
        await settle(pilot)
        assert target.fingerprint in {f.fingerprint for f in pane.shown}  # undone: the finding is back
        assert pane.selected() == next_one  # and the cursor did not jump


async def test_a_change_shows_its_reason_files_and_diff_and_is_undone_from_there(sample_vault: Path) -> None:
    entry = apply(sample_vault, plan_rename(load_vault(sample_vault), "Certificate renewal", "TLS renewal"))
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await pilot.press("h")
        await settle(pilot)
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert (
            isinstance(app.screen, ChangeScreen) and history(sample_vault)[0].state == "applied"
        )  # enter alone undoes nothing
        head = _text(app.screen.query_one("#change-head", Static))
        assert entry.reason in head and "problems/TLS renewal.md" in head
        shot = app.export_screenshot()
        assert "TLS&#160;renewal" in shot and "@@" in shot
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("y")
        await settle(pilot)
        assert history(sample_vault)[0].state == "undone"
        assert (sample_vault / "problems/Certificate renewal.md").exists()
        assert isinstance(app.screen, HistoryScreen)
