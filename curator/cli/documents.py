"""Every JSON document curator prints, each with its schema name.

The schema of each is published as `curator/schemas/<name>-v<version>.json` (see `SCHEMAS`), and
the tests validate every command's output against it. SARIF, a standard of its own, is built in
`lint_formats.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from curator import __version__

if TYPE_CHECKING:
    import networkx as nx

    from curator.core.change.edits import Plan
    from curator.core.change.journal import Entry
    from curator.core.check.hits import Fix
    from curator.core.check.lint import LintReport
    from curator.core.curate.dream import DreamResult
    from curator.core.curate.remember import Proposal
    from curator.core.curate.suggestions import Suggestion
    from curator.core.meaning.search import SearchResult
    from curator.core.read.query import Result
    from curator.core.read.stats import Stats
    from curator.core.read.vault import Vault
    from curator.core.state.trust import TrustedVault

LINT = "curator.lint/1"
GRAPH = "curator.graph/1"
CHANGE = "curator.change/1"
HISTORY = "curator.history/1"
UNDO = "curator.undo/1"
SUGGESTIONS = "curator.suggestions/1"
DREAM = "curator.dream/1"
APPLY = "curator.apply/1"
SEARCH = "curator.search/1"
TRUST = "curator.trust/1"
FIX = "curator.fix/1"
REMEMBER = "curator.remember/1"
QUERY = "curator.query/1"
STATS = "curator.stats/1"
# What only the MCP server (`curator mcp`) answers with: curator/mcp/tools.py builds them.
PAGE = "curator.page/1"
CONTEXT = "curator.context/1"
RECENT = "curator.recent/1"
INDEX = "curator.index/1"
FINDINGS = "curator.findings/1"
SCHEMAS = (
    LINT,
    GRAPH,
    CHANGE,
    HISTORY,
    UNDO,
    SUGGESTIONS,
    DREAM,
    APPLY,
    SEARCH,
    TRUST,
    FIX,
    REMEMBER,
    QUERY,
    STATS,
    PAGE,
    CONTEXT,
    RECENT,
    INDEX,
    FINDINGS,
)


def schema_file(schema: str) -> str:
    """`curator.lint/1` -> `schemas/lint-v1.json` (inside the curator package)."""
    name, version = schema.removeprefix("curator.").split("/")
    return f"schemas/{name}-v{version}.json"


def lint(report: LintReport, summary: dict[str, Any]) -> dict[str, Any]:
    return {
        "schema": LINT,
        "curator": __version__,
        "vault": report.vault,
        "summary": summary,
        "findings": [f.as_dict() for f in report.findings],
    }


def graph(links: nx.DiGraph) -> dict[str, Any]:
    from curator.core.read.graph import components, orphan_clusters

    return {
        "schema": GRAPH,
        "nodes": [{"id": node, "kind": kind} for node, kind in sorted(links.nodes(data="kind"))],
        "edges": [
            {"source": a, "target": b, "count": d["count"], "kinds": sorted(d["kinds"])}
            for a, b, d in sorted(links.edges(data=True), key=lambda e: (e[0], e[1]))
        ],
        "components": len(components(links)),
        "orphan_clusters": orphan_clusters(links),
    }


def change(plan: Plan, entry: Entry | None) -> dict[str, Any]:
    """A rename or merge: applied (`entry`), or only planned (a dry run)."""
    return {
        "schema": CHANGE,
        "id": entry.id if entry else None,
        "applied": entry is not None,
        "kind": plan.kind,
        "reason": plan.reason,
        "details": plan.details,
        "links_rewritten": plan.links_rewritten,
        "files": [{"path": c.path, "action": file_action(c.before, c.after)} for c in plan.changes],
        "commit": (entry.commit or None) if entry else None,
        "not_committed": (entry.not_committed or None) if entry else None,
        "notes": list(plan.notes),
    }


def file_action(before: bytes | None, after: bytes | None) -> str:
    return "create" if before is None else "delete" if after is None else "edit"


def history(entries: list[Entry], reverted: set[str] | frozenset[str] = frozenset()) -> dict[str, Any]:
    """`reverted`: ids of applied changes whose files were put back outside curator."""
    return {
        "schema": HISTORY,
        "changes": [
            {
                "id": e.id,
                "kind": e.kind,
                "reason": e.reason,
                "time": e.time,
                "state": e.state,
                "files": e.paths,
                "commit": e.commit or None,
                "not_committed": e.not_committed or None,
                "reverted_outside": e.id in reverted,
                "by": e.author,
                "suggested_by": e.suggested_by,
            }
            for e in entries
        ],
    }


def undo(entry: Entry) -> dict[str, Any]:
    record = entry.undo
    return {
        "schema": UNDO,
        "id": entry.id,
        "files": record.paths if record else [],
        "commit": (record.commit or None) if record else None,
        "not_committed": (record.not_committed or None) if record else None,
    }


def suggestion(s: Suggestion) -> dict[str, Any]:
    return {
        "id": s.id,
        "kind": s.kind,
        "pages": s.pages,
        "title": s.title,
        "survivor": s.survivor,
        "reason": s.reason,
        "evidence": s.evidence,
        "status": s.status,
        "change": s.change,
        "proposer": s.proposer,
    }


def suggestions(
    listed: list[Suggestion], diffs: dict[str, tuple[str | None, str | None]] | None = None
) -> dict[str, Any]:
    """The suggestions; with `diffs`, each pending one's diff planned now (or why it cannot be)."""
    shown = [suggestion(s) for s in listed]
    for item in shown:
        if diffs is not None and item["id"] in diffs:
            item["diff"], item["not_applicable"] = diffs[item["id"]]
    return {"schema": SUGGESTIONS, "suggestions": shown}


