"""Pages found without a link are no orphans: an agent's workspace (a new user's OpenClaw vault had
108 orphan warnings in 113 pages) keeps files its harness loads by name, a prose MEMORY.md names
its logs by their absolute paths, and its daily session logs are found by their date."""

from __future__ import annotations

from pathlib import Path

from helpers import make_vault

from curator.core.check.findings import check_vault
from curator.core.read.loading import load_vault
from curator.core.state.config import Config

BODY = "Some text that is long enough to be no stub at all, written out over more than a line. " * 2


def _orphans(root: Path) -> list[str]:
    vault = load_vault(root, Config(rules={"untyped": "off", "stub": "off"}), use_cache=False)
    return sorted(f.path for f in check_vault(vault) if f.rule == "orphan")


def test_an_agents_workspace_has_no_orphans_its_harness_or_index_finds(tmp_path: Path) -> None:
    memory = (
        "# MEMORY.md\n\n## Preferences\n"
        "- Log meals in /home/duane/.openclaw/workspace/memory/food-log.md with EST timestamps.\n"
        "- Sleep goes to ~/workspace/memory/sleep-log.md, symptoms to `memory/symptoms-log.md`.\n"
        "- An example in a fence names nothing:\n```\nmemory/in-a-fence.md\n```\n" + BODY * 20
    )
    root = make_vault(
        tmp_path / "v",
        {
            "MEMORY.md": memory,
            "AGENTS.md": BODY,
            "SOUL.md": BODY,
            "USER.md": BODY,
            "TOOLS.md": BODY,
            "agents/analyst/SOUL.md": BODY,
            "skills/obsidian-append/SKILL.md": BODY,
            "memory/food-log.md": BODY,
            "memory/sleep-log.md": BODY,
            "memory/symptoms-log.md": BODY,
            "memory/in-a-fence.md": BODY,
            **{f"memory/2026-03-{day:02}.md": BODY for day in range(1, 21)},  # a daily series
            "notes/Gateway recovery.md": BODY,
        },
    )
    # Left: a page nothing finds (the fence's example is no mention), and a user's note.
    assert _orphans(root) == ["memory/in-a-fence.md", "notes/Gateway recovery.md"]


def test_a_users_notes_and_users_folder_are_not_loaded_by_name(tmp_path: Path) -> None:
    # `USER.md` is loaded by name, `users.md` and `Soul.md` are notes like any other.
    root = make_vault(
        tmp_path / "v", {"users.md": BODY, "Soul.md": BODY, "USER.md": BODY, "a.md": f"[[b]] {BODY}", "b.md": BODY}
    )
    assert _orphans(root) == ["Soul.md", "users.md"]


def test_a_path_of_another_page_or_a_links_address_names_no_page(tmp_path: Path) -> None:
    memory = "# MEMORY.md\n\n- See /srv/other/memory/lost.md and https://example.com/memory/gone.md.\n" + BODY * 30
    root = make_vault(tmp_path / "v", {"MEMORY.md": memory, "memory/lost-and-found.md": BODY, "memory/gone.md": BODY})
    # `gone.md` is a web address's; `lost.md` is no page of the vault
    assert _orphans(root) == ["memory/gone.md", "memory/lost-and-found.md"]


def test_a_repositorys_front_files_and_a_skills_folder_are_found(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "README.md": BODY,
            "CHANGELOG.md": BODY,
            "readme-notes.md": BODY,  # a note, not a README
            "docs/README.md": BODY,  # a forge shows it with its folder
            "docs/changelog.md": BODY,  # the repository's changelog is at the top
            "skills/stocks/SKILL.md": f"---\nname: stocks\ndescription: Analyse a stock.\n---\n{BODY}",
            "skills/stocks/references/api.md": BODY,  # the skill reads it
            "skills/notes.md": BODY,  # in no skill's folder
            "notes/SKILL.md": "stub",  # no skill: it says no name or what it does
            "notes/sub/lost.md": BODY,
        },
    )
    expected = ["docs/changelog.md", "notes/sub/lost.md", "readme-notes.md", "skills/notes.md"]
    assert _orphans(root) == expected
    (root / "SKILL.md").write_text(f"---\nname: all\n---\n{BODY}", encoding="utf-8")  # a vault that is one skill
    assert _orphans(root) == expected


def test_a_docs_sites_link_to_a_built_page_finds_its_source(tmp_path: Path) -> None:
    """mdBook, Jekyll and Sphinx publish `x.md` as `x.html`: a link to it is no dead link."""
    root = make_vault(
        tmp_path / "v",
        {
            "a.md": f"See [b](./guide/b.html) and [gone](./gone.html). {BODY}",
            "guide/b.md": BODY,
            "page.html": "<p>x</p>",
        },
    )
    vault = load_vault(root, Config(rules={"untyped": "off"}), use_cache=False)
    assert [rl.resolution.path for rl in vault.outlinks("a.md")] == ["guide/b.md", None]


