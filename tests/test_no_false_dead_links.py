"""Links Obsidian resolves must never be reported dead, whatever form they take."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from urllib.parse import quote

from helpers import make_vault
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.core.check.findings import check_vault
from curator.core.read.loading import load_vault

NAMES = [
    "Zoë",
    "Café menu",
    "naïve plan",
    "Straße",
    "日本語ノート",
    "README",
    "todo",
    "Ops: on-call",
    "v1.2 notes",
    "a&b",
]
FOLDERS = ["", "work", "work/deep", "Archiv", "Ünïcode"]


def link_forms(path: str, source_folder: str) -> list[str]:
    """Ways a page at `path` can be linked from a page in `source_folder`, as Obsidian accepts them."""
    title = path.rsplit("/", 1)[-1][:-3]
    stem = path[:-3]
    rel = (
        Path(path).relative_to(source_folder).as_posix()
        if source_folder and path.startswith(source_folder + "/")
        else None
    )
    forms = [
        f"[[{stem}]]",
        f"[[{stem}|label]]",
        f"[[{stem}#Intro]]",
        f"![[{stem}]]",
        f"[[{stem.upper()}]]",
        f"[[{unicodedata.normalize('NFD', stem)}]]",
        f"[x](/{quote(path)})",
        f"[[{title}]]",  # bare name: may be ambiguous, never dead
    ]
    if rel:
        forms.append(f"[x]({quote(rel)})")
        forms.append(f"[[./{rel[:-3]}]]")
    return forms


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    pages=st.lists(st.tuples(st.sampled_from(FOLDERS), st.sampled_from(NAMES)), min_size=2, max_size=12, unique=True),
    seed=st.integers(0, 10_000),
)
def test_links_to_existing_pages_are_never_dead(tmp_path_factory, pages, seed) -> None:  # type: ignore[no-untyped-def]
    paths = [f"{folder}/{name}.md".lstrip("/") for folder, name in pages]
    files: dict[str, str | bytes] = {}
    for i, path in enumerate(paths):
        target = paths[(i + seed) % len(paths)]
        folder = path.rsplit("/", 1)[0] if "/" in path else ""
        body = "\n".join(link_forms(target, folder))
        broken = "---\ntags: [oops\n---\n" if i % 3 == 0 else "---\ntype: topic\n---\n"
        files[path] = f"{broken}# Intro\n{body}\n"
    root = make_vault(tmp_path_factory.mktemp("v"), files)
    vault = load_vault(root, use_cache=False)
    dead = [f.message for f in check_vault(vault) if f.rule in ("dead-link", "broken-anchor")]
    assert dead == []


def test_a_docs_sites_link_to_a_folder_names_its_index_page_and_its_slugs_drop_accents(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "docs/dienste/gitea/index.md": "# Gitea\n\n## PostgreSQL-abhängige Dienste\n\nText.\n",
            "docs/netz/README.md": "# Netz\n\nSee [Gitea](../dienste/gitea/) and "
            "[its database](../dienste/gitea/#postgresql-abhangige-dienste).\n"
            "Back to [this folder](./) and [Gitea again](../dienste/gitea).\n",
            "docs/leer/note.md": "# Note\n\nA [folder without an index](../dienste/) is dead.\n",
        },
    )
    findings = check_vault(load_vault(root))
    dead = sorted((f.rule, f.path) for f in findings if f.rule in ("dead-link", "broken-anchor"))
    assert dead == [("dead-link", "docs/leer/note.md")]


def test_a_file_the_ignore_globs_leave_out_is_no_dead_link(tmp_path: Path) -> None:
    """The configuration guide's own example (`ignore = ["templates/", "*.excalidraw.md"]`) made
    every link to a drawing or a template a dead link: the files are there, only not pages."""
    root = make_vault(
        tmp_path / "v",
        {
            ".curator.toml": 'ignore = ["templates/", "*.excalidraw.md", "archive/"]\n',
            "a.md": "# A\n\n![[Drawing 1.excalidraw]] [[Drawing 1.excalidraw.md]] [[templates/daily]] [[daily]]"
            " [old](archive/2019/old.md) ![](archive/2019/chart.png) [[2019/old]] [[Nowhere]]\n",
            "Excalidraw/Drawing 1.excalidraw.md": "{}\n",
            "templates/daily.md": "# Daily\n",
            "archive/2019/old.md": "# Old\n",
            "archive/2019/chart.png": "png",
        },
    )
    vault = load_vault(root, use_cache=False)
    assert sorted(vault.pages) == ["a.md"]
    dead = [f.data["target"] for f in check_vault(vault) if f.rule == "dead-link"]
    assert dead == ["Nowhere"]


def test_a_left_out_file_takes_no_links_name(tmp_path: Path) -> None:
    """An attacker's: a left-out template took links from a basic-memory title, an alias, a page
    at a nearer path, and made bare names ambiguous. A link resolves as if left-out files were not
    there; only a link that would be dead is not reported, when it names one."""
    bm = "---\ntype: note\npermalink: notes/{}\ntitle: {}\n---\n# {}\n\n{}\n"
    root = make_vault(
        tmp_path / "v",
        {
            ".curator.toml": 'ignore = ["templates/", "/archive/"]\nresolve_aliases = true\n',
            "a.md": bm.format("a", "A", "A", "[[Step Three]] [[Standup]] [[Meeting]] ![[img.png]] [[daily]]"),
            "step-three.md": bm.format("step-three", "Step Three", "Step Three", "[[A]]"),
            "b.md": "---\naliases: [Standup]\ntype: note\npermalink: notes/b\n---\n# B\n",
            "Meeting.md": bm.format("meeting", "Meeting", "Meeting", ""),
            "img.png": "png",
            "projects/index.md": bm.format("projects", "Projects", "Projects", "[[archive/Plan]]"),
            "projects/archive/Plan.md": "# Plan\n",
            "templates/Step Three.md": "# T\n",
            "templates/Standup.md": "# T\n",
            "templates/Meeting.md": "# T\n",
            "templates/img.png": "png",
            "templates/a/daily.md": "# T\n",
            "templates/b/daily.md": "# T\n",
            "archive/Plan.md": "# Old plan\n",
        },
    )
    vault = load_vault(root, use_cache=False)
    resolved = {rl.link.target: (rl.resolution.kind, rl.resolution.path) for rl in vault.links}
    assert resolved["Step Three"] == ("page", "step-three.md")
    assert resolved["Standup"] == ("page", "b.md")
    assert resolved["Meeting"] == ("page", "Meeting.md")
    assert resolved["img.png"] == ("attachment", "img.png")
    assert resolved["archive/Plan"] == ("page", "projects/archive/Plan.md")
    findings = check_vault(vault)
    assert not [f for f in findings if f.rule in ("dead-link", "ambiguous-link", "orphan")]
