"""The tools that read the served vault: search, read_page, context, query, recent, index, findings.

Each takes the held vault (`Memory`) and the call's arguments (checked against its input schema
already) and returns the JSON document its output schema describes."""

from __future__ import annotations

import time
from typing import Any

from curator.cli import documents
from curator.mcp.memory import Memory
from curator.mcp.writing import NOTES

CHARS_PER_TOKEN = 4  # the usual estimate for English prose; a budget is a guide, not a tokenizer's count
MIN_EXCERPT_TOKENS = 40  # a neighbour that would get less than this is left out rather than cut to a stub


def search(memory: Memory, args: dict[str, Any]) -> dict[str, Any]:
    from curator.core.meaning.search import search as fused

    result = fused(memory.vault(), args["query"], args["limit"])
    return {**documents.search(result), NOTES: result.notes}  # e.g. that meaning was left out, and why


def read_page(memory: Memory, args: dict[str, Any]) -> dict[str, Any]:
    path = memory.page(args["page"])
    vault = memory.vault()
    page = vault.pages[path]
    backlinks = sorted({(rl.source, rl.link.line) for rl in vault.backlinks(path)}, key=lambda item: (item[0], item[1]))
    return {
        "schema": documents.PAGE,
        "path": path,
        "title": page.title,
        "frontmatter": page.frontmatter,
        "frontmatter_error": page.frontmatter_error,
        "text": vault.text_of(path),
        "backlinks": [{"path": source, "title": vault.pages[source].title, "line": line} for source, line in backlinks],
        "links": [
            {
                "target": rl.link.target,
                "anchor": rl.link.anchor,
                "line": rl.link.line,
                "kind": rl.resolution.kind,
                "path": rl.resolution.path,
                "relation": rl.link.key,
            }
            for rl in vault.outlinks(path)
        ],
    }


def context(memory: Memory, args: dict[str, Any]) -> dict[str, Any]:
    """The page, then its neighbours one hop away (the pages it links to in the order it names them,
    then the pages that link to it, most links first), each whole while the budget lasts, the first
    one that does not fit cut to what is left, the rest named in `left_out`."""
    path = memory.page(args["page"])
    vault = memory.vault()
    budget = args.get("budget_tokens", 2000)
    room = budget * CHARS_PER_TOKEN
    neighbours: list[tuple[str, str]] = []
    for rl in vault.outlinks(path):
        target = rl.resolution.path
        if rl.resolution.kind == "page" and target and target != path and target not in dict(neighbours):
            neighbours.append((target, "links to"))
    counts: dict[str, int] = {}
    for rl in vault.backlinks(path):
        counts[rl.source] = counts.get(rl.source, 0) + 1
    seen = dict(neighbours)
    for source in sorted(counts, key=lambda p: (-counts[p], p)):
        if source not in seen:
            neighbours.append((source, "linked from"))
    pages: list[dict[str, Any]] = []
    left_out: list[str] = []
    used = 0
    for where, relation in [(path, "self"), *neighbours]:
        text = vault.text_of(where)
        left = room - used
        if len(text) > left and where != path and left < MIN_EXCERPT_TOKENS * CHARS_PER_TOKEN:
            left_out.append(where)
            continue
        cut = text[: max(left, 0)]
        pages.append(
            {
                "path": where,
                "title": vault.pages[where].title,
                "relation": relation,
                "text": cut,
                "truncated": len(cut) < len(text),
            }
        )
        used += len(cut)
    return {
        "schema": documents.CONTEXT,
        "page": path,
        "budget_tokens": budget,
        "used_tokens": -(-used // CHARS_PER_TOKEN),
        "pages": pages,
        "left_out": left_out,
    }


def query(memory: Memory, args: dict[str, Any]) -> dict[str, Any]:
    from curator.core.read.query import run

    vault = memory.vault()
    text = args["expression"]
    return documents.query(text, run(vault, text), vault)


def recent(memory: Memory, args: dict[str, Any]) -> dict[str, Any]:
    """Pages whose last edit (their last commit in git, else their file time) is at most `days` old."""
    from curator.core.read.age import last_edited

    vault = memory.vault()
    days = args.get("days", 14)
    source = args.get("source")
    since = time.time() - days * 86_400
    edited = last_edited(vault)
    found = [
        path
        for path, when in edited.items()
        if when >= since and (source is None or _text(vault.pages[path].frontmatter.get("source")) == source)
    ]
    found.sort(key=lambda p: (-edited[p], p))
    limit = args.get("limit", 50)
    return {
        "schema": documents.RECENT,
        "days": days,
        "count": len(found),
        "pages": [
            {
                "path": path,
                "title": vault.pages[path].title,
                "edited": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(edited[path])),
                "source": _text(vault.pages[path].frontmatter.get("source")),
                "type": _text(vault.pages[path].frontmatter.get("type")),
            }
            for path in found[:limit]
        ],
    }


def index(memory: Memory, args: dict[str, Any]) -> dict[str, Any]:
    vault = memory.vault()
    folder = args.get("folder", "").strip("/")
    if folder:
        memory.check_inside(folder + "/")
    prefix = f"{folder}/" if folder else ""
    paths = sorted(p for p in vault.pages if p.startswith(prefix))
    limit = args.get("limit", 1000)
    return {
        "schema": documents.INDEX,
        "count": len(paths),
        "pages": [
            {"path": p, "title": vault.pages[p].title, "type": _text(vault.pages[p].frontmatter.get("type"))}
            for p in paths[:limit]
        ],
    }


def findings(memory: Memory, args: dict[str, Any]) -> dict[str, Any]:
    page = memory.page(args["page"]) if args.get("page") else None
    rules = set(args.get("rules", []))
    found = [
        f.as_dict()
        for f in memory.findings()
        if (page is None or f.path == page or page in _pages_of(f.data)) and (not rules or f.rule in rules)
    ]
    limit = args.get("limit", 200)
    return {"schema": documents.FINDINGS, "page": page, "count": len(found), "findings": found[:limit]}


def _pages_of(data: dict[str, Any]) -> list[str]:
    """The other pages a finding is about (a duplicate's partner), as its data names them."""
    other = data.get("other")
    return [other] if isinstance(other, str) else []


def _text(value: object) -> str | None:
    """A frontmatter value shown as text (None when it is not set or not a scalar)."""
    if value is None or isinstance(value, (dict, list)):
        return None
    return str(value)
