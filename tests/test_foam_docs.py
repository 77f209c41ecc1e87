"""The Foam documentation vault, read as Obsidian would; expectations come from reading the files."""

from __future__ import annotations

import pytest
from helpers import FOAM_DOCS

from curator.core.check.findings import check_vault
from curator.core.read.loading import load_vault

pytestmark = pytest.mark.skipif(not FOAM_DOCS.is_dir(), reason="../shared/vaults/foam-docs is not present")

# Dead links, each checked by hand:
EXPECTED_DEAD = {
    # `[CONTRIBUTING.md](../../CONTRIBUTING.md)` climbs above the vault root: outside, so dead.
    ("dev/contribution-guide.md", "../../CONTRIBUTING.md"),
    # From dev/design/, ../../user/publishing/publishing.md: that folder has no publishing.md.
    ("dev/design/static-site-publishing-research.md", "../../user/publishing/publishing.md"),
    # [[publishing]]: there is a folder user/publishing/ but no page named publishing.
    ("user/index.md", "publishing"),
    # [[cli-grep|foam grep]]: the page is user/tools/cli/grep.md, titled "grep".
    ("user/tools/cli/search.md", "cli-grep"),
}
# Pages nothing links to and that link to no page:
EXPECTED_ORPHANS = {
    "404.md",  # the site's error page
    "inbox.md",  # mentioned by name in recipes, never linked
    "dev/design/improved-static-site-generation.md",  # design notes, unlinked
    "dev/design/static-site-publishing-research.md",  # its one link is the dead one above
    "dev/devcontainers.md",
    "dev/releasing-foam.md",
    "dev/testing-conventions.md",
}


@pytest.fixture(scope="module")
def findings():  # type: ignore[no-untyped-def]
    return check_vault(load_vault(FOAM_DOCS, use_cache=False))


def test_dead_links_agree_with_an_obsidian_reading(findings) -> None:  # type: ignore[no-untyped-def]
    dead = {(f.path, f.data["target"]) for f in findings if f.rule == "dead-link"}
    assert dead == EXPECTED_DEAD


def test_orphans_agree_with_an_obsidian_reading(findings) -> None:  # type: ignore[no-untyped-def]
    assert {f.path for f in findings if f.rule == "orphan"} == EXPECTED_ORPHANS


def test_examples_inside_code_blocks_are_not_links(findings) -> None:  # type: ignore[no-untyped-def]
    # backlinking.md shows `[[Neural Networks]]` inside a ```markdown fence.
    vault = load_vault(FOAM_DOCS, use_cache=False)
    targets = {lk.target for lk in vault.pages["user/features/backlinking.md"].links}
    assert "Neural Networks" not in targets


def test_reading_the_shared_vault_writes_nothing_into_it() -> None:
    load_vault(FOAM_DOCS, use_cache=False)
    assert not (FOAM_DOCS / ".curator").exists()


def test_foam_links_by_suffix_and_relative_paths_resolve() -> None:
    vault = load_vault(FOAM_DOCS, use_cache=False)
    resolved = {rl.link.target: rl.resolution for rl in vault.links if rl.source == "user/features/wikilinks.md"}
    assert resolved["graph-view"].path == "user/features/graph-view.md"
    images = [rl for rl in vault.links if rl.link.target.endswith(".gif")]
    assert images and all(rl.resolution.kind == "attachment" for rl in images)
