"""The search screen: hybrid search as you type; enter opens the page in the main screen.

The index is built once, by one worker, when the screen opens (queries typed meanwhile wait for it,
and the status line counts the pages indexed). Each query is numbered as it is typed; an answer is
shown only while its number is the newest, and a key typed empties the list, so the list always
belongs to the text in the box. Enter in the box opens the top result (once it is there).
"""

from __future__ import annotations

import threading
import time

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Header, Input, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from curator.core.common.errors import REPORTED, one_line
from curator.core.meaning.search import SearchResult, indexed, search
from curator.core.read.markdown import plain
from curator.tui.screens.ordered import FirstThingsFirst
from curator.tui.widgets.footer import Keys

TYPING_PAUSE = 0.12  # seconds a query waits for the next key before it is searched


class SearchScreen(FirstThingsFirst):
    FOOTER_FIRST = ("search.", "app.")
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="search.back"),
        Binding("down", "to_results", "To the results", show=False, id="search.results"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0  # the number of the newest query typed
        self.ready = threading.Event()  # set once the index is built for the vault searched
        self.open_top: int | None = None  # the query whose top result enter asked for before it came
        self.shown_for = 0  # the number of the query whose answer the list shows

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(placeholder="search: words, type:x path:folder tag:x field:>value", id="search-input")
        yield Static(id="search-status", classes="pane-title")
        yield OptionList(id="search-results")
        yield Keys()

    def on_mount(self) -> None:
        self.query_one("#search-input", Input).focus()
        self.build_index()

    def status(self, text: str) -> None:
        self.query_one("#search-status", Static).update(Text(text))

    @work(thread=True, exclusive=True, group="search-index", name="Cannot build the search index", exit_on_error=False)
    def build_index(self) -> None:
        """Bring the index up to date, saying how far it got; queries wait for it."""
        vault = self.app.vault  # type: ignore[attr-defined]

        def progress(done: int, total: int) -> None:
            if total and done < total:
                self.app.call_from_thread(self.status, f"indexing {done:,}/{total:,} pages…")

        try:
            if vault is not None:
                indexed(vault, progress)
        finally:
            self.ready.set()
        self.app.call_from_thread(self.indexed)
        self.app.call_from_thread(self.app.read_meaning)  # type: ignore[attr-defined]

    def indexed(self) -> None:
        if self.asked == 0 or not self.query_one("#search-input", Input).value.strip():
            self.status("index ready: type words to search")

    @on(Input.Changed, "#search-input")
    def changed(self, event: Input.Changed) -> None:
        self.asked += 1
        self.open_top = None
        self.query_one("#search-results", OptionList).clear_options()  # answers to the old text
        if not event.value.strip():
            self.status("")
            return
        if self.ready.is_set():
            self.status(f"searching {event.value!r}…")
        self.run_search(event.value, self.asked)

    @on(Input.Submitted, "#search-input")
    def submitted(self, event: Input.Submitted) -> None:
        """Enter in the box opens the top result: now, or when the answer to this text comes."""
        if not event.value.strip():
            return
        results = self.query_one("#search-results", OptionList)
        if results.option_count and self.shown_for == self.asked:
            self._open(results.get_option_at_index(0).id)
        else:
            self.open_top = self.asked

    def action_to_results(self) -> None:
        results = self.query_one("#search-results", OptionList)
        if results.option_count:
            results.focus()
            results.highlighted = 0

    @work(thread=True, exclusive=True, group="search")
    def run_search(self, query: str, number: int) -> None:
        """Search once typing pauses and the index is built; give up as soon as a newer query is typed."""
        worker = get_current_worker()
        time.sleep(TYPING_PAUSE)
        self.ready.wait()
        vault = self.app.vault  # type: ignore[attr-defined]
        if vault is None or worker.is_cancelled or number != self.asked:
            return
        try:
            result = search(vault, query, limit=30)
        except REPORTED as exc:
            self.app.call_from_thread(self.notify, one_line(exc), severity="error")
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self.show, result, number)

    def show(self, result: SearchResult, number: int) -> None:
        """Show the answer to query `number`, unless a newer query was typed since (checked here, on
        the screen's thread, where `asked` changes)."""
        if number != self.asked:
            return
        options = []
        for hit in result.hits:
            row = Text(hit.title, style="bold")
            row.append(f"  {hit.path}  ({', '.join(hit.reasons)})", style="dim")
            if hit.section != hit.title:
                row.append(f"\n  § {plain(hit.section)}")
            if hit.snippet:
                row.append_text(marked(hit.snippet))
            options.append(Option(row, id=hit.path))
        self.query_one("#search-results", OptionList).set_options(options)
        self.shown_for = number
        note = f" · {result.notes[0]}" if result.notes else ""
        self.status(f"{len(result.hits)} pages for {result.query!r}{note}")
        if self.open_top == number:
            self.open_top = None
            if result.hits:
                self._open(result.hits[0].path)
            else:
                self.notify(f"No page found for {result.query!r}: nothing to open.")

    @on(OptionList.OptionSelected, "#search-results")
    def open_page(self, event: OptionList.OptionSelected) -> None:
        self._open(event.option.id)

    def _open(self, path: str | None) -> None:
        if path:
            self.app.go_to(path)  # type: ignore[attr-defined]


def marked(snippet: str) -> Text:
    """A snippet as plain text on its own line (no Markdown marks left), the words between « and »
    highlighted."""
    text = Text("\n  ")
    for i, part in enumerate(plain(snippet).replace("»", "«").split("«")):
        text.append(" ".join(part.split("\n")), style="bold reverse" if i % 2 else "")
    return text
