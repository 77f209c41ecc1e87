"""The TUI, driven by a pilot as a person would: files on disk are checked, not only the screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from edit_helpers import tree
from helpers import NOT_A_STUB, make_vault, notifications, settle
from textual.widgets import DataTable, Input, OptionList

from curator.cli.main import main
from curator.core.change.changes import apply, history, undo
from curator.core.change.edits import plan_rename
from curator.core.check.lint import lint, vault_baseline
from curator.core.read.loading import load_vault
from curator.core.state.config import load_config
from curator.tui.app import CuratorApp
from curator.tui.messages import LoadProgressed
from curator.tui.screens.history import HistoryScreen
from curator.tui.screens.main import MainScreen
from curator.tui.screens.modals import Confirm, EditLine
from curator.tui.screens.review import ReviewScreen
from curator.tui.widgets.findings import FindingsPane
from curator.tui.widgets.rows import RowList

pytestmark = pytest.mark.anyio


def main_of(app: CuratorApp) -> MainScreen:
    return app.main


async def test_startup_shows_pages_findings_and_how_to_review(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        screen = main_of(app)
        assert screen.query_one("#pages", RowList).row_count == 18
        assert screen.query_one("#findings", DataTable).row_count == 21
        status = str(screen.query_one("#status").render())
        assert "press r to" in status and "review" in status


async def test_filter_narrows_as_you_type(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await pilot.press("f", *"runbook")
        await pilot.pause()
        pages = main_of(app).query_one("#pages", RowList)
        ids = [row.id for row in pages.rows]
        assert ids[:2] == ["systems/payments/Runbook.md", "systems/search/Runbook.md"]
        assert len(ids) < 18


async def test_enter_on_a_link_follows_it(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        screen = main_of(app)
        assert screen.current == "MEMORY.md"
        graph = screen.query_one("#graph", OptionList)
        graph.focus()
        target = next(
            i for i in range(graph.option_count) if graph.get_option_at_index(i).id == "out:customers/Acme Corp.md"
        )
        graph.highlighted = target
        await pilot.press("enter")
        await settle(pilot)
        assert screen.current == "customers/Acme Corp.md"
        pages = screen.query_one("#pages", RowList)
        assert pages.highlighted_row is not None and pages.highlighted_row.id == "customers/Acme Corp.md"


async def test_a_finding_opens_its_page(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        screen = main_of(app)
        table = screen.query_one("#findings", DataTable)
        pane = screen.query_one("#findings-pane")
        row = next(
            i for i, f in enumerate(pane.shown) if f.rule == "dead-link" and f.path == "systems/Search cluster.md"
        )  # type: ignore[attr-defined]
        table.focus()
        table.move_cursor(row=row)
        await settle(pilot)
        assert screen.current == "systems/Search cluster.md"


async def test_accept_a_rename_in_review_and_undo_it(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
        review = app.screen
        while (first := review.current()) is not None and first.kind != "rename":
            await pilot.press("s")
            await settle(pilot)
        assert first is not None and first.kind == "rename"
        old = sample_vault / first.pages[0]
        new = old.with_name(f"{first.title}.md")
        await pilot.press("a")
        await settle(pilot)
        assert new.exists() and not old.exists()
        await pilot.press("u")
        await settle(pilot)
        assert old.exists() and not new.exists()


async def _undo_the_newest_from_history(pilot: Any, app: CuratorApp) -> None:
    """Open the history (h), undo its newest change (u) and confirm (y)."""
    await pilot.press("h")
    await pilot.pause()
    assert isinstance(app.screen, HistoryScreen)
    await pilot.press("u")
    await pilot.pause()
    await pilot.press("y")
    await settle(pilot)


async def test_an_undo_conflict_is_a_clear_notification(sample_vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entry = apply(sample_vault, plan_rename(load_vault(sample_vault), "Certificate renewal", "TLS renewal"))
    memory = sample_vault / "MEMORY.md"
    memory.write_text(memory.read_text().replace("[[TLS renewal]]", "[[SSL renewal]]"))  # the word it wrote
    app = CuratorApp(sample_vault)
    messages = notifications(app, monkeypatch)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await _undo_the_newest_from_history(pilot, app)
        assert any("MEMORY.md was edited since" in m for m in messages)
        assert (sample_vault / "problems/TLS renewal.md").exists()  # nothing was changed
        assert entry.id in {e.id for e in app.screen.entries}  # type: ignore[attr-defined]


async def test_a_file_system_error_in_a_worker_is_a_notification_not_an_exit(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An OSError from the core (a read-only vault, a full disk) with a path that looks like Rich
    markup (`[/b]` closes a tag that was never opened) is shown as it is, and the app goes on."""
    import curator.tui.app as app_module

    apply(sample_vault, plan_rename(load_vault(sample_vault), "Certificate renewal", "TLS renewal"))

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", "problems/[/b] TLS renewal.md")

    monkeypatch.setattr(app_module, "undo", refuse)
    app = CuratorApp(sample_vault)
    messages = notifications(app, monkeypatch)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await _undo_the_newest_from_history(pilot, app)
        assert "problems/[/b] TLS renewal.md: Permission denied" in messages
        assert app.is_running and isinstance(app.screen, HistoryScreen)
        await pilot.pause(0.2)  # the toast is drawn: markup would raise here
        assert app.is_running
    assert (sample_vault / "problems/TLS renewal.md").exists()  # the change stands: nothing was undone


