"""`curator mcp`: the vault served to an agent over MCP, driven by the SDK's own client, in-process over
memory streams and as a real stdio subprocess, on copies of the sample vault."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest
from edit_helpers import tree
from helpers import ROOT, saved_after_each_decision
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp.types import Implementation

from curator.cli.main import main
from curator.core.change.changes import history, plan_and_apply
from curator.core.change.edits import plan_rename
from curator.core.curate.suggestions import load_suggestions
from curator.mcp.memory import Memory
from curator.mcp.server import build_server
from curator.mcp.tools import TOOLS, output_schema
from curator.mcp.watch import Folders

pytestmark = pytest.mark.anyio

KEY = (
    "deploy key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAE\n"
    "-----END OPENSSH PRIVATE KEY-----"
)
FACTS = (  # three things the sample vault knows nothing of: each an ADD, each listed in MEMORY.md
    "The Kafka broker fleet keeps seven days of retention on every topic.",
    "The Grafana alerting stack pages the on-call engineer through Opsgenie.",
    "The Vault secrets engine issues database credentials that expire after one hour.",
)
MORE_FACTS = (
    "The Redis cache cluster evicts keys with the allkeys-lru policy.",
    "The Jenkins build farm runs twelve agents in the Frankfurt region.",
    "The Elastic log pipeline drops debug lines before they reach storage.",
)


@asynccontextmanager
async def connected(vault: Path) -> AsyncIterator[Client]:
    """An SDK client talking to a server over `vault` in this process (JSON-RPC over memory streams,
    with the initialize handshake)."""
    async with Client(build_server(Memory(vault)), mode="legacy") as client:
        yield client


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """A tool's answer, checked against the schema the tool publishes as its output."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    document = result.structured_content
    assert document is not None
    jsonschema.Draft202012Validator(output_schema(TOOLS[tool].document)).validate(document)
    assert json.loads(result.content[0].text) == document  # type: ignore[union-attr]
    return document


async def refused(client: Client, tool: str, **arguments: Any) -> str:
    """The one-line message of a tool call that fails as a tool error."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    text: str = result.content[0].text  # type: ignore[union-attr]
    assert "\n" not in text and "Traceback" not in text
    return text


def allow_agent_writes(vault: Path) -> None:
    """The vault's config lets the agent write without review, and the user trusts it to."""
    with open(vault / ".curator.toml", "a", encoding="utf-8") as config:
        config.write("\n[agent]\napply_without_review = true\n")
    assert main(["trust", str(vault)]) == 0


async def test_the_server_lists_every_tool_with_its_input_and_output_schema(sample_vault: Path) -> None:
    async with connected(sample_vault) as client:
        assert client.server_info is not None and client.server_info.name == "curator"
        assert "remember" in (client.instructions or "")
        listed = (await client.list_tools()).tools
    assert [tool.name for tool in listed] == list(TOOLS)
    for tool in listed:
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        assert tool.output_schema is not None
        jsonschema.Draft202012Validator.check_schema(tool.output_schema)
        assert tool.output_schema["properties"]["schema"] == {"const": TOOLS[tool.name].document}
        assert tool.annotations is not None and tool.annotations.read_only_hint is not TOOLS[tool.name].writes


