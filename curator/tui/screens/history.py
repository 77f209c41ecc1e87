"""The history: every applied change from the journal; any one can be undone on its own."""

from __future__ import annotations

import time

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Footer, Header, Static

from curator.core.change.changes import history, reverted_outside
from curator.core.change.journal import Entry
from curator.tui.screens.modals import Confirm
from curator.tui.screens.ordered import FirstThingsFirst


class HistoryScreen(FirstThingsFirst):
    FOOTER_FIRST = ("history.", "app.")
    BINDINGS = [
        Binding("u,enter", "undo", "Undo change", id="history.undo"),
        Binding("escape", "app.pop_screen", "Back", id="history.back"),
    ]

    def __init__(self) -> None:
        super().__init__(id="history")
        self.entries: list[Entry] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(Text("Applied changes, newest first"), classes="pane-title", id="history-title")
        table: DataTable[Text] = DataTable(id="history-table", cursor_type="row")
        yield table
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#history-table", DataTable).add_columns("id", "time", "kind", "state", "reason", "files")
        self.reload()

    def reload(self) -> None:
        self.entries = history(self.app.vault_root)  # type: ignore[attr-defined]
        reverted = reverted_outside(self.app.vault_root)  # type: ignore[attr-defined]
        table = self.query_one("#history-table", DataTable)
        table.clear()
        for e in self.entries:
            table.add_row(
                Text(e.id),
                Text(time.strftime("%Y-%m-%d %H:%M", time.localtime(e.time))),
                Text(e.kind),
                Text(
                    "reverted outside curator" if e.id in reverted else e.state,
                    style="dim" if e.state == "undone" else "",
                ),
                Text(e.reason),
                Text(str(len(e.paths))),
            )
        if not self.entries:
            self.query_one("#history-title", Static).update(
                Text("No changes yet: accept a suggestion in a review (r).")
            )

    def action_undo(self) -> None:
        row = self.query_one("#history-table", DataTable).cursor_row
        if not 0 <= row < len(self.entries):
            return
        entry = self.entries[row]
        if entry.state != "applied":
            self.notify(f"Change {entry.id} is {entry.state}; nothing to undo.", severity="warning")
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.app.undo_change(entry.id, self)  # type: ignore[attr-defined]

        self.app.push_screen(Confirm(f"Undo change {entry.id}?\n{entry.reason}"), confirmed)
