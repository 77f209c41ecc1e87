"""The meaning index under attack: pages that share their bytes, pages edited or deleted while the
model reads, stores damaged or written by two processes at once."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import make_vault

from curator.core.meaning import vectors
from curator.core.meaning.embeddings import LexicalProvider
from curator.core.read.loading import load_vault
from curator.core.state import cache


def _vector(root: Path, path: str, use_cache: bool = True) -> np.ndarray:
    """A page's vector, as stored (made where missing), or made now from its text on disk."""
    paths, matrix, _ = vectors.page_vectors(load_vault(root, use_cache=use_cache), LexicalProvider())
    return matrix[paths.index(path)]


def test_two_pages_of_the_same_bytes_keep_each_its_own_vector(tmp_path: Path) -> None:
    """The model reads a page's title with its text: two empty notes (or two copies of a template)
    are two different texts, never one vector under their shared content hash."""
    root = make_vault(tmp_path / "v", {"Kubernetes ingress.md": "", "Sourdough starter.md": "", "Other.md": "x y z"})
    paths, matrix, _ = vectors.page_vectors(load_vault(root), LexicalProvider())
    rows = dict(zip(paths, matrix, strict=True))
    assert not np.allclose(rows["Kubernetes ingress.md"], rows["Sourdough starter.md"])
    paths, matrix, embedded = vectors.page_vectors(load_vault(root), LexicalProvider())  # from the store
    assert embedded == 0
    again = dict(zip(paths, matrix, strict=True))
    assert np.allclose(again["Sourdough starter.md"], _vector(root, "Sourdough starter.md", use_cache=False))


def test_a_page_edited_while_the_model_reads_is_not_stored_under_its_old_text(tmp_path: Path) -> None:
    """A page edited between the load and its reading (the MCP server, the TUI, `curator index`
    read for minutes), then put back (an undo): its stored row is its text's, not the edit's."""
    pages = {f"p{i}.md": f"page {i} about gardening and tomatoes number {i}" for i in range(4)}
    root = make_vault(tmp_path / "v", pages)
    vault = load_vault(root)
    (root / "p2.md").write_text("a page about databases, indexes and query planners")
    vectors.fill_all(vault, LexicalProvider())
    (root / "p2.md").write_text(pages["p2.md"])  # undone
    assert np.allclose(_vector(root, "p2.md"), _vector(root, "p2.md", use_cache=False))


def test_a_page_deleted_while_the_model_reads_stops_nothing(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {f"p{i}.md": f"page {i} about topic {i * 7}" for i in range(5)})
    vault = load_vault(root)
    (root / "p3.md").unlink()
    assert vectors.fill_all(vault, LexicalProvider()) == 5  # asked for; the gone one has no row
    assert vectors.pieces_of(vault, "p3.md") >= 0
    assert vectors.first_stage(vault, "topic", vectors.readable(vault), 3)


def test_two_processes_storing_at_once_lose_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store is two files (the array, then its sealed index): a second writer between the two
    left an index that names another array, and every row was made again; and a writer that merged
    before the other wrote dropped the other's rows."""
    root = make_vault(tmp_path / "v", {f"p{i}.md": f"page {i} about topic {i * 7}" for i in range(6)})
    first, second = load_vault(root), load_vault(root)  # two processes' loads
    first_rows, second_rows = vectors.rows_of(first, LexicalProvider()), vectors.rows_of(second, LexicalProvider())
    first_rows.fill(["p0.md", "p1.md", "p2.md"], store=False)
    second_rows.fill(["p3.md", "p4.md", "p5.md"], store=False)
    mid_store, other_done = threading.Event(), threading.Event()
    write_json = cache.write_json

    def slow_index(*args: Any, **kwargs: Any) -> str | None:
        if threading.current_thread().name == "first":  # the array is written, its index not yet
            mid_store.set()
            other_done.wait(1.0)
        return write_json(*args, **kwargs)

    monkeypatch.setattr(cache, "write_json", slow_index)
    writer = threading.Thread(target=first_rows.store_now, name="first")
    writer.start()
    mid_store.wait(5.0)
    other = threading.Thread(target=lambda: (second_rows.store_now(), other_done.set()), name="second")
    other.start()
    writer.join(10.0)
    other.join(10.0)
    assert not vectors.rows_of(load_vault(root), LexicalProvider()).missing(vectors.readable(load_vault(root)))