def test_a_memoirs_year_files_are_a_dated_series(tmp_path: Path) -> None:
    pages = {f"memory/mylife/{year}.md": BODY for year in range(1975, 1990)}
    root = make_vault(tmp_path / "v", {**pages, "memory/mylife/undated.md": BODY, "notes/1984 (novel).md": BODY})
    assert _orphans(root) == ["memory/mylife/undated.md", "notes/1984 (novel).md"]


def test_a_jekyll_sites_links_to_permalinks_find_their_pages(tmp_path: Path) -> None:
    """A team wiki links its pages by their `permalink:` (67 dead links and 95 orphans in a new
    user's Jekyll wiki); a link to no page's permalink is still dead."""
    table = "---\npermalink: /master-tables/ada-su-agency/\nlayout: home\n---\n# ada_su_agency\n\n" + BODY
    index = "# Master tables\n\n- [ada](/master-tables/ada-su-agency/)\n- [gone](/master-tables/gone/)\n" + BODY
    root = make_vault(tmp_path / "v", {"docs/tables/ada_su_agency.md": table, "docs/tables/index.md": index})
    vault = load_vault(root, Config(rules={"untyped": "off"}), use_cache=False)
    found = [rl.resolution.path for rl in vault.outlinks("docs/tables/index.md")]
    assert found == ["docs/tables/ada_su_agency.md", None]
    # the page keeps its address when it is renamed: the link is left as it is and still finds it
    from edit_helpers import rename

    # a page's own address comes before another page's path (`/docs/tables/index/` is no permalink here)
    rename(root, "docs/tables/ada_su_agency.md", "docs/tables/agency.md")
    assert (root / "docs/tables/index.md").read_text(encoding="utf-8") == index
    moved = load_vault(root, Config(rules={"untyped": "off"}), use_cache=False)
    assert [rl.resolution.path for rl in moved.outlinks("docs/tables/index.md")] == ["docs/tables/agency.md", None]


def test_the_index_need_not_list_what_the_harness_loads_by_name(tmp_path: Path) -> None:
    memory = "# Memory\n\n- [[a]]\n- [[b]]\n- [[c]]\n"
    pages = {"MEMORY.md": memory, **{f"{n}.md": BODY for n in "abc"}, "AGENTS.md": BODY, "SOUL.md": BODY, "d.md": BODY}
    vault = load_vault(make_vault(tmp_path / "v", pages), Config(rules={"index-drift": "info"}), use_cache=False)
    assert sorted(f.path for f in check_vault(vault) if f.rule == "index-drift") == ["d.md"]


def test_a_path_in_a_comment_the_frontmatter_an_address_or_a_fence_names_no_page(tmp_path: Path) -> None:
    """An attacker's hidden orphans: only the index's own text names a page."""
    memory = (
        "---\nold: memory/a.md\n---\n# Memory\n\n<!-- memory/b.md was deleted -->\n"
        "See https://x.com/?p=memory/c.md and https://x.com/#memory/d.md and file:memory/e.md.\n"
        "````\n```\nmemory/f.md\n````\n"
        "Old notes: /usr/share/doc/todo.md. Kept: `memory/g.md`.\n" + BODY * 30
    )
    pages = {"MEMORY.md": memory, **{f"memory/{n}.md": BODY for n in "abcdefg"}, "todo.md": BODY}
    root = make_vault(tmp_path / "v", pages)
    assert _orphans(root) == [*(f"memory/{n}.md" for n in "abcdef"), "todo.md"]


def test_a_long_run_of_path_characters_is_read_once(tmp_path: Path) -> None:
    """From every `@` of `@/@/...` the path pattern read to the line's end: a 100 KB line took
    100 s. Read once, this page takes no time worth a figure."""
    root = make_vault(tmp_path / "v", {"MEMORY.md": "# Memory\n\n" + "@/" * 50_000 + "\n", "a.md": BODY})
    assert _orphans(root) == ["a.md"]


def test_a_renamed_pages_built_link_stays_a_built_link(tmp_path: Path) -> None:
    """`[install](guide/install.html#step-2)` became `[install](setup#step-2)` on a rename, which
    the built site does not serve; and a folder's README is built as its `index.html`."""
    from edit_helpers import rename

    ref = f"[install](guide/install.html#step-2) and [home](./index.html). {BODY}"
    root = make_vault(tmp_path / "v", {"ref.md": ref, "guide/install.md": BODY, "README.md": BODY})
    vault = load_vault(root, Config(rules={"untyped": "off"}), use_cache=False)
    assert [rl.resolution.path for rl in vault.outlinks("ref.md")] == ["guide/install.md", "README.md"]
    rename(root, "guide/install.md", "guide/setup.md")
    assert (root / "ref.md").read_text(encoding="utf-8") == ref.replace("install.html", "setup.html")


