"""The graph pane: the selected page's backlinks, out-links (dead ones marked) and second hop."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from curator.core.graph import DEAD_PREFIX, figures, neighbourhood
from curator.core.vault import Vault
from curator.tui.messages import PageSelected


class GraphPane(Vertical):
    def compose(self) -> ComposeResult:
        yield Static("Links", classes="pane-title", id="graph-title")
        yield OptionList(id="graph")
        yield Static(id="figures")

    def show_figures(self, vault: Vault) -> None:
        f = figures(vault.graph)
        text = Text(
            f"{f['pages']} pages · {f['links']} links · {f['dead_links']} dead · "
            f"{f['orphans']} orphans · {f['components']} components",
            style="dim",
        )
        for cluster in f["largest_orphan_clusters"]:
            text.append(
                f"\ncut off: {', '.join(p.removesuffix('.md') for p in cluster[:3])}"
                f"{' …' if len(cluster) > 3 else ''} ({len(cluster)})",
                style="dim",
            )
        self.query_one("#figures", Static).update(text)

    def show(self, vault: Vault, path: str) -> None:
        near = neighbourhood(vault.graph, path)
        colours = self.app.get_css_variables()
        options: list[Option] = []

        def section(label: str, nodes: tuple[str, ...], key: str) -> None:
            options.append(Option(Text(f"{label} ({len(nodes)})", style="bold"), disabled=True))
            for node in nodes:
                if node.startswith(DEAD_PREFIX):
                    target = node[len(DEAD_PREFIX) :]
                    options.append(
                        Option(Text(f"  ✗ {target} (dead)", style=colours.get("dead-link", "red")), disabled=True)
                    )
                else:
                    options.append(Option(Text(f"  {node.removesuffix('.md')}"), id=f"{key}:{node}"))

        # Option ids are unique per section; a page can link here and be linked from here.
        section("← linked from", near.backlinks, "in")
        section("→ links to", near.outlinks, "out")
        section("⋯ two links away", near.second_hop, "hop")
        self.query_one("#graph", OptionList).set_options(options)
        self.query_one("#graph-title", Static).update(Text(f"Links of {vault.pages[path].title}"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "graph" and event.option.id:
            event.stop()
            self.post_message(PageSelected(event.option.id.split(":", 1)[1], follow=True))
