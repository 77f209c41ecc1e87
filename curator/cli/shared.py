"""What the command modules share: the exit codes, the arguments every vault command takes, and
opening a vault with its model."""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from curator.cli import output

if TYPE_CHECKING:
    from curator.core.read.vault import Vault
    from curator.mcp.memory import Memory


EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def recovered(vault: str) -> Path:
    """The vault's root, once what earlier commands left is settled (a crash rolled back, a change
    git did not take committed), each said in one line."""
    from curator.core.change.recovery import recover
    from curator.core.read.scan import check_vault_root

    root = check_vault_root(vault)
    for line in recover(root, on_wait=output.diagnose):
        output.diagnose(line)
    return root


_held: list[Memory] = []  # the vault a resident process keeps loaded, while it runs a command


@contextlib.contextmanager
def holding(memory: Memory) -> Iterator[None]:
    """Within: `loaded_with_model` of `memory`'s vault is the one it holds (read again only where
    pages changed), not a load of every page."""
    _held.append(memory)
    try:
        yield
    finally:
        _held.remove(memory)


def _held_vault(root: Path | str) -> Vault | None:
    for memory in _held:
        if os.path.realpath(root) == memory.real_root.as_posix():
            return memory.vault()
    return None


def held_or_loaded(root: Path) -> Vault:
    """The vault as it is on disk now: a resident's, where one holds it, else loaded."""
    from curator.core.read.loading import load_vault

    held = _held_vault(root)
    return held if held is not None else load_vault(root)


def loaded_with_model(root: Path | str) -> Vault:
    """The vault, its embedding model loading meanwhile in a thread (for search and remember)."""
    held = _held_vault(root)
    if held is not None:
        return held
    from curator.core.meaning.vectors import preload_provider
    from curator.core.read.loading import load_vault
    from curator.core.read.scan import check_vault_root
    from curator.core.state.config import load_config
    from curator.core.state.lock import between_writes

    root = check_vault_root(root)
    config = load_config(root)
    preload_provider(config, root)
    return between_writes(root, lambda: load_vault(root, config), output.diagnose)


def edit_options(edit: argparse.ArgumentParser) -> None:
    edit.add_argument("--reason", help="the journal entry's and the commit's message")
    edit.add_argument("--dry-run", action="store_true", help="show what would change and write nothing")
    edit.add_argument("--allow-dirty", action="store_true", help="go ahead though touched files have uncommitted edits")
    edit.add_argument("--json", action="store_true", help="print the result as JSON")


def vault_and_json_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("vault")
    command.add_argument("--json", action="store_true")


def positive(value: str) -> int:
    """An argparse type: a whole number of 1 or more (argparse makes its error one line and exit 2)."""
    if not value.strip().isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"a whole number of 1 or more, not {value!r}")
    return int(value)
