"""The footer: as many keys as fit, whole and in the screen's order, never one cut mid-word."""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

PALETTE_CELLS = 12  # the command palette's key, docked right: a bar, "^p palette" and a space


class Keys(Footer):
    """Textual's compact footer, keys that do not fit left out (the help, ?, lists them all)."""

    def __init__(self) -> None:
        super().__init__(compact=True)

    def compose(self) -> ComposeResult:
        room = (self.size.width or self.app.size.width) - PALETTE_CELLS
        full = False
        for widget in super().compose():
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                cells = _cells(widget)
                full = full or cells > room
                if full:  # the rest matter less (the screen orders them): left out, not squeezed in
                    continue
                room -= cells
            yield widget

    def on_resize(self) -> None:
        self.refresh(recompose=True)


def _cells(key: Widget) -> int:
    """A compact key's width: its key, a space and its words, and the space after it."""
    assert isinstance(key, FooterKey)
    words = 1 + cell_len(key.description) if key.description else 0
    return cell_len(key.key_display) + words + 1
