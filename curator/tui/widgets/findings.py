"""The findings table: one row a finding, filterable by severity and rule, counts in the title."""

from __future__ import annotations

from collections import Counter

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from curator.core.rules import Finding
from curator.tui.messages import PageSelected

LEVELS = (None, "error", "warning", "info")


class FindingsPane(Vertical):
    BINDINGS = [Binding("v", "cycle_severity", "Severity filter", id="findings.severity")]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.findings: list[Finding] = []
        self.shown: list[Finding] = []
        self.level = 0
        self.rule: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("Findings", classes="pane-title", id="findings-title")
        table: DataTable[Text] = DataTable(id="findings", cursor_type="row", zebra_stripes=True)
        yield table

    def on_mount(self) -> None:
        table = self.query_one("#findings", DataTable)
        table.add_columns("sev", "rule", "page", "line", "message")

    def show(self, findings: list[Finding]) -> None:
        self.findings = findings
        self.refresh_rows()

    def action_cycle_severity(self) -> None:
        self.level = (self.level + 1) % len(LEVELS)
        self.refresh_rows()

    def only_rule(self, rule: str | None) -> None:
        self.rule = rule
        self.refresh_rows()

    def refresh_rows(self) -> None:
        level = LEVELS[self.level]
        self.shown = [
            f for f in self.findings if (level is None or f.severity == level) and (self.rule in (None, f.rule))
        ]
        table = self.query_one("#findings", DataTable)
        table.clear()
        colours = self.app.get_css_variables()
        for f in self.shown:
            style = colours.get(f"finding-{f.severity}", "")
            table.add_row(
                Text(f.severity[:4], style=style),
                Text(f.rule),
                Text(f.path.rsplit("/", 1)[-1].removesuffix(".md")),
                Text(str(f.line or "")),
                Text(f.message),
            )
        counts = Counter(f.rule for f in self.findings)
        label = "all" if level is None else level
        scope = f" · only {self.rule}" if self.rule else ""
        summary = " · ".join(f"{rule} {n}" for rule, n in sorted(counts.items()))
        self.query_one("#findings-title", Static).update(
            Text(f"Findings {len(self.shown)}/{len(self.findings)} ({label}{scope}) · {summary}")
        )

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._select(event.cursor_row)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self._select(event.cursor_row)

    def _select(self, row: int) -> None:
        if 0 <= row < len(self.shown):
            finding = self.shown[row]
            self.post_message(PageSelected(finding.path, finding.line, follow=True))
