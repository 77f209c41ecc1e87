"""The page index: every page as a flat list or a folder tree, narrowed as you type."""

from __future__ import annotations

from collections import Counter

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from curator.core.common.rules import SEVERITY_RANK, Finding
from curator.core.curate.handed import written_by_person
from curator.core.read.graph import graph_of
from curator.core.read.pagefilter import PageIndex
from curator.core.read.vault import Vault
from curator.tui.messages import PageSelected
from curator.tui.widgets.rows import Row, RowList
from curator.tui.words import middle

SORTS = ("title", "most linked", "most findings", "last modified")


class IndexPane(Vertical):
    BINDINGS = [
        Binding("t", "toggle_tree", "Tree/list", id="index.tree"),
        Binding("o", "cycle_sort", "Sort", id="index.sort"),
    ]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.vault: Vault | None = None
        self.index: PageIndex | None = None
        self.marks: dict[str, str] = {}  # page -> worst severity
        self.counts: Counter[str] = Counter()
        self.as_tree = False
        self.sort = 0
        self.shown_page: str | None = None
        self.colours: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        yield Static("Pages", classes="pane-title", id="index-title")
        yield Input(placeholder="filter pages: title, path, alias", id="filter")
        yield RowList(self._draw, id="pages")

    def show(self, vault: Vault, index: PageIndex, findings: list[Finding]) -> None:
        self.vault, self.index = vault, index
        self.update_findings(findings)

    def update_findings(self, findings: list[Finding]) -> None:
        self.marks = {}
        self.counts = Counter(f.path for f in findings)
        for f in findings:
            if SEVERITY_RANK[f.severity] > SEVERITY_RANK.get(self.marks.get(f.path, ""), -1):
                self.marks[f.path] = f.severity
        self.refresh_rows()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "filter":
            self.refresh_rows(keep=False)  # the best match first, where the cursor is

    def action_toggle_tree(self) -> None:
        self.as_tree = not self.as_tree
        self.refresh_rows()

    def action_cycle_sort(self) -> None:
        self.sort = (self.sort + 1) % len(SORTS)
        self.refresh_rows()

    def _ordered(self, paths: list[str]) -> list[str]:
        vault = self.vault
        assert vault is not None
        if SORTS[self.sort] == "most linked":
            return sorted(paths, key=lambda p: (-len(vault.backlinks(p)), p))
        if SORTS[self.sort] == "most findings":
            return sorted(paths, key=lambda p: (-self.counts[p], p))
        if SORTS[self.sort] == "last modified":
            return sorted(paths, key=lambda p: (-vault.pages[p].mtime_ns, p))
        return paths

    def refresh_rows(self, keep: bool = True) -> None:
        """The rows again; the cursor stays on its page unless `keep` is false (a new filter)."""
        if self.vault is None or self.index is None:
            return
        query = self.query_one("#filter", Input).value
        paths = self.index.filter(query)
        if not query:
            paths = self._ordered(paths)
        if self.as_tree:
            paths = sorted(paths)
        rows: list[Row] = []
        folder_seen: set[str] = set()
        for path in paths:
            if self.as_tree:
                parts = path.split("/")[:-1]
                for depth in range(len(parts)):
                    folder = "/".join(parts[: depth + 1])
                    if folder not in folder_seen:
                        folder_seen.add(folder)
                        rows.append(Row(None, ("  " * depth + f"▸ {parts[depth]}/")))
            rows.append(Row(path))
        pages = self.query_one("#pages", RowList)
        self.colours = self.app.get_css_variables()
        here = self.shown_page if pages.highlighted_row is None else pages.highlighted_row.id
        pages.set_rows(rows, keep=here if keep else None)
        title = self.query_one("#index-title", Static)
        mode = "tree" if self.as_tree else "list"
        title.update(Text(f"Pages {len(paths)}/{len(self.vault.pages)} · {mode} · sort: {SORTS[self.sort]}"))

    def _draw(self, row: Row, width: int) -> Text:
        if row.id is None:
            return Text(str(row.key), style="bold")
        return self._row(row.id, self.colours, width)

    def _row(self, path: str, colours: dict[str, str], width: int) -> Text:
        """A page's row: its mark, its name cut in the middle to what the counts leave (both ends of a
        long path tell pages apart), its links, its findings."""
        vault = self.vault
        assert vault is not None
        page = vault.pages[path]
        severity = self.marks.get(path)
        mark = Text("● ", style=colours.get(f"finding-{severity}", "")) if severity else Text("  ")
        depth = path.count("/") if self.as_tree else 0
        name = page.shown_title if self.as_tree else path.removesuffix(".md")
        if not self.as_tree and page.shown_title != page.title:
            name = f"{name} · {page.shown_title}"  # `04hx` tells a reader nothing
        graph = graph_of(vault)  # the pages it links and is linked from, as the links pane lists them
        tail = Text(f"  ←{graph.in_degree(path)} →{graph.out_degree(path)}", style="dim")
        if self.counts[path]:
            tail.append(f" !{self.counts[path]}", style=colours.get(f"finding-{severity}", ""))
        if written_by_person(vault, path):
            tail.append(" ✎", style="bold")  # written by hand (filter: "source manual")
        room = width - 2 * depth - mark.cell_len - tail.cell_len
        return Text("  " * depth) + mark + Text(middle(name, max(room, 8))) + tail

    def select(self, path: str) -> None:
        """Put the cursor on a page, clearing the filter when it hides the page."""
        pages = self.query_one("#pages", RowList)
        self.shown_page = path
        at = pages.index_of(path)
        if at is None:
            self.query_one("#filter", Input).value = ""
            self.refresh_rows()
            at = pages.index_of(path)
        if at is not None:
            pages.highlighted = at

    def on_row_list_highlighted(self, event: RowList.Highlighted) -> None:
        # Redrawing the list keeps the same page; only a new page is worth a new preview.
        if event.rows.id == "pages" and event.row.id and event.row.id != self.shown_page:
            self.shown_page = event.row.id
            self.post_message(PageSelected(event.row.id))
