"""The main screen: page index, link graph, findings and preview side by side (one at a time when narrow)."""

from __future__ import annotations

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Header, Input, Static

from curator.core.common.rules import Finding
from curator.core.read.vault import Vault
from curator.tui.messages import LoadProgressed, PageSelected, Shown
from curator.tui.screens.ordered import FirstThingsFirst
from curator.tui.widgets.findings import FindingsPane
from curator.tui.widgets.footer import Keys
from curator.tui.widgets.graph import GraphPane
from curator.tui.widgets.index import IndexPane
from curator.tui.widgets.preview import Like, PreviewPane
from curator.tui.widgets.rows import RowList

NARROW = 120  # columns below which one pane shows at a time
PANES = ("index-pane", "graph-pane", "findings-pane", "preview-pane")


class MainScreen(FirstThingsFirst):
    FOOTER_FIRST = ("findings.", "app.", "main.")  # the triage keys while the findings have the focus
    BINDINGS = [
        Binding("1", "pane('index-pane')", "Index", id="main.index"),
        Binding("2", "pane('graph-pane')", "Graph", id="main.graph"),
        Binding("3", "pane('findings-pane')", "Findings", id="main.findings"),
        Binding("4", "pane('preview-pane')", "Preview", id="main.preview"),
        Binding("f", "filter", "Filter pages", id="main.filter"),
        Binding("e", "edit", "Edit page", id="main.edit"),
        Binding("l", "like", "Pages like this", id="main.like"),
        Binding("alt+left,backspace", "travel(-1)", "Back", id="main.back", show=False),
        Binding("alt+right", "travel(1)", "Forward", id="main.forward", show=False),
        Binding("escape", "leave_filter", "Back", show=False, id="main.leave-filter"),
    ]

    def __init__(self) -> None:
        super().__init__(id="main")
        self.vault: Vault | None = None
        self.findings: list[Finding] = []
        self.current: str | None = None
        self.shown: Vault | None = None  # the vault the current page was shown from
        self.back: list[str] = []  # pages left by following a link or a finding, newest last
        self.forward: list[str] = []  # pages gone back from, newest last

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="columns"):
            yield IndexPane(id="index-pane", classes="pane -active")
            with Vertical(id="middle"):
                yield GraphPane(id="graph-pane", classes="pane")
                yield FindingsPane(id="findings-pane", classes="pane")
            yield PreviewPane(id="preview-pane", classes="pane")
        yield Static(Text("Reading the vault…"), id="status")
        yield Keys()

    def on_mount(self) -> None:
        self._layout(self.app.size.width)
        self.query_one("#pages", RowList).focus()
        self.watch(self.app, "shown", self.show_state)

    def on_resize(self, event: events.Resize) -> None:
        self._layout(event.size.width)

    def _layout(self, width: int) -> None:
        self.set_class(width < NARROW, "narrow")

    def action_pane(self, pane: str) -> None:
        for name in PANES:
            self.query_one(f"#{name}").set_class(name == pane, "-active")
        self.query_one("#middle").set_class(pane in ("graph-pane", "findings-pane"), "-active")
        target = {"index-pane": "#pages", "graph-pane": "#graph", "findings-pane": "#findings"}.get(pane)
        if target:
            self.query_one(target).focus()
        else:
            self.query_one("#preview-scroll").focus()

    def action_filter(self) -> None:
        self.action_pane("index-pane")
        self.query_one("#filter", Input).focus()

    def action_leave_filter(self) -> None:
        if self.focused is self.query_one("#filter", Input):
            self.query_one("#pages", RowList).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "filter":
            self.query_one("#pages", RowList).focus()

    def action_edit(self) -> None:
        if self.current is not None:
            self.app.action_edit_page(self.current)  # type: ignore[attr-defined]

    def action_like(self) -> None:
        if self.vault is not None and self.current is not None:
            self.query_one(PreviewPane).show_like(None)
            self.find_like(self.vault, self.current)

    @work(thread=True, exclusive=True, group="like", name="Cannot compare the page", exit_on_error=False)
    def find_like(self, vault: Vault, path: str) -> None:
        """The model's closest pages to one page, and the duplicate evidence the rule found for it."""
        from curator.core.check.duplicate_pages import evidence_about
        from curator.core.meaning.similarity import pages_like

        like, warning = pages_like(vault, path)
        evidence = evidence_about(self.findings, path)
        self.app.call_from_thread(self._show_like, path, Like(like, evidence, warning))

    def _show_like(self, path: str, like: Like) -> None:
        if path == self.current:
            self.query_one(PreviewPane).show_like(like)

    def show_progress(self, message: LoadProgressed) -> None:
        self.query_one("#status", Static).update(Text(f"{message.what}… {message.done}/{message.total}"))

    def show_state(self, before: Shown | None, shown: Shown | None) -> None:
        """The app's vault or findings changed: a new vault is shown whole, new findings of the same
        vault (the model's similar pages) only where findings show."""
        if shown is None:
            return
        self.findings = shown.findings
        if before is not None and before is not shown and before.vault is shown.vault:
            self.query_one(IndexPane).update_findings(shown.findings)
            self.query_one(FindingsPane).show(shown.findings)
            self.show_status(shown.note)
            return
        self.vault = shown.vault
        self.query_one(IndexPane).show(shown.vault, shown.index, shown.findings)
        self.query_one(FindingsPane).show(shown.findings)
        self.query_one(GraphPane).show_figures(shown.vault)
        if self.current not in shown.vault.pages:
            self.current = next(iter(shown.vault.pages), None)
        if self.current:
            self.post_message(PageSelected(self.current))
        self.show_status(shown.note)

    def show_status(self, extra: str = "") -> None:
        pending = getattr(self.app, "pending_suggestions", 0)
        hint = f"{pending} suggestions waiting: press r to review" if pending else "press r to start a review (dream)"
        errors = sum(1 for f in self.findings if f.severity == "error")
        text = Text(f"{len(self.findings)} findings ({errors} errors) · {hint} · ? help · ctrl+p commands")
        if extra:
            text.append(f" · {extra}", style="dim")
        self.query_one("#status", Static).update(text)

    @on(PageSelected)
    async def show_page(self, message: PageSelected) -> None:
        if self.vault is None or message.path not in self.vault.pages:
            return
        if message.path == self.current and message.line is None and self.shown is self.vault:
            return  # the page on show already (the index echoing a finding's or a link's choice)
        if message.follow and not message.travel and self.current not in (None, message.path):
            self.back.append(self.current)
            self.forward.clear()
        self.current, self.shown = message.path, self.vault
        self.query_one(GraphPane).show(self.vault, message.path, self.query_one(IndexPane).marks)
        await self.query_one(PreviewPane).show(self.vault, message.path, message.line)
        if message.follow:
            self.query_one(IndexPane).select(message.path)

    def select(self, path: str) -> None:
        self.post_message(PageSelected(path, follow=True))

    def action_travel(self, step: int) -> None:
        """Back (-1) or forward (1) through the pages followed, as a browser goes."""
        source, target = (self.back, self.forward) if step < 0 else (self.forward, self.back)
        while source and (self.vault is None or source[-1] not in self.vault.pages):
            source.pop()  # a page renamed or deleted since
        if not source:
            self.notify("No page to go back to." if step < 0 else "No page to go forward to.")
            return
        if self.current is not None:
            target.append(self.current)
        self.post_message(PageSelected(source.pop(), follow=True, travel=True))
