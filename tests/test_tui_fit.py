"""What a person reads fits the terminal: pop-ups inside 80 columns, whole keys in the footer, and
names that use the room there is at 160 columns."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_vault, settle
from textual.widgets import DataTable
from textual.widgets._footer import FooterKey

from curator.tui.app import CuratorApp
from curator.tui.screens.help import HelpScreen
from curator.tui.screens.modals import Confirm
from curator.tui.widgets.footer import Keys
from curator.tui.widgets.rows import RowList

pytestmark = pytest.mark.anyio


async def test_pop_ups_fit_inside_80_columns(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        dialog = app.screen.query_one(".dialog")
        assert dialog.region.x >= 0 and dialog.region.right <= 80
        await pilot.press("escape")
        app.push_screen(Confirm("Apply 12 fixes of dead-link? " * 4))
        await settle(pilot)
        dialog = app.screen.query_one(".dialog")
        assert dialog.region.x >= 0 and dialog.region.right <= 80


@pytest.mark.parametrize("width", [80, 160])
async def test_the_footer_shows_whole_keys_the_screens_first(sample_vault: Path, width: int) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        footer = app.main.query_one(Keys)
        keys = [k for k in footer.query(FooterKey) if not k.has_class("-command-palette")]
        palette = footer.query_one(".-command-palette")
        assert keys[0].description == "Fix"  # the triage keys first while the findings have the focus
        assert all(k.region.right <= palette.region.x for k in keys)  # none under the palette's key, none cut
        if width == 80:
            assert len(keys) < len([b for b in app.main.active_bindings.values() if b.binding.show]) - 1


async def test_at_160_columns_a_long_page_name_keeps_its_end(tmp_path: Path) -> None:
    name = "projects/2026/Quarterly planning for the payments platform migration"
    root = make_vault(tmp_path / "v", {f"{name}.md": "# Q\n\nSee [[nowhere at all]].\n", "b.md": "# B\n"})
    app = CuratorApp(root)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        pages = app.main.query_one("#pages", RowList)
        row = next(r for r in pages.rows if r.id == f"{name}.md")
        shown = pages.draw(row, pages.scrollable_content_region.width).plain
        assert "projects" in shown and "platform migration  ←" in shown  # both ends, cut in the middle
        await pilot.press("3")
        await settle(pilot)
        table = app.main.query_one("#findings", DataTable)
        cells = [str(table.get_row_at(i)[2]) for i in range(table.row_count)]
        assert any(c.endswith("platform migration:3") and len(c) >= 28 for c in cells), cells
