"""A vault opened for a view (the TUI, `curator VAULT`): what an interrupted change left recovered,
the pages read between writes, their findings, and the dream's suggestions still to review."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from curator.core.check.lint import checked_findings, vault_baseline
from curator.core.common.rules import Finding
from curator.core.read.scan import ScanResult, scan_vault
from curator.core.read.vault import Vault
from curator.core.state.config import Config, load_config


class Opened(NamedTuple):
    """A vault as a view shows it: loaded, its findings (the baseline's left out), its config."""

    vault: Vault
    findings: list[Finding]
    pending_suggestions: int
    config: Config
    accepted: set[str]  # fingerprints the vault's baseline accepts

    @property
    def scores_similar(self) -> bool:
        """Whether the model's similar pages are scored after the findings (a second, slower step)."""
        return self.config.severity("similar") is not None


def open_vault(
    root: Path,
    progress: Callable[[int, int], None] | None,
    waiting: Callable[[str], None],
    recovered: Callable[[str], None],
) -> Opened:
    """Recover what an interrupted change left, read the vault between writes, and check it (the
    last lint's findings when nothing changed). Nothing here imports numpy before the pages are
    read: its thread pool would keep parsing from forking workers."""
    from curator.core.change.recovery import recover
    from curator.core.read.loading import load_vault
    from curator.core.state.lock import between_writes

    for line in recover(root, on_wait=waiting):
        recovered(line)
    config = load_config(root)

    def read() -> tuple[ScanResult, Vault]:
        scan = scan_vault(root, config.ignore, sizes=True)
        return scan, load_vault(root, config, scan=scan, progress=progress)

    scan, vault = between_writes(root, read, waiting)
    accepted = vault_baseline(root, config)
    findings = [f for f in checked_findings(vault, scan, config) if f.fingerprint not in accepted]
    from curator.core.curate.suggestions import load_suggestions

    pending = sum(1 for s in load_suggestions(root) if s.status == "pending")
    return Opened(vault, findings, pending, config, accepted)
