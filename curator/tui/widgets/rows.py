"""A list of one-line rows that draws only the lines on screen, so 10,000 pages open and scroll at once.

Textual's OptionList measures every option when it is filled (about a second for 6,500 pages, on each
key typed in the filter); here a row is drawn when it scrolls into view and forgotten when it leaves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip


@dataclass(frozen=True)
class Row:
    """One line of the list: `id` is what choosing it means (None: a heading that cannot be chosen)."""

    id: str | None
    key: object = None  # what the row's text is drawn from, for the cache: a heading's text


class RowList(ScrollView, can_focus=True):
    """Rows drawn by `draw(row, width)` when they are on screen; a cursor that skips headings."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "cursor_down", "Down", show=False, id="rows.down"),
        Binding("up", "cursor_up", "Up", show=False, id="rows.up"),
        Binding("home", "first", "First", show=False, id="rows.first"),
        Binding("end", "last", "Last", show=False, id="rows.last"),
        Binding("pagedown", "page_down", "Page down", show=False, id="rows.page-down"),
        Binding("pageup", "page_up", "Page up", show=False, id="rows.page-up"),
        Binding("enter", "select", "Open", show=False, id="rows.select"),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {"row-list--cursor"}
    DEFAULT_CSS = """
    RowList {
        background: $surface;
        overflow-x: hidden;
        & > .row-list--cursor {
            color: $block-cursor-blurred-foreground;
            background: $block-cursor-blurred-background;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus > .row-list--cursor {
            color: $block-cursor-foreground;
            background: $block-cursor-background;
            text-style: $block-cursor-text-style;
        }
    }
    """

    highlighted: reactive[int | None] = reactive(None)

    class Highlighted(Message):
        """The cursor moved onto a row that can be chosen."""

        def __init__(self, rows: RowList, row: Row) -> None:
            super().__init__()
            self.rows, self.row = rows, row

        @property
        def control(self) -> RowList:
            return self.rows

    class Selected(Highlighted):
        """Enter (or a click) on a row that can be chosen."""

    def __init__(self, draw: Callable[[Row, int], Text], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.draw = draw
        self.rows: Sequence[Row] = ()
        self._drawn: LRUCache[tuple[int, int], list[Segment]] = LRUCache(maxsize=512)

    @property
    def row_count(self) -> int:
        return len(self.rows)

    @property
    def highlighted_row(self) -> Row | None:
        at = self.highlighted
        return self.rows[at] if at is not None and 0 <= at < len(self.rows) else None

    def set_rows(self, rows: Sequence[Row], keep: str | None = None) -> None:
        """New rows; the cursor stays on the row with id `keep` when there is one, else on the first."""
        self.rows = rows
        self._drawn.clear()
        self.virtual_size = Size(self.scrollable_content_region.width, len(rows))
        at = next((i for i, row in enumerate(rows) if row.id is not None and row.id == keep), None)
        if at is None:
            at = self._choosable(0, 1)
        self.set_reactive(RowList.highlighted, at)
        if at is not None:
            self._show_row(at)
            self.post_message(self.Highlighted(self, rows[at]))  # the listener drops a row it has shown
        else:
            self.scroll_to(y=0, animate=False, immediate=True)
        self.refresh()

    def redraw(self) -> None:
        """The rows' texts changed (new findings), not the rows."""
        self._drawn.clear()
        self.refresh()

    def index_of(self, row_id: str) -> int | None:
        return next((i for i, row in enumerate(self.rows) if row.id == row_id), None)

    def _choosable(self, start: int, step: int) -> int | None:
        """The first row from `start` going `step` that can be chosen (a heading cannot)."""
        at = start
        while 0 <= at < len(self.rows):
            if self.rows[at].id is not None:
                return at
            at += step
        return None

    def validate_highlighted(self, value: int | None) -> int | None:
        if value is None or not self.rows:
            return None
        return max(0, min(value, len(self.rows) - 1))

    def watch_highlighted(self, before: int | None, after: int | None) -> None:
        for at in (before, after):
            if at is not None:
                self._drawn.discard((at, self.scrollable_content_region.width))
                self._refresh_row(at)
        row = self.highlighted_row
        if after is not None and row is not None and row.id is not None:
            self._show_row(after)
            self.post_message(self.Highlighted(self, row))

    def _show_row(self, at: int) -> None:
        self.scroll_to_region(Region(0, at, 1, 1), animate=False, force=True, immediate=True)

    def _refresh_row(self, at: int) -> None:
        y = at - self.scroll_offset.y
        if 0 <= y < self.scrollable_content_region.height:
            self.refresh(Region(0, y, self.size.width, 1))

    def _move(self, to: int, step: int) -> None:
        if not self.rows:
            return
        to = max(0, min(to, len(self.rows) - 1))
        at = self._choosable(to, step)
        if at is None:
            at = self._choosable(to, -step)
        if at is not None:
            self.highlighted = at

    def action_cursor_down(self) -> None:
        self._move((self.highlighted if self.highlighted is not None else -1) + 1, 1)

    def action_cursor_up(self) -> None:
        self._move((self.highlighted if self.highlighted is not None else 1) - 1, -1)

    def action_first(self) -> None:
        self._move(0, 1)

    def action_last(self) -> None:
        self._move(len(self.rows) - 1, -1)

    def action_page_down(self) -> None:
        self._move((self.highlighted or 0) + max(1, self.scrollable_content_region.height - 1), 1)

    def action_page_up(self) -> None:
        self._move((self.highlighted or 0) - max(1, self.scrollable_content_region.height - 1), -1)

    def action_select(self) -> None:
        row = self.highlighted_row
        if row is not None and row.id is not None:
            self.post_message(self.Selected(self, row))

    def on_click(self, event: events.Click) -> None:
        at = event.y + self.scroll_offset.y
        if 0 <= at < len(self.rows) and self.rows[at].id is not None:
            self.highlighted = at
            if event.chain > 1:
                self.action_select()

    def on_resize(self) -> None:
        self._drawn.clear()
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.rows))

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        at = y + self.scroll_offset.y
        base = self.rich_style
        if not 0 <= at < len(self.rows):
            return Strip.blank(width, base)
        segments = self._drawn.get((at, width))
        if segments is None:
            text = self.draw(self.rows[at], width)
            text.truncate(width, overflow="ellipsis")
            segments = list(text.render(self.app.console))
            self._drawn[(at, width)] = segments
        strip = Strip(segments).apply_style(base).crop_extend(0, width, base)
        if at == self.highlighted:  # over the row's own colours, as a cursor is
            cursor = self.get_component_rich_style("row-list--cursor")
            strip = Strip(Segment.apply_style(list(strip), post_style=cursor), width)
        return strip