async def test_theme_switch(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault, theme="curator-dark")
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        dark = app.get_css_variables()["finding-error"]
        app.theme = "curator-light"
        await pilot.pause()
        assert app.current_theme.name == "curator-light"
        assert app.get_css_variables()["finding-error"] != dark
        assert {"curator-dark", "curator-light", "curator-high-contrast"} <= set(app.available_themes)


async def test_narrow_terminal_shows_one_pane_at_a_time(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = main_of(app)
        assert screen.has_class("narrow")
        assert screen.query_one("#index-pane").region.width >= 78  # the one pane takes the full width
        assert screen.query_one("#findings-pane").region.width == 0
        await pilot.press("3")
        await pilot.pause()
        assert screen.query_one("#findings-pane").region.width >= 78
        assert screen.query_one("#index-pane").region.width == 0


async def test_search_screen_opens_the_page(sample_vault: Path) -> None:
    from curator.tui.screens.search import SearchScreen

    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await pilot.pause()
        assert isinstance(app.screen, SearchScreen)
        await pilot.press(*"pgbouncer")
        await settle(pilot)
        results = app.screen.query_one("#search-results", OptionList)
        assert results.get_option_at_index(0).id == "problems/Postgres connection pool exhaustion.md"
        await pilot.press("down", "down", "enter")  # down from the box to the results, then the second
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert (
            app.main.current == results.get_option_at_index(1).id != "problems/Postgres connection pool exhaustion.md"
        )


async def _select_finding(pilot: Any, app: CuratorApp, rule: str, words: str = "", path: str = "") -> None:
    """Open the findings pane and move to the first finding of `rule` whose message holds `words`
    and whose page starts with `path`."""
    screen = main_of(app)
    pane = screen.query_one(FindingsPane)
    row = next(i for i, f in enumerate(pane.shown) if f.rule == rule and words in f.message and f.path.startswith(path))
    await pilot.press("3")
    table = screen.query_one("#findings", DataTable)
    table.focus()
    table.move_cursor(row=row)
    await settle(pilot)


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_the_selected_finding_reads_in_full(sample_vault: Path, size: tuple[int, int]) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await _select_finding(pilot, app, "dead-link", "Certificate Renewl")
        detail = str(main_of(app).query_one("#finding-detail").render())
        assert "did you mean [[Certificate renewal]]?" in detail.replace("\n", " ")
        assert "error  dead-link  incidents/Ticket 4711" in detail


async def test_fix_a_finding_in_place_and_undo_it(sample_vault: Path) -> None:
    page = sample_vault / "incidents/Ticket 4711 vom 29.07.2026 - Zertifikat abgelaufen.md"
    before = page.read_bytes()
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await _select_finding(pilot, app, "dead-link", "Certificate Renewl")
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, Confirm) and "+ [[Certificate renewal]]" in app.screen.question
        await pilot.press("y")
        await settle(pilot)
        assert "[[Certificate renewal]]" in page.read_text() and "Renewl" not in page.read_text()
        assert [e.kind for e in history(sample_vault)] == ["fix"]
        assert not any("Renewl" in f.message for f in main_of(app).findings)
        await pilot.press("u")
        await settle(pilot)
        assert page.read_bytes() == before


