"""A basic-memory vault names pages by their frontmatter `title:`: its links resolve, a merge and a
rename keep them, and `fix` leaves them alone (a new user's vault: 116 of 127 dead links were
titles, every page an orphan, and `fix` rewrote 18 links to the wrong page)."""

from __future__ import annotations

from pathlib import Path

from edit_helpers import dead_count, merge, rename
from helpers import make_vault

from curator.core.check.findings import check_vault
from curator.core.read.loading import load_vault


def note(title: str, permalink: str, body: str) -> str:
    return f"---\ntitle: {title}\ntype: note\npermalink: {permalink}\n---\n\n# {title}\n\n{body}\n"


def basic_memory(root: Path) -> Path:
    return make_vault(
        root,
        {
            "decisions/2026-07-09-step-02-decisions.md": note(
                "Step 2 Decisions 2026-07-09", "proj/decisions/2026-07-09-step-02-decisions", "Second step."
            ),
            "decisions/2026-07-09-step-03-decisions.md": note(
                "Step 3 Decisions 2026-07-09",
                "proj/decisions/2026-07-09-step-03-decisions",
                "- follows [[Step 2 Decisions 2026-07-09]]",
            ),
            "index.md": note(
                "Project Index",
                "proj/index",
                "- [[Step 3 Decisions 2026-07-09]]\n- [[Step 2 Decisions 2026-07-09]]\n- [[Nowhere To Be Found]]",
            ),
        },
    )


def test_links_by_title_resolve_in_a_basic_memory_vault(tmp_path: Path) -> None:
    root = basic_memory(tmp_path / "v")
    vault = load_vault(root, use_cache=False)
    dead = [f for f in check_vault(vault) if f.rule == "dead-link"]
    assert [f.data["target"] for f in dead] == ["Nowhere To Be Found"]
    assert not [f for f in check_vault(vault) if f.rule == "orphan"]


def test_a_jekyll_sites_titles_name_no_page(tmp_path: Path) -> None:
    """A site's permalinks start at its root: its wikilinks keep Obsidian's rules."""
    files = {
        "a.md": "---\ntitle: Alpha Page\npermalink: /alpha/\n---\nText.\n",
        "b.md": "---\ntitle: Beta\npermalink: /beta/\n---\n[[Alpha Page]]\n",
    }
    vault = load_vault(make_vault(tmp_path / "v", files), use_cache=False)
    assert [f.data["target"] for f in check_vault(vault) if f.rule == "dead-link"] == ["Alpha Page"]


def test_rename_retitles_and_merge_names_the_kept_title(tmp_path: Path) -> None:
    """A second new user: renaming "Herald Sync Model" by its title found no page, and by its path
    moved the file only, its title and the six links by it as they were."""
    root = basic_memory(tmp_path / "v")
    rename(root, "Step 2 Decisions 2026-07-09", "decisions/Second Step")
    moved = (root / "decisions/Second Step.md").read_text()
    assert "title: Second Step\n" in moved and "aliases" not in moved
    assert "[[Second Step]]" in (root / "index.md").read_text()
    assert "- follows [[Second Step]]" in (root / "decisions/2026-07-09-step-03-decisions.md").read_text()
    merge(root, "decisions/2026-07-09-step-03-decisions.md", "decisions/Second Step.md")
    assert "[[Second Step|Step 3 Decisions 2026-07-09]]" in (root / "index.md").read_text()
    assert dead_count(root) == 1  # Nowhere To Be Found


def test_a_remembered_page_carries_a_title_and_a_permalink(tmp_path: Path) -> None:
    """A new user's basic-memory vault: a page remember added had neither, so no link by title
    could name it and basic-memory would give it an address of its own making."""
    from curator.core.change.changes import apply
    from curator.core.curate.remember import remember

    root = basic_memory(tmp_path / "v")
    vault = load_vault(root, use_cache=False)
    proposal = remember(vault, "The Lexoffice: invoices go out as ZUGFeRD 2.2 files every month.")
    assert proposal.decision == "add" and proposal.plan is not None
    apply(root, proposal.plan)
    page = load_vault(root, use_cache=False).pages[proposal.page or ""]
    assert page.frontmatter["title"] == proposal.title
    assert page.frontmatter["permalink"] == "proj/" + (proposal.page or "")[:-3].lower().replace(" ", "-")


def test_a_merge_that_ends_the_reading_by_title_writes_paths(tmp_path: Path) -> None:
    """An attacker's vault at the threshold: merging one of its two pages with a permalink into the
    other left links by title dead, and the merge said nothing."""

    def page(title: str, slug: str) -> str:
        return f"---\ntitle: {title}\ntype: note\npermalink: notes/{slug}\n---\nThe text of {slug}.\n"

    files = {"plan.md": page("Project Plan", "plan"), "old.md": page("Old Plan", "old")}
    files |= {"index.md": "# Index\n\nSee [[Project Plan]] and [[Old Plan]].\n", "journal.md": "[[Project Plan]]\n"}
    root = make_vault(tmp_path / "v", files)
    merge(root, "old.md", "plan.md")
    assert dead_count(root) == 0
    assert (root / "index.md").read_text() == "# Index\n\nSee [[plan]] and [[plan|Old Plan]].\n"


def test_a_title_a_link_cannot_hold_is_written_as_a_path(tmp_path: Path) -> None:
    """An attacker's titles: `[[C# Tips|Old One]]` named a heading, `A|B` lost an anchor, `Weird]]`
    garbled the text, a quote broke the linking page's YAML."""
    for title in ("'C# Tips'", "'A|B Notes'", "'Weird]] Title'", "'x [draft]'", """'The "Best" Plan'"""):
        kept = f"---\ntitle: {title}\ntype: note\npermalink: notes/kept\n---\nKept.\n\n## Sec\n\ntext\n"
        old = "---\ntitle: Old One\ntype: note\npermalink: notes/old\n---\nOlder.\n"
        linker = '---\ntitle: Linker\ntype: note\npermalink: notes/linker\nrelated: "[[Old One]]"\n---\n'
        root = make_vault(tmp_path / str(len(list(tmp_path.iterdir()))), {"kept.md": kept, "old.md": old})
        (root / "linker.md").write_text(linker + "Read [[Old One]] and [[Old One#Sec|x]].\n")
        merge(root, "old.md", "kept.md")
        assert "Read [[kept|Old One]] and [[kept#Sec|x]]." in (root / "linker.md").read_text(), title
        assert 'related: "[[kept|Old One]]"' in (root / "linker.md").read_text(), title
        assert dead_count(root) == 0, title


def test_an_obsidian_publish_permalink_is_no_reading_by_title(tmp_path: Path) -> None:
    """Obsidian Publish's `permalink:` has no leading slash either; its pages carry no `type:`."""
    files = {
        "a.md": "---\ntitle: Kept Title\npermalink: kept\n---\nText.\n",
        "b.md": "---\npermalink: other\n---\n[[Kept Title]]\n",
    }
    vault = load_vault(make_vault(tmp_path / "v", files), use_cache=False)
    assert [f.data["target"] for f in check_vault(vault) if f.rule == "dead-link"] == ["Kept Title"]
