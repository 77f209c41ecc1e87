from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import SAMPLE_VAULT, make_vault
from rich.text import Text

from curator.cli import documents
from curator.cli.main import main
from curator.core.read.graph import components, dead_node, degree, graph_of, orphan_clusters, to_dot
from curator.core.read.loading import load_vault


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
    graph = graph_of(vault)
    assert graph.nodes["a.md"]["kind"] == "page"
    assert graph.nodes[dead_node("gone")]["kind"] == "dead"
    assert "pic.png" not in graph and not graph.has_edge("a.md", "a.md")
    assert graph.edges["a.md", "b.md"]["count"] == 3
    assert graph.edges["a.md", "b.md"]["kinds"] == {"link", "embed"}
    assert graph.edges["b.md", "c.md"]["kinds"] == {"related"}
    assert degree(graph, "b.md") == (3, 1)


def test_components_and_orphan_clusters(tmp_path: Path) -> None:
    graph = graph_of(small(tmp_path))
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
    assert data == documents.graph(graph_of(load_vault(SAMPLE_VAULT, use_cache=False)))
    assert {"id": "dead:Capacity plan 2027", "kind": "dead"} in data["nodes"]
    assert main(["graph", str(SAMPLE_VAULT), "--format", "dot", "--no-cache"]) == 0
    dot = capsys.readouterr().out
    assert dot.startswith("digraph curator {") and '"dead:Capacity plan 2027" [style=dashed, color=red];' in dot
    assert to_dot(graph_of(load_vault(SAMPLE_VAULT, use_cache=False))).strip() == dot.strip()


def _drawn(vault_root: Path, page: str, hops: int = 1, marks: dict[str, str] | None = None) -> Text:
    from curator.core.read.graph import picture, picture_edges
    from curator.tui.widgets.graph_picture import draw

    vault = load_vault(vault_root, use_cache=False)
    positions = picture(graph_of(vault), page, hops)
    labels = {n: n.rsplit("/", 1)[-1].removesuffix(".md") for n in positions}
    styles = {n: f"red {s}" for n, s in (marks or {}).items()}
    return draw(positions, picture_edges(graph_of(vault), page, positions), labels, styles, 60, 12)


def test_the_picture_of_a_page_with_no_links_is_its_name(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"alone.md": "no links", "other.md": "none either"})
    text = _drawn(root, "alone.md").plain
    assert text.strip() == "alone" and len(text.splitlines()) == 12


def test_the_picture_of_a_page_with_forty_neighbours(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {f"neighbour page {i:02}.md": "[[hub]]" for i in range(40)}
    files["hub.md"] = "the hub"
    text = _drawn(make_vault(tmp_path / "v", files), "hub.md").plain
    lines = text.splitlines()
    assert len(lines) == 12 and all(len(line) == 60 for line in lines)
    assert "hub" in text and any(ch in text for ch in "⠁⠂⠄⡀⠈⠐⠠⢀")  # lines drawn in braille
    labels = re.findall(r"neighb…page \d\d", text)  # cut in the middle: the number that tells them apart stays
    assert len(labels) >= 5  # some neighbours labelled, the rest dots where labels would collide
    assert "●" in text


def test_the_picture_styles_neighbours_with_findings(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "[[b]] [[gone]]", "b.md": "b", "c.md": "[[a]]"})
    text = _drawn(root, "a.md", marks={"b.md": "error"})
    assert {"b", "c", "gone", "a"} <= set(re.findall(r"[a-z]+", text.plain))
    styled = {text.plain[span.start : span.end] for span in text.spans if "red" in str(span.style)}
    assert styled == {"b"}
    assert {"c", "a", "b"} <= set(re.findall(r"[a-z]+", _drawn(root, "c.md", hops=2).plain))
