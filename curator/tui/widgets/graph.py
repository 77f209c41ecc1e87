"""The graph pane: a picture of the selected page's neighbourhood (one or two hops: `x`), and
under it the lists of its backlinks, out-links (dead ones marked) and second hop. Moving in the
lists (arrow keys) marks the neighbour in the picture; enter selects its page."""

from __future__ import annotations

import posixpath
from collections import Counter

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from curator.core.read.graph import DEAD_PREFIX, figures, graph_of, neighbourhood, picture, picture_edges
from curator.core.read.vault import Vault
from curator.tui.messages import PageSelected
from curator.tui.widgets.graph_picture import draw


class GraphPane(Vertical):
    BINDINGS = [Binding("x", "hops", "1 or 2 hops", id="graph.hops")]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.vault: Vault | None = None
        self.path: str | None = None
        self.marks: dict[str, str] = {}  # page -> worst severity of its findings
        self.hops = 1
        self.highlighted: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("Links", classes="pane-title", id="graph-title")
        yield Static(id="graph-picture")
        yield OptionList(id="graph")
        yield Static(id="figures")

    def on_resize(self) -> None:
        self.draw()

    def action_hops(self) -> None:
        self.hops = 3 - self.hops
        self.draw()

    def draw(self) -> None:
        """The picture, as wide as the pane and a third of its height (at least 5 rows)."""
        vault, path = self.vault, self.path
        canvas = self.query_one("#graph-picture", Static)
        if vault is None or path is None or path not in graph_of(vault):
            canvas.update("")
            return
        width = max(self.size.width - 2, 10)
        height = max(5, min(14, self.size.height // 3))
        positions = picture(graph_of(vault), path, self.hops)
        colours = self.app.get_css_variables()
        labels, styles = {}, {}
        for node in positions:
            dead = node.startswith(DEAD_PREFIX)
            labels[node] = (
                node[len(DEAD_PREFIX) :] if dead else vault.pages[node].title if node in vault.pages else node
            )
            if dead:
                styles[node] = colours.get("dead-link", "red")
            elif node in self.marks:
                styles[node] = colours.get(f"finding-{self.marks[node]}", "")
            elif graph_of(vault).degree(node) == 0:
                styles[node] = colours.get("orphan", "")
        titles = Counter(labels.values())
        for node, label in labels.items():  # two pages of one title: their folders tell them apart
            if titles[label] > 1 and node in vault.pages:
                labels[node] = f"{posixpath.basename(posixpath.dirname(node)) or '.'}/{label}"
        styles[path] = f"bold reverse {styles.get(path, '')}".strip()
        if self.highlighted in positions:
            styles[self.highlighted] = f"underline bold {styles.get(self.highlighted, '')}".strip()
        canvas.update(draw(positions, picture_edges(graph_of(vault), path, positions), labels, styles, width, height))

    def show_figures(self, vault: Vault) -> None:
        """The vault's figures; links counted as `curator stats` and lint count them (every link
        written, to an attachment or its own page too), so the numbers agree."""
        from curator.core.check.pages import rule_orphans
        from curator.core.read.stats import stats

        f = figures(graph_of(vault))
        links = stats(vault, [], by=()).links
        orphans = sum(1 for _ in rule_orphans(vault))  # as lint counts them: no template, no unreadable page
        text = Text(
            f"{f['pages']} pages · {links['total']} links ({links['resolved']} resolve, {links['dead']} dead) · "
            f"{orphans} orphan{'' if orphans == 1 else 's'} · {f['components']} components",
            style="dim",
        )
        for cluster in f["largest_orphan_clusters"]:
            text.append(
                f"\nlinked only among themselves: {', '.join(p.removesuffix('.md') for p in cluster[:3])}"
                f"{' …' if len(cluster) > 3 else ''} ({len(cluster)} pages)",
                style="dim",
            )
        self.query_one("#figures", Static).update(text)

    def show(self, vault: Vault, path: str, marks: dict[str, str] | None = None) -> None:
        self.vault, self.path, self.highlighted = vault, path, None
        if marks is not None:
            self.marks = marks
        self.draw()
        near = neighbourhood(graph_of(vault), path)
        colours = self.app.get_css_variables()
        options: list[Option] = []

        def typed(a: str, b: str) -> str:
            """The typed edges (frontmatter keys such as broader, related) between a and b."""
            data = graph_of(vault).get_edge_data(a, b) or {}
            kinds = sorted(k for k in data.get("kinds", ()) if k not in ("link", "embed"))
            return f"  ({', '.join(kinds)})" if kinds else ""

        def section(label: str, nodes: tuple[str, ...], key: str) -> None:
            options.append(Option(Text(f"{label} ({len(nodes)})", style="bold"), disabled=True))
            for node in nodes:
                edge = (node, path) if key == "in" else (path, node)
                if node.startswith(DEAD_PREFIX):
                    target = node[len(DEAD_PREFIX) :]
                    shown = Text(f"  ✗ {target} (dead){typed(*edge)}", style=colours.get("dead-link", "red"))
                    options.append(Option(shown, disabled=True))
                else:
                    kinds = typed(*edge) if key != "hop" else ""
                    options.append(Option(Text(f"  {node.removesuffix('.md')}{kinds}"), id=f"{key}:{node}"))

        # Option ids are unique per section; a page can link here and be linked from here.
        section("← linked from", near.backlinks, "in")
        section("→ links to", near.outlinks, "out")
        section("⋯ two links away", near.second_hop, "hop")
        self.query_one("#graph", OptionList).set_options(options)
        self.query_one("#graph-title", Static).update(Text(f"Links of {vault.pages[path].title}"))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "graph" and event.option.id:
            self.highlighted = event.option.id.split(":", 1)[1]
            self.draw()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "graph" and event.option.id:
            event.stop()
            self.post_message(PageSelected(event.option.id.split(":", 1)[1], follow=True))
