"""Which vaults may run code: settings in a vault's config that run something outside curator take
effect only for vaults the user trusts, as git learned with hooks and editors with workspace trust.

A vault's config may do everything that only reads and writes inside the vault. What it may not do
without trust is listed in NEEDS_TRUST: the dream's proposer command runs a program, an
embedding model named without a local folder is fetched from the network into a folder outside
the vault, and an agent's writes skip the person's review (a cloned vault must not switch its own
review gate off). Trust lives outside the
vault, in the user's config folder (`CURATOR_CONFIG_HOME`, else the platform's standard place):
the vault's real path with a hash of exactly the settings that were trusted, so a changed command is
untrusted again. The same settings in the user's own `config.toml` there are the user's choice.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, NamedTuple

from curator.core.common.atomic import write_atomic
from curator.core.common.errors import ConfigError
from curator.core.common.fast import blake2b
from curator.core.common.userdirs import config_home
from curator.core.common.vaultpath import inside_vault

TRUST_FILE = "trusted.json"
FORMAT = "curator.trust/1"
# (table, key) of each setting that reaches beyond the vault, and what it does.
NEEDS_TRUST: dict[tuple[str, str], str] = {
    ("dream", "proposer"): "runs a command that proposes titles",
    ("embedding", "model_name"): "fetches that model from the network (unless model_path names a local folder)",
    ("embedding", "cache_dir"): "keeps fetched models in that folder, outside the vault",
    ("embedding", "model_path"): "loads the embedding model from that folder, outside the vault",
    ("search", "rerank_model"): "fetches that model from the network (unless rerank_model_path names a local folder)",
    ("search", "rerank_model_path"): "loads the reranking model from that folder, outside the vault",
    ("agent", "apply_without_review"): "applies an agent's remember over curator mcp without a person's review",
}
# Switches that need trust only when on: turned off, they ask for nothing.
_SWITCHES = {("agent", "apply_without_review")}
# Folder settings: one inside the vault is the vault's own data and needs no trust.
_FOLDERS = {("embedding", "model_path"), ("search", "rerank_model_path")}
# A model named with a local folder fetches nothing: it needs trust only when the folder is not used.
_LOCAL = {("embedding", "model_name"): "model_path", ("search", "rerank_model"): "rerank_model_path"}


def _asks(section: dict[str, Any], table: str, key: str, root: Path) -> bool:
    if key not in section:
        return False
    if (table, key) in _SWITCHES:
        return section[key] is True  # any other value is off, or not a bool: config's to refuse
    if (table, key) in _FOLDERS:
        return _outside(root, section[key])
    local = _LOCAL.get((table, key))
    return local is None or local not in section or _outside(root, section[local])


def _outside(root: Path, folder: Any) -> bool:
    """A folder setting of the vault's that resolves outside it (relative ones are read from the
    vault, as config.load_config reads them); a value that is not a string is config's to refuse."""
    return isinstance(folder, str) and inside_vault(root, Path(folder).expanduser()) is None


class TrustedVault(NamedTuple):
    path: str
    settings: dict[str, str]  # "[table] key" -> the value that was trusted
    since: str


def code_settings(data: dict[str, Any], root: Path) -> dict[str, str]:
    """The settings in the parsed config of the vault at `root` that need trust (NEEDS_TRUST):
    "[table] key" -> value."""
    found = {}
    for table, key in NEEDS_TRUST:
        section = data.get(table)
        if isinstance(section, dict) and _asks(section, table, key, root):
            found[f"[{table}] {key}"] = str(section[key])
    return found


def without_code_settings(data: dict[str, Any], root: Path) -> dict[str, Any]:
    """`data` (the config of the vault at `root`) with every setting that needs trust taken out."""
    cleaned = {k: dict(v) if isinstance(v, dict) else v for k, v in data.items()}
    for table, key in NEEDS_TRUST:
        section = cleaned.get(table)
        if isinstance(section, dict) and _asks(data[table], table, key, root):
            section.pop(key, None)
    return cleaned


def _fingerprint(settings: dict[str, str]) -> str:
    return blake2b(json.dumps(sorted(settings.items())).encode(), digest_size=16).hexdigest()


def _vault_key(root: Path) -> str:
    return os.path.realpath(root)


def _read_store() -> dict[str, Any]:
    path = config_home() / TRUST_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the trust list {path}: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("vaults"), dict):
        raise ConfigError(f"{path} is not a curator trust list ({FORMAT}); move it away to start again")
    vaults: dict[str, Any] = data["vaults"]
    return vaults


def _write_store(vaults: dict[str, Any]) -> None:
    folder = config_home()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        body = json.dumps({"format": FORMAT, "vaults": vaults}, indent=2, ensure_ascii=False) + "\n"
        write_atomic(folder / TRUST_FILE, body.encode())
    except OSError as exc:
        raise ConfigError(f"cannot write the trust list in {folder}: {exc}") from exc


def is_trusted(root: Path, settings: dict[str, str]) -> bool:
    """True when the user trusted this vault with exactly these settings."""
    entry = _read_store().get(_vault_key(root))
    return isinstance(entry, dict) and entry.get("fingerprint") == _fingerprint(settings)


def untrusted_message(root: Path, settings: dict[str, str], config_name: str) -> str:
    """One line: which settings asked for what, that none took effect, and how to trust the vault."""
    asked = "; ".join(f"{name} = {value!r} ({what_it_does(name)})" for name, value in settings.items())
    was = _read_store().get(_vault_key(root))
    why = "changed since you trusted this vault" if isinstance(was, dict) else "this vault is not trusted"
    return f"{config_name} asks for {asked}; it did not take effect ({why}). If you trust it, run: curator trust {root}"


def what_it_does(name: str) -> str:
    """What a setting that needs trust ("[table] key") does."""
    table, key = name.strip("[").split("] ")
    return NEEDS_TRUST[(table, key)]


def trust(root: Path, settings: dict[str, str]) -> TrustedVault:
    """Record that the user trusts the vault at `root` with these settings."""
    vaults = _read_store()
    since = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    vaults[_vault_key(root)] = {"fingerprint": _fingerprint(settings), "settings": settings, "since": since}
    _write_store(vaults)
    return TrustedVault(_vault_key(root), settings, since)


def revoke(root: Path) -> bool:
    """Forget the vault at `root`; False when it was not trusted."""
    vaults = _read_store()
    if vaults.pop(_vault_key(root), None) is None:
        return False
    _write_store(vaults)
    return True


def trusted_vaults() -> list[TrustedVault]:
    return [
        TrustedVault(path, dict(entry.get("settings", {})), str(entry.get("since", "")))
        for path, entry in sorted(_read_store().items())
        if isinstance(entry, dict)
    ]
