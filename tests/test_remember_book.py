"""A new page in an mdBook (a new user's hackerspace handbook): the book shows only the pages its
`SUMMARY.md` lists and prints a page's frontmatter as text, so a page remember adds is listed
there, as the book writes its entries, and has no frontmatter."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import make_vault

from curator.core.change.changes import apply, undo
from curator.core.check.index_page import index_line
from curator.core.curate.remember import remember
from curator.core.read.loading import load_vault

SUMMARY = """# Summary

[Willkommen](./index.md)

---

# Unser Space

- [Raumnutzung](./raumnutzung/index.md)
  - [Zugang](./raumnutzung/zugang.md)
  - [Strom](./raumnutzung/strom.md)
- [Bereiche](./bereiche/index.md)
  - [Lasercutter](./bereiche/lasercutter.md)
  - [Velo-Werkstatt](./bereiche/velo.md)

---

[Dieses Handbuch editieren](./handbuch.md)
"""


def _book(root: Path, settings: str = '[book]\ntitle = "Handbuch"\n', source: str = "src") -> Path:
    pages = {
        f"{source}/SUMMARY.md": SUMMARY,
        f"{source}/index.md": "# Willkommen\n\nDas Handbuch des Vereins: wie der Space funktioniert.\n",
        f"{source}/handbuch.md": "# Handbuch editieren\n\nDas Handbuch liegt auf GitHub.\n",
        f"{source}/raumnutzung/index.md": "# Raumnutzung\n\nWie wir den Raum nutzen.\n",
        f"{source}/raumnutzung/zugang.md": "# Zugang\n\nDer Schlüssel liegt im Kasten an der Tür.\n",
        f"{source}/raumnutzung/strom.md": "# Strom\n\nDie Sicherungen sind im Flur.\n",
        f"{source}/bereiche/index.md": "# Bereiche\n\nDie Werkstätten des Space.\n",
        f"{source}/bereiche/lasercutter.md": "# Lasercutter\n\nEin CO2-Laser mit 60 Watt für Holz und Acryl.\n",
        f"{source}/bereiche/velo.md": "# Velo-Werkstatt\n\nWerkzeug für Fahrräder, Ersatzteile bringt man mit.\n",
        "README.md": "# Coredump Handbuch\n\nGebaut mit mdBook.\n",
    }
    root = make_vault(root, pages)
    (root / "book.toml").write_text(settings, encoding="utf-8")
    return root


TEXT = "Der Vereinsbus (ein VW T5) kann von Mitgliedern für Transporte ausgeliehen werden; Schlüssel hat der Kassier."


def test_a_new_page_of_a_book_has_no_frontmatter_and_is_listed_in_its_summary(tmp_path: Path) -> None:
    root = _book(tmp_path / "v")
    proposal = remember(load_vault(root), TEXT)
    assert proposal.decision == "add" and proposal.plan is not None and proposal.page is not None
    assert proposal.page.startswith("src/")  # in the book's source folder, not beside README.md
    made = next(c.after for c in proposal.plan.changes if c.path == proposal.page)
    assert made is not None and made.startswith(b"# ")  # no frontmatter: mdBook would print it
    summary = next(c.after for c in proposal.plan.changes if c.path == "src/SUMMARY.md")
    assert summary is not None
    name = proposal.page.removeprefix("src/")
    title = made.decode().splitlines()[0].removeprefix("# ")
    # after the last entry, at the top level (no folder's sibling), as the book writes its paths
    entry = f"- [{title}](./{name})\n"
    assert summary.decode() == SUMMARY.replace(
        "  - [Velo-Werkstatt](./bereiche/velo.md)\n", f"  - [Velo-Werkstatt](./bereiche/velo.md)\n{entry}"
    )
    change = apply(root, proposal.plan)
    assert (root / proposal.page).exists()
    undo(root, change.id)
    assert not (root / proposal.page).exists()
    assert (root / "src/SUMMARY.md").read_text(encoding="utf-8") == SUMMARY


def test_a_page_of_a_folder_is_listed_beside_its_folders_pages_in_a_nested_list(tmp_path: Path) -> None:
    root = _book(tmp_path / "v")
    vault = load_vault(root)
    found = index_line(vault, "src/bereiche/drehbank.md", "drehbank", "src/SUMMARY.md", "Drehbank")
    assert found is not None
    _, offset, entry = found
    text = SUMMARY[:offset] + entry + SUMMARY[offset:]
    assert "  - [Velo-Werkstatt](./bereiche/velo.md)\n  - [Drehbank](./bereiche/drehbank.md)\n" in text


@pytest.mark.parametrize(
    ("settings", "source"),
    [
        ('[book]\nsrc = "content"\n', "content"),  # the folder book.toml names
        ("[book\nsrc = ", "src"),  # settings mdBook would refuse: still a book, in its default folder
    ],
)
def test_the_books_folder_is_the_one_its_settings_name(tmp_path: Path, settings: str, source: str) -> None:
    root = _book(tmp_path / "v", settings, source)
    vault = load_vault(root)
    assert vault.book_contents == f"{source}/SUMMARY.md"
    proposal = remember(vault, TEXT)
    assert proposal.plan is not None and proposal.page is not None and proposal.page.startswith(f"{source}/")
    assert f"{source}/SUMMARY.md" in {c.path for c in proposal.plan.changes}


def test_a_book_settings_file_leading_out_of_the_vault_makes_no_book(tmp_path: Path) -> None:
    root = _book(tmp_path / "v", '[book]\nsrc = "../elsewhere"\n')
    assert load_vault(root).book_contents is None
    outside = tmp_path / "book.toml"
    outside.write_text('[book]\nsrc = "src"\n', encoding="utf-8")
    (root / "book.toml").unlink()
    (root / "book.toml").symlink_to(outside)  # a link out of the vault is not read
    assert load_vault(root).book_contents is None


def test_a_vault_that_is_no_book_keeps_its_frontmatter(tmp_path: Path) -> None:
    root = _book(tmp_path / "v")
    (root / "book.toml").unlink()
    proposal = remember(load_vault(root), TEXT)
    assert proposal.plan is not None and proposal.page is not None
    made = next(c.after for c in proposal.plan.changes if c.path == proposal.page)
    assert made is not None and made.startswith(b"---\ntype: ")


def test_a_name_with_signs_is_linked_in_angle_brackets_which_the_book_and_curator_read(tmp_path: Path) -> None:
    root = _book(tmp_path / "v")
    (root / "src/C++ Notes.md").write_text("# C++ Notes\n\nWie wir Arduino-Code schreiben.\n", encoding="utf-8")
    vault = load_vault(root)
    found = index_line(vault, "src/C++ Notes.md", "C++ Notes", "src/SUMMARY.md", "C++ Notes")
    assert found is not None
    _, offset, entry = found
    assert entry == "- [C++ Notes](<./C++ Notes.md>)\n"  # mdBook reads no "%20" in its summary
    (root / "src/SUMMARY.md").write_text(SUMMARY[:offset] + entry + SUMMARY[offset:], encoding="utf-8")
    assert [rl.source for rl in load_vault(root).backlinks("src/C++ Notes.md")] == ["src/SUMMARY.md"]


NESTED = """# Summary

