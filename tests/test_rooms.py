"""The core's rooms: each imports only the rooms below it, no module imports itself back through
others, and no module of the package grows past what a reader takes in at once."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

import curator

PACKAGE = Path(curator.__file__).parent
CORE = PACKAGE / "core"
# From the ground up: a room may import the rooms before it in this list, never one after.
ROOMS = ["common", "state", "read", "change", "meaning", "check", "curate"]
MOST_LINES = 600


def _module(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")


def _imports(path: Path) -> set[str]:
    """The curator modules `path` imports anywhere in it (inside functions and TYPE_CHECKING too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("curator"):
            for alias in node.names:  # `from curator.core.read import vault` names a module
                candidate = f"{node.module}.{alias.name}"
                found.add(candidate if _exists(candidate) else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("curator"))
    return found


def _exists(module: str) -> bool:
    base = PACKAGE.parent.joinpath(*module.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _core_imports() -> dict[str, set[str]]:
    """Each module in a room, and what it imports."""
    return {_module(path): _imports(path) for path in CORE.glob("*/*.py")}


def test_every_core_module_lives_in_a_room() -> None:
    loose = sorted(p.name for p in CORE.glob("*.py") if p.name != "__init__.py")
    assert loose == []
    assert sorted(p.name for p in CORE.iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(ROOMS)


def test_a_room_imports_only_the_rooms_below_it() -> None:
    upward = []
    for module, imported in _core_imports().items():
        room = module.split(".")[2]
        for other in imported:
            parts = other.split(".")
            if parts[:2] == ["curator", "core"] and len(parts) > 2 and ROOMS.index(parts[2]) > ROOMS.index(room):
                upward.append(f"{module} -> {other}")
            elif parts[:2] == ["curator", "core"] or parts == ["curator"]:
                continue
            else:
                upward.append(f"{module} -> {other} (the core knows no view)")
    assert upward == []


def test_no_core_module_imports_itself_back() -> None:
    graph = nx.DiGraph()
    for module, imported in _core_imports().items():
        graph.add_node(module)
        graph.add_edges_from((module, other) for other in imported if other.startswith("curator.core."))
    assert list(nx.simple_cycles(graph)) == []


def test_the_rules_of_this_test_see_an_upward_import(tmp_path: Path) -> None:
    """The checks above read what they must: an import inside a function and under TYPE_CHECKING."""
    source = tmp_path / "x.py"
    source.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from curator.core.curate.dream import x\n"
        "def f():\n    from curator.core.read import vault\n"
    )
    assert _imports(source) == {"curator.core.curate.dream", "curator.core.read.vault"}


def test_no_module_is_longer_than_a_reader_takes_in() -> None:
    long = {
        str(path.relative_to(PACKAGE)): n
        for path in PACKAGE.rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert long == {}
