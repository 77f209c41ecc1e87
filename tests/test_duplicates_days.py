"""The duplicate rule on one thing an agent wrote up again on another day, in sibling day folders,
and on the day's outputs filed the same way that are each day's own."""

from __future__ import annotations

from pathlib import Path

from helpers import duplicates, make_vault

from curator.core.meaning.duplicates import find, kept_of
from curator.core.read.loading import load_vault

FIRST = (
    "# Deep Dive: p-e-w/heretic\n\n## Overview\nFully automatic removal of refusals from transformer "
    "models by optimised directional ablation.\n\n## Relevance\n- Medium: could uncensor a local model.\n"
)
AGAIN = (
    "# Deep Dive: p-e-w/heretic\n\n## Overview\nHeretic strips safety alignment from language models "
    "with an automatic parameter search over ablation weights.\n\n## Concerns\n- Needs an NVIDIA GPU.\n"
)
THIRD = (
    "# Deep Dive: p-e-w/heretic\n\nA third look: the tool now supports four-bit quantised models and "
    "a thousand published models on the hub use it.\n"
)


def test_one_repository_written_up_on_three_days_is_merged_into_the_latest(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "research/github/2026-02-08/deep-dive-heretic.md": FIRST,
            "research/github/2026-02-19/deep-dive-heretic.md": THIRD,
            "research/github/2026-02-18/deep-dive-heretic.md": AGAIN,
            "research/github/2026-02-08/trending.md": "# GitHub Trending — 2026-02-08\n\n- p-e-w/heretic\n",
            "research/github/2026-02-18/trending.md": "# GitHub Trending — 2026-02-18\n\n- p-e-w/heretic\n",
        },
    )
    found = {(d.page, d.other): d for d in duplicates(root)}
    latest = "research/github/2026-02-19/deep-dive-heretic.md"
    assert set(found) == {
        ("research/github/2026-02-08/deep-dive-heretic.md", latest),
        ("research/github/2026-02-18/deep-dive-heretic.md", latest),
    }
    first = found["research/github/2026-02-08/deep-dive-heretic.md", latest]
    assert first.evidence == (
        "same heading 'Deep Dive: p-e-w/heretic'",
        "p-e-w/heretic written up again on a later day",
    )
    assert first.fix == "merge"


def test_a_post_bookmarked_on_two_days_is_one_thing_by_its_address(tmp_path: Path) -> None:
    post = (
        "# Bookmark Analysis: 2019320073970737162\n\n- **URL:** https://x.com/illscience/status/2019320073970737162\n\n"
    )
    root = make_vault(
        tmp_path / "v",
        {
            "bookmarks/2026-02-08/2019320073970737162.md": post + "A thread on agents keeping their own memory.\n",
            "bookmarks/2026-02-11/2019320073970737162.md": post + "Summarised again: memory files per agent.\n",
            "bookmarks/2026-02-08/2019320073970737999.md": "# Bookmark Analysis: 2019320073970737999\n\nNo source.\n",
            "bookmarks/2026-02-11/2019320073970737999.md": "# Bookmark Analysis: 2019320073970737999\n\nStill none.\n",
        },
    )
    found = [(d.page, d.other, d.evidence[-1]) for d in duplicates(root)]
    assert found == [
        (
            "bookmarks/2026-02-08/2019320073970737162.md",
            "bookmarks/2026-02-11/2019320073970737162.md",
            "x.com/illscience/status/2019320073970737162 written up again on a later day",
        )
    ]


def test_each_days_output_of_one_kind_is_its_own(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            # one heading naming the kind of output, no repository and no address of its own
            "content/bank/2026-05-26/niche-growth-post-pack.md": "# Niche Growth Post Pack\n\n- Post one.\n",
            "content/bank/2026-05-27/niche-growth-post-pack.md": "# Niche Growth Post Pack\n\n- Post two.\n",
            # a slash between two words or capitals names no repository
            "reviews/2026-05-26/pipeline.md": "# CI/CD Review\n\nThe build took nine minutes.\n",
            "reviews/2026-05-27/pipeline.md": "# CI/CD Review\n\nThe build took four minutes.\n",
            "reviews/2026-05-26/io.md": "# Input/Output\n\nDisk writes doubled.\n",
            "reviews/2026-05-27/io.md": "# Input/Output\n\nDisk writes halved.\n",
            # one repository, but two names in folders that are no days
            "runs/alpha/deep-dive.md": FIRST,
            "runs/beta/deep-dive.md": AGAIN,
            # one repository under one name, but the folders are a day and a day's run
            "tests/2026-05-27-market-research/deep-dive.md": FIRST,
            "tests/2026-05-27-product-hunt/deep-dive.md": AGAIN,
        },
    )
    assert duplicates(root) == []


def test_the_later_write_up_stays_though_the_earlier_has_more_links_or_text(tmp_path: Path) -> None:
    files = {
        "research/2026-02-08/deep-dive-heretic.md": FIRST + "\n" + AGAIN.split("\n", 1)[1],  # the larger
        "research/2026-02-20/deep-dive-heretic.md": THIRD,
        "index.md": "See [[research/2026-02-08/deep-dive-heretic]].",
    }
    vault = load_vault(make_vault(tmp_path / "v", files), use_cache=False)
    (pair,) = find(vault)
    assert pair.page == "research/2026-02-08/deep-dive-heretic.md"
    assert kept_of(vault, pair, 1, 0)[0] == "research/2026-02-20/deep-dive-heretic.md"


def test_a_days_log_or_output_that_names_a_repository_or_cites_one_source_is_its_own(tmp_path: Path) -> None:
    files = {}
    for day, words in (("2026-02-08", "Fixed the login bug."), ("2026-02-09", "Reviewed the retry patch.")):
        files |= {
            f"journal/{day}/worklog.md": f"# Work log: acme/api\n\n{words}\n",  # the log is the day's, not the repo's
            f"reports/{day}/latency.md": f"# Read/write latency report\n\n{words}\n",  # words with a slash
            f"reports/{day}/wind.md": f"# Wind speed in km/h\n\n{words}\n",
            # one source every day's output cites: a site, not a page of one thing
            f"trending/{day}/trending.md": f"# Trending repositories\n\n- URL: https://github.com/trending\n\n{words}\n",
            # two repositories under one heading: each page gives its own
            f"dives/{day}/deep-dive-server.md": (
                f"# Deep Dive: llama/server\n\n- Repository: https://github.com/{day}/server\n\n{words}\n"
            ),
        }
    files["bogus/2026-19-39/deep-dive-heretic.md"] = FIRST  # no day: month 19
    files["bogus/2026-19-40/deep-dive-heretic.md"] = AGAIN
    assert duplicates(make_vault(tmp_path / "v", files)) == []


def test_a_day_folders_page_linked_to_the_others_is_one_file(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"research/2026-02-08/deep-dive-heretic.md": FIRST})
    (root / "research/2026-02-20").mkdir()
    (root / "research/2026-02-20/deep-dive-heretic.md").symlink_to("../2026-02-08/deep-dive-heretic.md")
    assert duplicates(root) == []
