"""The search screen: hybrid search as you type; enter opens the page in the main screen."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, OptionList, Static
from textual.widgets.option_list import Option

from curator.core.common.errors import REPORTED, one_line
from curator.core.meaning.search import SearchResult, search


class SearchScreen(Screen[None]):
    BINDINGS = [Binding("escape", "app.pop_screen", "Back", id="search.back")]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(placeholder="search: words, type:x path:folder tag:x field:>value", id="search-input")
        yield Static(id="search-status", classes="pane-title")
        yield OptionList(id="search-results")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#search-input", Input).focus()

    @on(Input.Changed, "#search-input")
    def changed(self, event: Input.Changed) -> None:
        if event.value.strip():
            self.run_search(event.value)

    @on(Input.Submitted, "#search-input")
    def submitted(self) -> None:
        self.query_one("#search-results", OptionList).focus()

    @work(thread=True, exclusive=True, group="search")
    def run_search(self, query: str) -> None:
        vault = self.app.vault  # type: ignore[attr-defined]
        if vault is None:
            return
        try:
            result = search(vault, query, limit=30)
        except REPORTED as exc:
            self.app.call_from_thread(self.notify, one_line(exc), severity="error")
            return
        self.app.call_from_thread(self.show, result)

    def show(self, result: SearchResult) -> None:
        options = []
        for hit in result.hits:
            row = Text(hit.title, style="bold")
            row.append(f"  {hit.path}  ({', '.join(hit.reasons)})", style="dim")
            if hit.section != hit.title:
                row.append(f"\n  § {hit.section}")
            if hit.snippet:
                snippet = Text("\n  ")
                for i, part in enumerate(hit.snippet.replace("»", "«").split("«")):
                    snippet.append(part, style="bold reverse" if i % 2 else "")
                row.append_text(snippet)
            options.append(Option(row, id=hit.path))
        self.query_one("#search-results", OptionList).set_options(options)
        note = f" · {result.notes[0]}" if result.notes else ""
        self.query_one("#search-status", Static).update(Text(f"{len(result.hits)} pages for {result.query!r}{note}"))

    @on(OptionList.OptionSelected, "#search-results")
    def open_page(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.app.go_to(event.option.id)  # type: ignore[attr-defined]
