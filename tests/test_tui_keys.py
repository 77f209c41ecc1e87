"""The keys people already have in their fingers, the help that lists them, and a rule fixed at once."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from helpers import make_vault, settle
from textual.binding import Binding
from textual.widgets import DataTable, OptionList

import curator.tui.app
import curator.tui.screens.help
import curator.tui.screens.history
import curator.tui.screens.main
import curator.tui.screens.modals
import curator.tui.screens.review
import curator.tui.screens.search
import curator.tui.screens.stats
import curator.tui.widgets.findings
import curator.tui.widgets.graph
import curator.tui.widgets.index
from curator.core.change.changes import history
from curator.tui.app import CuratorApp
from curator.tui.screens.help import HelpScreen
from curator.tui.widgets.findings import FindingsPane
from curator.tui.widgets.rows import RowList

pytestmark = pytest.mark.anyio


def test_every_binding_has_an_id_and_a_description() -> None:
    modules = (
        curator.tui.app,
        curator.tui.screens.help,
        curator.tui.screens.history,
        curator.tui.screens.main,
        curator.tui.screens.modals,
        curator.tui.screens.review,
        curator.tui.screens.search,
        curator.tui.screens.stats,
        curator.tui.widgets.findings,
        curator.tui.widgets.graph,
        curator.tui.widgets.index,
    )
    seen = 0
    for module in modules:
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            for binding in cls.__dict__.get("BINDINGS", []):
                assert isinstance(binding, Binding), f"{cls.__name__}: {binding!r}"
                assert binding.id and binding.description, f"{cls.__name__}: {binding.key}"
                seen += 1
    assert seen > 30


async def test_j_k_g_G_and_ctrl_d_move_in_lists_and_tables(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        pages = app.main.query_one("#pages", RowList)
        pages.focus()
        await pilot.press("g")
        assert pages.highlighted == 0
        await pilot.press("j", "j")
        assert pages.highlighted == 2
        await pilot.press("k")
        assert pages.highlighted == 1
        await pilot.press("G")
        assert pages.highlighted == pages.row_count - 1
        await pilot.press("g", "ctrl+d")
        assert pages.highlighted is not None and pages.highlighted > 2
        await pilot.press("ctrl+u")
        assert pages.highlighted == 0
        await pilot.press("3")
        table = app.main.query_one("#findings", DataTable)
        await pilot.press("j", "j", "j")
        assert table.cursor_row == 3
        await pilot.press("G")
        assert table.cursor_row == table.row_count - 1
        await pilot.press("g")
        assert table.cursor_row == 0


async def test_every_page_of_a_large_vault_can_be_reached_by_keys(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {f"notes/page {n:04}.md": f"# Page {n}\n" for n in range(450)}
    root = make_vault(tmp_path / "v", files)
    app = CuratorApp(root)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pages = app.main.query_one("#pages", RowList)
        pages.focus()
        assert pages.row_count == 450
        await pilot.press("G")
        await settle(pilot)
        assert pages.highlighted_row is not None and pages.highlighted_row.id == "notes/page 0449.md"
        assert app.main.current == "notes/page 0449.md"
        assert pages.scroll_offset.y > 400  # the last row is on screen, not only chosen
        await pilot.press("g", "ctrl+d", "pagedown")
        assert pages.highlighted is not None and 20 < pages.highlighted < 60
        await pilot.press("end", "up")
        assert pages.highlighted == 448
        await pilot.press("f", *"0300", "enter")
        await settle(pilot)
        assert pages.rows[0].id == "notes/page 0300.md" and len(pages.rows) < 450
        assert app.main.current == "notes/page 0300.md"  # the preview follows the cursor to the first match


async def test_moving_down_the_findings_at_80x24_keeps_the_cursor_on_screen(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        table = app.main.query_one("#findings", DataTable)
        heights = set()
        for _ in range(table.row_count - 1):
            await pilot.press("j")
            await settle(pilot)
            rows_shown = table.scrollable_content_region.height - 1  # under the header
            assert 0 <= table.cursor_row - table.scroll_offset.y < rows_shown, table.cursor_row
            heights.add(table.size.height)
        assert table.cursor_row == table.row_count - 1
        assert len(heights) == 1  # a long finding's details scroll in their box: the table does not jump


async def test_back_and_forward_through_followed_links(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        screen = app.main
        assert screen.current == "MEMORY.md"
        graph = screen.query_one("#graph", OptionList)
        graph.focus()
        graph.highlighted = next(
            i for i in range(graph.option_count) if graph.get_option_at_index(i).id == "out:customers/Acme Corp.md"
        )
        await pilot.press("enter")
        await settle(pilot)
        assert screen.current == "customers/Acme Corp.md"
        await pilot.press("backspace")
        await settle(pilot)
        assert screen.current == "MEMORY.md"
        await pilot.press("alt+right")
        await settle(pilot)
        assert screen.current == "customers/Acme Corp.md"
        await pilot.press("alt+left")
        await settle(pilot)
        assert screen.current == "MEMORY.md"


async def test_help_lists_the_keys_by_what_people_want_to_do(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(120, 45)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        groups = app.screen.groups
        assert {"Anywhere", "Moving around", "Links of the page (graph)", "Findings"} <= set(groups)
        shown = {app.screen.shown_keys(b) if isinstance(b, Binding) else b[0] for rows in groups.values() for b in rows}
        for key in ("/", "?", "j", "k", "g", "G", "^d", "^u", "alt+← or ⌫", "alt+→", "x", "A"):
            assert key in shown, key
        assert not {"slash", "question_mark"} & shown


async def test_fix_every_finding_of_a_rule_after_seeing_them(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        pane = app.main.query_one(FindingsPane)
        drift = [f for f in pane.shown if f.rule == "index-drift"]
        assert len(drift) == 3
        await pilot.press("3")
        app.main.query_one("#findings", DataTable).move_cursor(row=pane.shown.index(drift[0]))
        await settle(pilot)
        await pilot.press("A")
        await pilot.pause()
        question = app.screen.question  # type: ignore[attr-defined]
        assert "Fix all 3 index-drift findings?" in question
        assert "notes/Vendor call.md: - [[Vendor call]] added to MEMORY.md" in question
        assert len(history(sample_vault)) == 0
        await pilot.press("y")
        await settle(pilot)
        assert len(history(sample_vault)) == 3
        memory = (sample_vault / "MEMORY.md").read_text()
        assert all(f"[[{f.path.rsplit('/', 1)[-1].removesuffix('.md')}]]" in memory for f in drift)
        assert not [f for f in app.findings if f.rule == "index-drift"]
        await pilot.press("u")
        await settle(pilot)
        assert [e.state for e in history(sample_vault)].count("undone") == 1


def test_the_tui_names_no_rule() -> None:
    """The TUI renders what the core describes: no rule id in its code (a theme colour named like a
    rule is looked up by that name, which is not a decision about the rule)."""
    import re

    from curator.core.check.catalogue import CATALOGUE

    folder = Path(curator.tui.app.__file__).parent
    for source in folder.rglob("*.py"):
        if source.name == "themes.py":
            continue
        text = re.sub(r'colours\.get\("[\w-]+"', "", source.read_text(encoding="utf-8"))
        for rule in CATALOGUE:
            assert f'"{rule.id}"' not in text, f"{source.name} names the rule {rule.id}"


async def test_the_vault_and_findings_are_app_state_the_main_screen_watches(sample_vault: Path) -> None:
    from dataclasses import replace

    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        assert app.shown is not None and app.vault is app.shown.vault and app.findings is app.shown.findings
        table = app.main.query_one("#findings", DataTable)
        assert table.row_count == len(app.findings) > 0
        kept = [f for f in app.findings if f.severity == "error"]
        app.shown = replace(app.shown, findings=kept, note="checked again")
        await settle(pilot)
        assert table.row_count == len(kept)
        assert "checked again" in str(app.main.query_one("#status").render())
