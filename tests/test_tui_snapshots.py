"""SVG snapshots of the key screens (Textual is pinned, so they are stable)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from helpers import settle_screen

import curator.core.change.changes as changes
from curator.core.change.changes import apply
from curator.core.change.edits import plan_rename
from curator.core.read.loading import load_vault
from curator.tui.app import CuratorApp


def test_main_screen_wide(snap_compare, sample_vault: Path) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(CuratorApp(sample_vault), terminal_size=(160, 45), run_before=settle_screen)


def test_main_screen_80x24(snap_compare, sample_vault: Path) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(CuratorApp(sample_vault), terminal_size=(80, 24), run_before=settle_screen)


def test_review_screen(snap_compare, sample_vault: Path) -> None:  # type: ignore[no-untyped-def]
    async def open_review(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle_screen(pilot)
        await pilot.press("r")
        await settle_screen(pilot)

    assert snap_compare(CuratorApp(sample_vault), terminal_size=(120, 40), run_before=open_review)


def test_history_screen(snap_compare, sample_vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    with monkeypatch.context() as patched:  # not undoing the user config folder conftest set
        patched.setenv("TZ", "UTC")
        time.tzset()
        patched.setattr(changes, "new_id", lambda: "20260729-101500-ab12")
        patched.setattr(changes.time, "time", lambda: 1785320100.0)
        apply(sample_vault, plan_rename(load_vault(sample_vault), "Certificate renewal", "TLS renewal"))
    time.tzset()
    os.environ["TZ"] = "UTC"
    time.tzset()

    async def open_history(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle_screen(pilot)
        await pilot.press("h")
        await settle_screen(pilot)

    try:
        assert snap_compare(CuratorApp(sample_vault), terminal_size=(120, 30), run_before=open_history)
    finally:
        del os.environ["TZ"]
        time.tzset()


def test_help_screen(snap_compare, sample_vault: Path) -> None:  # type: ignore[no-untyped-def]
    async def open_help(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle_screen(pilot)
        await pilot.press("question_mark")
        await pilot.pause()

    assert snap_compare(CuratorApp(sample_vault), terminal_size=(120, 45), run_before=open_help)


def test_findings_with_detail_80x24(snap_compare, sample_vault: Path) -> None:  # type: ignore[no-untyped-def]
    async def open_findings(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle_screen(pilot)
        await pilot.press("3", "down", "down", "down", "down", "down", "down")
        await settle_screen(pilot)

    assert snap_compare(CuratorApp(sample_vault), terminal_size=(80, 24), run_before=open_findings)


def test_graph_picture_80x24(snap_compare, sample_vault: Path) -> None:  # type: ignore[no-untyped-def]
    async def open_graph(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle_screen(pilot)
        await pilot.press(*["down"] * 12, "2", "down", "down")  # Payments API, then a neighbour marked
        await settle_screen(pilot)

    assert snap_compare(CuratorApp(sample_vault), terminal_size=(80, 24), run_before=open_graph)


SIZES = [(80, 24), (160, 45)]


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x45"])
def test_triage_with_a_long_finding(snap_compare, sample_vault: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    async def open_longest(pilot) -> None:  # type: ignore[no-untyped-def]
        from textual.widgets import DataTable

        from curator.tui.widgets.findings import FindingsPane

        await settle_screen(pilot)
        await pilot.press("3")
        pane = pilot.app.main.query_one(FindingsPane)
        longest = max(pane.shown, key=lambda f: len(f.message))
        pilot.app.main.query_one("#findings", DataTable).move_cursor(row=pane.shown.index(longest))
        await settle_screen(pilot)

    assert snap_compare(CuratorApp(sample_vault), terminal_size=size, run_before=open_longest)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x45"])
def test_review_with_a_diff(snap_compare, sample_vault: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    from curator.core.curate.dream import dream

    dream(load_vault(sample_vault))  # suggestions waiting: the review opens on them, no notification over it

    async def open_review(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle_screen(pilot)
        await pilot.press("r")
        await settle_screen(pilot)
        assert pilot.app.screen.shown is not None  # the diff is on screen

    assert snap_compare(CuratorApp(sample_vault), terminal_size=size, run_before=open_review)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x45"])
def test_search_results(snap_compare, sample_vault: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    with (sample_vault / ".curator.toml").open("a", encoding="utf-8") as config:  # the same ranking on every machine
        config.write('\n[embedding]\nprovider = "lexical"\n')

    async def search(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle_screen(pilot)
        await pilot.press("slash", *"pgbouncer")
        await settle_screen(pilot)
        await pilot.press("down")  # to the results: no blinking cursor in the box, the first one chosen
        await settle_screen(pilot)

    assert snap_compare(CuratorApp(sample_vault), terminal_size=size, run_before=search)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x45"])
def test_help(snap_compare, sample_vault: Path, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    async def open_help(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle_screen(pilot)
        await pilot.press("question_mark")
        await settle_screen(pilot)

    assert snap_compare(CuratorApp(sample_vault), terminal_size=size, run_before=open_help)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x45"])
def test_history_detail(
    snap_compare, sample_vault: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:  # type: ignore[no-untyped-def]
    with monkeypatch.context() as patched:
        patched.setenv("TZ", "UTC")
        time.tzset()
        patched.setattr(changes, "new_id", lambda: "20260729-101500-ab12")
        patched.setattr(changes.time, "time", lambda: 1785320100.0)
        apply(sample_vault, plan_rename(load_vault(sample_vault), "Certificate renewal", "TLS renewal"))
    os.environ["TZ"] = "UTC"
    time.tzset()

    async def open_change(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle_screen(pilot)
        await pilot.press("h")
        await settle_screen(pilot)
        await pilot.press("enter")
        await settle_screen(pilot)

    try:
        assert snap_compare(CuratorApp(sample_vault), terminal_size=size, run_before=open_change)
    finally:
        del os.environ["TZ"]
        time.tzset()
