"""Every command the parser knows, run as a user runs it (`python -m curator`, a process of its own,
so a traceback or a native abort shows) on a copy of the sample vault, with readable and with JSON
output: each exits as the table says (0, 1 for lint's findings, never anything but 0, 1 or 2) with
no traceback, and its JSON parses.

The commands come from the parser itself, so one added later without an entry in ARGUMENTS fails
here. Not run: the TUI (`curator [VAULT]`, not a command; tests/test_tui.py drives it). No command
waits for input forever: `curator mcp` serves until its standard input ends, and here it is empty.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest
from helpers import ROOT

from curator.cli.main import build_parser


def _rename(root: Path) -> str:
    """A change to undo: its id."""
    from curator.core.change.changes import plan_and_apply
    from curator.core.change.edits import plan_rename

    _, entry = plan_and_apply(root, lambda vault: plan_rename(vault, "Vendor call", "Vendor meeting"))
    return entry.id


def _suggestion(root: Path) -> str:
    """A pending suggestion (dream's first rename): its id."""
    from curator.core.curate.dream import dream
    from curator.core.read.loading import load_vault

    return next(s.id for s in dream(load_vault(root)).proposed if s.kind == "rename")


class Run(NamedTuple):
    arguments: list[str]  # after the vault; "{id}" is replaced by what `prepare` returns
    exit: int = 0
    prepare: Callable[[Path], str] | None = None


# What each command is given on the sample vault, and the exit code it ends with there.
ARGUMENTS: dict[str, Run] = {
    "lint": Run(["--no-cache"], exit=1),  # the sample vault holds an example of every finding
    "graph": Run([]),
    "rename": Run(["Vendor call", "Vendor meeting", "--reason", "a clearer name"]),
    "merge": Run(["notes/Loose thoughts on queues", "topics/Caching strategy"]),
    "history": Run([], prepare=_rename),
    "undo": Run(["{id}"], prepare=_rename),
    "dream": Run(["--limit", "10"]),
    "suggestions": Run([], prepare=_suggestion),
    "apply": Run(["{id}"], prepare=_suggestion),
    "reject": Run(["{id}"], prepare=_suggestion),
    "fix": Run([]),
    "remember": Run(["The search cluster moved to three nodes in the Frankfurt region."]),
    "search": Run(["checkout", "outage"]),
    "index": Run([]),
    "query": Run(["type:problem", "sort:title"]),
    "stats": Run(["--by", "type,folder"]),
    "mcp": Run([]),  # serves MCP on stdin/stdout; stdin at its end: the client has gone, exit 0
    "trust": Run([]),  # the sample vault asks for nothing that needs trust
}


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def _outputs(command: argparse.ArgumentParser) -> list[list[str]]:
    """The options that choose the output: each --format (or text), and --json."""
    options = {option: action for action in command._actions for option in action.option_strings}
    formats = options["--format"].choices or () if "--format" in options else ()
    outputs = [["--format", str(choice)] for choice in formats] or [[]]
    return [*outputs, ["--json"]] if "--json" in options else outputs


CASES = [(name, output) for name, command in _commands().items() for output in _outputs(command)]


def test_every_command_has_arguments_in_the_table() -> None:
    assert sorted(set(_commands()) - set(ARGUMENTS)) == [], "give each new command its arguments in ARGUMENTS"
    assert sorted(set(ARGUMENTS) - set(_commands())) == []


@pytest.mark.parametrize(("name", "output"), CASES, ids=["-".join([n, *(o[-1:] or ["text"])]) for n, o in CASES])
def test_a_command_on_the_sample_vault_exits_cleanly(sample_vault: Path, name: str, output: list[str]) -> None:
    run = ARGUMENTS.get(name)
    assert run is not None, f"curator {name} has no entry in ARGUMENTS"
    found = run.prepare(sample_vault) if run.prepare else ""
    argv = [name, str(sample_vault), *(a.replace("{id}", found) for a in run.arguments), *output]
    done = subprocess.run(
        [sys.executable, "-m", "curator", *argv],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"},
        timeout=300,
        check=False,
    )
    shown = f"curator {' '.join(argv[:1] + argv[2:])} -> {done.returncode}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr, shown
    assert done.returncode == run.exit, shown
    if "json" in output or "sarif" in output:
        json.loads(done.stdout)
