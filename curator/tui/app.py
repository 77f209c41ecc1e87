"""The curator app: loads the vault in workers and hands results to the screens as messages."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

from textual import work
from textual.app import App, SuspendNotSupported
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.reactive import var
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from curator.core.change.changes import undo
from curator.core.change.edits import Plan
from curator.core.check.findings import with_similar
from curator.core.common.errors import REPORTED, one_line
from curator.core.common.names import visible
from curator.core.common.rules import Finding
from curator.core.curate.choices import Question
from curator.core.curate.dream import PlanChanged, accept, dream, set_status
from curator.core.curate.opening import Opened, open_vault
from curator.core.curate.suggestions import load_suggestions
from curator.core.meaning.similarity import find_similar
from curator.core.read.loading import load_vault
from curator.core.read.pagefilter import PageIndex
from curator.core.read.vault import Vault
from curator.core.state.config import load_config
from curator.tui.commands import Command, CuratorCommands
from curator.tui.editor import editor_command
from curator.tui.messages import (
    ChangeMade,
    Dreamt,
    LoadProgressed,
    Noticed,
    Shown,
    SimilarScored,
    SuggestionDecided,
    VaultLoaded,
)
from curator.tui.screens.help import HelpScreen
from curator.tui.screens.history import HistoryScreen
from curator.tui.screens.main import MainScreen
from curator.tui.screens.modals import Choose, Confirm, EditLine
from curator.tui.screens.review import ReviewScreen
from curator.tui.screens.search import SearchScreen
from curator.tui.themes import DEFAULT_THEME, DEFAULT_VARIABLES, load_themes
from curator.tui.widgets.findings import FindingsPane
from curator.tui.widgets.index import IndexPane


class CuratorApp(App[None]):
    shown: var[Shown | None] = var(None)  # the vault and its findings; the screens watch it
    CSS_PATH = "styles/app.tcss"
    TITLE = "curator"
    COMMANDS = App.COMMANDS | {CuratorCommands}
    BINDINGS = [
        Binding("slash", "search", "Search", id="app.search"),
        Binding("r", "review", "Review", id="app.review"),
        Binding("h", "history", "History", id="app.history"),
        Binding("question_mark", "help", "Help", id="app.help"),
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("s", "stats", "Stats", id="app.stats", show=False),
        Binding("ctrl+r", "rescan", "Read the vault again", id="app.rescan", show=False),
        Binding("j", "move('down')", "Down", id="app.down", show=False),
        Binding("k", "move('up')", "Up", id="app.up", show=False),
        Binding("g", "move('first')", "First", id="app.first", show=False),
        Binding("G", "move('last')", "Last", id="app.last", show=False),
        Binding("ctrl+d", "move('page_down')", "Page down", id="app.page-down", show=False),
        Binding("ctrl+u", "move('page_up')", "Page up", id="app.page-up", show=False),
    ]

    def __init__(self, vault_root: Path | str, theme: str | None = None, first: Opened | None = None) -> None:
        """`first`: the vault as `open_vault` read it before the app started (`curator VAULT` reads it
        in a process with one thread, where parsing may fork workers); else the app reads it."""
        super().__init__()
        self.vault_root = Path(vault_root)
        self.pending_suggestions = 0
        self.fixes_made: list[str] = []  # changes made by a and i in the findings, newest last (u undoes)
        for curator_theme in load_themes():
            self.register_theme(curator_theme)
        self.theme = theme or DEFAULT_THEME
        self.sub_title = self.vault_root.resolve().name
        self.first = first

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return DEFAULT_VARIABLES

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every notification, the screens' too: its text comes from the vault or from an error
        (a title with `[brackets]`), so it is never read as Rich markup."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    @property
    def vault(self) -> Vault | None:
        return self.shown.vault if self.shown is not None else None

    @property
    def findings(self) -> list[Finding]:
        return self.shown.findings if self.shown is not None else []

    @property
    def main(self) -> MainScreen:
        return next(s for s in self.screen_stack if isinstance(s, MainScreen))

    def on_load_progressed(self, message: LoadProgressed) -> None:
        # On the app's queue, as the result (`VaultLoaded`) is: via the screen's, ticks came after it.
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                screen.show_progress(message)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place a worker's error becomes a notification (its name is the title)."""
        if event.state is not WorkerState.ERROR or event.worker.error is None:
            return
        error = event.worker.error
        text = one_line(error) if isinstance(error, REPORTED) else f"{type(error).__name__}: {error}"
        self.notify(text, title=event.worker.name, severity="error", timeout=10)

    def on_mount(self) -> None:
        self.push_screen(MainScreen())
        if self.first is None:
            self.rescan()
            return
        opened, self.first = self.first, None
        self._show(opened)
        if opened.scores_similar:
            self.score_similar(opened)

    def _show(self, opened: Opened) -> None:
        index = PageIndex.of(opened.vault)
        self.post_message(
            VaultLoaded(opened.vault, opened.findings, index, opened.pending_suggestions, opened.scores_similar)
        )

    @work(thread=True, exclusive=True, group="load", name="Cannot read the vault", exit_on_error=False)
    def rescan(self) -> None:
        """Read the vault (cache first) and report findings; the model's `similar` pairs, when that
        rule is on, follow in a second step.
        A change another process is writing is waited for: the vault is never shown half changed."""

        def progress(done: int, total: int) -> None:
            self.post_message(LoadProgressed("reading pages", done, total))

        def waiting(line: str) -> None:
            self.post_message(Noticed(line, "Waiting"))

        def recovered(line: str) -> None:
            self.post_message(Noticed(line, "Recovered"))

        opened = open_vault(self.vault_root, progress, waiting, recovered)
        self._show(opened)
        if opened.scores_similar:
            self._similar(opened)

    @work(thread=True, exclusive=True, group="meaning", name="Cannot index the pages' meaning", exit_on_error=False)
    def read_meaning(self) -> None:
        """Have the model read the pages it has not read yet, behind the screen, once a search
        asked for it: searches answer from a first stage until it is done."""
        from textual.worker import get_current_worker

        from curator.core.meaning.vectors import fill_all, provider_for

        vault, worker = self.vault, get_current_worker()
        if vault is None:
            return
        provider, warning = provider_for(vault)
        if warning is None:
            fill_all(vault, provider, stop=lambda: worker.is_cancelled or self.vault is not vault)

    @work(thread=True, exclusive=True, group="load", name="Cannot score similar pages", exit_on_error=False)
    def score_similar(self, opened: Opened) -> None:
        self._similar(opened)

    def _similar(self, opened: Opened) -> None:
        def progress(what: str, done: int, total: int, _unit: str) -> None:
            self.post_message(LoadProgressed(what, done, total))

        report = find_similar(opened.vault, progress=progress)
        if report.warning:
            self.post_message(Noticed(report.warning, severity="warning"))
        scored = with_similar(opened.vault, opened.findings, report)
        scored = [f for f in scored if f.fingerprint not in opened.accepted]
        self.post_message(SimilarScored(scored, report.provider))

    def on_vault_loaded(self, message: VaultLoaded) -> None:
        self.pending_suggestions = message.pending_suggestions
        note = "scoring similar pages…" if message.scoring else ""
        self.shown = Shown(message.vault, message.findings, message.index, note)

    def on_similar_scored(self, message: SimilarScored) -> None:
        if self.shown is not None:
            note = f"similar pages scored with {message.provider}"
            self.shown = replace(self.shown, findings=message.findings, note=note)

    def on_noticed(self, message: Noticed) -> None:
        self.notify(message.text, title=message.title, severity=message.severity)  # type: ignore[arg-type]

    def action_rescan(self) -> None:
        self.rescan()

    def action_move(self, where: str) -> None:
        """The keys of less and vim (j k g G ctrl+d ctrl+u) on whatever list or text has the focus."""
        widget = self.focused
        for name in _MOVES[where]:
            action = getattr(widget, f"action_{name}", None)
            if action is not None:
                action()
                return

    def on_app_focus(self) -> None:
        if self.vault is not None:  # files changed outside curator are picked up on return
            self.rescan()

    def action_pane(self, pane: str) -> None:
        self.pop_to_main()
        self.main.action_pane(pane)

    def pop_to_main(self) -> None:
        while len(self.screen_stack) > 2:
            self.pop_screen()

    def go_to(self, path: str) -> None:
        self.pop_to_main()
        self.main.select(path)

    def palette_commands(self) -> list[Command]:
        """What the command palette offers (see commands.py)."""
        app = self
        commands: list[Command] = [
            ("view: index", partial(app.run_action, "pane('index-pane')"), "Show the page index"),
            ("view: graph", partial(app.run_action, "pane('graph-pane')"), "Show the links of the page"),
            ("view: findings", partial(app.run_action, "pane('findings-pane')"), "Show the findings"),
            ("view: preview", partial(app.run_action, "pane('preview-pane')"), "Show the page"),
            ("view: search", app.action_search, "Search pages by words, meaning and links"),
            ("view: history", app.action_history, "Every applied change; undo any one"),
            ("view: help", app.action_help, "Keys and how to start"),
            ("view: all findings", partial(app.only_rule, None), "Show findings of every rule"),
            ("fix: start review", app.action_review, "Walk through the suggestions"),
            ("fix: dream", app.action_dream, "Propose renames and merges now"),
            ("fix: rescan", app.action_rescan, "Read the vault again"),
        ]
        for rule in sorted({f.rule for f in app.findings}):
            commands.append((f"view: only {rule}", partial(app.only_rule, rule), f"Show only {rule} findings"))
        for theme in sorted(app.available_themes):
            commands.append((f"theme: {theme}", partial(setattr, app, "theme", theme), "Switch the colours"))
        if app.vault is not None:
            for page in app.vault.pages.values():
                commands.append((f"go: {page.title}", partial(app.go_to, page.path), page.path))
        return commands

    def only_rule(self, rule: str | None) -> None:
        self.pop_to_main()
        self.main.query_one(FindingsPane).only_rule(rule)
        self.main.action_pane("findings-pane")

    def action_help(self) -> None:
        """Every key, grouped by what a person wants to do."""
        from curator.tui.widgets.graph import GraphPane

        def keys(ids: tuple[str, ...], *bindings: list[Binding]) -> list[Binding]:
            every = {b.id: b for group in bindings for b in group if isinstance(b, Binding)}
            return [every[i] for i in ids if i in every]

        app = [b for b in self.BINDINGS if isinstance(b, Binding)]
        main = [b for b in MainScreen.BINDINGS if isinstance(b, Binding)]
        moving = ("app.down", "app.up", "app.first", "app.last", "app.page-down", "app.page-up")
        panes = ("main.index", "main.graph", "main.findings", "main.preview", "main.back", "main.forward")
        groups: dict[str, list[Binding | tuple[str, str]]] = {
            "Anywhere": [
                *keys(("app.search", "app.review", "app.history", "app.stats", "app.rescan", "app.help"), app),
                ("ctrl+p", "Command palette: every view and fix by name"),
                *keys(("app.quit",), app),
            ],
            "Moving around": [*keys(moving, app), *keys(panes, main)],
            "Pages (the index, left)": [
                *keys(("main.filter", "main.edit", "main.like"), main),
                *(b for b in IndexPane.BINDINGS if isinstance(b, Binding)),
            ],
            "Links of the page (graph)": [
                ("enter", "Open the linked page"),
                *(b for b in GraphPane.BINDINGS if isinstance(b, Binding)),
            ],
            "Findings": [
                ("enter", "Open all findings of a rule shown as one row"),
                *(b for b in FindingsPane.BINDINGS if isinstance(b, Binding)),
            ],
            "Review of suggestions": [b for b in ReviewScreen.BINDINGS if isinstance(b, Binding)],
            "History of changes": [b for b in HistoryScreen.BINDINGS if isinstance(b, Binding)],
            "Search": [
                ("enter", "Open the page chosen"),
                *(b for b in SearchScreen.BINDINGS if isinstance(b, Binding)),
            ],
        }
        self.push_screen(HelpScreen(groups))

    def action_search(self) -> None:
        if not isinstance(self.screen, SearchScreen):
            self.push_screen(SearchScreen())

    def action_history(self) -> None:
        self.push_screen(HistoryScreen())

    def action_stats(self) -> None:
        from curator.tui.screens.stats import StatsScreen

        self.push_screen(StatsScreen())

    def action_review(self) -> None:
        if self.pending_suggestions == 0 and self.vault is not None:
            self.notify("No suggestions yet: dreaming…")
            self.run_dream(open_review=True)
            return
        self.push_screen(ReviewScreen())

    def action_dream(self) -> None:
        self.run_dream(open_review=False)

    @work(thread=True, exclusive=True, group="dream", name="Dream failed", exit_on_error=False)
    def run_dream(self, open_review: bool) -> None:
        vault = self.vault
        if vault is None:
            return
        waiting = {s.id for s in load_suggestions(vault.root) if s.status == "pending"}
        result = dream(vault)
        self.post_message(Dreamt.of(result, waiting, open_review, bool(vault.config.untrusted)))

    def on_dreamt(self, message: Dreamt) -> None:
        self.pending_suggestions = message.pending
        for note in message.notes:
            self.notify(note, severity="warning")
        self.notify(message.said())
        for screen in self.screen_stack:
            if isinstance(screen, ReviewScreen):
                screen.reload()
        if message.open_review:
            self.push_screen(ReviewScreen())
        if message.untrusted:
            self.offer_trust()

    def offer_trust(self) -> None:
        """Show exactly what the vault's config asks for (a command to run, a model to fetch), and
        trust the vault if told to."""
        from curator.core.state import trust
        from curator.core.state.config import CONFIG_NAME, trust_asked

        try:
            asked = trust_asked(self.vault_root)
        except REPORTED as exc:
            self.notify(one_line(exc), severity="error")
            return
        if not asked:
            return
        shown = "\n".join(f"  {name} = {value}  ({trust.what_it_does(name)})" for name, value in asked.items())

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                trust.trust(self.vault_root, asked)
            except REPORTED as exc:
                self.notify(one_line(exc), severity="error")
                return
            self.notify("Vault trusted: what its config asks for takes effect from now on.")
            self.rescan()

        question = f"This vault's {CONFIG_NAME} asks for:\n{shown}\nNone of it took effect. Trust this vault?"
        self.push_screen(Confirm(question), answered)

    def on_change_made(self, message: ChangeMade) -> None:
        if message.undoable == "fix":
            self.fixes_made.append(message.entry_id)
        elif message.undoable == "accept":
            self.pending_suggestions = max(self.pending_suggestions - 1, 0)
            if isinstance(message.screen, ReviewScreen):
                message.screen.accepted.append(message.entry_id)
        self.notify(message.text)
        self.rescan()
        refresh = getattr(message.screen, "reload", None)
        if refresh is not None:
            refresh()

    def on_suggestion_decided(self, message: SuggestionDecided) -> None:
        self.pending_suggestions = max(self.pending_suggestions - 1, 0)
        self.main.show_status()  # the count under the panes: no rescan follows a reject or a skip
        refresh = getattr(message.screen, "reload", None)
        if refresh is not None:
            refresh()

    @work(thread=True, exclusive=True, group="edit", name="Not applied", exit_on_error=False)
    def accept_suggestion(self, suggestion_id: str, title: str | None, screen: ReviewScreen, shown: str) -> None:
        """Apply the suggestion if the change planned now is `shown`, the diff on the screen."""
        try:
            _, entry = accept(load_vault(self.vault_root), suggestion_id, title, shown=shown)
        except PlanChanged as exc:
            self.call_from_thread(screen.replan, one_line(exc))
            return
        self.post_message(ChangeMade(f"Applied: {entry.reason} (change {entry.id})", entry.id, screen, "accept"))

    @work(thread=True, exclusive=True, group="edit", name="Not decided", exit_on_error=False)
    def decide_suggestion(self, suggestion_id: str, status: str, screen: Screen[None]) -> None:
        set_status(self.vault_root, suggestion_id, status)
        self.post_message(SuggestionDecided(screen))

    @work(thread=True, exclusive=True, group="edit", name="Undo refused", exit_on_error=False)
    def undo_change(self, change_id: str, screen: Screen[None]) -> None:
        entry = undo(self.vault_root, change_id)
        self.post_message(ChangeMade(f"Undone: {entry.reason}", entry.id, screen))

    def fix_finding(self, finding: Finding) -> None:
        """Show the selected finding's fix as a diff; apply it (one journaled change) if told to."""
        from curator.core.check.fixes import fix_for

        if self.vault is None:
            return
        try:
            fix = fix_for(self.vault, finding)
        except REPORTED as exc:
            self.notify(one_line(exc), severity="error")
            return
        if fix is None:
            self._fix_with_choice(finding)
            return
        where = f"{finding.path}:{finding.line}" if finding.line else finding.path
        before, after = visible(fix.before), visible(fix.after.strip())  # a no-break space shows as \xa0
        change = f"- {before}\n+ {after}" if fix.before else f"+ {after}"
        question = f"Fix {finding.rule} in {where}?\n{fix.path}:\n{change}"

        def answered(yes: bool | None) -> None:
            if yes:
                self.apply_fix(finding.fingerprint)

        self.push_screen(Confirm(question), answered)

    def fix_rule(self, rule: str) -> None:
        """Every finding of one rule that has a fix without a choice, shown as `curator fix --dry-run`
        shows them; applied (each its own change) if told to."""
        from curator.core.check.fixes import fix_for, fixable_findings

        if self.vault is None:
            return
        vault = self.vault
        try:
            fixes = [fix for f in fixable_findings(vault) if f.rule == rule if (fix := fix_for(vault, f)) is not None]
        except REPORTED as exc:
            self.notify(one_line(exc), severity="error")
            return
        if not fixes:
            self.notify(f"No {rule} finding has a fix without a choice; a fixes the selected one.")
            return
        lines = []
        for fix in fixes[:BULK_SHOWN]:
            f = fix.finding
            where = f"{f.path}:{f.line}" if f.line else f.path
            after = visible(fix.after.strip())  # worded as `curator fix --dry-run` words it
            change = f"{visible(fix.before)} → {after}" if fix.before else f"{after} added to {fix.path}"
            lines.append(f"{where}: {change}")
        if len(fixes) > BULK_SHOWN:
            lines.append(f"… and {len(fixes) - BULK_SHOWN} more (curator fix --rule {rule} --dry-run lists them all)")
        question = (
            f"Fix all {len(fixes)} {rule} findings? Each is its own change (h lists them, u undoes):\n"
            + "\n".join(lines)
        )
        fingerprints = [fix.finding.fingerprint for fix in fixes]

        def answered(yes: bool | None) -> None:
            if yes:
                self.apply_fixes(rule, fingerprints)

        self.push_screen(Confirm(question), answered)

    @work(thread=True, exclusive=True, group="edit", name="Not fixed", exit_on_error=False)
    def apply_fixes(self, rule: str, fingerprints: list[str]) -> None:
        """Each fix planned under the lock against the vault as it is then, as `curator fix` does."""
        from curator.core.change.changes import plan_and_apply

        made: list[str] = []
        refused: list[str] = []
        for fingerprint in fingerprints:
            try:
                _, entry = plan_and_apply(self.vault_root, partial(_fix_plan, fingerprint=fingerprint))
            except REPORTED as exc:
                refused.append(one_line(exc))
                continue
            made.append(entry.id)
        if refused:
            self.post_message(Noticed(f"{len(refused)} not fixed; the first: {refused[0]}", "Not fixed", "warning"))
        if made:
            self.call_from_thread(self.fixes_made.extend, made[:-1])
            text = f"Fixed {len(made)} {rule} findings (u undoes them one by one)"
            self.post_message(ChangeMade(text, made[-1], undoable="fix"))

    def apply_fix(self, fingerprint: str) -> None:
        from curator.core.check.fixes import plan_fix

        self.apply_plan(lambda vault: plan_fix(vault, fingerprint)[1])

    @work(thread=True, exclusive=True, group="edit", name="Not fixed", exit_on_error=False)
    def apply_plan(self, make_plan: Callable[[Vault], Plan]) -> None:
        """Plan (under the vault's lock, against the files as they are) and apply one fix."""
        from curator.core.change.changes import plan_and_apply

        _, entry = plan_and_apply(self.vault_root, make_plan)
        self.post_message(ChangeMade(f"Fixed: {entry.reason} (u undoes it)", entry.id, undoable="fix"))

    @work(thread=True, exclusive=True, group="choices", name="Cannot offer a fix", exit_on_error=False)
    def _fix_with_choice(self, finding: Finding) -> None:
        """The fixes a person chooses, as the core asks them (finding the pages to link an orphan
        from searches the vault: off the screen's thread)."""
        from curator.core.curate.choices import question_for

        if self.vault is not None:
            self.call_from_thread(self._ask, question_for(self.vault, finding))

    def _ask(self, question: Question) -> None:
        if question.note is not None:
            title, message = question.note
            self.notify(message, title=title, severity="warning" if question.kind == "none" else "information")
        if question.kind == "editor":
            self.action_edit_page(question.path, question.line)
            return
        plan = question.plan
        if plan is None:
            return

        def answered(answer: str | None) -> None:
            if answer:
                self.apply_plan(lambda v: plan(v, answer))

        if question.kind == "pick":
            self.push_screen(Choose(question.prompt, list(question.choices)), answered)
        elif question.kind == "text":
            self.push_screen(EditLine(question.prompt, question.proposed), answered)

    @work(thread=True, exclusive=True, group="edit", name="Not ignored", exit_on_error=False)
    def ignore_finding(self, finding: Finding) -> None:
        """Add the finding to the vault's baseline file (a journaled change: u undoes it)."""
        from curator.core.change.changes import plan_and_apply
        from curator.core.check.lint import plan_ignore

        config = load_config(self.vault_root)
        _, entry = plan_and_apply(self.vault_root, lambda _vault: plan_ignore(self.vault_root, config, [finding]))
        self.post_message(ChangeMade(f"Ignored: {entry.reason} (u undoes it)", entry.id, undoable="fix"))

    def undo_last_fix(self) -> None:
        if not self.fixes_made:
            self.notify("No fix or ignore to undo in this session; the history (h) lists every change.")
            return
        self.undo_change(self.fixes_made.pop(), self.screen)

    def action_edit_page(self, path: str, line: int | None = None) -> None:
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
        try:
            argv = editor_command(editor, self.vault_root / path, line)
            with self.suspend():
                subprocess.call(argv)
        except (OSError, ValueError, SuspendNotSupported) as exc:  # no such editor, a bad $EDITOR, no terminal
            self.notify(f"cannot start the editor {editor!r}: {one_line(exc) or type(exc).__name__}", severity="error")
        self.rescan()


def _fix_plan(vault: Vault, fingerprint: str) -> Plan:
    from curator.core.check.fixes import plan_fix

    return plan_fix(vault, fingerprint)[1]


BULK_SHOWN = 30  # the fixes of a rule listed before it is applied (the rest counted)

# What each key of less and vim does, as the actions lists, tables and scrolled text know it.
_MOVES = {
    "down": ("cursor_down", "scroll_down"),
    "up": ("cursor_up", "scroll_up"),
    "first": ("first", "scroll_top", "scroll_home"),
    "last": ("last", "scroll_bottom", "scroll_end"),
    "page_down": ("page_down",),
    "page_up": ("page_up",),
}


def run(vault: str, theme: str | None = None) -> None:
    CuratorApp(vault, theme).run()