@pytest.mark.parametrize("part", ["npy", "json"], ids=["array", "index"])
def test_a_vector_store_grown_to_gigabytes_is_not_read(tmp_path: Path, part: str) -> None:
    """An array or index grown under its seal (a sparse file of gigabytes, a disk error) is made
    again without being read into memory first."""
    root = make_vault(tmp_path / "v", {f"p{i}.md": f"page {i} about topic {i * 7}" for i in range(5)})
    vectors.page_vectors(load_vault(root), LexicalProvider())
    grown = next((root / ".curator" / "cache").glob(f"vectors-*.{part}"))
    with grown.open("r+b") as handle:
        handle.truncate(256 * 2**20)  # sparse: no disk used
    tracemalloc.start()
    try:
        _, _, embedded = vectors.page_vectors(load_vault(root), LexicalProvider())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert embedded == 5
    assert peak < 64 * 2**20


def test_a_stop_is_heard_within_a_few_pieces_of_long_pages(tmp_path: Path) -> None:
    """The MCP server's reading stops when an agent's call comes, the TUI's when the user quits:
    a batch of 16 long pages (10-30 s of the model's time) kept them waiting."""
    sections = "".join(f"## Part {k}\n\n" + f"part {k} " * 40 + "\n\n" for k in range(12))
    root = make_vault(tmp_path / "v", {f"Long {i}.md": f"# Long {i}\n\n{sections}" for i in range(20)})
    model = _Counting()
    batches = iter(range(100))
    vectors.fill_all(load_vault(root), model, stop=lambda: next(batches) >= 1)
    assert 0 < model.read <= 16 + vectors.MAX_SECTIONS  # FILL_PIECES, and the page that passed it


def test_a_stop_is_heard_as_soon_with_a_slower_model(tmp_path: Path) -> None:
    """A batch is FILL_PIECES pieces of the bundled model's time: with the multilingual model (four
    times as slow a piece) a batch of 16 pieces kept a quit or an agent's call waiting 4 times as long."""
    root = make_vault(tmp_path / "v", {f"Note {i}.md": f"# Note {i}\n\nnote {i} about topic {i}\n" for i in range(40)})
    model = _Counting()
    model.piece_cost = 4.0
    batches = iter(range(100))
    vectors.fill_all(load_vault(root), model, stop=lambda: next(batches) >= 1)
    assert 0 < model.read <= vectors.FILL_PIECES / 4


class _Counting(LexicalProvider):
    """Lexical n-grams, counting the texts it reads."""

    def __init__(self) -> None:
        self.read = 0

    def embed(self, texts, progress=None):  # type: ignore[no-untyped-def]
        self.read += len(texts)
        return super().embed(texts, progress)


def test_curator_index_stopped_by_sigterm_stores_what_the_model_read(tmp_path: Path) -> None:
    """A service manager or `timeout` ends `curator index` with SIGTERM: the pages read until then
    are stored, so the next run goes on from there instead of reading them again."""
    notes = {f"Note {i}.md": f"# Note {i}\n\nnote {i} about topic {i % 7}\n" for i in range(400)}
    root = make_vault(tmp_path / "v", notes)
    command = [sys.executable, "-m", "curator", "index", str(root)]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    for line in process.stderr:
        if "pages read by the model" in line:
            process.send_signal(signal.SIGTERM)
            break
    rest = process.stderr.read()
    assert process.wait(timeout=120) == 128 + signal.SIGTERM, rest
    assert "stored" in rest
    vault = load_vault(root)
    provider, _ = vectors.provider_for(vault)
    stored = len(vectors.readable(vault)) - len(vectors.rows_of(vault, provider).missing(vectors.readable(vault)))
    assert 0 < stored < 400
