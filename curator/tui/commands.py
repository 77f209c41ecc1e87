"""The command palette: the app's commands, grouped by prefix (`go:`, `view:`, `fix:`, `theme:`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

Command = tuple[str, Callable[[], object], str]  # name, what it does, help


class HasCommands(Protocol):
    def palette_commands(self) -> list[Command]: ...


class CuratorCommands(Provider):
    def _commands(self) -> list[Command]:
        return cast(HasCommands, self.app).palette_commands()

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
