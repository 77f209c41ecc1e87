from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import SAMPLE_VAULT, make_vault

from curator.cli import documents
from curator.cli.main import main
from curator.core.graph import components, dead_node, degree, orphan_clusters, to_dot
from curator.core.loading import load_vault


def small(tmp_path: Path):  # type: ignore[no-untyped-def]
    return load_vault(
        make_vault(
            tmp_path / "v",
            {
                "a.md": "[[b]] [[b|again]] ![[b]] [[gone]] [[a]]",
                "b.md": '---\nrelated: "[[c]]"\n---\n',
                "c.md": "x",
                "island/d.md": "[[e]]",
                "island/e.md": "x",
                "alone.md": "x ![[pic.png]]",
                "pic.png": b"png",
            },
        ),
        use_cache=False,
    )


def test_graph_has_pages_dead_targets_and_typed_edges(tmp_path: Path) -> None:
    vault = small(tmp_path)
    graph = vault.graph
    assert graph.nodes["a.md"]["kind"] == "page"
    assert graph.nodes[dead_node("gone")]["kind"] == "dead"
    assert "pic.png" not in graph and not graph.has_edge("a.md", "a.md")
    assert graph.edges["a.md", "b.md"]["count"] == 3
    assert graph.edges["a.md", "b.md"]["kinds"] == {"link", "embed"}
    assert graph.edges["b.md", "c.md"]["kinds"] == {"related"}
    assert degree(graph, "b.md") == (3, 1)


def test_components_and_orphan_clusters(tmp_path: Path) -> None:
    graph = small(tmp_path).graph
    assert components(graph) == [["a.md", "b.md", "c.md"], ["island/d.md", "island/e.md"], ["alone.md"]]
    assert orphan_clusters(graph) == [["island/d.md", "island/e.md"], ["alone.md"]]


def test_backlinks_and_outlinks(tmp_path: Path) -> None:
    vault = small(tmp_path)
    assert {rl.source for rl in vault.backlinks("b.md")} == {"a.md"}
    assert vault.backlinks("a.md") == []  # its self link does not count
    assert [rl.link.target for rl in vault.outlinks("b.md")] == ["c"]


def test_graph_command_json_and_dot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["graph", str(SAMPLE_VAULT), "--no-cache"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == documents.graph(load_vault(SAMPLE_VAULT, use_cache=False).graph)
    assert {"id": "dead:Capacity plan 2027", "kind": "dead"} in data["nodes"]
    assert main(["graph", str(SAMPLE_VAULT), "--format", "dot", "--no-cache"]) == 0
    dot = capsys.readouterr().out
    assert dot.startswith("digraph curator {") and '"dead:Capacity plan 2027" [style=dashed, color=red];' in dot
    assert to_dot(load_vault(SAMPLE_VAULT, use_cache=False).graph).strip() == dot.strip()
