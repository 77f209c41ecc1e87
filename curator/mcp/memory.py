"""The one vault an MCP server serves: loaded once and kept, read again only when its files or its
config changed (the cache of parsed pages re-reads just the changed pages), and every page or
path an agent names checked against it. Whether anything changed is learnt from the system's file
events where it has them (watch.py), else from a scan of every page's size and time."""

from __future__ import annotations

import os
import threading
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from curator.core.common.errors import EditError
from curator.core.common.vaultpath import inside_vault
from curator.mcp.watch import Folders, folders_in

if TYPE_CHECKING:
    from collections.abc import Callable

    from curator.core.common.rules import Finding
    from curator.core.read.scan import ScanResult
    from curator.core.read.vault import Vault
    from curator.core.state.config import Config

Stamp = tuple[object, ...]  # the config files' sizes and modification times, the vault's and the user's


class OutsideVault(EditError):
    """A page or path that lies outside the served vault (or in its `.git/`)."""


IDLE_LOOK = 30.0  # seconds between two looks for pages the model has not read


class Memory:
    """The served vault. One tool call at a time reads or writes it (`turn`); writes still take the
    vault's own lock, so a second server or the command line on the same vault waits its turn."""

    def __init__(self, root: Path | str, on_note: Callable[[str], None] | None = None, recovering: bool = True) -> None:
        from curator.core.change.recovery import recover
        from curator.core.meaning.vectors import preload_provider
        from curator.core.read.scan import check_vault_root

        self.root = check_vault_root(root)
        self.real_root = Path(os.path.realpath(self.root))
        self.turn = threading.Lock()
        self.agent = "agent"  # who calls, during a turn: the name its MCP client gives (history shows it)
        self._note = on_note or (lambda _line: None)
        if recovering:  # what an interrupted change left, rolled back
            for line in recover(self.root, on_wait=self._note):
                self._note(line)
        self._config_stamp: Stamp = self._stamp()
        self._config = self._load_config()
        self._scan: ScanResult | None = None
        self._vault: Vault | None = None
        self._folders = Folders.open(self.root)  # None: scan before every call
        self._rescan = True
        self._reading = threading.RLock()  # the model's reader and a call may both ask for the vault
        self.reloads = 0  # how often the pages were read again (a benchmark reads it)
        preload_provider(self._config, self.root)  # the embedding model loads in a thread meanwhile

    def _stamp(self) -> Stamp:
        """The vault's config file and the user's settings folder (their config, the vaults they
        trust) as the system sees them now: `curator trust` in another shell takes effect here."""
        from curator.core.common.userdirs import config_home
        from curator.core.state.config import CONFIG_NAME

        stamps: list[object] = []
        for path in (self.root / CONFIG_NAME, *_entries(config_home())):
            try:
                found = os.stat(path, follow_symlinks=False)
            except OSError:
                stamps.append(None)
                continue
            stamps.append((str(path), found.st_size, found.st_mtime_ns))
        return tuple(stamps)

    def _load_config(self) -> Config:
        from curator.core.state.config import load_config

        config = load_config(self.root)
        for line in config.untrusted:  # as on the command line: an untrusted vault's code settings stay off
            self._note(line)
        return config

    def vault(self) -> Vault:
        """The vault as it is on disk now: the one held, unless a page or the config changed since."""
        with self._reading:
            return self._read_vault()

    def _read_vault(self) -> Vault:
        from curator.core.read.loading import load_vault
        from curator.core.read.scan import scan_vault
        from curator.core.state.lock import between_writes

        stamp = self._stamp()
        if stamp != self._config_stamp:
            self._config_stamp, self._config = stamp, self._load_config()
            self._vault = None
        if self._folders is not None:
            if self._folders.changed():  # every pending event read: kept as a flag until a scan succeeds
                self._rescan = True
            if not self._rescan and self._vault is not None:
                return self._vault  # no file in the vault's folders changed since it was read
        config = self._config

        def read() -> tuple[ScanResult, Vault]:
            scan = scan_vault(self.root, config.ignore, sizes=True)
            if self._vault is not None and scan == self._scan:
                return scan, self._vault
            self.reloads += 1
            return scan, load_vault(self.root, config, scan=scan)

        self._scan, self._vault = between_writes(self.root, read, self._note)
        if self._folders is not None:
            armed = self._folders.arm(folders_in(self.root))
            if armed is None:  # the system refused a watch: scan before every call from now on
                self._folders = None
            self._rescan = bool(armed)  # what changed in a new folder before its watch: seen by the next scan
        return self._vault

    def read_meaning(self, stop: threading.Event) -> None:
        """Have the model read the pages it has not read yet, between the agent's calls (it stops
        at the next batch when a call comes), until `stop`: searches answer from a first stage
        until then. Pages written later are read within a minute."""
        from curator.core.common.errors import REPORTED, one_line
        from curator.core.meaning.vectors import fill_all, provider_for, readable, rows_of

        while not stop.is_set():
            try:
                with self.turn:
                    vault = self.vault()
                provider, warning = provider_for(vault)
                if warning is not None:
                    return
                if not rows_of(vault, provider).missing(readable(vault)):
                    stop.wait(IDLE_LOOK)
                    continue
                fill_all(vault, provider, stop=lambda: stop.is_set() or self.turn.locked())
            except REPORTED as exc:  # the vault cannot be read now: the calls say so; look again later
                self._note(f"meaning index paused: {one_line(exc)}")
                stop.wait(IDLE_LOOK)
            stop.wait(1.0)  # a call came: let it have the machine

    def findings(self) -> list[Finding]:
        """The vault's findings (the baseline's left out), worked out once a load."""
        from curator.core.check.lint import checked_findings, vault_baseline

        vault = self.vault()
        scan = self._scan
        assert scan is not None

        def make() -> list[Finding]:
            accepted = vault_baseline(self.root, vault.config)
            return [f for f in checked_findings(vault, scan, self._config) if f.fingerprint not in accepted]

        return vault.once("mcp.findings", make)

    def page(self, name: str) -> str:
        """The path of the page `name` gives (a title or a path in the vault); a path that leads
        outside the vault is refused as such, before anything is looked up."""
        from curator.core.change.edits import find_page

        self.check_inside(name)
        return find_page(self.vault(), name)

    def check_inside(self, name: str) -> None:
        """OutsideVault when `name`, taken as a path, leaves the vault or enters its `.git/`."""
        text = name.strip().replace("\\", "/")
        parts = PurePosixPath(text).parts
        if not text or ("/" not in text and ".." not in parts):
            return  # a title: looked up among the pages, never opened as a path
        if os.path.isabs(text) or ".." in parts or inside_vault(self.real_root, text) is None:
            raise OutsideVault(f"{name!r} is outside the vault this server serves ({self.root}); nothing was read")


def _entries(folder: Path) -> list[Path]:
    try:
        return sorted(folder.iterdir())
    except OSError:
        return []