async def test_each_reading_tool_answers_from_the_vault(sample_vault: Path) -> None:
    for path in sample_vault.rglob("*.md"):  # edited now: a copy keeps the checkout's file times, maybe days old
        os.utime(path)
    async with connected(sample_vault) as client:
        hits = (await call(client, "search", query="certificate expiry", limit=3))["hits"]
        assert hits[0]["path"] == "problems/Certificate renewal.md"
        filtered = (await call(client, "search", query="pool type:problem"))["hits"]
        assert filtered and all(h["path"].startswith(("problems/", "incidents/")) for h in filtered)

        page = await call(client, "read_page", page="Certificate renewal")
        assert page["path"] == "problems/Certificate renewal.md"
        assert page["frontmatter"]["type"] == "problem"
        assert page["text"] == (sample_vault / "problems/Certificate renewal.md").read_text(encoding="utf-8")
        assert "MEMORY.md" in {b["path"] for b in page["backlinks"]}
        by_path = await call(client, "read_page", page="problems/Certificate renewal.md")
        assert by_path["text"] == page["text"]

        near = await call(client, "context", page="MEMORY.md", budget_tokens=800)
        assert near["pages"][0]["relation"] == "self"
        assert near["used_tokens"] <= 800 and near["left_out"]  # the index links more than 800 tokens hold
        roomy = await call(client, "context", page="Checkout rewrite", budget_tokens=50_000)
        assert not roomy["left_out"] and not any(p["truncated"] for p in roomy["pages"])
        assert {"links to", "linked from"} <= {p["relation"] for p in roomy["pages"]}

        problems = await call(client, "query", expression="type:problem sort:title")
        assert "problems/Certificate renewal.md" in [p["path"] for p in problems["pages"]]

        recent = await call(client, "recent", days=1)
        assert recent["count"] == len(tree_pages(sample_vault))
        none_by_agent = await call(client, "recent", days=1, source="agent")
        assert none_by_agent["count"] == 0

        index = await call(client, "index")
        assert {p["path"] for p in index["pages"]} == tree_pages(sample_vault)
        assert (await call(client, "index", folder="problems"))["count"] == 2

        everything = await call(client, "findings")
        assert {"dead-link", "diary-title", "duplicate"} <= {f["rule"] for f in everything["findings"]}
        one = await call(client, "findings", page="Ticket 4711 vom 29.07.2026 - Zertifikat abgelaufen")
        assert one["findings"] and "diary-title" in {f["rule"] for f in one["findings"]}
        assert all(f["path"] == one["page"] or f["data"].get("other") == one["page"] for f in one["findings"])


def tree_pages(vault: Path) -> set[str]:
    return {path for path in tree(vault) if path.endswith(".md")}


async def test_remember_proposes_into_the_review_queue_and_writes_no_page(sample_vault: Path) -> None:
    start = tree(sample_vault)
    async with connected(sample_vault) as client:
        decided = await call(client, "remember", text=FACTS[0])
    assert decided["decision"] == "add" and not decided["applied"] and decided["change"] is None
    assert tree(sample_vault) == start
    queued = {s.id: s for s in load_suggestions(sample_vault)}  # the queue `curator suggestions` and the TUI show
    assert queued[decided["suggestion"]].kind == "remember" and queued[decided["suggestion"]].status == "pending"
    assert main(["apply", str(sample_vault), decided["suggestion"]]) == 0  # a person accepts it
    assert (sample_vault / decided["page"]).is_file()


async def test_an_allowed_write_is_journaled_and_its_undo_restores_every_byte(sample_vault: Path) -> None:
    allow_agent_writes(sample_vault)
    start = tree(sample_vault)
    async with connected(sample_vault) as client:
        added = await call(client, "remember", text=FACTS[1])
        assert added["applied"] and added["change"] and added["suggestion"] is None
        assert set(added["files"]) == {added["page"], "MEMORY.md"}
        assert (await call(client, "read_page", page=added["page"]))["frontmatter"]["source"] == "agent"
        renamed = await call(client, "rename", page="Vendor call", new_title="Vendor meeting", reason="clearer")
        assert renamed["applied"] and (sample_vault / "notes/Vendor meeting.md").is_file()
        listed = [c["id"] for c in (await call(client, "history"))["changes"]]
        assert listed[:2] == [renamed["id"], added["change"]]
        assert (await call(client, "undo", change=renamed["id"]))["id"] == renamed["id"]
        assert (await call(client, "undo", change=added["change"]))["id"] == added["change"]
        again = await refused(client, "undo", change=added["change"])
        assert again == f"change {added['change']} was already undone"
    assert tree(sample_vault) == start


