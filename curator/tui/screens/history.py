"""The history: every applied change from the journal; enter shows one (its reason, files and
diff), u undoes it after asking."""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.console import Group
from rich.syntax import Syntax
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from curator.core.change.changes import history, reverted_outside
from curator.core.change.edits import Plan, plan_diff
from curator.core.change.journal import Entry, Journal
from curator.core.common.errors import REPORTED, one_line
from curator.tui.screens.modals import Confirm
from curator.tui.screens.ordered import FirstThingsFirst
from curator.tui.widgets.footer import Keys


class HistoryScreen(FirstThingsFirst):
    FOOTER_FIRST = ("history.", "app.")
    BINDINGS = [
        Binding("enter", "open", "Show change", id="history.open"),
        Binding("u", "undo", "Undo change", id="history.undo"),
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
        yield Keys()

    def on_mount(self) -> None:
        self.query_one("#history-table", DataTable).add_columns("id", "time", "by", "kind", "state", "reason", "files")
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
                Text(e.credited),
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

    def selected(self) -> Entry | None:
        row = self.query_one("#history-table", DataTable).cursor_row
        return self.entries[row] if 0 <= row < len(self.entries) else None

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        entry = self.selected()
        if entry is not None:
            self.app.push_screen(ChangeScreen(entry, self))

    def action_undo(self) -> None:
        entry = self.selected()
        if entry is not None:
            undo_asked(self, entry)


def undo_asked(screen: Screen[None], entry: Entry, then: Callable[[], object] | None = None) -> None:
    """Ask, then undo the change (the app's worker; the history is read again after)."""
    if entry.state != "applied":
        screen.notify(f"Change {entry.id} is {entry.state}; nothing to undo.", severity="warning")
        return

    def confirmed(yes: bool | None) -> None:
        if yes:
            screen.app.undo_change(entry.id, screen)  # type: ignore[attr-defined]
            if then is not None:
                then()

    screen.app.push_screen(Confirm(f"Undo change {entry.id}?\n{entry.reason}"), confirmed)


class ChangeScreen(FirstThingsFirst):
    """One change in full: when, why, the files it wrote and its diff; u undoes it after asking."""

    FOOTER_FIRST = ("change.", "app.")
    BINDINGS = [
        Binding("u", "undo", "Undo change", id="change.undo"),
        Binding("escape", "app.pop_screen", "Back to the history", id="change.back"),
    ]

    def __init__(self, entry: Entry, history_screen: HistoryScreen) -> None:
        super().__init__(id="change")
        self.entry = entry
        self.history_screen = history_screen

    def compose(self) -> ComposeResult:
        e = self.entry
        yield Header()
        yield Static(Text(f"Change {e.id} · {e.kind} · {e.state}"), classes="pane-title", id="change-title")
        with VerticalScroll(id="change-body"):
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(e.time))
            head = Text.assemble((e.reason, "bold"), f"\n{when} · by {e.credited}")
            if e.commit:
                head.append(f" · git commit {e.commit[:10]}")
            head.append("\nFiles:\n" + "\n".join(f"  {path}" for path in e.paths))
            for old, new in e.moved.items():
                head.append(f"\n  {old} → {new}")
            yield Static(head, id="change-head")
            yield Static(self._diff(), id="change-diff")
        yield Keys()

    def _diff(self) -> Group | Text:
        try:
            files = Journal(self.app.vault_root).files(self.entry)  # type: ignore[attr-defined]
        except REPORTED as exc:
            return Text(one_line(exc), style="bold")
        plan = Plan(self.entry.kind, self.entry.reason, tuple(files), dict(self.entry.moved), 0)
        return Group(Text(""), Syntax(plan_diff(plan, context=2), "diff", theme="ansi_dark", word_wrap=True))

    def action_undo(self) -> None:
        undo_asked(self.history_screen, self.entry, self.dismiss)
