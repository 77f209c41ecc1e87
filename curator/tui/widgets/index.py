"""The page index: every page as a flat list or a folder tree, narrowed as you type."""

from __future__ import annotations

from collections import Counter

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from curator.core.common.rules import SEVERITY_RANK, Finding
from curator.core.read.pagefilter import PageIndex
from curator.core.read.vault import Vault
from curator.tui.messages import PageSelected

SORTS = ("title", "most linked", "most findings", "last modified")
MAX_ROWS = 100  # rows drawn at once (a screen shows about 40); the filter narrows the rest


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

    def compose(self) -> ComposeResult:
        yield Static("Pages", classes="pane-title", id="index-title")
        yield Input(placeholder="filter pages: title, path, alias", id="filter")
        yield OptionList(id="pages")

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
            self.refresh_rows()

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

    def refresh_rows(self) -> None:
        if self.vault is None or self.index is None:
            return
        query = self.query_one("#filter", Input).value
        paths = self.index.filter(query)
        if not query:
            paths = self._ordered(paths)
        if self.as_tree:
            paths = sorted(paths)
        shown = paths[:MAX_ROWS]
        colours = self.app.get_css_variables()
        options: list[Option] = []
        folder_seen: set[str] = set()
        for path in shown:
            if self.as_tree:
                parts = path.split("/")[:-1]
                for depth in range(len(parts)):
                    folder = "/".join(parts[: depth + 1])
                    if folder not in folder_seen:
                        folder_seen.add(folder)
                        options.append(Option(Text("  " * depth + f"▸ {parts[depth]}/", style="bold"), disabled=True))
            options.append(Option(self._row(path, colours), id=path))
        if len(paths) > len(shown):
            options.append(
                Option(Text(f"… {len(paths) - len(shown)} more: narrow the filter", style="dim"), disabled=True)
            )
        pages = self.query_one("#pages", OptionList)
        highlighted = pages.highlighted_option.id if pages.highlighted_option is not None else None
        pages.set_options(options)
        title = self.query_one("#index-title", Static)
        mode = "tree" if self.as_tree else "list"
        title.update(Text(f"Pages {len(paths)}/{len(self.vault.pages)} · {mode} · sort: {SORTS[self.sort]}"))
        if highlighted in {o.id for o in options}:
            pages.highlighted = next(i for i, o in enumerate(options) if o.id == highlighted)

    def _row(self, path: str, colours: dict[str, str]) -> Text:
        vault = self.vault
        assert vault is not None
        page = vault.pages[path]
        severity = self.marks.get(path)
        mark = Text("● ", style=colours.get(f"finding-{severity}", "")) if severity else Text("  ")
        depth = path.count("/") if self.as_tree else 0
        name = page.title if self.as_tree else path.removesuffix(".md")
        row = Text("  " * depth) + mark + Text(name)
        row.append(f"  ←{len(vault.backlinks(path))} →{len(vault.outlinks(path))}", style="dim")
        if self.counts[path]:
            row.append(f" !{self.counts[path]}", style=colours.get(f"finding-{severity}", ""))
        if page.frontmatter.get("source") == "manual":
            row.append(" ✎", style="bold")  # written by hand (filter: "source manual")
        return row

    def select(self, path: str) -> None:
        pages = self.query_one("#pages", OptionList)
        for index in range(pages.option_count):
            if pages.get_option_at_index(index).id == path:
                pages.highlighted = index
                return
        self.query_one("#filter", Input).value = ""
        self.refresh_rows()
        for index in range(pages.option_count):
            if pages.get_option_at_index(index).id == path:
                pages.highlighted = index
                return

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        # Redrawing the list re-highlights the same page; only a new page is worth a new preview.
        if event.option_list.id == "pages" and event.option.id and event.option.id != self.shown_page:
            self.shown_page = event.option.id
            self.post_message(PageSelected(event.option.id))
