"""The search index under `.curator/search/`: what a builder that died left is cleared, and the
index answers as a whole one does."""

from __future__ import annotations

from pathlib import Path

from curator.core.meaning.search import SearchIndex, search
from curator.core.read.loading import load_vault
from curator.core.read.markdown import plain


def _hits(root: Path, query: str) -> list[str]:
    return [hit.path for hit in search(load_vault(root), query, limit=30, use_vectors=False).hits]


def test_a_dead_builders_segments_and_lock_are_cleared(sample_vault: Path) -> None:
    expected = _hits(sample_vault, "pgbouncer")
    folder = sample_vault / ".curator" / "search"
    # What a builder killed mid-write leaves: a segment no table of contents names, an older
    # table, and whoosh's lock file.
    (folder / "MAIN_deadbuilder0000.seg").write_bytes(b"\0" * 64)
    (folder / "_MAIN_0.toc").write_bytes(b"half")
    (folder / "MAIN_WRITELOCK").write_bytes(b"")
    SearchIndex(sample_vault).update(load_vault(sample_vault))
    assert sorted(f.name for f in folder.iterdir() if not f.name.endswith(".seg")) == ["_MAIN_1.toc", "state.json"]
    assert not (folder / "MAIN_deadbuilder0000.seg").exists()
    assert _hits(sample_vault, "pgbouncer") == expected


def test_an_index_left_half_made_is_built_again(sample_vault: Path) -> None:
    expected = _hits(sample_vault, "pgbouncer")
    folder = sample_vault / ".curator" / "search"
    for toc in folder.glob("*.toc"):
        toc.write_bytes(b"\0\1")  # the table of contents cut short
    assert _hits(load_vault(sample_vault).root, "pgbouncer") == expected
    (folder / "state.json").unlink()  # a build cut before it recorded its pages
    assert _hits(sample_vault, "pgbouncer") == expected


def test_update_says_how_far_it_got(sample_vault: Path) -> None:
    heard: list[tuple[int, int]] = []
    SearchIndex(sample_vault).update(load_vault(sample_vault), lambda done, total: heard.append((done, total)))
    assert heard[0] == (0, 18) and heard[-1] == (18, 18)


def test_plain_drops_markdown_syntax_and_keeps_the_words() -> None:
    text = "## Fix\n> see **[[Pool sizing|the pool]]** and [docs](https://x.y) - run `pgbouncer -R`\n- [ ] *check* it"
    assert plain(text) == "Fix\nsee the pool and docs - run pgbouncer -R\ncheck it"


def test_plain_drops_the_rarer_marks_too() -> None:
    text = "1. an _item_ with [a ref][1], <https://x.y/z> and \\*stars\\*; snake_case_name stays"
    assert plain(text) == "an item with a ref, https://x.y/z and *stars*; snake_case_name stays"


def test_an_index_this_user_did_not_build_is_built_anew(sample_vault: Path) -> None:
    """A cloned vault's search index is someone else's: its text could be anything, so it is not used."""
    import json

    vault = load_vault(sample_vault, use_cache=False)
    index = SearchIndex(sample_vault)
    pages = index.update(vault)["pages"]
    assert index.update(vault)["reindexed"] == 0  # this user's own index: kept
    state = json.loads(index.state_file.read_bytes())
    unsealed = {key: state[key] for key in ("schema", "languages", "pages") if key in state}
    assert len(unsealed) < len(state) and unsealed["pages"]  # the same members, without this user's seal
    index.state_file.write_text(json.dumps(unsealed))
    assert index.update(vault)["reindexed"] == pages


class _Planted:
    """What a hostile table of contents holds: an object whose unpickling runs code."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Path.touch, (self.marker,))


def test_a_table_of_contents_planted_in_the_index_is_never_opened(sample_vault: Path, tmp_path: Path) -> None:
    """A newer `_MAIN_<n>.toc` that came in with a `git pull` (the folder is ignored, not protected)
    would be the one whoosh opens, and unpickling it ran its code: it is removed unread."""
    from whoosh import index

    expected = _hits(sample_vault, "pgbouncer")
    folder = sample_vault / ".curator" / "search"
    marker = tmp_path / "ran"
    ix = index.open_dir(str(folder))
    index.TOC(ix.schema, [_Planted(marker)], 99).write(ix.storage, ix.indexname)  # type: ignore[no-untyped-call]
    assert (folder / "_MAIN_99.toc").exists()
    assert _hits(sample_vault, "pgbouncer") == expected
    assert not marker.exists() and not (folder / "_MAIN_99.toc").exists()


def test_an_index_file_rewritten_in_place_has_the_index_built_again(sample_vault: Path) -> None:
    expected = _hits(sample_vault, "pgbouncer")
    (toc,) = (sample_vault / ".curator" / "search").glob("*.toc")
    assert SearchIndex(sample_vault).update(load_vault(sample_vault))["reindexed"] == 0
    toc.write_bytes(toc.read_bytes())  # the same bytes, written by someone else: not this user's file
    counts = SearchIndex(sample_vault).update(load_vault(sample_vault))
    assert counts["reindexed"] == counts["pages"] > 0
    assert _hits(sample_vault, "pgbouncer") == expected


def test_a_table_of_contents_planted_while_a_server_runs_is_never_opened(sample_vault: Path, tmp_path: Path) -> None:
    """The MCP server and the TUI keep one vault loaded for hours; a `git pull` that brings only
    `.curator/search/` files changes no page, so nothing reloads it: every query checks again."""
    from whoosh import index

    vault = load_vault(sample_vault)
    expected = [hit.path for hit in search(vault, "pgbouncer", limit=30, use_vectors=False).hits]
    folder = sample_vault / ".curator" / "search"
    marker = tmp_path / "ran"
    ix = index.open_dir(str(folder))
    index.TOC(ix.schema, [_Planted(marker)], 99).write(ix.storage, ix.indexname)  # type: ignore[no-untyped-call]
    assert [hit.path for hit in search(vault, "pgbouncer", limit=30, use_vectors=False).hits] == expected
    store = SearchIndex(sample_vault)
    store._recorded = None  # a reader that did not update first (as the server's next query after a pull)
    index.TOC(ix.schema, [_Planted(marker)], 98).write(ix.storage, ix.indexname)  # type: ignore[no-untyped-call]
    found, _terms = store.bm25("pgbouncer")  # the planted file is removed unread, the index stays
    assert found and not marker.exists() and not (folder / "_MAIN_98.toc").exists()
    assert [hit.path for hit in search(vault, "pgbouncer", limit=30, use_vectors=False).hits] == expected
