from __future__ import annotations

import unicodedata

import pytest

from curator.core.read.resolve import Resolution, Resolver, folder_distance

PAGES = [
    "Home.md",
    "projects/house/todo.md",
    "work/todo.md",
    "work/notes.md",
    "people/Zoë.md",
    "deep/a/b/Leaf.md",
    "Certificate renewal.md",
    "v1.2 release.md",
]
FILES = ["assets/diagram.png", "work/spec.pdf"]


@pytest.fixture
def resolver() -> Resolver:
    return Resolver(PAGES, FILES, {"Certificate renewal.md": ("cert renewal",)})


def test_bare_names_match_titles_case_insensitively(resolver: Resolver) -> None:
    assert resolver.resolve("Home.md", "home").path == "Home.md"
    assert resolver.resolve("Home.md", "CERTIFICATE RENEWAL").path == "Certificate renewal.md"
    assert resolver.resolve("Home.md", "Leaf.md").path == "deep/a/b/Leaf.md"
    assert resolver.resolve("Home.md", "v1.2 release").path == "v1.2 release.md"


def test_names_are_nfc_normalised(resolver: Resolver) -> None:
    decomposed = unicodedata.normalize("NFD", "Zoë")
    assert decomposed != "Zoë"
    assert resolver.resolve("Home.md", decomposed).path == "people/Zoë.md"


def test_nearest_page_wins_a_shared_name_and_the_ambiguity_is_kept(resolver: Resolver) -> None:
    from_work = resolver.resolve("work/notes.md", "todo")
    assert from_work.path == "work/todo.md"
    assert set(from_work.candidates) == {"work/todo.md", "projects/house/todo.md"}
    from_house = resolver.resolve("projects/house/plan.md", "todo")
    assert from_house.path == "projects/house/todo.md"


def test_folder_paths_resolve_from_the_root_then_by_suffix(resolver: Resolver) -> None:
    assert resolver.resolve("Home.md", "house/todo").path == "projects/house/todo.md"
    assert resolver.resolve("Home.md", "house/todo").candidates == ()
    assert resolver.resolve("Home.md", "projects/house/todo").path == "projects/house/todo.md"
    assert resolver.resolve("Home.md", "a/b/Leaf").path == "deep/a/b/Leaf.md"
    assert resolver.resolve("Home.md", "elsewhere/todo").kind == "dead"


def test_relative_paths_resolve_as_paths(resolver: Resolver) -> None:
    assert resolver.resolve("work/notes.md", "./todo").path == "work/todo.md"
    assert resolver.resolve("work/notes.md", "../Home.md").path == "Home.md"
    assert resolver.resolve("work/notes.md", "/projects/house/todo").path == "projects/house/todo.md"
    assert resolver.resolve("work/notes.md", "./Home").kind == "dead"


def test_targets_outside_the_vault_are_dead(resolver: Resolver) -> None:
    for target in ("../../outside.md", "../../../etc/passwd", "/../x.md"):
        found = resolver.resolve("work/notes.md", target, markdown=True)
        assert found.kind == "dead" and found.outside, target


def test_markdown_links_are_relative_paths_first(resolver: Resolver) -> None:
    assert resolver.resolve("work/notes.md", "todo.md", markdown=True).path == "work/todo.md"
    assert resolver.resolve("work/notes.md", "../projects/house/todo.md", markdown=True).path == (
        "projects/house/todo.md"
    )
    # Obsidian's "shortest path" markdown links name a file anywhere.
    assert resolver.resolve("work/notes.md", "Home.md", markdown=True).path == "Home.md"


def test_attachments_resolve_by_name_or_path(resolver: Resolver) -> None:
    assert resolver.resolve("Home.md", "diagram.png").kind == "attachment"
    assert resolver.resolve("Home.md", "diagram.png").path == "assets/diagram.png"
    assert resolver.resolve("work/notes.md", "spec.pdf", markdown=True).path == "work/spec.pdf"
    assert resolver.resolve("Home.md", "assets/diagram.png").kind == "attachment"
    assert resolver.resolve("Home.md", "missing.png").kind == "dead"


def test_aliases_resolve_only_when_asked(resolver: Resolver) -> None:
    off = resolver.resolve("Home.md", "Cert Renewal")
    assert off.kind == "dead" and off.alias_of == ("Certificate renewal.md",)
    on = Resolver(PAGES, FILES, {"Certificate renewal.md": ("cert renewal",)}, resolve_aliases=True)
    assert on.resolve("Home.md", "cert renewal").path == "Certificate renewal.md"


