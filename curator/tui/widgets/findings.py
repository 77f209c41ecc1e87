"""The findings table: one row a finding, filterable by severity and rule, counts in the title; under
it the selected finding in full (message, place, evidence, its fix); a fixes it, i ignores it."""

from __future__ import annotations

from collections import Counter

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from curator.core.check.catalogue import CATALOGUE
from curator.core.common.rules import Finding
from curator.tui.messages import PageSelected
from curator.tui.words import left, words

LEVELS = (None, "error", "warning", "info")
COLUMNS = ("severity", "rule", "page", "message")  # the line is in the detail under the table
PAGE_WIDTH = 24  # a page's name before the pane is measured
MESSAGE_MIN = 16  # what a row keeps of the message beside the page
GROUP_AT = 100  # a rule with more findings is one row (enter lists them) until a rule is picked


class FindingsPane(Vertical):
    BINDINGS = [
        Binding("a", "fix", "Fix", id="findings.fix"),
        Binding(
            "A",
            "fix_rule",
            "Fix all of rule",
            id="findings.fix-rule",
            tooltip="Fix every finding of the selected finding's rule",
        ),
        Binding("i", "ignore", "Ignore", id="findings.ignore"),
        Binding("u", "undo_fix", "Undo fix", id="findings.undo"),
        Binding("v", "cycle_severity", "Severity filter", id="findings.severity"),
        Binding("escape", "all_rules", "All rules", show=False, id="findings.all-rules"),
    ]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.findings: list[Finding] = []
        self.shown: list[Finding] = []  # the finding rows, after the group rows
        self.groups: dict[str, int] = {}  # rules shown as one row (more than GROUP_AT findings): their counts
        self.level = 0
        self.rule: str | None = None
        self.page_width, self.message_width = PAGE_WIDTH, 4 * PAGE_WIDTH
        self.rules_shown: set[str] = set()

    def compose(self) -> ComposeResult:
        yield Static("Findings", classes="pane-title", id="findings-title")
        table: DataTable[Text] = DataTable(id="findings", cursor_type="row", zebra_stripes=True)
        yield table
        with VerticalScroll(id="finding-detail-scroll"):  # a long finding scrolls; enter shows it whole
            yield Static(id="finding-detail")

    def on_mount(self) -> None:
        self._fill([])

    def _widths(self, rules: set[str], pages: list[str]) -> tuple[int, int]:
        """The page and message columns' widths: what the pane has beside the severity and the rule
        (each column padded by two cells, a scroll bar of two), the page at most 3/5 of it (the page
        tells rows apart; the message is whole in the details below)."""
        width = self.content_size.width
        if not width:
            return PAGE_WIDTH, 4 * PAGE_WIDTH
        marked = 2 if self.groups else 0  # a rule shown as one row is marked "▸ "
        fixed = len("severity") + max([len("rule"), *(len(r) + marked for r in rules)]) + 4 * 2 + 2
        room = width - fixed
        page = min(max([len("page"), *(cell_len(p) for p in pages)]), max(12, room * 3 // 5))
        return page, max(MESSAGE_MIN, room - page)

    def on_resize(self) -> None:
        if not self.findings:
            return
        if self._widths(self.rules_shown, [_name(f) for f in self.shown]) != (self.page_width, self.message_width):
            self.show(self.findings)  # the cursor stays on its finding

    def on_descendant_focus(self) -> None:
        if self.parent is not None:  # the graph above and the columns beside give the findings room
            self.parent.set_class(True, "-triage")
            self.screen.set_class(True, "-triage")

    def on_descendant_blur(self) -> None:
        if self.parent is not None:
            self.parent.set_class(False, "-triage")
            self.screen.set_class(False, "-triage")

    def _fill(self, rows: list[tuple[Text, ...]]) -> None:
        """Columns as wide as what they show (page and message at most what the pane has): measured here,
        not left to the table, which measures when the app is next idle and on a loaded machine kept
        header widths."""
        table = self.query_one("#findings", DataTable)
        table.clear(columns=True)
        for i, label in enumerate(COLUMNS):
            width = max([len(label), *(row[i].cell_len for row in rows)])
            most = {"page": self.page_width, "message": self.message_width}.get(label, width)
            table.add_column(label, width=min(width, most))
        for row in rows:
            table.add_row(*row)

    def show(self, findings: list[Finding]) -> None:
        """New findings for the same view (after a fix, an ignore, a reload): the cursor stays on its
        row, which after a fix or an ignore is the next finding to triage."""
        table = self.query_one("#findings", DataTable)
        row = table.cursor_row
        was = self.selected()
        self.findings = findings
        self.refresh_rows()
        if was is not None:  # the same finding where it is still there (an undo, a reload)
            row = next(
                (i for i, f in enumerate(self.shown) if f.fingerprint == was.fingerprint), row - len(self.groups)
            )
            row += len(self.groups)
        if table.row_count:
            table.move_cursor(row=min(row, table.row_count - 1), animate=False)

    def action_cycle_severity(self) -> None:
        self.level = (self.level + 1) % len(LEVELS)
        self.refresh_rows()

    def only_rule(self, rule: str | None) -> None:
        self.rule = rule
        self.refresh_rows()

    def action_all_rules(self) -> None:
        if self.rule is not None:
            self.only_rule(None)

    def refresh_rows(self) -> None:
        level = LEVELS[self.level]
        matching = [
            f for f in self.findings if (level is None or f.severity == level) and (self.rule in (None, f.rule))
        ]
        many = Counter(f.rule for f in matching)
        self.groups = {rule: n for rule, n in many.items() if n > GROUP_AT and self.rule is None}
        self.shown = [f for f in matching if f.rule not in self.groups]
        names = [_name(f) for f in self.shown]
        self.rules_shown = {f.rule for f in matching}
        self.page_width, self.message_width = self._widths(self.rules_shown, names)
        colours = self.app.get_css_variables()
        rows: list[tuple[Text, ...]] = []
        for rule, n in sorted(self.groups.items()):
            severity = next(f.severity for f in matching if f.rule == rule)
            rows.append(
                (
                    Text(severity, style=colours.get(f"finding-{severity}", "")),
                    Text(f"▸ {rule}", style="bold"),
                    Text(f"{n:,} findings"),
                    Text("enter lists them"),
                )
            )
        for f, name in zip(self.shown, names, strict=True):
            message = Text(f.message)
            message.truncate(self.message_width, overflow="ellipsis")  # whole in the details below
            rows.append(
                (
                    Text(f.severity, style=colours.get(f"finding-{f.severity}", "")),
                    Text(f.rule),
                    Text(left(name, self.page_width)),
                    message,
                )
            )
        self._fill(rows)
        counts = Counter(f.rule for f in self.findings)
        label = "all" if level is None else level
        scope = f" · only {self.rule}" if self.rule else ""
        summary = " · ".join(f"{rule} {n}" for rule, n in sorted(counts.items()))
        self.query_one("#findings-title", Static).update(
            Text(f"Findings {len(matching)}/{len(self.findings)} ({label}{scope}) · {summary}")
        )

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._select(event.cursor_row)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        group = self._group_at(event.cursor_row)
        if group is not None:  # a group row opens into its findings
            self.only_rule(group)
            return
        finding = self.selected()
        if finding is not None:  # the finding in full, however long, over the screen
            from curator.tui.screens.modals import Reading

            self.app.push_screen(Reading(self._detail(finding)))

    def _group_at(self, row: int) -> str | None:
        groups = sorted(self.groups)
        return groups[row] if 0 <= row < len(groups) else None

    def _select(self, row: int) -> None:
        group = self._group_at(row)
        if group is not None:
            self.query_one("#finding-detail", Static).update(
                Text(f"{group}: {self.groups[group]:,} findings, shown as one row; enter lists them")
            )
            return
        row -= len(self.groups)
        if 0 <= row < len(self.shown):
            finding = self.shown[row]
            self.query_one("#finding-detail", Static).update(self._detail(finding))
            self.post_message(PageSelected(finding.path, finding.line, follow=True))
        else:
            self.query_one("#finding-detail", Static).update("")

    def selected(self) -> Finding | None:
        row = self.query_one("#findings", DataTable).cursor_row - len(self.groups)
        return self.shown[row] if 0 <= row < len(self.shown) else None

    def _detail(self, f: Finding) -> Text:
        colours = self.app.get_css_variables()
        where = f"{f.path}:{f.line}" if f.line else f.path
        text = Text.assemble((f.severity, colours.get(f"finding-{f.severity}", "")), f"  {f.rule}  ", (where, "bold"))
        text.append(f"\n{f.message}")
        evidence = [f"{_EVIDENCE[key]}: {words(value)}" for key, value in f.data.items() if key in _EVIDENCE]
        if evidence:
            text.append("\n" + "\n".join(evidence), style="dim")
        summary = RULES.get(f.rule)
        if summary:
            text.append(f"\n{summary}", style="italic")
        return text

    def action_fix(self) -> None:
        finding = self.selected()
        if finding is not None:
            self.app.fix_finding(finding)  # type: ignore[attr-defined]

    def action_fix_rule(self) -> None:
        finding = self.selected()
        rule = (
            finding.rule if finding is not None else self._group_at(self.query_one("#findings", DataTable).cursor_row)
        )
        if rule is not None:
            self.app.fix_rule(rule)  # type: ignore[attr-defined]

    def action_ignore(self) -> None:
        finding = self.selected()
        if finding is not None:
            self.app.ignore_finding(finding)  # type: ignore[attr-defined]

    def action_undo_fix(self) -> None:
        self.app.undo_last_fix()  # type: ignore[attr-defined]


# What a finding's data shows as its evidence (the rest repeats the message), in words.
_EVIDENCE = {
    "did_you_mean": "did you mean",
    "alias_of": "an alias of",
    "fix": "fix",
    "candidates": "candidates",
    "chosen": "chosen",
    "other": "the other page",
    "score": "score",
    "date": "date",
    "chars": "characters",
    "anchor": "anchor",
}
RULES = {rule.id: rule.summary for rule in CATALOGUE}


def _name(f: Finding) -> str:
    """A finding's page as its row shows it: the page's name and the line."""
    return f.path.rsplit("/", 1)[-1].removesuffix(".md") + (f":{f.line}" if f.line else "")
