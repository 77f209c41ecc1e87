"""The help screen: every key binding of every screen, and how to start."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

INTRO = (
    "curator shows your vault: the page index (left), the links of the selected page and the findings "
    "(middle), and the page itself (right).\n"
    "Start a review with r: curator proposes renames for event-style titles and merges for near-duplicates; "
    "accept (a), reject (x), skip (s) or edit the title (t). Every accepted change can be undone from the "
    "history (h). / searches the vault; f filters the page index. ctrl+p opens the command palette."
)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "app.pop_screen", "Close", id="help.close")]

    def __init__(self, groups: dict[str, list[Binding | tuple[str, str]]]) -> None:
        super().__init__(id="help", classes="modal")
        self.groups = groups

    def compose(self) -> ComposeResult:
        table = Table(box=None, show_header=False, padding=(0, 2))
        for group, bindings in self.groups.items():
            table.add_row(Text(group, style="bold"), "")
            for binding in bindings:
                if isinstance(binding, tuple):
                    key, words = binding
                else:
                    key, words = self.shown_keys(binding), binding.tooltip or binding.description
                table.add_row(Text(f"  {key}"), Text(words))
        with VerticalScroll(classes="dialog wide"):
            yield Static(Text(INTRO))
            yield Static(table)
            yield Static(Text("escape closes this help", style="dim"))

    def shown_keys(self, binding: Binding) -> str:
        """A binding's keys as a person types them: "/" and "?", not slash; each of "n,right"."""
        if binding.key_display:
            return binding.key_display
        return " or ".join(self.app.get_key_display(Binding(key.strip(), "")) for key in binding.key.split(","))
