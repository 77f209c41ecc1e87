"""The tools `curator mcp` offers, as data: each one's description, the JSON Schema of its input,
the curator document it answers with (its schema in `curator/schemas/`), and the function that
runs it. The server (server.py) and the generated reference (docs/reference/mcp.md) both read
this table; nothing here imports the MCP SDK."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

from curator.cli import documents
from curator.mcp import reading, writing
from curator.mcp.memory import Memory


class Tool(NamedTuple):
    description: str
    arguments: dict[str, Any]  # name -> JSON Schema of the argument
    required: tuple[str, ...]
    document: str  # the schema name of what it answers with (curator/schemas/)
    run: Callable[[Memory, dict[str, Any]], dict[str, Any]]
    writes: bool = False

    def input_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": self.arguments,
            "required": list(self.required),
            "additionalProperties": False,
        }


@cache
def output_schema(name: str) -> dict[str, Any]:
    """The published JSON Schema of the document `name` (`curator.search/1`)."""
    data: dict[str, Any] = json.loads(
        resources.files("curator").joinpath(documents.schema_file(name)).read_text(encoding="utf-8")
    )
    return data


_PAGE = {"type": "string", "minLength": 1, "description": "a page's title, or its path in the vault (folder/Page.md)"}
_LIMIT = {"type": "integer", "minimum": 1, "maximum": 10_000, "description": "at most this many in the answer"}
_REASON = {"type": "string", "description": "why: the journal entry's and the commit's message"}

TOOLS: dict[str, Tool] = {
    "search": Tool(
        "Search the vault: BM25 over sections, meaning (the embedding model) and one hop over the link graph, "
        "fused. Filters go in the query as in `curator search`: type:x path:folder tag:x field:>value "
        "broader+:[[X]]. Answers pages with their best section, a snippet and why each matched.",
        {
            "query": {"type": "string", "minLength": 1, "description": "words, plus any filters"},
            "limit": {**_LIMIT, "default": 10},
        },
        ("query",),
        documents.SEARCH,
        reading.search,
    ),
    "read_page": Tool(
        "Read one page: its whole text, frontmatter, the links to it (backlinks) and its own links with what "
        "each resolves to.",
        {"page": _PAGE},
        ("page",),
        documents.PAGE,
        reading.read_page,
    ),
    "context": Tool(
        "A page and its neighbours one link away (the pages it links to, then those linking to it), as much of "
        "their text as fits a token budget (estimated at 4 characters a token).",
        {
            "page": _PAGE,
            "budget_tokens": {
                "type": "integer",
                "minimum": 1,
                "maximum": 200_000,
                "default": 2000,
                "description": "tokens of page text the answer may hold",
            },
        },
        ("page",),
        documents.CONTEXT,
        reading.context,
    ),
    "query": Tool(
        "Find pages by frontmatter and typed edges, in the language of `curator query`: "
        "'type:problem AND NOT broader:* sort:-updated', 'broader+:[[SOLID]]', 'edges:related'.",
        {"expression": {"type": "string", "minLength": 1, "description": "terms, AND/OR/NOT, sort:field"}},
        ("expression",),
        documents.QUERY,
        reading.query,
    ),
    "recent": Tool(
        "Pages edited in the last N days, newest first (their last commit in git, else their file time); "
        "`source: agent` lists what an agent added.",
        {
            "days": {"type": "number", "minimum": 0, "maximum": 36_500, "default": 14, "description": "how far back"},
            "source": {"type": "string", "description": "only pages whose frontmatter `source` is this"},
            "limit": {**_LIMIT, "default": 50},
        },
        (),
        documents.RECENT,
        reading.recent,
    ),
    "index": Tool(
        "The compact index of the vault's pages (path, title, type), by path: what to hand an agent at the "
        "start of a task.",
        {
            "folder": {"type": "string", "description": "only pages under this folder"},
            "limit": {**_LIMIT, "default": 1000},
        },
        (),
        documents.INDEX,
        reading.index,
    ),
    "findings": Tool(
        "Lint findings (dead links, duplicates, diary titles, stubs, ...) of one page or of the whole vault, "
        "the vault's baseline left out.",
        {
            "page": _PAGE,
            "rules": {"type": "array", "items": {"type": "string"}, "description": "only these rules"},
            "limit": {**_LIMIT, "default": 200},
        },
        (),
        documents.FINDINGS,
        reading.findings,
    ),
    "remember": Tool(
        "Hand over something learned; curator decides where it belongs (add a page, merge into one, supersede "
        "one, or drop a repeat or a status update) and says why. By default the decision waits in the review "
        "queue for a person (answer: `suggestion`); where the vault's config allows the agent to write without "
        "review it is applied (answer: `change`, undoable), never into a page a person wrote (source: manual). "
        "A text holding a credential is refused.",
        {
            "text": {"type": "string", "minLength": 1, "description": "what to remember"},
            "source": {"type": "string", "default": "agent", "description": "who learned it (not 'manual')"},
            "type": {
                "type": "string",
                "description": "the type of a new page, one of the vault's `types` (by default customer, project, "
                "system, person, problem, topic); guessed from the text when not given",
            },
        },
        ("text",),
        documents.REMEMBER,
        writing.remember,
        writes=True,
    ),
    "rename": Tool(
        "Rename a page and rewrite every link to it; its old title becomes an alias. One journaled change "
        "(undo with `undo` and the change id answered); one that would change a page a person wrote "
        "(source: manual) waits in the review queue instead (answer: applied false, the suggestion in notes).",
        {
            "page": _PAGE,
            "new_title": {"type": "string", "minLength": 1, "description": "a title, or a path from the vault root"},
            "reason": _REASON,
        },
        ("page", "new_title"),
        documents.CHANGE,
        writing.rename,
        writes=True,
    ),
    "merge": Tool(
        "Merge one page into another: its distinct paragraphs appended, its title an alias, every link to it "
        "rewritten. One journaled change; one that would change a page a person wrote (source: manual) waits "
        "in the review queue instead (answer: applied false, the suggestion in notes).",
        {"source": _PAGE, "into": _PAGE, "reason": _REASON},
        ("source", "into"),
        documents.CHANGE,
        writing.merge,
        writes=True,
    ),
    "fix": Tool(
        "Fix the findings that need no choice (dead links with one did-you-mean, aliases, ambiguous links, "
        "anchors, index drift), each its own journaled change. Without fingerprints or rules: every one. "
        "A fix that would change a page a person wrote (source: manual) is left for the person.",
        {
            "fingerprints": {"type": "array", "items": {"type": "string"}, "description": "findings to fix"},
            "rules": {"type": "array", "items": {"type": "string"}, "description": "only these rules' findings"},
        },
        (),
        documents.FIX,
        writing.fix,
        writes=True,
    ),
    "undo": Tool(
        "Undo one change an agent made through this server, leaving every other change in place.",
        {"change": {"type": "string", "minLength": 1, "description": "the change id (a unique prefix is enough)"}},
        ("change",),
        documents.UNDO,
        writing.undo,
        writes=True,
    ),
    "history": Tool(
        "The changes applied to the vault, newest first (by anyone), with their ids for `undo`.",
        {"limit": {**_LIMIT, "default": 50}},
        (),
        documents.HISTORY,
        writing.history,
    ),
}
