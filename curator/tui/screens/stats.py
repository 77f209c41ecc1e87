"""Counts, as `curator stats` prints them: pages, links by kind, findings by rule, pages by field."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from curator.core.read.stats import stats
from curator.tui.widgets.footer import Keys

FIELDS = ("type", "source", "confidence", "owner", "folder")


class StatsScreen(Screen[None]):
    BINDINGS = [Binding("escape", "app.pop_screen", "Back", id="stats.back")]

    def __init__(self) -> None:
        super().__init__(id="stats")

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(Text("Counts of this vault (curator stats)"), classes="pane-title", id="stats-title")
        table: DataTable[Text] = DataTable(id="stats-table", cursor_type="row")
        yield table
        yield Keys()

    def on_mount(self) -> None:
        table = self.query_one("#stats-table", DataTable)
        table.add_columns("what", "value", "count")
        vault, findings = self.app.vault, self.app.findings  # type: ignore[attr-defined]
        if vault is None:
            self.query_one("#stats-title", Static).update(Text("The vault is still loading; try again in a moment."))
            return
        counted = stats(vault, findings, FIELDS)
        table.add_row(Text("pages"), Text(""), Text(str(counted.pages)))
        for kind, n in counted.links.items():
            table.add_row(Text("links"), Text(kind), Text(str(n)))
        for rule, n in counted.findings["by_rule"].items():
            table.add_row(Text("findings"), Text(rule), Text(str(n)))
        for name, values in counted.by.items():
            if set(values) == {""}:
                continue  # no page has the field
            for value, n in values.items():
                table.add_row(Text(f"by {name}"), Text(value or "(none)"), Text(str(n)))
        table.focus()
