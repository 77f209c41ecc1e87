"""A zk notebook's own settings (`.zk/config.toml`): the notes zk leaves out are left out, its
daily group's dated titles are meant (a new user's notebooks: the author's generated list of
orphans counted as links to them all, Hugo's pages zk ignores reported as orphans and stubs, a day
of the daily group reported as a diary title)."""

from __future__ import annotations

import os
from pathlib import Path

from helpers import make_vault

from curator.core.check.findings import check_vault
from curator.core.read.loading import load_vault

SETTINGS = """[note]
filename = "{{id}}"
ignore = ["specials/*", "slipbox/{search,graph}.md"]

[group.daily]
paths = ["journal/daily"]
"""


def notebook(root: Path, settings: str | bytes = SETTINGS) -> Path:
    files: dict[str, str | bytes] = {
        ".zk/config.toml": settings,
        "specials/orphans.md": "# Orphans\n\n[[a1b2]] [[c3d4]]\n",
        "slipbox/search.md": "---\ntitle: Search\n---\n",
        "slipbox/graph.md": "---\ntitle: Graph\n---\n",
        "a1b2.md": "# Modus tollens\n\nIf P then Q; not Q; so not P.\n",
        "c3d4.md": "# Modus ponens\n\nIf P then Q; P; so Q. See [[a1b2]].\n",
        "journal/daily/2025-12-09.md": "# 2025-12-09\n\nWrote about [[c3d4]].\n",
    }
    return make_vault(root, files)


def test_a_notebooks_ignored_notes_and_daily_group(tmp_path: Path) -> None:
    vault = load_vault(notebook(tmp_path / "v"), use_cache=False)
    assert sorted(vault.pages) == ["a1b2.md", "c3d4.md", "journal/daily/2025-12-09.md"]
    assert "journal/daily/2025-12-09.md" in vault.daily_notes
    assert not [f for f in check_vault(vault) if f.rule == "diary-title"]


def test_settings_that_are_no_toml_or_no_file_are_left_out(tmp_path: Path) -> None:
    broken = load_vault(notebook(tmp_path / "a", b"[note\nignore = \xff"), use_cache=False)
    assert "specials/orphans.md" in broken.pages
    root = notebook(tmp_path / "b")
    (tmp_path / "elsewhere.toml").write_text(SETTINGS)
    os.remove(root / ".zk/config.toml")
    os.symlink(tmp_path / "elsewhere.toml", root / ".zk/config.toml")  # a link out of the vault is not read
    assert "specials/orphans.md" in load_vault(root, use_cache=False).pages


def test_a_note_named_by_an_id_goes_by_its_heading(tmp_path: Path) -> None:
    """A new user's zk notebooks: the TUI's index showed `04hx`, `0ata`, ...; typing "Multivektor"
    found none of 170 pages, and `94b.md` ("# modus tollens") came sixth for "what is modus tollens"."""
    from curator.core.meaning.search import search
    from curator.core.read.pagefilter import PageIndex

    root = notebook(tmp_path / "v")
    (root / "94b.md").write_text("# Reductio ad absurdum\n\nSuppose the opposite, derive a contradiction.\n")
    (root / "7q2k.md").write_text("---\ntitle: Multivektor\n---\n# Heading of the body\n\nText.\n")
    vault = load_vault(root, use_cache=False)
    assert vault.pages["94b.md"].shown_title == "Reductio ad absurdum"
    assert vault.pages["7q2k.md"].shown_title == "Multivektor"
    assert vault.pages["journal/daily/2025-12-09.md"].shown_title == "2025-12-09"  # a name, no id
    from curator.core.read.page import _AN_ID

    assert [
        name for name in ("fail2ban", "arma3", "10jahre", "2024", "k8s", "wamp2022") if _AN_ID.fullmatch(name)
    ] == []
    assert PageIndex.of(vault).filter("Multivektor")[:1] == ["7q2k.md"]
    hits = search(vault, "reductio", use_vectors=False).hits
    assert (hits[0].path, hits[0].title) == ("94b.md", "Reductio ad absurdum")


def test_a_hostile_ignore_list_is_read_so_far(tmp_path: Path) -> None:
    """An attacker's 25,000 globs of braces (1.6 million patterns) kept lint past five minutes."""
    import time

    from curator.core.state.zk import MAX_GLOBS, ignored, settings

    globs = ", ".join(f'"x{n}/{{a,b,c,d,e,f,g,h}}{{1,2,3,4,5,6,7,8}}.md"' for n in range(10_000))
    root = notebook(tmp_path / "v", f"[note]\nignore = [{globs}]\n")
    started = time.monotonic()
    assert len(ignored(settings(root))) == MAX_GLOBS
    assert time.monotonic() - started < 10  # read this far, not every pattern
    assert "a1b2.md" in load_vault(root, use_cache=False).pages


def test_settings_that_leave_out_every_page_say_so(tmp_path: Path) -> None:
    """An attacker's `ignore = ["*"]`: lint said "0 findings in 0 pages" and nothing else."""
    root = notebook(tmp_path / "v", '[note]\nignore = ["*"]\n')
    vault = load_vault(root, use_cache=False)
    assert not vault.pages and any("every page is left out" in note for note in vault.notes)
    assert not load_vault(notebook(tmp_path / "w"), use_cache=False).notes
