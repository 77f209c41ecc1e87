"""Command palette entries, grouped by prefix: `go:`, `view:`, `fix:`, `theme:`."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

if TYPE_CHECKING:
    from curator.tui.app import CuratorApp


class CuratorCommands(Provider):
    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        app: CuratorApp = self.app  # type: ignore[assignment]
        commands: list[tuple[str, Callable[[], object], str]] = [
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

    async def discover(self) -> Hits:
        for name, command, help_text in self._commands():
            if not name.startswith("go:"):
                yield DiscoveryHit(name, command, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, command, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), command, help=help_text)
