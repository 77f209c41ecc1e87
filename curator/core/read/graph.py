"""The wikilink graph: a networkx DiGraph of pages, with each dead target as a node of its own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import networkx as nx

if TYPE_CHECKING:
    from curator.core.read.vault import Vault

DEAD_PREFIX = "dead:"


def dead_node(target: str) -> str:
    """The node name of a dead target; it cannot collide with a page path, which has no colon prefix."""
    return DEAD_PREFIX + target


def build_graph(vault: Vault) -> nx.DiGraph:
    """Pages are nodes (kind="page"), dead targets too (kind="dead"); an edge counts its links.

    Edge attribute `kinds` names how the links were written: "link", "embed", or the frontmatter
    key of a typed edge such as "related".
    """
    graph = nx.DiGraph()
    for path in vault.pages:
        graph.add_node(path, kind="page")
    for rl in vault.links:
        resolution = rl.resolution
        if resolution.kind == "attachment":
            continue
        if resolution.kind == "dead":
            target = dead_node(rl.link.target)
            graph.add_node(target, kind="dead")
        else:
            target = resolution.path  # type: ignore[assignment]
            if target == rl.source:
                continue
        kind = rl.link.key or ("embed" if rl.link.embed else "link")
        if graph.has_edge(rl.source, target):
            data = graph.edges[rl.source, target]
            data["count"] += 1
            data["kinds"].add(kind)
        else:
            graph.add_edge(rl.source, target, count=1, kinds={kind})
    return graph


def page_graph(graph: nx.DiGraph) -> nx.DiGraph:
    """The graph without dead-target nodes."""
    return graph.subgraph(n for n, kind in graph.nodes(data="kind") if kind == "page")


def components(graph: nx.DiGraph) -> list[list[str]]:
    """Groups of pages connected by links in either direction, largest first."""
    groups = [sorted(c) for c in nx.weakly_connected_components(page_graph(graph))]
    groups.sort(key=lambda c: (-len(c), c[0]))
    return groups


def orphan_clusters(graph: nx.DiGraph) -> list[list[str]]:
    """Every group of pages cut off from the largest component, largest first."""
    return components(graph)[1:]


def degree(graph: nx.DiGraph, path: str) -> tuple[int, int]:
    """(incoming, outgoing) link counts of a page, self links not counted."""
    incoming = sum(d["count"] for _, _, d in graph.in_edges(path, data=True))
    outgoing = sum(d["count"] for _, _, d in graph.out_edges(path, data=True))
    return incoming, outgoing


def to_dot(graph: nx.DiGraph) -> str:
    """Graphviz DOT text; dead targets are drawn dashed."""

    def quote(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    lines = ["digraph curator {"]
    for node, kind in sorted(graph.nodes(data="kind")):
        style = " [style=dashed, color=red]" if kind == "dead" else ""
        lines.append(f"  {quote(node)}{style};")
    for a, b in sorted(graph.edges()):
        lines.append(f"  {quote(a)} -> {quote(b)};")
    lines.append("}")
    return "\n".join(lines)


@dataclass(frozen=True)
class Neighbourhood:
    """A page's surroundings: who links here, where it links (dead targets kept), and one hop further."""

    backlinks: tuple[str, ...]
    outlinks: tuple[str, ...]  # pages; dead targets as "dead:<target>"
    second_hop: tuple[str, ...]  # pages two links away, in either direction


def neighbourhood(graph: nx.DiGraph, path: str) -> Neighbourhood:
    if path not in graph:
        return Neighbourhood((), (), ())
    back = tuple(sorted(n for n in graph.predecessors(path) if n != path))
    out = tuple(sorted(n for n in graph.successors(path) if n != path))
    near = {path, *back, *out}
    second: set[str] = set()
    for node in near - {path}:
        if graph.nodes[node].get("kind") != "page":
            continue
        second.update(n for n in (*graph.predecessors(node), *graph.successors(node)) if n not in near)
    return Neighbourhood(back, out, tuple(sorted(n for n in second if graph.nodes[n].get("kind") == "page")))


def figures(graph: nx.DiGraph) -> dict[str, Any]:
    """Vault figures: pages, links, dead links, orphans, components, largest orphan clusters."""
    pages = [n for n, kind in graph.nodes(data="kind") if kind == "page"]
    dead = [n for n, kind in graph.nodes(data="kind") if kind == "dead"]
    links = sum(d["count"] for _, _, d in graph.edges(data=True))
    dead_links = sum(d["count"] for _, b, d in graph.edges(data=True) if b.startswith(DEAD_PREFIX))
    page_only = page_graph(graph)
    orphans = [n for n in pages if page_only.degree(n) == 0]
    groups = components(graph)
    return {
        "pages": len(pages),
        "links": links,
        "dead_links": dead_links,
        "dead_targets": len(dead),
        "orphans": len(orphans),
        "components": len(groups),
        "largest_orphan_clusters": [g for g in groups[1:] if len(g) > 1][:3],
    }


def picture(graph: nx.DiGraph, path: str, hops: int = 1, limit: int = 40) -> dict[str, tuple[float, float]]:
    """Where to draw the page and its neighbourhood, each position in [-1, 1]²: the page in the
    centre, the pages it links with (at most `limit`) on a ring, with `hops=2` the pages two links
    away on an outer ring (networkx's shell layout: the same picture every time)."""
    if path not in graph:
        return {}
    near = neighbourhood(graph, path)
    direct = sorted({*near.backlinks, *near.outlinks})[:limit]
    shells = [[path]]
    if direct:
        shells.append(direct)
    if hops >= 2 and near.second_hop:
        shells.append(list(near.second_hop[:limit]))
    if len(shells) == 1:
        return {path: (0.0, 0.0)}
    positions = nx.shell_layout(graph.subgraph([n for shell in shells for n in shell]), nlist=shells)
    # Stretched to fill the square: a terminal's canvas is wider than tall, and every row counts.
    x_max = max(abs(float(x)) for x, _ in positions.values()) or 1.0
    y_max = max(abs(float(y)) for _, y in positions.values()) or 1.0
    return {node: (float(x) / x_max, float(y) / y_max) for node, (x, y) in positions.items()}


def picture_edges(graph: nx.DiGraph, path: str, positions: dict[str, tuple[float, float]]) -> list[tuple[str, str]]:
    """The links to draw: those of the page, and those from its neighbours to the second hop
    (links among the neighbours themselves would only tangle the picture)."""
    direct = {n for n in (*graph.predecessors(path), *graph.successors(path)) if n in positions} - {path}
    edges = [(a, b) for a in positions for b in graph.successors(a) if b in positions and a != b]
    return [(a, b) for a, b in edges if path in (a, b) or ((a in direct) != (b in direct))]


def graph_of(vault: Vault) -> nx.DiGraph:
    """The vault's graph, built once a load."""
    return vault.once("graph", lambda: build_graph(vault))
