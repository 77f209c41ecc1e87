"""The review applies only what a person has on screen: each suggestion planned again against the
vault as it is, and `a` refused (the new diff shown) when the change planned under the lock differs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import notifications, settle

from curator.core.change.changes import history
from curator.core.change.edits import plan_diff
from curator.core.curate.dream import dream, plan_for, set_status
from curator.core.curate.suggestions import Suggestion, load_suggestions
from curator.core.read.loading import load_vault
from curator.tui.app import CuratorApp
from curator.tui.screens.review import ReviewScreen

pytestmark = pytest.mark.anyio


async def opened_review(app: CuratorApp, pilot: Any) -> ReviewScreen:
    """The review screen `r` opens (a dream first, when nothing waits)."""
    await pilot.press("r")
    await settle(pilot)
    review = app.screen
    assert isinstance(review, ReviewScreen)
    return review


def _overlapping(root: Path) -> tuple[Suggestion, Suggestion]:
    """Two pending suggestions whose changes touch one file; every other one skipped."""
    vault = load_vault(root)
    pending = [s for s in dream(vault).suggestions if s.status == "pending"]
    touched = {s.id: {c.path for c in plan_for(vault, s).changes} for s in pending}
    first, second = next((a, b) for a in pending for b in pending if a != b and touched[a.id] & touched[b.id])
    for other in pending:
        if other not in (first, second):
            set_status(root, other.id, "skipped")
    return first, second


async def test_the_second_of_two_overlapping_suggestions_shows_its_fresh_diff_before_a_applies_it(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = _overlapping(sample_vault)
    stale = plan_diff(plan_for(load_vault(sample_vault), second))  # planned before the first is applied
    app = CuratorApp(sample_vault)
    said = notifications(app, monkeypatch)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        review = await opened_review(app, pilot)
        order = [s.id for s in review.suggestions]
        if order.index(first.id) > order.index(second.id):
            first, second = second, first
            stale = plan_diff(plan_for(load_vault(sample_vault), second))
        while review.current() is not None and review.current().id != first.id:  # type: ignore[union-attr]
            await pilot.press("n")
            await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert history(sample_vault)[0].reason.endswith(first.reason.removeprefix("Merge "))  # with both pages named
        current = review.current()
        assert current is not None and current.id == second.id
        fresh = plan_diff(plan_for(load_vault(sample_vault), second))
        assert fresh != stale  # the first change moved what the second one edits
        assert review.shown is not None and review.shown[2] == fresh
        assert "@@" in app.export_screenshot()  # the diff is on the screen, not only planned

        # Another program links to the page after the diff was shown: `a` applies nothing and the
        # new change is shown; a second `a` applies what is then on the screen.
        page = load_vault(sample_vault).pages[second.pages[0]]
        other = next(p for p in sorted(load_vault(sample_vault).pages) if p not in second.pages and p != "MEMORY.md")
        with (sample_vault / other).open("a", encoding="utf-8") as f:
            f.write(f"\nSee also [[{page.title}]].\n")
        before = len(history(sample_vault))
        await pilot.press("a")
        await settle(pilot)
        assert len(history(sample_vault)) == before
        assert any("changed since the change was shown" in m for m in said)
        newest = plan_diff(plan_for(load_vault(sample_vault), second))
        assert newest != fresh and review.shown is not None and review.shown[2] == newest
        await pilot.press("a")
        await settle(pilot)
        assert history(sample_vault)[0].reason == second.reason
        assert other in history(sample_vault)[0].paths  # the link written meanwhile was rewritten too


async def test_skipped_and_undone_suggestions_are_listed_and_come_back(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        review = await opened_review(app, pilot)
        skipped = review.current()
        assert skipped is not None
        await pilot.press("s")
        await settle(pilot)
        accepted = review.current()
        assert accepted is not None
        await pilot.press("a")
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        listed = {s.id: s.status for s in review.suggestions}
        assert listed[skipped.id] == "skipped" and listed[accepted.id] == "undone"
        while review.current() is not None and review.current().id != skipped.id:  # type: ignore[union-attr]
            await pilot.press("n")
        await pilot.press("b")
        await settle(pilot)
        assert {s.id: s.status for s in load_suggestions(sample_vault)}[skipped.id] == "pending"
        await pilot.press("v")
        await settle(pilot)
        assert skipped.id in {s.id for s in review.suggestions}


async def test_a_renames_header_shows_old_and_new_name_whole_at_80x24(sample_vault: Path) -> None:
    dream(load_vault(sample_vault))
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        review = await opened_review(app, pilot)
        while review.current() is not None and review.current().kind != "rename":  # type: ignore[union-attr]
            await pilot.press("n")
        rename = review.current()
        assert rename is not None and rename.title
        await pilot.pause()
        head = review.query_one("#review-head")
        shown = " ".join(strip.text.strip() for strip in head.render_lines(head.region.reset_offset))
        assert rename.pages[0].removesuffix(".md")[-20:] in shown.replace("  ", " ")
        assert rename.title in shown
        assert head.region.height >= 2  # wrapped, not cut at the screen's edge


async def test_dream_again_says_what_the_new_dream_found(sample_vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        said = notifications(app, monkeypatch)
        await pilot.press("r")  # no suggestions yet: the first dream
        await settle(pilot)
        waiting = len([s for s in load_suggestions(sample_vault) if s.status == "pending"])
        assert any(f"{waiting} new suggestions, {waiting} waiting in all" in line for line in said), said
        said.clear()
        await pilot.press("s")  # one set aside
        await settle(pilot)
        await pilot.press("d")  # the same pages: nothing new
        await settle(pilot)
        found = [line.split(": ", 1)[1] for line in said if line.startswith("Dream looked at")]
        assert found == [
            f"nothing new; the {waiting - 1} waiting still stand; 1 set aside (v in the review lists them)"
        ]


async def test_the_count_of_waiting_suggestions_drops_with_each_one_set_aside(sample_vault: Path) -> None:
    """A new user saw "4 suggestions waiting" under the panes after a reject and a skip."""
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        waiting = len([s for s in load_suggestions(sample_vault) if s.status == "pending"])
        assert waiting >= 2
        await pilot.press("s")
        await settle(pilot)
        status = str(app.main.query_one("#status").render())
        assert f"{waiting - 1} suggestions waiting" in status, status
