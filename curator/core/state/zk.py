"""What a zk notebook's own settings (`.zk/config.toml`) say: the notes zk leaves out (`[note]
ignore`, globs from the notebook's root) and where its daily notes live (a group named for days,
`[group.daily] paths = ["journal/daily"]`, or the group's name when it gives no paths).

The file is read as data (TOML, a regular file, at most MAX_BYTES); a setting that is missing,
unreadable, no gitignore pattern, or no folder inside the vault is left out.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from curator.core.common.vaultpath import glob_problem, read_regular
from curator.core.state.obsidian import folder_in_vault

MAX_BYTES = 1 << 20
MAX_GLOBS = 256  # a notebook's own ignore list is a few lines; a hostile one is read this far
_DAILY_GROUPS = ("daily", "dailies", "journal", "journals", "diary")


def ignored(settings: dict[str, object]) -> tuple[str, ...]:
    """The globs of the notes zk leaves out (of the notebook's `settings`), as gitignore patterns
    that compile, MAX_GLOBS at most."""
    note = settings.get("note")
    globs = note.get("ignore") if isinstance(note, dict) else None
    if not globs or not isinstance(globs, list):
        return ()
    kept: list[str] = []
    for written in globs:
        if not isinstance(written, str) or not written.strip() or "\n" in written:
            continue
        for glob in _braces(written.strip()):
            if glob_problem(glob) is not None:
                continue
            kept.append(glob)
            if len(kept) == MAX_GLOBS:
                return tuple(kept)
    return tuple(kept)


def _braces(glob: str, most: int = 64) -> list[str]:
    """A glob's alternatives as zk's matcher reads them ("slipbox/{search,graph}.md"), which
    gitignore syntax lacks: one glob for each, `most` at most."""
    found = [glob]
    while (at := next((i for i, g in enumerate(found) if _BRACE.search(g)), None)) is not None and len(found) < most:
        glob = found.pop(at)
        match = _BRACE.search(glob)
        assert match is not None
        found[at:at] = [glob[: match.start()] + part + glob[match.end() :] for part in match.group(1).split(",")]
    return found[:most]


_BRACE = re.compile(r"\{([^{}]*,[^{}]*)\}")


def journal_folders(settings: dict[str, object]) -> tuple[str, ...]:
    """The folders of the daily-note groups of the notebook's `settings`."""
    groups = settings.get("group")
    found: list[str] = []
    for name, group in groups.items() if isinstance(groups, dict) else ():
        if name.casefold() not in _DAILY_GROUPS or not isinstance(group, dict):
            continue
        paths = group.get("paths", [name])
        for path in paths if isinstance(paths, list) else []:
            folder = folder_in_vault(path)
            if folder and folder not in found:
                found.append(folder)
    return tuple(found)


def settings(root: Path) -> dict[str, object]:
    """The notebook's `.zk/config.toml`, read as data; empty when there is none to read."""
    try:
        data = read_regular(root / ".zk" / "config.toml", follow_links=False)
    except OSError:
        return {}
    if len(data) > MAX_BYTES:
        return {}
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):  # not UTF-8 or not TOML
        return {}
