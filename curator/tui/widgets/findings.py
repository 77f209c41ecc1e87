"""The findings table: one row a finding, filterable by severity and rule, counts in the title; under
it the selected finding in full (message, place, evidence, its fix); a fixes it, i ignores it."""

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
    BINDINGS = [
        Binding("v", "cycle_severity", "Severity filter", id="findings.severity"),
        Binding("a", "fix", "Fix", id="findings.fix"),
        Binding("i", "ignore", "Ignore", id="findings.ignore"),
        Binding("u", "undo_fix", "Undo fix", id="findings.undo"),
    ]

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
        yield Static(id="finding-detail")

    def on_mount(self) -> None:
        table = self.query_one("#findings", DataTable)
        table.add_columns("severity", "rule", "page", "line", "message")

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
                Text(f.severity, style=style),
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
            self.query_one("#finding-detail", Static).update(self._detail(finding))
            self.post_message(PageSelected(finding.path, finding.line, follow=True))
        else:
            self.query_one("#finding-detail", Static).update("")

    def selected(self) -> Finding | None:
        row = self.query_one("#findings", DataTable).cursor_row
        return self.shown[row] if 0 <= row < len(self.shown) else None

    def _detail(self, f: Finding) -> Text:
        colours = self.app.get_css_variables()
        where = f"{f.path}:{f.line}" if f.line else f.path
        text = Text.assemble((f.severity, colours.get(f"finding-{f.severity}", "")), f"  {f.rule}  ", (where, "bold"))
        text.append(f"\n{f.message}")
        evidence = [f"{key}: {_shown(value)}" for key, value in f.data.items() if key in _EVIDENCE]
        if evidence:
            text.append("\n" + " · ".join(evidence), style="dim")
        return text

    def action_fix(self) -> None:
        finding = self.selected()
        if finding is not None:
            self.app.fix_finding(finding)  # type: ignore[attr-defined]

    def action_ignore(self) -> None:
        finding = self.selected()
        if finding is not None:
            self.app.ignore_finding(finding)  # type: ignore[attr-defined]

    def action_undo_fix(self) -> None:
        self.app.undo_last_fix()  # type: ignore[attr-defined]


# What a finding's data shows as its evidence (the rest repeats the message).
_EVIDENCE = ("did_you_mean", "alias_of", "fix", "candidates", "chosen", "other", "score", "date", "chars", "anchor")


def _shown(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value[:5]) + (", …" if len(value) > 5 else "")
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)
