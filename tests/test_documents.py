"""Every JSON document curator prints validates against the schema it names, published in the package."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from curator.cli import documents
from curator.cli.main import main


def published(schema: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files("curator").joinpath(documents.schema_file(schema)).read_text())
    return data


def printed(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    """Run a command with --json and check what it prints against the schema that document names."""
    assert main([*args, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert data["schema"] in documents.SCHEMAS
    jsonschema.Draft202012Validator(published(data["schema"])).validate(data)
    return data


@pytest.mark.parametrize("schema", documents.SCHEMAS)
def test_each_schema_is_published_and_names_itself(schema: str) -> None:
    data = published(schema)
    jsonschema.Draft202012Validator.check_schema(data)
    assert data["properties"]["schema"] == {"const": schema}


def test_every_command_prints_a_document_its_schema_accepts(
    sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    vault = str(sample_vault)
    dry = printed(capsys, "rename", vault, "Certificate renewal", "TLS renewal", "--dry-run")
    assert dry["applied"] is False and dry["id"] is None and dry["links_rewritten"] > 0
    done = printed(capsys, "rename", vault, "Certificate renewal", "TLS renewal")
    assert done["applied"] is True and {"path": "problems/TLS renewal.md", "action": "create"} in done["files"]
    changes = printed(capsys, "history", vault)["changes"]
    assert [c["id"] for c in changes] == [done["id"]]
    undone = printed(capsys, "undo", vault, done["id"])
    assert undone["id"] == done["id"] and "problems/TLS renewal.md" in undone["files"]
    dreamt = printed(capsys, "dream", vault)
    assert dreamt["proposed"]
    listed = printed(capsys, "suggestions", vault, "--diff")["suggestions"]
    assert {s["id"] for s in listed} >= {s["id"] for s in dreamt["proposed"]}
    accepted = printed(capsys, "apply", vault, dreamt["proposed"][0]["id"])
    assert accepted["status"] == "accepted" and accepted["change"]
    planned = printed(capsys, "fix", vault, "--dry-run")
    assert planned["dry_run"] is True and planned["fixes"] and planned["fixes"][0]["change"] is None
    kept = printed(capsys, "remember", vault, "The Redis cache cluster evicts keys with allkeys-lru.")
    assert kept["decision"] == "add" and kept["suggestion"]
    hits = printed(capsys, "search", vault, "certificate")["hits"]
    assert hits and hits[0]["path"].endswith(".md")
    related = printed(capsys, "query", vault, "related:*", "sort:title")
    assert related["count"] == 4 and related["pages"][0]["fields"]["related"]
    across = printed(capsys, "query", vault, "edges:related")
    assert across["count"] == 3 and across["edges"][0]["kind"] == "related"
    counted = printed(capsys, "stats", vault, "--by", "type,folder")
    assert counted["pages"] == sum(counted["by"]["type"].values()) and counted["findings"]["by_rule"]
    (sample_vault / ".curator.toml").write_text('[dream]\nproposer = "my-proposer --json"\n')
    trusted = printed(capsys, "trust", vault)["vaults"]
    assert trusted[0]["settings"] == {"[dream] proposer": "my-proposer --json"}
    assert printed(capsys, "trust", "--list")["vaults"] == trusted


def test_the_graph_document(sample_vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["graph", str(sample_vault), "--no-cache"]) == 0
    data = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator(published(documents.GRAPH)).validate(data)
    assert len(data["nodes"]) >= 18 and data["edges"]
