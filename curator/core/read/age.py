"""When each page was last edited: its last commit in git, else (untracked, edited since, or no
repository) the file's modification time.

A clone sets every file's modification time to the moment of the clone, so in a repository the
commit time is the one that means "edited".
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from curator.core.read.vault import Vault

DAY = 86_400.0


def last_edited(vault: Vault) -> dict[str, float]:
    """Page path -> seconds since the epoch of its last edit (worked out once a load)."""

    def make() -> dict[str, float]:
        edited = {path: page.mtime_ns / 1e9 for path, page in vault.pages.items()}
        for path, when in _last_commits(vault).items():
            if path in edited:
                edited[path] = when
        return edited

    return vault.once("age.last_edited", make)


def age_days(vault: Vault, now: float | None = None, paths: Iterable[str] | None = None) -> dict[str, float]:
    """Page path -> days since its last edit, of every page or of `paths`."""
    now = time.time() if now is None else now
    edited = last_edited(vault)
    return {path: max(now - edited[path], 0.0) / DAY for path in (edited if paths is None else paths)}


def _last_commits(vault: Vault) -> dict[str, float]:
    """Vault path -> time of the last commit that touched it, for pages git holds unchanged since."""
    from curator.core.read.git import GitRepo

    repo = GitRepo.find(vault.root)
    if repo is None:
        return {}
    try:
        prefix = repo.vault.relative_to(repo.top).as_posix()
        out = repo.repo.git.log("--format=%x01%ct", "--name-only", "--no-renames", "-z", "--", prefix or ".")
        changed = repo.dirty_repo_paths([prefix or "."])
    except Exception:  # no commits yet, git missing or failing: modification times answer
        return {}
    lead = f"{prefix}/" if prefix and prefix != "." else ""
    found: dict[str, float] = {}
    when = 0.0
    for part in out.split("\0"):
        for item in part.split("\n"):
            if item.startswith("\x01"):
                when = float(item[1:])
            elif item and item not in changed and item.startswith(lead):
                found.setdefault(item[len(lead) :], when)  # newest first: the first time seen is the last edit
    return found
