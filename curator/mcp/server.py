"""`curator mcp VAULT`: an MCP server on stdio, on the official SDK's low-level `Server`, serving the
tools of tools.py over one vault.

Each call's arguments are checked against the tool's input schema; its answer is the curator
document its output schema (curator/schemas/) describes, as structured content and as JSON text.
An error a user (or an agent) can cause is a tool error (`isError`) whose text is curator's one-line
message, as the command line prints it; an unknown tool is a protocol error. The core runs in a
worker thread, one call at a time, so the protocol keeps being answered (pings, cancellations)."""

from __future__ import annotations

import json
import re
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import jsonschema
from mcp import types
from mcp.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from curator import __version__
from curator.core.common.errors import REPORTED, one_line
from curator.mcp.memory import Memory
from curator.mcp.tools import TOOLS, Tool, output_schema
from curator.mcp.writing import NOTES

if TYPE_CHECKING:
    from mcp.server import ServerRequestContext

INSTRUCTIONS = (
    "curator serves one Markdown vault as your memory. Find what is known with index, search, query, "
    "read_page and context before you write. Hand what you learn to remember, never as a new file of "
    "your own: curator decides where it belongs, and by default the decision waits for a person's review "
    "(the answer names the suggestion). Changes you make (rename, merge, fix, and remember where the vault "
    "allows writing without review) are journaled; history lists them and undo takes one back."
)


def build_server(memory: Memory) -> Server[Any]:
    """The MCP server over `memory`'s vault (not yet running: see `serve`, or connect a client to it)."""

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[_listed(name, tool) for name, tool in TOOLS.items()])

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = TOOLS.get(params.name)
        if tool is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"no tool {params.name!r} (see tools/list)")
        client = ctx.session.client_params
        agent = agent_name(client.client_info.name if client is not None else "")
        return await anyio.to_thread.run_sync(_call, memory, tool, dict(params.arguments or {}), agent)

    return Server(
        "curator",
        version=__version__,
        title="curator: the vault as an agent's memory",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _listed(name: str, tool: Tool) -> types.Tool:
    return types.Tool(
        name=name,
        description=tool.description,
        input_schema=tool.input_schema(),
        output_schema=output_schema(tool.document),
        annotations=types.ToolAnnotations(
            read_only_hint=not tool.writes,
            destructive_hint=False,  # every change is journaled and undoable; nothing is deleted for good
            idempotent_hint=not tool.writes,
            open_world_hint=False,
        ),
    )


def agent_name(given: str) -> str:
    """The name an MCP client gives itself, as history shows it: printable letters, digits, spaces
    and `._-` (a name is the client's to choose, and reaches a terminal), at most 64; "agent" for none."""
    name = " ".join(re.sub(r"[^\w .-]", " ", given, flags=re.ASCII).split())[:64]
    return name or "agent"


def _call(memory: Memory, tool: Tool, given: dict[str, Any], agent: str = "agent") -> types.CallToolResult:
    """Run one tool (in a worker thread): its document, or curator's one-line message as a tool error."""
    try:
        jsonschema.Draft202012Validator(tool.input_schema()).validate(given)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(part) for part in exc.absolute_path)
        return _error(f"bad arguments{f' ({where})' if where else ''}: {exc.message}")
    arguments = {key: spec["default"] for key, spec in tool.arguments.items() if "default" in spec} | given
    try:
        with memory.turn:
            memory.agent = agent
            document = tool.run(memory, arguments)
    except REPORTED as exc:
        return _error(one_line(exc))
    notes = document.pop(NOTES, [])
    content: list[types.ContentBlock] = [types.TextContent(type="text", text=json.dumps(document, ensure_ascii=False))]
    content += [types.TextContent(type="text", text=note) for note in notes]
    return types.CallToolResult(content=content, structured_content=document)


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)], is_error=True)


def serve(root: Path | str) -> None:
    """Serve the vault at `root` on stdin and stdout until the client closes stdin. Diagnostics go
    to stderr; the SDK points file descriptor 1 at stderr while it serves, so that nothing the
    core or a library prints can reach the protocol stream."""
    memory = Memory(root, on_note=_diagnose)

    async def run() -> None:
        server = build_server(memory)
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    stop = threading.Event()
    reader = threading.Thread(target=memory.read_meaning, args=(stop,), name="curator-meaning")
    reader.start()
    try:
        anyio.run(run)
    finally:
        stop.set()
        reader.join()


def _diagnose(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