def dream(result: DreamResult) -> dict[str, Any]:
    return {"schema": DREAM, "looked_at": result.looked_at, "proposed": [suggestion(s) for s in result.proposed]}


def applied(s: Suggestion, entry: Entry) -> dict[str, Any]:
    """An accepted suggestion and the change that applied it."""
    return {"schema": APPLY, **suggestion(s), "commit": entry.commit or None}


def search(result: SearchResult) -> dict[str, Any]:
    return {
        "schema": SEARCH,
        "query": result.query,
        "hits": [
            {
                "path": h.path,
                "title": h.title,
                "score": h.score,
                "section": h.section,
                "snippet": h.snippet,
                "reasons": h.reasons,
            }
            for h in result.hits
        ],
    }


def trust(vaults: list[TrustedVault]) -> dict[str, Any]:
    return {"schema": TRUST, "vaults": [entry._asdict() for entry in vaults]}


def fixes(done: list[tuple[Fix, Entry | None]], dry_run: bool) -> dict[str, Any]:
    """What `curator fix` did (or, in a dry run, would do): one change a fix."""
    return {
        "schema": FIX,
        "dry_run": dry_run,
        "fixes": [
            {
                "fingerprint": fix.finding.fingerprint,
                "rule": fix.finding.rule,
                "path": fix.finding.path,
                "line": fix.finding.line,
                "file": fix.path,
                "before": fix.before,
                "after": fix.after,
                "target": fix.target,
                "change": entry.id if entry else None,
                "commit": (entry.commit or None) if entry else None,
                "not_committed": (entry.not_committed or None) if entry else None,
            }
            for fix, entry in done
        ],
    }


def remembered(proposal: Proposal, entry: Entry | None, queued: Suggestion | None = None) -> dict[str, Any]:
    """What `curator remember` decided, with its evidence, and the change when it was applied, or
    the suggestion it waits as (or a person rejected it as, before)."""
    return {
        "schema": REMEMBER,
        "decision": proposal.decision,
        "page": proposal.page,
        "title": proposal.title,
        "reason": proposal.reason,
        "evidence": [{"path": c.path, "score": c.score, "why": c.why} for c in proposal.evidence],
        "files": [c.path for c in proposal.plan.changes] if proposal.plan else [],
        "applied": entry is not None,
        "change": entry.id if entry else None,
        "commit": (entry.commit or None) if entry else None,
        "suggestion": queued.id if queued else None,
        "review": proposal.review,
        "rejected": queued is not None and queued.status == "rejected",
    }


def query(text: str, result: Result, vault: Vault) -> dict[str, Any]:
    """The pages a query matched (with the fields it named), or in edge mode the edges."""
    from curator.core.read.query import field_value

    def page(path: str) -> dict[str, Any]:
        fields = {name: field_value(vault, path, name) for name in result.fields if "." not in name}
        return {"path": path, "title": vault.pages[path].title, "fields": fields}

    return {
        "schema": QUERY,
        "query": text,
        "count": len(result.edges) if result.kind else len(result.pages),
        "pages": [page(path) for path in result.pages],
        "edges": [{"kind": result.kind, "from": a, "to": b} for a, b in result.edges],
    }


def stats(counted: Stats) -> dict[str, Any]:
    return {
        "schema": STATS,
        "pages": counted.pages,
        "links": counted.links,
        "findings": counted.findings,
        "by": counted.by,
    }
