"""Fixes for findings that need no human choice, each a plan for the edit engine: applied through
the journal like a rename (one change, one commit, its own undo).

- a dead link with a did-you-mean: the link names the suggested page, its label and anchor kept;
- a dead link to another page's alias: `[[Title|alias]]` (the alias stays what the reader sees);
- an ambiguous link: the shortest path that names the page it resolves to now.

Every fix is checked before it is offered: the new link must resolve to the page it means.
"""

from __future__ import annotations

import posixpath
from typing import NamedTuple
from urllib.parse import quote

from curator.core.edits import FileChange, Plan, explicit_target, markdown_dest_span, wiki_target_span
from curator.core.errors import EditError
from curator.core.findings import Hit, findings_of, rule_ambiguous_links, rule_dead_links
from curator.core.page import Link
from curator.core.resolve import fold
from curator.core.rules import Finding
from curator.core.vault import Vault

FIXABLE_RULES = ("dead-link", "ambiguous-link")


class Fix(NamedTuple):
    """One finding's fix: the link as written now and as it will be."""

    finding: Finding
    before: str
    after: str
    target: str  # the page the new link names


def link_findings(vault: Vault) -> list[Finding]:
    """The findings of the rules that have fixes (fingerprints as `curator lint` prints them)."""
    hits: list[Hit] = [*rule_dead_links(vault), *rule_ambiguous_links(vault)]
    return findings_of(vault, hits)


def fix_for(vault: Vault, finding: Finding) -> Fix | None:
    """The fix of `finding`, or None when it has none that needs no choice."""
    if finding.rule not in FIXABLE_RULES or finding.line is None:
        return None
    link = _link_at(vault, finding)
    if link is None:
        return None
    target = _target_page(vault, finding)
    if target is None:
        return None
    text = vault.text_of(finding.path)
    raw = text[link.offset : link.offset + link.length]
    markdown = link.syntax == "markdown"
    if markdown:
        start, end = markdown_dest_span(raw)
        folder = posixpath.dirname(finding.path)
        dest = posixpath.relpath(target, folder or ".") if finding.rule == "dead-link" else None
        written = dest or explicit_target(vault.resolver, finding.path, target, True) + ".md"
        new = raw[:start] + quote(written, safe="/") + raw[end:]
        name = written
    else:
        start, end = wiki_target_span(raw)
        name = explicit_target(vault.resolver, finding.path, target, False)
        new = raw[:start] + name + raw[end:]
        if finding.data.get("alias_of") and link.label is None:  # the alias stays what the reader sees
            new = new[: new.rindex("]]")] + f"|{link.target}]]"
    found = vault.resolver.resolve(finding.path, name, markdown)
    if found.path != target:
        return None  # the new link would not name the page it means: no fix without a choice
    return Fix(finding, raw, new, target)


def plan_fix(vault: Vault, fingerprint: str) -> tuple[Fix, Plan]:
    """The plan that applies the fix of the finding with `fingerprint`, as the vault is now."""
    finding = next((f for f in link_findings(vault) if f.fingerprint == fingerprint), None)
    if finding is None:
        raise EditError(f"no finding {fingerprint} with a fix in the vault now (see 'curator lint')")
    fix = fix_for(vault, finding)
    if fix is None:
        raise EditError(f"finding {fingerprint} ({finding.rule} in {finding.path}) has no fix without a choice")
    link = _link_at(vault, finding)
    assert link is not None  # fix_for found it
    before = (vault.root / finding.path).read_bytes()
    text = before.decode("utf-8")
    if text[link.offset : link.offset + link.length] != fix.before:
        raise EditError(f"{finding.path} changed since it was read; nothing was changed")
    after = (text[: link.offset] + fix.after + text[link.offset + link.length :]).encode("utf-8")
    reason = f"Fix {finding.rule} in {finding.path}:{finding.line}: {fix.before} → {fix.after}"
    details = {"fingerprint": fingerprint, "rule": finding.rule, "path": finding.path}
    return fix, Plan("fix", reason, (FileChange(finding.path, before, after),), {}, 1, (), details)


def _link_at(vault: Vault, finding: Finding) -> Link | None:
    page = vault.pages.get(finding.path)
    if page is None or page.unreadable is not None or page.bad_encoding:
        return None
    return next((k for k in page.links if k.line == finding.line and k.column == finding.column), None)


def _target_page(vault: Vault, finding: Finding) -> str | None:
    data = finding.data
    if finding.rule == "ambiguous-link":
        chosen = data.get("chosen")
        return chosen if isinstance(chosen, str) and chosen in vault.pages else None
    if data.get("alias_of"):
        owners = data["alias_of"]
        return owners[0] if len(owners) == 1 else None  # several pages claim the alias: a choice
    guess = data.get("did_you_mean")
    if not isinstance(guess, str):
        return None
    pages = vault.resolver.titles().get(fold(guess), [])
    return min(pages) if pages else None
