"""The search screen as a person types into it: the list always answers the text in the box, and
the index it builds on the way is whole."""

from __future__ import annotations

import re
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import SAMPLE_VAULT, settle
from textual.widgets import OptionList, Static

import curator.tui.screens.search as screens_search
from curator.core.meaning.search import SearchResult, search
from curator.core.read.loading import load_vault
from curator.core.read.vault import Vault
from curator.tui.app import CuratorApp
from curator.tui.screens.search import SearchScreen

pytestmark = pytest.mark.anyio

QUERY = "pgbouncer pool"


def assert_index_whole(root: Path) -> None:
    """One table of contents, every segment file named in it, no writer's lock held, no build left over."""
    from whoosh import index

    folder = root / ".curator" / "search"
    ix = index.open_dir(str(folder))
    names = {segment.segment_id() for segment in ix._segments()}
    tocs = [f.name for f in folder.iterdir() if f.name.endswith(".toc")]
    assert len(tocs) == 1, tocs
    for f in folder.iterdir():
        if f.suffix == ".seg" or (re.match(r"_MAIN_\w+\.\w+$", f.name) and not f.name.endswith(".toc")):
            assert any(name in f.name for name in names), f"{f.name} belongs to no segment of {tocs[0]}"
    assert not [f for f in (root / ".curator").iterdir() if f.name.startswith("search.") and f.is_dir()]
    assert ix.doc_count() > 0
    writer_lock = ix.storage.lock(f"{ix.indexname}_WRITELOCK")
    assert writer_lock.acquire(), "a writer still holds the index"
    writer_lock.release()


async def test_typing_a_query_key_by_key_into_a_vault_without_an_index_shows_its_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = screens_search.search
    full_answered = threading.Event()

    def first_key_answered_last(vault: Vault, raw: str, **kwargs: Any) -> SearchResult:
        """The search, the first key's answer held back until the whole query's is out, as when the
        worker that builds the index answers last."""
        result = answer(vault, raw, **kwargs)
        if raw == QUERY:
            full_answered.set()
        elif len(raw) == 1:
            full_answered.wait(timeout=10)
            time.sleep(0.1)
        return result

    monkeypatch.setattr(screens_search, "search", first_key_answered_last)
    for run in range(20):
        full_answered.clear()
        vault = tmp_path / f"vault{run}"
        shutil.copytree(SAMPLE_VAULT, vault)
        with (vault / ".curator.toml").open(
            "a", encoding="utf-8"
        ) as config:  # no model: the race, not the model, is tested
            config.write('\n[embedding]\nprovider = "lexical"\n')
        app = CuratorApp(vault)
        async with app.run_test(size=(120, 30)) as pilot:
            await settle(pilot)
            await pilot.press("slash")
            for key in QUERY:
                await pilot.press("space" if key == " " else key)
                await pilot.pause(0.02)
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, SearchScreen)
            results = screen.query_one("#search-results", OptionList)
            shown = [results.get_option_at_index(i).id for i in range(results.option_count)]
            expected = [hit.path for hit in search(load_vault(vault), QUERY, limit=30).hits]
            assert shown == expected, f"run {run}"
            assert f"for {QUERY!r}" in str(screen.query_one("#search-status", Static).render()), f"run {run}"
        assert_index_whole(vault)


async def test_enter_in_the_box_opens_the_top_result_even_before_it_is_shown(sample_vault: Path) -> None:
    with (sample_vault / ".curator.toml").open("a", encoding="utf-8") as config:
        config.write('\n[embedding]\nprovider = "lexical"\n')
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"pgbouncer", "enter")  # at once: the answer is not there yet
        await settle(pilot)
        assert app.screen is app.main
        assert app.main.current == "problems/Postgres connection pool exhaustion.md"
        await pilot.press("slash", *"runbook")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SearchScreen)
        results = screen.query_one("#search-results", OptionList)
        top = results.get_option_at_index(0).id
        assert top is not None and "Runbook" in top
        await pilot.press("enter")
        await settle(pilot)
        assert app.main.current == top


async def test_a_key_typed_empties_the_list_until_the_new_text_is_answered(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with (sample_vault / ".curator.toml").open("a", encoding="utf-8") as config:
        config.write('\n[embedding]\nprovider = "lexical"\n')
    answer = screens_search.search
    hold = threading.Event()

    def slow_second(vault: Vault, raw: str, **kwargs: Any) -> SearchResult:
        if raw != "pgbouncer":
            hold.wait(timeout=10)
        return answer(vault, raw, **kwargs)

    monkeypatch.setattr(screens_search, "search", slow_second)
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"pgbouncer")
        await settle(pilot)
        screen = app.screen
        results = screen.query_one("#search-results", OptionList)
        assert results.option_count > 0
        await pilot.press("space", "x")
        await pilot.pause(0.3)
        assert results.option_count == 0  # not the answer to 'pgbouncer' under 'pgbouncer x'
        hold.set()
        await settle(pilot)
        assert "for 'pgbouncer x'" in str(screen.query_one("#search-status", Static).render())


def test_snippets_read_as_text() -> None:
    shown = screens_search.marked("see **[[Pool sizing|the «pool»]]** and `«pgbouncer» -R`, _really_").plain
    assert shown == "\n  see the pool and pgbouncer -R, really"
