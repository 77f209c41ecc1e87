"""The review session: one suggestion at a time with its reason, evidence and the change it makes."""

from __future__ import annotations

from rich.console import Group
from rich.syntax import Syntax
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from curator.core.change.edits import plan_diff
from curator.core.common.errors import REPORTED, one_line
from curator.core.curate.dream import Suggestion, describe, load_suggestions, plan_for
from curator.tui.screens.modals import EditLine


class ReviewScreen(Screen[None]):
    BINDINGS = [
        Binding("a", "accept", "Accept", id="review.accept"),
        Binding("x", "reject", "Reject", id="review.reject"),
        Binding("s", "skip", "Skip", id="review.skip"),
        Binding("t", "edit_title", "Edit title", id="review.edit"),
        Binding("n,right", "move(1)", "Next", id="review.next"),
        Binding("p,left", "move(-1)", "Previous", id="review.previous"),
        Binding("u", "undo", "Undo accepted", id="review.undo"),
        Binding("escape", "app.pop_screen", "Back", id="review.back"),
    ]

    def __init__(self) -> None:
        super().__init__(id="review")
        self.suggestions: list[Suggestion] = []
        self.position = 0
        self.accepted: list[str] = []  # change ids accepted in this session, newest last

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="review-head", classes="pane-title")
        with VerticalScroll(id="review-body"):
            yield Static(id="review-reason")
            yield Static(id="review-evidence")
            yield Static(id="review-diff")
        yield Footer()

    def on_mount(self) -> None:
        self.reload()

    def reload(self) -> None:
        self.suggestions = [s for s in load_suggestions(self.app.vault_root) if s.status == "pending"]  # type: ignore[attr-defined]
        self.position = min(self.position, max(len(self.suggestions) - 1, 0))
        self.show()

    def current(self) -> Suggestion | None:
        return self.suggestions[self.position] if self.suggestions else None

    def show(self) -> None:
        suggestion = self.current()
        head = self.query_one("#review-head", Static)
        if suggestion is None:
            head.update(Text("No pending suggestions. Run a dream pass from the command palette (fix: dream)."))
            for name in ("#review-reason", "#review-evidence", "#review-diff"):
                self.query_one(name, Static).update("")
            return
        what = describe(suggestion)
        head.update(Text(f"Suggestion {self.position + 1} of {len(self.suggestions)} · {what}"))
        self.query_one("#review-reason", Static).update(Text(suggestion.reason + ".", style="bold"))
        evidence = Text()
        for key, value in suggestion.evidence.items():
            if key == "signals" and isinstance(value, dict):
                for name, signal in value.items():
                    if signal:
                        evidence.append(f"  {name}: {signal}\n", style="dim")
            elif value not in (None, [], {}, ""):
                evidence.append(f"{key}: {value}\n")
        self.query_one("#review-evidence", Static).update(evidence)
        self.preview(suggestion)

    @work(thread=True, exclusive=True, group="review-preview")
    def preview(self, suggestion: Suggestion, title: str | None = None) -> None:
        vault = self.app.vault  # type: ignore[attr-defined]
        try:
            plan = plan_for(vault, suggestion, title)
            diff: Syntax | Text = Syntax(plan_diff(plan), "diff", theme="ansi_dark", word_wrap=True)
            notes = "\n".join(plan.notes)
        except REPORTED as exc:
            diff, notes = Text(one_line(exc), style="bold"), ""
        self.app.call_from_thread(self._show_diff, diff, notes)

    def _show_diff(self, diff: Syntax | Text, notes: str) -> None:
        self.query_one("#review-diff", Static).update(diff if not notes else Group(Text(notes), diff))

    def action_move(self, step: int) -> None:
        if self.suggestions:
            self.position = (self.position + step) % len(self.suggestions)
            self.show()

    def action_accept(self, title: str | None = None) -> None:
        suggestion = self.current()
        if suggestion is not None:
            self.app.accept_suggestion(suggestion.id, title, self)  # type: ignore[attr-defined]

    def action_reject(self) -> None:
        self._decide("rejected")

    def action_skip(self) -> None:
        self._decide("skipped")

    def _decide(self, status: str) -> None:
        suggestion = self.current()
        if suggestion is not None:
            self.app.decide_suggestion(suggestion.id, status, self)  # type: ignore[attr-defined]

    def action_edit_title(self) -> None:
        suggestion = self.current()
        if suggestion is None or suggestion.kind != "rename":
            self.notify("Only a rename has a title to edit.", severity="warning")
            return

        def chosen(title: str | None) -> None:
            if title:
                self.action_accept(title)

        from curator.core.curate.dream import written_by_hand

        vault = self.app.vault  # type: ignore[attr-defined]
        page = suggestion.pages[0]
        note = written_by_hand(vault, page) if vault is not None and page in vault.pages else ""
        self.app.push_screen(EditLine(f"New title for {page}{note}:", suggestion.title or ""), chosen)

    def action_undo(self) -> None:
        if not self.accepted:
            self.notify("Nothing accepted in this review yet; the history (h) lists every change.")
            return
        self.app.undo_change(self.accepted.pop(), self)  # type: ignore[attr-defined]