async def test_history_says_which_changes_an_agent_made_and_by_what_name(
    sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan_and_apply(sample_vault, lambda vault: plan_rename(vault, "Vendor call", "Vendor meeting"))
    named = Implementation(name="ops-bot\x1b[31m", version="1.0")  # a name reaches a terminal: escapes go
    async with Client(build_server(Memory(sample_vault)), mode="legacy", client_info=named) as client:
        renamed = await call(client, "rename", page="Caching strategy", new_title="Caching rules")
        listed = (await call(client, "history"))["changes"]
    assert [(c["id"], c["by"]) for c in listed][:1] == [(renamed["id"], "ops-bot 31m")]
    assert listed[1]["by"] == "you"
    assert main(["history", str(sample_vault)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(renamed["id"]) and "(by agent ops-bot 31m)" in lines[0]
    assert "(by you)" in lines[2]
    # An attacker's agent called itself "you": a line of history still says it is an agent.
    spoof = Implementation(name="you", version="1.0")
    async with Client(build_server(Memory(sample_vault)), mode="legacy", client_info=spoof) as client:
        await call(client, "rename", page="Caching rules", new_title="Caching policy")
    assert main(["history", str(sample_vault)]) == 0
    assert "(by agent you)" in capsys.readouterr().out.splitlines()[0]
    assert main(["history", str(sample_vault), "--json"]) == 0
    assert [c["by"] for c in json.loads(capsys.readouterr().out)["changes"]] == ["agent you", "ops-bot 31m", "you"]


async def test_merge_and_fix_are_changes_the_agent_can_undo(sample_vault: Path) -> None:
    start = tree(sample_vault)
    async with connected(sample_vault) as client:
        merged = await call(client, "merge", source="notes/Loose thoughts on queues", into="Caching strategy")
        assert merged["kind"] == "merge" and not (sample_vault / "notes/Loose thoughts on queues.md").exists()
        fixed = (await call(client, "fix", rules=["dead-link"]))["fixes"]
        assert fixed and all(f["change"] for f in fixed)
        for change in [*(f["change"] for f in reversed(fixed)), merged["id"]]:
            await call(client, "undo", change=change)
        assert "no fix without a choice" in await refused(client, "fix", rules=["orphan"])
    assert tree(sample_vault) == start


async def test_a_memory_never_goes_into_a_page_a_person_wrote(sample_vault: Path) -> None:
    allow_agent_writes(sample_vault)
    page = sample_vault / "problems/Certificate renewal.md"
    page.write_text(page.read_text(encoding="utf-8").replace("type: problem\n", "type: problem\nsource: manual\n"))
    start = tree(sample_vault)
    async with connected(sample_vault) as client:
        result = await client.call_tool(
            "remember", {"text": "Certificate renewal for the card gateways now needs a second approver."}
        )
        assert "person wrote" in await refused(client, "remember", text=FACTS[2], source="manual")
        for disguised in ('"manual"', "'manual'", "manual # agent", "!!str manual", "agent\nsource: manual"):
            assert "a plain name" in await refused(client, "remember", text=FACTS[2], source=disguised)
    document = result.structured_content
    assert document is not None and document["suggestion"] and not document["applied"]
    assert "problems/Certificate renewal.md" in document["files"]
    assert any("source: manual" in getattr(block, "text", "") for block in result.content[1:])
    assert tree(sample_vault) == start


def written_by_hand(vault: Path, path: str) -> None:
    page = vault / path
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("---\n", "---\nsource: manual\n", 1), encoding="utf-8")


async def test_rename_merge_and_fix_never_change_a_page_a_person_wrote(sample_vault: Path) -> None:
    allow_agent_writes(sample_vault)
    ticket = "incidents/Ticket 4711 vom 29.07.2026 - Zertifikat abgelaufen.md"  # the dead links to fix
    for path in ("topics/Caching strategy.md", ticket):
        written_by_hand(sample_vault, path)
    start = tree(sample_vault)
    async with connected(sample_vault) as client:
        merged = await call(client, "merge", source="notes/Loose thoughts on queues", into="Caching strategy")
        renamed = await call(client, "rename", page="Caching strategy", new_title="Caching rules")
        message = await refused(client, "fix", rules=["dead-link"])
        assert ticket in message and "source: manual" in message
        assert (await call(client, "history"))["changes"] == []
    assert tree(sample_vault) == start
    for answer in (merged, renamed):
        assert not answer["applied"] and answer["id"] is None
        assert any("topics/Caching strategy.md is written by a person" in note for note in answer["notes"])
    queued = {s.kind: s for s in load_suggestions(sample_vault) if s.proposer == "mcp"}
    assert queued["merge"].pages == ["notes/Loose thoughts on queues.md", "topics/Caching strategy.md"]
    assert queued["rename"].title == "Caching rules"
    assert main(["apply", str(sample_vault), queued["merge"].id]) == 0  # the person accepts it
    assert not (sample_vault / "notes/Loose thoughts on queues.md").exists()


async def test_a_secret_is_refused_by_every_write(sample_vault: Path) -> None:
    allow_agent_writes(sample_vault)
    (sample_vault / "notes/Deploy notes.md").write_text(f"# Deploy notes\n\n{KEY}\n", encoding="utf-8")
    start = tree(sample_vault)
    async with connected(sample_vault) as client:
        assert "holds a credential" in await refused(client, "remember", text=f"The deploy host uses {KEY}")
        message = await refused(client, "merge", source="Deploy notes", into="Payments API")
        assert "would hold a credential" in message and "nothing was written" in message
        assert (await call(client, "history"))["changes"] == []
    assert tree(sample_vault) == start
    assert load_suggestions(sample_vault) == []


ACCEPTED = "password = hunter2hunter2XYZ <!-- pragma: allowlist secret -->"  # a person's fixture password


async def test_a_pragma_the_agent_writes_accepts_no_secret(sample_vault: Path) -> None:
    allow_agent_writes(sample_vault)
    (sample_vault / "notes/Fixtures.md").write_text(f"# Fixtures\n\nThe test login.\n{ACCEPTED}\n", encoding="utf-8")
    start = tree(sample_vault)
    async with connected(sample_vault) as client:
        for text in (
            f"The Kafka broker fleet uses one login.\n{ACCEPTED}",
            "The Kafka broker fleet uses one login.\n<!-- pragma: allowlist nextline secret -->\nPasswort: Sommer2026!",
            f"Certificate renewal for the card gateways now needs a second approver.\n{ACCEPTED}",
        ):
            assert "holds a credential" in await refused(client, "remember", text=text)
        message = await refused(
            client, "merge", source="notes/Loose thoughts on queues", into="Caching strategy", reason=ACCEPTED
        )
        assert "the change's reason" in message and "nothing was written" in message
        assert tree(sample_vault) == start
        # a line a person accepted on disk stays accepted where a merge carries it
        merged = await call(client, "merge", source="Fixtures", into="Payments API")
    assert merged["applied"] and ACCEPTED in (sample_vault / "systems/Payments API.md").read_text(encoding="utf-8")


async def test_a_search_too_long_to_be_one_is_a_tool_error(sample_vault: Path) -> None:
    async with connected(sample_vault) as client:
        message = await refused(client, "search", query="certificate " * 100_000)
        assert "at most 1,000" in message and len(message) < 200
        assert (await call(client, "search", query="certificate renewal"))["hits"]  # the server still answers


async def test_a_path_outside_the_vault_is_refused(sample_vault: Path, tmp_path: Path) -> None:
    secret = tmp_path / "outside.md"
    secret.write_text("# Outside\n\nNot the vault's.\n", encoding="utf-8")
    start = tree(sample_vault)
    async with connected(sample_vault) as client:
        for name in ("../outside.md", str(secret), "/etc/passwd", "notes/../../outside"):
            assert "outside the vault" in await refused(client, "read_page", page=name)
        assert "outside the vault" in await refused(client, "context", page="../outside")
        assert "outside the vault" in await refused(client, "index", folder="../")
        assert "outside the vault" in await refused(client, "rename", page="Vendor call", new_title="../../stolen")
        assert "outside the vault" in await refused(client, "merge", source=str(secret), into="Payments API")
        assert "outside the vault" in await refused(client, "read_page", page=".git/config")
        assert "no page" in await refused(client, "read_page", page="notes/Nothing here")
        assert "bad arguments" in await refused(client, "read_page", page="Vendor call", extra=1)
        with pytest.raises(MCPError, match="no tool"):
            await client.call_tool("delete_everything", {})
    assert tree(sample_vault) == start


async def test_an_untrusted_vaults_code_settings_stay_off(sample_vault: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "a-model"
    elsewhere.mkdir()
    with open(sample_vault / ".curator.toml", "a", encoding="utf-8") as config:
        config.write(f'\n[embedding]\nmodel_path = "{elsewhere}"\n')
    memory = Memory(sample_vault)
    assert memory.vault().config.embedding_model_path is None  # left out, as on the command line
    assert any("[embedding] model_path" in note for note in memory.vault().config.untrusted)
    async with Client(build_server(memory), mode="legacy") as client:
        result = await client.call_tool("search", {"query": "certificate"})
    assert not result.is_error
    assert any("trust" in getattr(block, "text", "") for block in result.content[1:])


async def test_an_untrusted_vault_cannot_switch_its_own_review_gate_off(sample_vault: Path) -> None:
    with open(sample_vault / ".curator.toml", "a", encoding="utf-8") as config:  # as a cloned vault could
        config.write("\n[agent]\napply_without_review = true\n")
    start = tree(sample_vault)
    memory = Memory(sample_vault)
    assert memory.vault().config.agent_apply_without_review is False
    async with Client(build_server(memory), mode="legacy") as client:
        result = await client.call_tool("remember", {"text": FACTS[0]})
    document = result.structured_content
    assert not result.is_error and document is not None
    assert not document["applied"] and document["suggestion"] and document["change"] is None
    notes = [getattr(block, "text", "") for block in result.content[1:]]
    assert any("[agent] apply_without_review" in note and f"curator trust {sample_vault}" in note for note in notes)
    assert tree(sample_vault) == start  # only the review queue, under .curator/, has the memory


async def test_the_agent_undoes_only_its_own_changes(sample_vault: Path) -> None:
    _, entry = plan_and_apply(sample_vault, lambda vault: plan_rename(vault, "Vendor call", "Vendor meeting"))
    async with connected(sample_vault) as client:
        assert "not made by an agent" in await refused(client, "undo", change=entry.id)
    assert history(sample_vault)[0].state == "applied"


@pytest.mark.parametrize("events", [True, False], ids=["file-events", "scan-each-call"])
async def test_the_server_sees_what_others_write_meanwhile(
    sample_vault: Path, events: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not events:
        monkeypatch.setattr(Folders, "open", classmethod(lambda cls, root: None))
    (sample_vault / "drafts").mkdir()  # an empty folder: nothing in it when the vault is read
    memory = Memory(sample_vault)
    assert (memory._folders is not None) == (events and sys.platform.startswith("linux"))
    async with Client(build_server(memory), mode="legacy") as client:
        await call(client, "index")
        await call(client, "index")
        loads = memory.reloads
        await call(client, "search", query="certificate")
        assert memory.reloads == loads  # nothing changed: the vault held is used
        (sample_vault / "notes/Written by hand.md").write_text("# Written by hand\n\nBy a person.\n")
        assert "notes/Written by hand.md" in {p["path"] for p in (await call(client, "index"))["pages"]}
        assert memory.reloads == loads + 1
        (sample_vault / "drafts/Draft.md").write_text("# Draft\n\nA draft.\n")
        assert "drafts/Draft.md" in {p["path"] for p in (await call(client, "index"))["pages"]}
        page = sample_vault / "problems/Certificate renewal.md"
        page.write_text(page.read_text(encoding="utf-8").replace("type: problem", "type: Problem"))  # same size
        assert (await call(client, "read_page", page="Certificate renewal"))["frontmatter"]["type"] == "Problem"
        assert (await call(client, "findings", rules=["index-drift"]))["count"] > 0
        (sample_vault / ".curator.toml").write_text('index_page = ""\n')
        assert (await call(client, "findings", rules=["index-drift"]))["count"] == 0  # the config read again


async def test_two_clients_writing_at_once_lose_nothing(sample_vault: Path) -> None:
    allow_agent_writes(sample_vault)
    answers: list[dict[str, Any]] = []

    async def agent(facts: tuple[str, ...]) -> None:
        async with connected(sample_vault) as client:
            for fact in facts:
                answers.append(await call(client, "remember", text=fact))

    async with anyio.create_task_group() as group:
        group.start_soon(agent, FACTS)
        group.start_soon(agent, MORE_FACTS)
    assert all(a["applied"] for a in answers) and len({a["change"] for a in answers}) == 6
    index = (sample_vault / "MEMORY.md").read_text(encoding="utf-8")
    for a in answers:  # every page written and listed in the index both agents changed
        assert (sample_vault / a["page"]).is_file() and f"[[{a['title']}]]" in index
    assert {e.id for e in history(sample_vault)} == {a["change"] for a in answers}


def stdio_server(vault: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "curator", "mcp", str(vault)],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


async def test_two_stdio_servers_writing_at_once_lose_nothing(sample_vault: Path) -> None:
    """Two agents, each with its own `curator mcp` process on one vault: the vault's lock lets one
    write at a time, and each plans again against what the other wrote."""
    allow_agent_writes(sample_vault)
    start = (sample_vault / "MEMORY.md").read_bytes()
    answers: list[dict[str, Any]] = []

    async def agent(facts: tuple[str, ...]) -> None:
        async with Client(stdio_server(sample_vault), mode="legacy") as client:
            assert [t.name for t in (await client.list_tools()).tools] == list(TOOLS)
            for fact in facts:
                answers.append(await call(client, "remember", text=fact))

    with anyio.fail_after(240):
        async with anyio.create_task_group() as group:
            group.start_soon(agent, FACTS)
            group.start_soon(agent, MORE_FACTS)
    assert all(a["applied"] for a in answers) and len(answers) == 6
    index = (sample_vault / "MEMORY.md").read_text(encoding="utf-8")
    assert all(f"[[{a['title']}]]" in index for a in answers)
    assert {e.id for e in history(sample_vault)} == {a["change"] for a in answers}
    async with Client(stdio_server(sample_vault), mode="legacy") as client:
        for a in answers:
            await call(client, "undo", change=a["change"])
    assert (sample_vault / "MEMORY.md").read_bytes() == start


def test_stdout_carries_nothing_but_the_protocol(sample_vault: Path) -> None:
    """Raw JSON-RPC over a real subprocess: every line it prints is a protocol message, a missing
    vault is one line on stderr and exit 2."""
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search", "arguments": {"query": "x"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "remember", "arguments": {"text": KEY}}},
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen(
        [sys.executable, "-m", "curator", "mcp", str(sample_vault)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert server.stdin is not None and server.stdout is not None
    lines = []
    for request in requests:
        server.stdin.write(json.dumps(request).encode() + b"\n")
        server.stdin.flush()
        if "id" in request:  # wait for the answer before the next request (and before closing stdin)
            lines.append(json.loads(server.stdout.readline()))
    server.stdin.close()
    rest = server.stdout.read()
    assert server.wait(timeout=120) == 0
    assert rest == b""
    assert [line["id"] for line in lines] == [1, 2, 3] and all(line["jsonrpc"] == "2.0" for line in lines)
    assert lines[1]["result"]["structuredContent"]["schema"] == "curator.search/1"
    assert lines[2]["result"]["isError"] is True
    assert "credential" in lines[2]["result"]["content"][0]["text"]
    missing = subprocess.run(
        [sys.executable, "-m", "curator", "mcp", str(sample_vault / "nowhere")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr.strip().count("\n") == 0 and "vault not found" in missing.stderr


def test_lint_does_not_import_the_sdk(sample_vault: Path) -> None:
    """The MCP SDK (pydantic, starlette, ...) is imported by `curator mcp` alone."""
    script = (
        "import sys; from curator.cli.main import main; main(['lint', sys.argv[1], '--no-cache']); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'mcp_types', 'curator')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(sample_vault)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
        check=False,
    )
    loaded = done.stdout.strip().splitlines()[-1]
    assert "'curator.core.check.lint'" in loaded  # it ran
    assert "'mcp'" not in loaded and "mcp_types" not in loaded and "curator.mcp" not in loaded


def test_the_server_has_the_model_read_the_vault_between_calls(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Behind the agent's calls the model reads every page, stopping at once when a call holds the
    turn, so searches come to use every page without one of them waiting for it."""
    import threading
    import time

    from curator.core.meaning import vectors
    from curator.core.meaning.embeddings import LexicalProvider
    from curator.mcp.memory import IDLE_LOOK, Memory

    class Slow(LexicalProvider):
        id = "slow-model"
        cheap = False

        def embed(self, texts, progress=None):  # type: ignore[no-untyped-def]
            time.sleep(0.05)
            return super().embed(texts, progress)

    monkeypatch.setattr(vectors, "provider_for", lambda config: (Slow(), None))
    monkeypatch.setattr(vectors, "FILL_BATCH", 2)
    notes: list[str] = []
    memory = Memory(sample_vault, on_note=notes.append)
    stop = threading.Event()
    with memory.turn:  # a call is running: nothing is read
        reader = threading.Thread(target=memory.read_meaning, args=(stop,))
        reader.start()
        time.sleep(0.5)
        assert vectors.rows_of(memory.vault(), Slow()).rows == {}
    # A look that finds the vault busy (a cache file being replaced) pauses for IDLE_LOOK, by design.
    deadline = time.monotonic() + IDLE_LOOK + 30
    vault = memory.vault()
    while vectors.rows_of(vault, Slow()).missing(vectors.readable(vault)) and time.monotonic() < deadline:
        time.sleep(0.1)
    stop.set()
    reader.join(timeout=10)
    assert not reader.is_alive()
    assert not vectors.rows_of(vault, Slow()).missing(vectors.readable(vault)), notes


async def test_history_names_the_agent_whose_queued_suggestion_a_person_applied(
    sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    named = Implementation(name="ops-bot", version="1.0")
    async with Client(build_server(Memory(sample_vault)), mode="legacy", client_info=named) as client:
        decided = await call(client, "remember", text=FACTS[0])
    assert main(["apply", str(sample_vault), decided["suggestion"]]) == 0  # the person applies it
    capsys.readouterr()
    assert main(["history", str(sample_vault), "--json"]) == 0
    change = json.loads(capsys.readouterr().out)["changes"][0]
    assert (change["by"], change["suggested_by"]) == ("you", "ops-bot")
    assert main(["history", str(sample_vault)]) == 0
    assert "(by you, suggested by ops-bot)" in capsys.readouterr().out.splitlines()[0]
    plan_and_apply(sample_vault, lambda vault: plan_rename(vault, "Vendor call", "Vendor meeting"))
    assert [(e.author, e.suggested_by) for e in history(sample_vault)][:1] == [("you", None)]


async def test_a_memory_whose_page_keeps_changing_waits_in_the_queue(
    sample_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An attacker's 2 ms autosave loop: the apply failed and the agent's memory was gone."""
    allow_agent_writes(sample_vault)
    saved_after_each_decision(monkeypatch, sample_vault / "MEMORY.md")
    async with Client(build_server(Memory(sample_vault)), mode="legacy") as client:
        result = await client.call_tool("remember", {"text": FACTS[1]})
    document = result.structured_content
    assert not result.is_error and document is not None
    assert not document["applied"] and document["suggestion"] and document["change"] is None
    notes = [getattr(block, "text", "") for block in result.content[1:]]
    assert any("MEMORY.md changed since the change was planned" in note for note in notes)