def test_empty_target_is_the_page_itself(resolver: Resolver) -> None:
    assert resolver.resolve("work/notes.md", "").path == "work/notes.md"


def test_folder_distance() -> None:
    assert folder_distance("", "a.md") == 0
    assert folder_distance("work", "work/todo.md") == 0
    assert folder_distance("work", "projects/house/todo.md") == 3
    assert folder_distance("projects/house", "projects/house/todo.md") == 0


def test_folder_suffixes_find_pages_by_title_and_attachments_by_name() -> None:
    pages = ["notes/Deep/Page.MD", "sub/lib/x.md.md", "other/Page.md"]
    resolver = Resolver(pages, ["media/a/b/image.png"], {})
    assert resolver.resolve("other/Page.md", "Deep/Page").path == "notes/Deep/Page.MD"
    assert resolver.resolve("other/Page.md", "deep/page.md").path == "notes/Deep/Page.MD"
    assert resolver.resolve("other/Page.md", "lib/x.md").path == "sub/lib/x.md.md"
    found = resolver.resolve("other/Page.md", "b/image.png")
    assert (found.kind, found.path) == ("attachment", "media/a/b/image.png")
    assert resolver.resolve("other/Page.md", "b/image").kind == "dead"


def test_the_spelling_written_wins_between_names_that_differ_in_case_only() -> None:
    resolver = Resolver(["Notes/MaaS.md", "Notes/MAAS.md"], [], {})
    assert resolver.resolve("Notes/MAAS.md", "MaaS") == Resolution("page", "Notes/MaaS.md")
    assert resolver.resolve("Notes/MaaS.md", "MAAS") == Resolution("page", "Notes/MAAS.md")
    assert resolver.resolve("Index.md", "Notes/MaaS") == Resolution("page", "Notes/MaaS.md")
    assert resolver.resolve("Index.md", "Notes/MaaS.md", markdown=True) == Resolution("page", "Notes/MaaS.md")
    assert resolver.resolve("Index.md", "maas").candidates  # neither spelling: still two pages


def test_a_docs_sites_url_path_finds_the_page_its_numbered_files_serve() -> None:
    pages = [
        "src/content/docs/datapack/01-introduction/05-actions.md",
        "src/content/docs/datapack/02-powers/index.md",
        "src/content/blog/2026-08-22-scripting-with-kubejs.md",
        "guides/a/setup.md",
        "guides/b/setup.md",
    ]
    resolver = Resolver(pages, [], {})
    home = "src/content/docs/addon/03-contexts.md"
    assert resolver.resolve(home, "/docs/datapack/introduction/actions", True).path == pages[0]
    assert resolver.resolve(home, "/docs/datapack/powers/", True).path == pages[1]
    assert resolver.resolve(home, "/blog/scripting-with-kubejs", True).path == pages[2]
    assert resolver.resolve(home, "/docs/datapack/introduction/conditions", True).kind == "dead"  # no such page
    assert resolver.resolve(home, "/setup", True).kind == "dead"  # a lone name guesses nothing
    assert resolver.resolve(home, "/guides/setup", True).kind == "dead"  # two pages would answer


def test_a_wiki_js_url_path_names_its_page_after_its_language() -> None:
    """A German Wiki.js wiki links `/de/Wiki-Seiten/...`: 43 of its 78 dead links were such pages."""
    pages = ["Wiki-Seiten/Microsoft/Allgemein/powershell.md", "de/Handbuch/start.md", "Handbuch/start.md"]
    resolver = Resolver(pages, [], {})
    home = "Wiki-Seiten/Linux/linux.md"
    assert resolver.resolve(home, "/de/Wiki-Seiten/Microsoft/Allgemein/powershell", True).path == pages[0]
    assert resolver.resolve(home, "/de/Handbuch/start", True).path == pages[1]  # a folder `de` is a folder
    assert resolver.resolve(home, "/de/powershell", True).kind == "dead"  # a lone name guesses nothing
    other = Resolver(["en/ops/backup.md", "python/tools/lint.md"], [], {})
    assert other.resolve("x.md", "/de/ops/backup", True).kind == "dead"  # another language's page
    assert other.resolve("x.md", "/go/tools/lint", True).kind == "dead"  # `go` is no language
