"""A new page name is one every system can hold as a file name (Obsidian vaults are synced between
Windows, macOS and Linux), and every such name can be written, temporary file included."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from edit_helpers import tree
from helpers import make_vault

from curator.core.change import journal
from curator.core.change.changes import apply
from curator.core.change.edits import plan_rename
from curator.core.change.recovery import recover
from curator.core.common import atomic
from curator.core.common.errors import EditError
from curator.core.common.names import MAX_NAME_BYTES, escaped, name_problem
from curator.core.curate.dream import derive_title
from curator.core.curate.titling import title_for
from curator.core.read.loading import load_vault


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("back\\slash", "'\\\\' is not allowed"),
        ("a:b", "':' is not allowed"),
        ("what?", "'?' is not allowed"),
        ("star*", "'*' is not allowed"),
        ('say "hi"', "'\"' is not allowed"),
        ("a<b>c", "'<' is not allowed"),
        ("pipe|d", "'|' is not allowed"),
        ("tab\there", "'\\t' is not allowed"),
        ("bell\x07", "'\\x07' is not allowed"),
        ("del\x7f", "'\\x7f' is not allowed"),
        ("CON", "device name"),
        ("con", "device name"),
        ("nul", "device name"),
        ("Aux.notes", "device name"),
        ("PRN ", "not a usable"),  # a trailing space, before it is a device name
        ("com1", "device name"),
        ("LPT9", "device name"),
        ("COM¹", "device name"),
        pytest.param("a" * 253, "256 bytes long", id="256 bytes"),
        pytest.param("é" * 126, "at most 255", id="é 126 times"),  # 252 bytes, 504 decomposed as macOS may store it
        ("bad\udcff", "'bad\\xff' is not valid UTF-8"),
        ("", "not a usable"),
        ("..", "not a usable"),
        (".hidden", "not a usable"),
    ],
)
def test_a_page_name_no_system_can_hold_is_refused(name: str, says: str) -> None:
    problem = name_problem(name, ".md")
    assert problem is not None and says in problem


@pytest.mark.parametrize(
    ("name", "says"), [("v1.", "ends with '.'"), ("trailing ", "not a usable"), ("NUL", "device name")]
)
def test_a_folder_name_no_system_can_hold_is_refused(name: str, says: str) -> None:
    problem = name_problem(name)
    assert problem is not None and says in problem


@pytest.mark.parametrize("name", ["Acme Inc.", "Console", "CONFIG", "LPT10", "Café", "日本語", "x.y", "z" * 252])
def test_names_every_system_holds_are_accepted(name: str) -> None:
    assert name_problem(name, ".md") is None  # "Acme Inc..md" ends in "md", not in a dot


def test_escaped_writes_undecodable_bytes_as_escapes() -> None:
    assert escaped("ok é \\ x") == "ok é \\ x"
    assert escaped("bad\udcff") == "bad\\xff"
    assert escaped("lone\ud800") == "lone\\ud800"


@pytest.mark.parametrize(
    ("new", "says"),
    [
        ("back\\slash", "not allowed"),  # not a folder `back` holding `slash.md`
        ("CON", "device name"),
        ("nul.md", "device name"),
        ("folder./x", "ends with '.'"),
        ("NUL/x", "device name"),
        pytest.param("x" * 253, "bytes long", id="256 bytes"),
        ("Dana\udcff", "not valid UTF-8"),
        ("\\root", "inside the vault"),
    ],
)
def test_a_rename_to_such_a_name_changes_nothing(tmp_path: Path, new: str, says: str) -> None:
    root = make_vault(tmp_path / "v", {"Old.md": "x", "l.md": "[[Old]]"})
    before = tree(root)
    with pytest.raises(EditError) as raised:
        plan_rename(load_vault(root, use_cache=False), "Old", new)
    assert says in str(raised.value)
    assert tree(root) == before


def test_a_name_that_fills_a_file_name_is_written(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"Old.md": "x", "l.md": "[[Old]]"})
    longest = "y" * (MAX_NAME_BYTES - len(".md"))
    apply(root, plan_rename(load_vault(root, use_cache=False), "Old", longest))
    assert (root / f"{longest}.md").read_bytes().endswith(b"x")
    assert (root / "l.md").read_text() == f"[[{longest}]]"


def test_a_temporary_name_does_not_grow_with_the_page_name(tmp_path: Path) -> None:
    short, long = atomic._temporary_name(tmp_path / "a.md"), atomic._temporary_name(tmp_path / ("y" * 252 + ".md"))
    assert len(short.name) == len(long.name) < 40
    assert short.name.startswith(".") and short.name.endswith(atomic.TEMPORARY_SUFFIX)


def test_recovery_removes_the_temporaries_of_a_long_named_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_vault(tmp_path / "v", {"Old.md": "x", "l.md": "[[Old]]"})
    longest = "y" * (MAX_NAME_BYTES - len(".md"))

    def killed(step: str) -> None:  # the writer dies once every temporary file is written
        if step.startswith("write "):
            raise KeyboardInterrupt

    monkeypatch.setattr(journal, "before_step", killed)
    monkeypatch.setattr(atomic, "_discard", lambda tmp: None)  # as if killed: nothing cleaned up
    with pytest.raises(KeyboardInterrupt):
        apply(root, plan_rename(load_vault(root, use_cache=False), "Old", longest))
    assert [p for p in os.listdir(root) if p.endswith(atomic.TEMPORARY_SUFFIX)]
    monkeypatch.undo()
    recover(root)
    assert not [p for p in os.listdir(root) if p.endswith(atomic.TEMPORARY_SUFFIX)]
    assert (root / "Old.md").read_text() == "x"


def test_proposed_titles_are_names_every_system_holds(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {"2026-08-14 What broke: the pool?.md": "# What broke: the pool?\n\nThe connection pool ran dry.\n"},
    )
    vault = load_vault(root, use_cache=False)
    title, _, _ = derive_title(vault, "2026-08-14 What broke: the pool?.md")
    assert title and name_problem(title, ".md") is None
    for text in ("CON is what the device is called", "nul.", "x" * 400 + " is long", "bell\x07 rings: now"):
        assert name_problem(title_for(text), ".md") is None