async def test_ignore_a_finding_writes_the_baseline_and_lint_skips_it(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await _select_finding(pilot, app, "dead-link", "Capacity plan 2027")
        row = main_of(app).query_one("#findings", DataTable).cursor_row
        await pilot.press("i")
        await settle(pilot)
        assert (sample_vault / ".curator-baseline.json").is_file()
        assert main_of(app).query_one("#findings", DataTable).cursor_row == row  # on the next finding
        assert not any("Capacity plan 2027" in f.message for f in main_of(app).findings)
    report = lint(sample_vault, use_cache=False)
    accepted = vault_baseline(sample_vault, load_config(sample_vault))
    assert [f for f in report.findings if "Capacity plan 2027" in f.message and f.fingerprint not in accepted] == []
    assert main(["lint", str(sample_vault), "--select", "dead-link"]) == 1  # two others are left
    undo(sample_vault, history(sample_vault)[0].id)
    assert not (sample_vault / ".curator-baseline.json").exists()


async def test_a_rule_with_many_findings_is_one_row_that_opens(tmp_path: Path) -> None:
    body = NOT_A_STUB
    files: dict[str, str | bytes] = {f"p{i:03}.md": body for i in range(120)}
    files["home.md"] = f"{body} [[gone]]"
    root = make_vault(tmp_path / "v", files)
    app = CuratorApp(root)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        pane = main_of(app).query_one(FindingsPane)
        table = main_of(app).query_one("#findings", DataTable)
        assert pane.groups == {"orphan": 121} and table.row_count == 2  # the group, and the dead link
        table.focus()
        table.move_cursor(row=0)
        await pilot.press("enter")
        await settle(pilot)
        assert pane.rule == "orphan" and table.row_count == 121
        await pilot.press("escape")
        await settle(pilot)
        assert pane.rule is None and table.row_count == 2


@pytest.mark.parametrize(
    ("rule", "path", "changed"),
    [
        ("untyped", "notes/Loose thoughts on queues.md", "notes/Loose thoughts on queues.md"),
        ("untyped", "topics/Observability.md", "topics/Observability.md"),  # replaces a wrong type
        ("diary-title", "incidents/2026-08-14 checkout outage postmortem.md", "MEMORY.md"),
        ("duplicate", "incidents/DB pool exhausted again", "problems/Postgres connection pool exhaustion.md"),
        ("orphan", "notes/Vendor call.md", "MEMORY.md"),
    ],
)
async def test_each_fix_that_needs_a_choice_applies_and_undoes(
    sample_vault: Path, rule: str, path: str, changed: str
) -> None:
    start = tree(sample_vault)
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await _select_finding(pilot, app, rule, path=path)
        await pilot.press("a")
        await settle(pilot)
        await pilot.press("enter")  # the first choice, or the proposed title
        await settle(pilot)
        assert tree(sample_vault).get(changed) != start.get(changed)
        assert history(sample_vault)[0].kind == {"diary-title": "rename", "duplicate": "merge"}.get(rule, "fix")
        await pilot.press("u")
        await settle(pilot)
    assert tree(sample_vault) == start


async def test_bad_frontmatter_opens_the_editor_at_its_line(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import contextlib

    import curator.tui.app as app_module

    calls: list[list[str]] = []
    monkeypatch.setattr(app_module.subprocess, "call", lambda args: calls.append(args) or 0)
    monkeypatch.setenv("EDITOR", "myeditor --wait")
    monkeypatch.delenv("VISUAL", raising=False)
    app = CuratorApp(sample_vault)
    monkeypatch.setattr(app, "suspend", contextlib.nullcontext)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await _select_finding(pilot, app, "bad-frontmatter", "")
        selected = main_of(app).query_one(FindingsPane).selected()
        assert selected is not None and selected.line
        await pilot.press("a")
        await settle(pilot)
    assert calls == [["myeditor", "--wait", f"+{selected.line}", "--", str(sample_vault / "notes/Broken header.md")]]


async def test_the_graph_picture_follows_the_page_and_the_highlighted_neighbour(sample_vault: Path) -> None:
    from curator.tui.widgets.graph import GraphPane

    app = CuratorApp(sample_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        main_of(app).select("systems/Payments API.md")
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        picture = main_of(app).query_one("#graph-picture").render()
        plain = str(picture)
        assert "Payments API" in plain and "Acme Corp" in plain and "MEMORY" in plain
        await pilot.press("down")
        await settle(pilot)
        pane = main_of(app).query_one(GraphPane)
        assert pane.highlighted is not None
        await pilot.press("x")
        await settle(pilot)
        assert pane.hops == 2 and "Search cluster" in str(main_of(app).query_one("#graph-picture").render())
        chosen = pane.highlighted
        await pilot.press("enter")
        await settle(pilot)
        assert main_of(app).current == chosen != "systems/Payments API.md"


@pytest.mark.parametrize(
    ("rule", "path", "words", "changed"),
    [
        (
            "dead-link",
            "incidents/Ticket 4711",
            "cert renewal",
            "incidents/Ticket 4711 vom 29.07.2026 - Zertifikat abgelaufen.md",
        ),
        ("ambiguous-link", "systems/Search cluster.md", "Runbook", "systems/Search cluster.md"),
        ("index-drift", "notes/Vendor call.md", "", "MEMORY.md"),
    ],
)
async def test_each_fix_without_a_choice_applies_and_undoes(
    sample_vault: Path, rule: str, path: str, words: str, changed: str
) -> None:
    start = tree(sample_vault)
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await _select_finding(pilot, app, rule, words, path)
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, Confirm)
        await pilot.press("y")
        await settle(pilot)
        assert tree(sample_vault).get(changed) != start.get(changed)
        assert history(sample_vault)[0].kind == "fix"
        await pilot.press("u")
        await settle(pilot)
    assert tree(sample_vault) == start


async def test_a_broken_anchor_fix_applies_and_undoes(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# Top\n\n## Setup steps\n", "b.md": "See [[a#Setup step]].\n"})
    start = tree(root)
    app = CuratorApp(root)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await _select_finding(pilot, app, "broken-anchor")
        await pilot.press("a")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert (root / "b.md").read_text() == "See [[a#Setup steps]].\n"
        assert history(root)[0].kind == "fix"
        await pilot.press("u")
        await settle(pilot)
    assert tree(root) == start


async def test_a_selected_finding_marks_its_block_in_the_preview(sample_vault: Path) -> None:
    from textual.widgets._markdown import MarkdownBlock

    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await _select_finding(pilot, app, "dead-link", "Capacity plan 2027")
        (marked,) = [b for b in main_of(app).query(MarkdownBlock) if b.has_class("-finding")]
        assert "Capacity plan 2027" in str(marked.render())


async def test_pages_written_by_hand_are_marked_and_can_be_filtered(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {"hand.md": "---\nsource: manual\n---\n# Hand\n", "agent.md": "---\nsource: agent\n---\n# Agent\n"},
    )
    app = CuratorApp(root)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        pages = main_of(app).query_one("#pages", RowList)
        rows = {row.id: pages.draw(row, 60).plain for row in pages.rows}
        assert rows["hand.md"].endswith("✎") and not rows["agent.md"].endswith("✎")
        await pilot.press("f", *"source manual")
        await pilot.pause()
        assert pages.rows[0].id == "hand.md"


async def test_renaming_a_page_written_by_hand_says_so_in_the_prompt(sample_vault: Path) -> None:
    page = sample_vault / "incidents/2026-08-14 checkout outage postmortem.md"
    page.write_text("---\nsource: manual\n" + page.read_text(encoding="utf-8").removeprefix("---\n"), encoding="utf-8")
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await _select_finding(pilot, app, "diary-title", path="incidents/2026-08-14")
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, EditLine)
        assert "was written by hand: source manual" in app.screen.prompt
        await pilot.press("escape")
        await settle(pilot)


async def test_a_title_edited_to_a_name_windows_cannot_hold_is_refused_with_a_notification(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = tree(sample_vault)
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        messages = notifications(app, monkeypatch)
        await _select_finding(pilot, app, "diary-title", path="incidents/2026-08-14")
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, EditLine)
        app.screen.query_one("#edit-line", Input).value = "nul"
        await pilot.press("enter")
        await settle(pilot)
    assert any("device name on Windows" in m for m in messages), messages
    assert tree(sample_vault) == start


async def test_stats_show_the_counts_of_curator_stats(sample_vault: Path) -> None:
    from curator.tui.screens.stats import StatsScreen

    app = CuratorApp(sample_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, StatsScreen)
        table = app.screen.query_one("#stats-table", DataTable)
        rows = [tuple(str(cell) for cell in table.get_row_at(i)) for i in range(table.row_count)]
        assert ("pages", "", "18") in rows
        assert ("links", "related", "3") in rows and ("by type", "problem", "4") in rows
        assert ("findings", "dead-link", "3") in rows
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)


async def test_pages_like_this_one_show_the_duplicate_evidence_then_the_model(sample_vault: Path) -> None:
    incident = "incidents/DB pool exhausted again during the Friday evening deploy and nobody noticed for an hour.md"
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        screen = main_of(app)
        screen.select(incident)
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        shown = str(screen.query_one("#preview-like").render())
        lines = [line.strip() for line in shown.splitlines()]
        assert lines[0].startswith("Pages like this one")
        assert lines[1].startswith("duplicate  problems/Postgres connection pool exhaustion.md: problems/")
        assert len(lines) >= 3 and "Postgres connection pool exhaustion" not in " ".join(lines[2:])  # listed once
        screen.select("customers/Acme Corp.md")
        await settle(pilot)
        assert str(screen.query_one("#preview-like").render()).strip() == ""  # another page: asked for again


def test_curator_vault_reads_the_vault_before_the_app_starts(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a process with one thread, so that parsing may fork workers; the app shows what was read."""
    import threading

    started: list[CuratorApp] = []
    threads: list[int] = []
    real_open = __import__("curator.core.curate.opening", fromlist=["open_vault"]).open_vault

    def counting_open(*args: Any) -> Any:
        threads.append(threading.active_count())
        return real_open(*args)

    monkeypatch.setattr("curator.core.curate.opening.open_vault", counting_open)
    monkeypatch.setattr(CuratorApp, "run", lambda self: started.append(self))
    assert main([str(sample_vault)]) == 0
    (app,) = started
    assert app.first is not None and threads == [1]
    assert {f.rule for f in app.first.findings} == {f.rule for f in lint(sample_vault, use_cache=False).findings}
    assert main(["--theme", "no-such-theme", str(sample_vault)]) == 2
    assert "no theme 'no-such-theme'" in capsys.readouterr().err and len(started) == 1


async def test_a_loads_progress_shows_in_the_status_through_the_apps_queue(sample_vault: Path) -> None:
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        app.post_message(LoadProgressed("reading pages", 3, 18))  # as the loading thread posts it
        await pilot.pause()
        assert str(main_of(app).query_one("#status").render()) == "reading pages… 3/18"
