"""Findings: what is wrong with a vault, each with a place, a message and a stable fingerprint.

Findings only read. Each rule lives in the module of its family (links, pages, index_page,
relations, secrets, duplicate_pages) as a generator of `Hit`s; `check_vault` runs them and gives
the hits severities from the config and fingerprints that survive unrelated edits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from curator.core.check import duplicate_pages, index_page, links, pages, relations, secrets
from curator.core.check.hits import Hit, findings_of, order
from curator.core.common.rules import Finding
from curator.core.read.vault import Vault

if TYPE_CHECKING:
    from curator.core.meaning.similarity import SimilarReport


def check_vault(vault: Vault, similar: SimilarReport | None = None) -> list[Finding]:
    """Every finding of every enabled rule, sorted by page, line and rule.

    `similar` is the embedding model's report for the opt-in `similar` rule; without it, it is
    computed when that rule is on.
    """
    if similar is None and vault.config.severity("similar") is not None:
        from curator.core.meaning.similarity import find_similar

        similar = find_similar(vault)
    hits = [hit for rule_check in CHECKS for hit in rule_check(vault)]
    if similar is not None:
        hits.extend(duplicate_pages.rule_similar(similar))
    return findings_of(vault, hits)


def with_similar(vault: Vault, findings: list[Finding], similar: SimilarReport) -> list[Finding]:
    """`findings` (checked without the model's report) plus the `similar` findings, in order."""
    return sorted([*findings, *findings_of(vault, list(duplicate_pages.rule_similar(similar)))], key=order)


CHECKS: tuple[Callable[[Vault], Iterator[Hit]], ...] = (
    pages.rule_unreadable,
    pages.rule_bad_frontmatter,
    links.rule_dead_links,
    relations.rule_relation_cycles,
    links.rule_ambiguous_links,
    links.rule_broken_anchors,
    pages.rule_orphans,
    pages.rule_stubs,
    pages.rule_diary_titles,
    pages.rule_untyped,
    index_page.rule_index,
    pages.rule_status_updates,
    secrets.rule_secrets,
    pages.rule_stale,
    duplicate_pages.rule_duplicates,
)
