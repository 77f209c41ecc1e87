"""The review session: one suggestion at a time with its reason, evidence and the change it makes.

Each suggestion is planned again, against the vault as it is on disk, before its diff is shown;
`a` applies only that diff (the core refuses when the change planned under the lock is another
one, and the screen shows the new one). `v` lists the suggestions set aside (skipped, undone,
rejected) to review them again; `d` dreams again.
"""

from __future__ import annotations

from dataclasses import replace

from rich.console import Group
from rich.syntax import Syntax
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header, Static

from curator.core.change.edits import plan_diff
from curator.core.common.errors import REPORTED, one_line
from curator.core.curate.dream import describe, plan_for
from curator.core.curate.suggestions import Suggestion, load_suggestions
from curator.core.read.loading import load_vault
from curator.core.state.lock import between_writes
from curator.tui.screens.modals import EditLine
from curator.tui.screens.ordered import FirstThingsFirst
from curator.tui.widgets.footer import Keys
from curator.tui.words import words


class ReviewScreen(FirstThingsFirst):
    FOOTER_FIRST = ("review.", "app.")
    BINDINGS = [
        Binding("a", "accept", "Accept", id="review.accept"),
        Binding("x", "reject", "Reject", id="review.reject"),
        Binding("s", "skip", "Skip", id="review.skip"),
        Binding("t", "edit_title", "Edit title", id="review.edit"),
        Binding("n,right", "move(1)", "Next", id="review.next"),
        Binding("p,left", "move(-1)", "Previous", id="review.previous"),
        Binding("u", "undo", "Undo accepted", id="review.undo"),
        Binding("v", "set_aside", "Skipped/undone", id="review.set-aside"),
        Binding("b", "bring_back", "Back to pending", id="review.bring-back", show=False),
        Binding("d", "dream", "Dream again", id="review.dream"),
        Binding("escape", "app.pop_screen", "Back", id="review.back"),
    ]

    def __init__(self) -> None:
        super().__init__(id="review")
        self.suggestions: list[Suggestion] = []
        self.position = 0
        self.accepted: list[str] = []  # change ids accepted in this session, newest last
        self.aside = False  # listing the suggestions set aside instead of the pending ones
        self.titles: dict[str, str] = {}  # a rename's title as edited here, by suggestion id
        self.shown: tuple[str, str | None, str] | None = None  # (suggestion, title, diff) on screen

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="review-head", classes="pane-title")
        with VerticalScroll(id="review-body"):
            yield Static(id="review-reason")
            yield Static(id="review-evidence")
            yield Static(id="review-diff")
        yield Keys()

    def on_mount(self) -> None:
        self.reload()

    def reload(self) -> None:
        wanted = ("skipped", "undone", "rejected") if self.aside else ("pending",)
        self.suggestions = [s for s in load_suggestions(self.app.vault_root) if s.status in wanted]  # type: ignore[attr-defined]
        self.position = min(self.position, max(len(self.suggestions) - 1, 0))
        self.show()

    def current(self) -> Suggestion | None:
        return self.suggestions[self.position] if self.suggestions else None

    def show(self) -> None:
        suggestion = self.current()
        head = self.query_one("#review-head", Static)
        self.shown = None
        if suggestion is None:
            if self.aside:
                head.update(Text("No skipped, undone or rejected suggestions. v lists the pending ones."))
            else:
                head.update(Text("No pending suggestions. d dreams again; v lists the skipped and undone ones."))
            for name in ("#review-reason", "#review-evidence", "#review-diff"):
                self.query_one(name, Static).update("")
            return
        title = self.titles.get(suggestion.id)
        what = describe(suggestion if title is None else replace(suggestion, title=title))
        which = f"Set aside ({suggestion.status})" if self.aside else "Suggestion"
        head.update(Text(f"{which} {self.position + 1} of {len(self.suggestions)} · {what}"))
        self.query_one("#review-reason", Static).update(Text(suggestion.reason + ".", style="bold"))
        evidence = Text()
        for key, value in suggestion.evidence.items():
            if key == "signals" and isinstance(value, dict):
                for name, signal in value.items():
                    if signal:
                        evidence.append(f"  {name.replace('_', ' ')}: {words(signal)}\n", style="dim")
            elif value not in (None, [], {}, ""):
                evidence.append(f"{key.replace('_', ' ')}: {words(value)}\n")
        self.query_one("#review-evidence", Static).update(evidence)
        self.query_one("#review-diff", Static).update(Text("planning the change against the vault as it is now…"))
        self.preview(suggestion, self.titles.get(suggestion.id))

    @work(thread=True, exclusive=True, group="review-preview", exit_on_error=False)
    def preview(self, suggestion: Suggestion, title: str | None = None) -> None:
        """Plan the suggestion against the files as they are now (an accept before it, or another
        program, may have changed them since the app read the vault)."""
        root = self.app.vault_root  # type: ignore[attr-defined]
        try:
            plan = between_writes(root, lambda: plan_for(load_vault(root), suggestion, title))
            text = plan_diff(plan)
        except REPORTED as exc:
            self.app.call_from_thread(self._show_diff, suggestion.id, title, None, one_line(exc))
            return
        self.app.call_from_thread(self._show_diff, suggestion.id, title, text, "\n".join(plan.notes))

    def _show_diff(self, suggestion_id: str, title: str | None, diff: str | None, notes: str) -> None:
        """Show a planned diff, if it still belongs to the suggestion on screen; `a` applies only it."""
        current = self.current()
        if current is None or current.id != suggestion_id or self.titles.get(suggestion_id) != title:
            return
        if diff is None:  # the plan failed: nothing `a` may apply
            self.query_one("#review-diff", Static).update(Text(notes, style="bold"))
            return
        shown = Syntax(diff, "diff", theme="ansi_dark", word_wrap=True)
        self.query_one("#review-diff", Static).update(shown if not notes else Group(Text(notes), shown))
        self.shown = (suggestion_id, title, diff)

    def replan(self, text: str) -> None:
        """The change planned on accepting was not the one shown: say so and show the new one."""
        self.notify(text, title="Not applied", severity="warning")
        self.show()

    def action_move(self, step: int) -> None:
        if self.suggestions:
            self.position = (self.position + step) % len(self.suggestions)
            self.show()

    def action_accept(self) -> None:
        suggestion = self.current()
        if suggestion is None:
            return
        if self.shown is None or self.shown[0] != suggestion.id:
            self.notify("The change is still being planned (or cannot be made): a applies it once its diff shows.")
            return
        _, title, diff = self.shown
        self.app.accept_suggestion(suggestion.id, title, self, diff)  # type: ignore[attr-defined]

    def action_set_aside(self) -> None:
        self.aside = not self.aside
        self.position = 0
        self.reload()

    def action_bring_back(self) -> None:
        """Put a skipped, undone or rejected suggestion back among the pending ones."""
        if self.aside:
            self._decide("pending")

    def action_dream(self) -> None:
        self.notify("Dreaming again…")
        self.app.run_dream(open_review=False)  # type: ignore[attr-defined]

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
            if title:  # shown first, like any change: a applies it
                self.titles[suggestion.id] = title
                self.show()

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