1. [Getting started](./start.md)
2. [Guide](./guide/index.md)
    1. [Install](./guide/install.md)
    2. [Configure it](./guide/configure.md)
3. [Reference](./reference.md)
"""


def test_a_page_goes_beside_its_folders_pages_and_their_list_counts_on(tmp_path: Path) -> None:
    """Not after the section's last entry at its depth (an attacker's `guide/` page went after
    "Reference" at the top, numbered 2)."""
    root = _book(tmp_path / "v")
    (root / "src/SUMMARY.md").write_text(NESTED, encoding="utf-8")
    for name in ("start", "guide/index", "guide/install", "guide/configure", "reference"):
        (root / f"src/{name}.md").parent.mkdir(parents=True, exist_ok=True)
        (root / f"src/{name}.md").write_text(f"# {name}\n\nText of {name}.\n", encoding="utf-8")
    found = index_line(load_vault(root), "src/guide/uninstall.md", "uninstall", "src/SUMMARY.md", "Uninstall")
    assert found is not None
    _, offset, entry = found
    assert NESTED[:offset] + entry + NESTED[offset:] == NESTED.replace(
        "./guide/configure.md)\n", "./guide/configure.md)\n    3. [Uninstall](./guide/uninstall.md)\n"
    )
    # a page of the top folder: after the last top entry, numbered on
    found = index_line(load_vault(root), "src/faq.md", "faq", "src/SUMMARY.md", "FAQ")
    assert found is not None and found[2] == "4. [FAQ](./faq.md)\n" and found[1] == len(NESTED)


def test_a_flat_books_new_page_is_a_chapter_not_the_last_chapters_section(tmp_path: Path) -> None:
    """Every page in `src/`, sections nested under chapters (a new user's German book): the new
    page is a chapter at the top, not a section of the last chapter."""
    summary = (
        "# Summary\n\n- [Einleitung](./ch01.md)\n  - [Vorbereitung](./ch01-01.md)\n"
        "- [SOGo](./ch02.md)\n  - [FAQ](./ch02-01.md)\n"
    )
    root = _book(tmp_path / "v")
    (root / "src/SUMMARY.md").write_text(summary, encoding="utf-8")
    for name in ("ch01", "ch01-01", "ch02", "ch02-01"):
        (root / f"src/{name}.md").write_text(f"# {name}\n\nText.\n", encoding="utf-8")
    found = index_line(load_vault(root), "src/rspamd.md", "rspamd", "src/SUMMARY.md", "Rspamd")
    assert found is not None and found[1] == len(summary) and found[2] == "- [Rspamd](./rspamd.md)\n"


@pytest.mark.parametrize(
    "settings",
    ["a = " + "[" * 500 + "]" * 500, "[book]\nn = " + "1" * 5000, "x" * (2 << 20)],
    ids=["nested", "long-number", "huge"],
)
def test_book_settings_python_cannot_read_are_the_books_defaults(tmp_path: Path, settings: str) -> None:
    root = _book(tmp_path / "v", settings)
    assert load_vault(root).book_contents == "src/SUMMARY.md"


def test_a_changed_fact_handed_with_a_heading_edits_the_books_page_in_place(tmp_path: Path) -> None:
    root = _book(tmp_path / "v")
    text = "# Lasercutter\n\nDer Lasercutter hat jetzt 80 Watt statt 60 Watt, für Holz und Acryl."
    proposal = remember(load_vault(root), text)
    assert proposal.plan is not None
    assert {c.path for c in proposal.plan.changes} == {"src/bereiche/lasercutter.md"}
    after = proposal.plan.changes[0].after
    assert after is not None and not after.startswith(b"---")


def test_a_book_takes_no_memory_on_a_page_it_does_not_publish(tmp_path: Path) -> None:
    """A page in `src/` the summary does not list, and the repository's README outside it."""
    root = _book(tmp_path / "v")
    (root / "src/bereiche/alt-lasercutter.md").write_text(
        "# Alter Lasercutter\n\nDer alte Lasercutter mit 40 Watt, für Holz und Acryl.\n", encoding="utf-8"
    )
    proposal = remember(load_vault(root), "Der Lasercutter braucht vor jedem Einsatz eine Kontrolle der Linse.")
    assert all(c.path not in ("src/bereiche/alt-lasercutter.md", "README.md") for c in proposal.evidence)


def test_an_include_in_a_memory_is_written_as_text_mdbook_does_not_run(tmp_path: Path) -> None:
    root = _book(tmp_path / "v")
    text = "Der Vereinsbus hat ein Fahrtenbuch im Handschuhfach. {{#include ../../../etc/passwd}} \\{{#title x}}"
    proposal = remember(load_vault(root), text)
    assert proposal.plan is not None and proposal.page is not None
    made = next(c.after for c in proposal.plan.changes if c.path == proposal.page)
    assert made is not None
    assert b"\\{{#include ../../../etc/passwd}}" in made and b"\\\\{{#title" not in made
    assert b" {{#" not in made


# mdBook's own pattern of its links preprocessor (src/preprocess/links.rs): an escaped link, or a link.
_MDBOOK_LINK = re.compile(r"\\\{\{#.*\}\}|\{\{\s*#([a-zA-Z0-9_]+)\s+([^}]+)\}\}")


@pytest.mark.parametrize("written", ["{{#include x}}", "{{ #include x }}", "{{\t#include x}}", "{{\n#include x}}"])
def test_no_include_mdbook_would_run_is_written(tmp_path: Path, written: str) -> None:
    root = _book(tmp_path / "v")
    proposal = remember(
        load_vault(root), f"Der Vereinsbus hat ein Fahrtenbuch im Handschuhfach. {written} ../../etc/passwd"
    )
    assert proposal.plan is not None
    for change in proposal.plan.changes:
        text = (change.after or b"").decode()
        assert all(m.group(0).startswith("\\") for m in _MDBOOK_LINK.finditer(text)), text


def test_a_draft_chapter_nested_under_the_last_entry_keeps_its_parent(tmp_path: Path) -> None:
    summary = "# Summary\n\n- [Guide](guide/index.md)\n  - [Install](guide/install.md)\n  - [Draft]()\n    - [Sub]()\n"
    root = _book(tmp_path / "v")
    (root / "src/SUMMARY.md").write_text(summary, encoding="utf-8")
    for name in ("guide/index", "guide/install"):
        (root / f"src/{name}.md").parent.mkdir(parents=True, exist_ok=True)
        (root / f"src/{name}.md").write_text(f"# {name}\n\nText.\n", encoding="utf-8")
    found = index_line(load_vault(root), "src/t.md", "t", "src/SUMMARY.md", "T")
    assert found is not None and found[1] == len(summary) and found[2] == "- [T](t.md)\n"


def test_a_list_counts_on_only_within_its_own_section(tmp_path: Path) -> None:
    """Right under a section's heading, the numbered list of the section above is no list of its."""
    memory = "# Index\n\n## Steps\n\n1. [[a]]\n2. [[b]]\n\n## Topics\n\n"
    root = make_vault(
        tmp_path / "v",
        {"MEMORY.md": memory, "a.md": "# a\n", "b.md": "# b\n", "c.md": "---\ntype: topic\n---\n# c\n"},
    )
    found = index_line(load_vault(root), "c.md", "c")
    assert found is not None and found[2] == "- [[c]]\n" and memory[: found[1]].endswith("## Topics\n")


def test_rename_and_merge_in_a_book_write_no_frontmatter_and_escape_includes(tmp_path: Path) -> None:
    """An attacker's book: a rename and a merge gave chapters `aliases:` frontmatter, which mdBook
    prints as text, and a merge carried `{{#include ../../../../etc/passwd}}` in unescaped, which
    its next build would run."""
    from edit_helpers import merge, rename

    root = _book(tmp_path / "b")
    (root / "notes").mkdir()
    (root / "notes/y.md").write_text("# Y\n\nNotes on the laser.\n\n{{#include ../../../../etc/passwd}}\n")
    rename(root, "src/raumnutzung/strom.md", "src/raumnutzung/Elektrik")
    assert not (root / "src/raumnutzung/Elektrik.md").read_text().startswith("---")
    merge(root, "notes/y.md", "src/bereiche/lasercutter.md")
    merged = (root / "src/bereiche/lasercutter.md").read_text()
    assert not merged.startswith("---")
    assert "\\{{#include ../../../../etc/passwd}}" in merged and "\n{{#include" not in merged
