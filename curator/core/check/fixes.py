"""Fixes for findings that need no human choice, each a plan for the edit engine: applied through
the journal like a rename (one change, one commit, its own undo). Each fix is described beside its
rule (links.py: dead, ambiguous and broken-anchor links; index_page.py: index drift); this module
finds the fixable findings and plans the one asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from curator.core.change.edits import FileChange, Plan
from curator.core.check import index_page, links
from curator.core.check.hits import Fix, Hit, findings_of
from curator.core.common.errors import EditError
from curator.core.common.names import visible
from curator.core.common.rules import Finding
from curator.core.read.vault import Vault

FIXES: dict[str, Callable[[Vault, Finding], Fix | None]] = {
    **dict.fromkeys(links.FIXABLE, links.fix_link),
    "index-drift": index_page.fix_drift,
}
FIXABLE_RULES = tuple(FIXES)


def fixable_findings(vault: Vault) -> list[Finding]:
    """The findings of the rules that have fixes (fingerprints as `curator lint` prints them)."""
    hits: list[Hit] = [
        *links.rule_dead_links(vault),
        *links.rule_ambiguous_links(vault),
        *links.rule_broken_anchors(vault),
        *(hit for hit in index_page.rule_index(vault) if hit.rule == "index-drift"),
    ]
    return findings_of(vault, hits)


def fix_for(vault: Vault, finding: Finding) -> Fix | None:
    """The fix of `finding`, or None when it has none that needs no choice."""
    fix = FIXES.get(finding.rule)
    return None if fix is None else fix(vault, finding)


def chosen_fixes(vault: Vault, fingerprints: Iterable[str] = (), rules: Iterable[str] = ()) -> list[Fix]:
    """The fixes asked for: of the findings with these fingerprints (default: every one), of
    these rules (default: every fixable one); EditError for a rule without such fixes or a
    fingerprint the vault has no fixable finding for."""
    wanted, picked = set(fingerprints), set(rules)
    for rule in sorted(picked):
        if rule not in FIXABLE_RULES:
            raise EditError(f"no fix without a choice for {rule!r} (curator fixes: {', '.join(FIXABLE_RULES)})")
    findings = fixable_findings(vault)
    missing = sorted(wanted - {f.fingerprint for f in findings})
    if missing:
        raise EditError(f"no finding {missing[0]} with a fix in the vault (see the lint findings)")
    return [
        fix
        for f in findings
        if (not wanted or f.fingerprint in wanted) and (not picked or f.rule in picked)
        if (fix := fix_for(vault, f)) is not None
    ]


class FindingGone(EditError):
    """The finding a fix was offered for is no longer there (a fix before it mended it)."""


def planner(fix: Fix) -> Callable[[Vault], Plan]:
    """What plans `fix` against the vault as it is when the change is made (under the lock)."""
    return lambda vault: plan_fix(vault, fix.finding.fingerprint, fix)[1]


def plan_fix(vault: Vault, fingerprint: str, like: Fix | None = None) -> tuple[Fix, Plan]:
    """The plan that applies the fix of the finding with `fingerprint`, as the vault is now.

    `like`: the fix as it was offered. A link written twice on a page has a fingerprint by its
    turn, so once the first is fixed the third has the second's: a finding is found by the page,
    the rule and the edit, the one of that fingerprint first."""
    findings = fixable_findings(vault)
    if like is None:
        finding = next((f for f in findings if f.fingerprint == fingerprint), None)
    else:
        ordered = sorted(findings, key=lambda f: f.fingerprint != fingerprint)
        finding = next((f for f in ordered if _same_edit(vault, f, like)), None)
    if finding is None:
        raise FindingGone(f"no finding {fingerprint} with a fix in the vault now (see 'curator lint')")
    fix = fix_for(vault, finding)
    if fix is None:
        raise EditError(f"finding {fingerprint} ({finding.rule} in {finding.path}) has no fix without a choice")
    before = (vault.root / fix.path).read_bytes()
    text = before.decode("utf-8")
    end = fix.offset + len(fix.before)
    if text[fix.offset : end] != fix.before:
        raise EditError(f"{fix.path} changed since it was read; nothing was changed")
    after = (text[: fix.offset] + fix.after + text[end:]).encode("utf-8")
    shown = f"{visible(fix.before)} → {visible(fix.after)}" if fix.before else f"adds {visible(fix.after.strip())}"
    reason = f"Fix {finding.rule} in {finding.path}:{finding.line or 1}: {shown}"
    details = {"fingerprint": fingerprint, "rule": finding.rule, "path": fix.path}
    return fix, Plan("fix", reason, (FileChange(fix.path, before, after),), {}, 1, (), details)


def _same_edit(vault: Vault, finding: Finding, like: Fix) -> bool:
    if (finding.rule, finding.path) != (like.finding.rule, like.finding.path):
        return False
    fix = fix_for(vault, finding)
    return fix is not None and (fix.path, fix.before, fix.after, fix.target) == (
        like.path,
        like.before,
        like.after,
        like.target,
    )
