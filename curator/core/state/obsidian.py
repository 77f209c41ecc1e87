"""What an Obsidian vault's own settings say about its folders: where daily notes and templates live.

`.obsidian/` is read as data (JSON, regular files only, at most MAX_BYTES each); a setting that
is missing, unreadable or not a folder inside the vault is left out.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

from curator.core.common.vaultpath import read_regular

MAX_BYTES = 1 << 20
# (file under .obsidian/, keys to the folder) for daily notes and for templates
_JOURNALS = (
    ("daily-notes.json", ("folder",)),
    ("plugins/periodic-notes/data.json", ("daily", "folder")),
    ("plugins/periodic-notes/data.json", ("weekly", "folder")),
    ("plugins/periodic-notes/data.json", ("monthly", "folder")),
)
_TEMPLATES = (
    ("templates.json", ("folder",)),
    ("plugins/templater-obsidian/data.json", ("templates_folder",)),
)


def is_obsidian_vault(root: Path) -> bool:
    """Whether Obsidian keeps the vault: its `.obsidian/` settings folder (a real folder) is there."""
    folder = root / ".obsidian"
    return folder.is_dir() and not folder.is_symlink()


def journal_folders(root: Path) -> tuple[str, ...]:
    """The folders Obsidian writes daily (weekly, monthly) notes to, as the vault sets them."""
    return _folders(root, _JOURNALS)


def template_folders(root: Path) -> tuple[str, ...]:
    """The folders of Obsidian's and Templater's page templates, as the vault sets them."""
    return _folders(root, _TEMPLATES)


def _folders(root: Path, settings: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[str, ...]:
    found: list[str] = []
    for name, keys in settings:
        value: object = _settings(root / ".obsidian" / name)
        for key in keys:
            value = value.get(key) if isinstance(value, dict) else None
        folder = folder_in_vault(value)
        if folder and folder not in found:
            found.append(folder)
    return tuple(found)


def _settings(path: Path) -> object:
    try:
        data = read_regular(path, follow_links=False)
    except OSError:
        return None
    if len(data) > MAX_BYTES:
        return None
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def folder_in_vault(value: object) -> str | None:
    """A vault-relative folder, or None for the root, a path that leaves the vault or not a string."""
    if not isinstance(value, str):
        return None
    parts = [p for p in PurePosixPath(value.strip().replace("\\", "/")).parts if p not in ("", ".", "/")]
    if not parts or ".." in parts:
        return None
    return "/".join(parts)
