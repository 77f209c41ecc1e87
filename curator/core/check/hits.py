"""What a rule reports (`Hit`), how hits become findings (severity from the config, a stable
fingerprint), and what a fix is (`Fix`): shared by every rule's module in this room."""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from curator.core.common.fast import sha1
from curator.core.common.rules import Finding
from curator.core.read.link_order import DENDRON, wikilink
from curator.core.read.page import Page
from curator.core.read.vault import ResolvedLink, Vault


class Hit(NamedTuple):
    """A rule's raw result; `key` tells it apart from other hits of the rule on the same page."""

    rule: str
    path: str
    message: str
    key: str = ""
    line: int | None = None
    column: int | None = None
    data: dict[str, Any] | None = None


def fingerprint(rule: str, path: str, key: str) -> str:
    return sha1(f"{rule}\0{path}\0{key}".encode()).hexdigest()[:16]


class Fix(NamedTuple):
    """One finding's fix: `before` at `offset` in `path` becomes `after`."""

    finding: Finding
    path: str  # the page the fix changes (the index page for index drift)
    offset: int
    before: str
    after: str
    target: str  # the page the new link names


def order(f: Finding) -> tuple[str, int, int, str]:
    return (f.path, f.line or 0, f.column or 0, f.rule)


def findings_of(vault: Vault, hits: list[Hit]) -> list[Finding]:
    """Hits as findings: severity from the config (off rules dropped), fingerprints, sorted."""
    config = vault.config
    findings: list[Finding] = []
    seen: Counter[tuple[str, str, str]] = Counter()
    for hit in hits:
        severity = config.severity(hit.rule)
        if severity is None:
            continue
        # The same rule, page and key twice (the same dead link written twice) stays distinct.
        nth = seen[(hit.rule, hit.path, hit.key)]
        seen[(hit.rule, hit.path, hit.key)] += 1
        key = hit.key if nth == 0 else f"{hit.key}\0{nth}"
        findings.append(
            Finding(
                hit.rule,
                severity,
                hit.path,
                hit.line,
                hit.column,
                hit.message,
                fingerprint(hit.rule, hit.path, key),
                hit.data or {},
            )
        )
    findings.sort(key=order)
    return findings


def written(rl: ResolvedLink) -> str:
    """A link as its page writes it."""
    link = rl.link
    anchor = f"#{link.anchor}" if link.anchor is not None else ""
    if link.syntax == "markdown":
        return f"[{link.label or ''}]({link.target}{anchor})"
    return ("!" if link.embed else "") + wikilink(f"{link.target}{anchor}", link.label, link.syntax == DENDRON)


def readable(vault: Vault, path: str) -> Page | None:
    page = vault.pages.get(path)
    return page if page is not None and page.unreadable is None else None
