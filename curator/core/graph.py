"""The wikilink graph: a networkx DiGraph of pages, with each dead target as a node of its own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import networkx as nx

if TYPE_CHECKING:
    from curator.core.vault import Vault

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


def graph_document(graph: nx.DiGraph) -> dict[str, Any]:
    """The graph as versioned JSON data (`curator.graph/1`)."""
    return {
        "schema": "curator.graph/1",
        "nodes": [{"id": node, "kind": kind} for node, kind in sorted(graph.nodes(data="kind"))],
        "edges": [
            {"source": a, "target": b, "count": d["count"], "kinds": sorted(d["kinds"])}
            for a, b, d in sorted(graph.edges(data=True), key=lambda e: (e[0], e[1]))
        ],
        "components": len(components(graph)),
        "orphan_clusters": orphan_clusters(graph),
    }


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