def test_a_permalink_comes_before_a_pages_path_and_a_merge_keeps_the_kept_pages_links(tmp_path: Path) -> None:
    """An attacker's: `/a/num/` went to `a/num.md` though `a/claim.md` claims it; a merge rewrote
    links to the kept page's permalink into `other.md`, dead on the site."""
    from edit_helpers import merge

    claim = "---\npermalink: /a/num/\n---\n# Claim\n\n" + BODY
    other = "---\npermalink: /other/\n---\n# Other\n\n" + BODY
    index = f"- [n](/a/num/)\n- [o](/other/)\n{BODY}"
    pages = {"a/claim.md": claim, "a/num.md": BODY, "docs/other.md": other, "t/agency.md": BODY, "index.md": index}
    root = make_vault(tmp_path / "v", pages)
    vault = load_vault(root, Config(rules={"untyped": "off"}), use_cache=False)
    assert [rl.resolution.path for rl in vault.outlinks("index.md")] == ["a/claim.md", "docs/other.md"]
    merge(root, "t/agency.md", "docs/other.md")
    assert (root / "index.md").read_text(encoding="utf-8") == index


def test_an_html_anchor_is_a_place_a_markdown_link_may_name(tmp_path: Path) -> None:
    """A team wiki's `<a name="sources">` (23 of 25 broken anchors a new user judged wrong); a
    wikilink, which Obsidian resolves by headings alone, and a typo are still reported."""
    target = '# Install\n\n<a name="sources"></a>\n## Sources\n\n<div id="database-setup">x</div>\n' + BODY
    links = "[s](install.md#sources) [d](install.md#database-setup) [t](install.md#rancer) [[install#database-setup]]"
    root = make_vault(tmp_path / "v", {"install.md": target, "a.md": f"{links} {BODY}"})
    vault = load_vault(root, Config(rules={"untyped": "off"}), use_cache=False)
    found = sorted(f.message for f in check_vault(vault) if f.rule == "broken-anchor")
    assert len(found) == 2 and "'rancer'" in found[1] and "'database-setup'" in found[0]


def test_a_kramdown_attribute_list_gives_an_anchor(tmp_path: Path) -> None:
    """A new user's Jekyll site (just-the-docs): 145 of 169 broken anchors named `{: #corrections}`
    and `{: #32mm-system}` under a heading, which kramdown serves; `curator fix` would have
    rewritten 4 working ones. A Liquid tag (`{{ site.x }}`) gives none."""
    target = "# Time\n\n## Corrections and retroactive entries\n{: #corrections}\n\n## Boring {#32mm-system}\n\n"
    target += "See {{ site.baseurl }}/x and {{#raw}}.\n\n" + BODY
    links = "[c](time.md#corrections) [b](time.md#32mm-system) [r](time.md#raw) [[time#corrections]]"
    root = make_vault(tmp_path / "v", {"time.md": target, "a.md": f"{links} {BODY}"})
    vault = load_vault(root, Config(rules={"untyped": "off"}), use_cache=False)
    found = sorted(f.message for f in check_vault(vault) if f.rule == "broken-anchor")
    assert len(found) == 2 and "'corrections'" in found[0] and "'raw'" in found[1]


def test_folders_the_index_names_hold_no_orphans_and_no_day_needs_listing(tmp_path: Path) -> None:
    memory = "# Memory\n\n- [[a]]\n- [[b]]\n- [[c]]\n\nLessons: `memory/lessons/`; a day: `memory/YYYY-MM-DD.md`.\n"
    days = {f"memory/2026-02-{d:02}.md": BODY for d in range(1, 8)}
    pages = {"MEMORY.md": memory, **{f"{n}.md": BODY for n in "abc"}, "memory/lessons/x.md": BODY, **days}
    root = make_vault(tmp_path / "v", {**pages, "memory/loose.md": BODY})
    vault = load_vault(root, Config(rules={"untyped": "off", "stub": "off"}), use_cache=False)
    found = sorted((f.rule, f.path) for f in check_vault(vault) if f.rule in ("orphan", "index-drift"))
    assert found == [("index-drift", "memory/loose.md"), ("orphan", "memory/loose.md")]


def test_a_sites_post_named_by_its_date_is_no_diary_title(tmp_path: Path) -> None:
    post = "---\ntitle: Council of Mentors\n---\n" + BODY
    dated = "---\ntitle: Standup 2021-01-12\n---\n" + BODY
    pages = {"posts/2021-01-11-council-of-mentors.md": post, "posts/2021-01-12-standup.md": dated, "x.md": BODY}
    root = make_vault(tmp_path / "v", {**pages, "Ticket 4711 vom 29.07.2026 - Zertifikat abgelaufen.md": BODY})
    vault = load_vault(root, Config(rules={"untyped": "off"}), use_cache=False)
    assert sorted(f.path for f in check_vault(vault) if f.rule == "diary-title") == [
        "Ticket 4711 vom 29.07.2026 - Zertifikat abgelaufen.md",
        "posts/2021-01-12-standup.md",
    ]
