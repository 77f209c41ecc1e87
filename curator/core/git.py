"""The vault's git repository, when it has one: which files are dirty, and one commit per change.

Only the files a change touched are ever staged or committed (`git commit --only`), so whatever
else the user has staged or modified stays as it was. History is never rewritten.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from curator.core.errors import GitError

TRAILER = "Curator-Change"


class GitRepo:
    def __init__(self, repo: Any, vault: Path) -> None:
        self.repo = repo
        self.top = Path(repo.working_tree_dir).resolve()
        self.vault = vault.resolve()

    @classmethod
    def find(cls, vault: Path) -> GitRepo | None:
        """The repository the vault lies in, or None (no repository, or no git on this machine)."""
        if not _inside_a_work_tree(vault):
            return None  # without importing GitPython (60 ms of every write in a vault outside git)
        try:
            import git
        except ImportError:  # GitPython needs the git program
            return None
        try:
            repo = git.Repo(vault, search_parent_directories=True)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            return None
        if repo.bare or repo.working_tree_dir is None:
            return None
        return cls(repo, vault)

    def _rel(self, path: str) -> str:
        return (self.vault / path).relative_to(self.top).as_posix()

    def dirty(self, paths: list[str]) -> list[str]:
        """Those of `paths` (vault-relative) with changes git has not committed, untracked ones included."""
        if not paths:
            return []
        dirty = self.dirty_repo_paths([self._rel(p) for p in paths])
        return [p for p in paths if self._rel(p) in dirty]

    def dirty_repo_paths(self, rel: list[str]) -> set[str]:
        """Those of `rel` (relative to the repository) that differ from the last commit."""
        try:
            out = self.repo.git.status("--porcelain", "-z", "--untracked-files=all", "--", *rel)
        except Exception as exc:  # GitCommandError, or no git program: one line, nothing written yet
            raise GitError(f"git status failed: {_last_line(exc)}") from exc
        return {entry[3:] for entry in out.split("\0") if len(entry) > 3}

    def commit(self, paths: list[str], message: str, change_id: str) -> str:
        """Commit exactly `paths` (added, changed or deleted) with `message`; returns the commit id."""
        try:  # any git failure (a locked index, permissions, a detached head) is one line, not a traceback
            rel = [self._rel(p) for p in paths]
            ignored = set(self._ignored(rel))
            rel = [p for p in rel if p not in ignored]
            if not rel:
                return ""
            tracked = set(self.repo.git.ls_files("--", *rel).splitlines())
            present = [p for p in rel if (self.top / p).exists()]
            staged = [p for p in rel if p in tracked or (self.top / p).exists()]
            if present:
                self.repo.git.add("--", *present)
            if not staged or not self.dirty_repo_paths(staged):
                return ""  # nothing differs from the last commit (an undo of a change never committed)
            full = f"{message}\n\n{TRAILER}: {change_id}\n"
            self.repo.git.commit("--only", "--no-verify", "-m", full, "--", *staged, env=self._identity())
            return str(self.repo.head.commit.hexsha)
        except Exception as exc:
            raise GitError(f"git commit failed: {_last_line(exc)}") from exc

    def head_mentions(self, change_id: str) -> bool:
        try:
            return f"{TRAILER}: {change_id}" in self.repo.head.commit.message
        except ValueError:  # no commits yet
            return False

    def _ignored(self, rel: list[str]) -> list[str]:
        import git

        try:
            return str(self.repo.git.check_ignore("--", *rel)).splitlines()
        except git.GitCommandError:  # exit 1: none ignored
            return []

    def _identity(self) -> dict[str, str]:
        """Commit as the user; where git has no identity configured (a CI box), as curator."""
        env: dict[str, str] = {}
        reader = self.repo.config_reader()
        if not reader.has_option("user", "name") and "GIT_AUTHOR_NAME" not in os.environ:
            env.update(GIT_AUTHOR_NAME="curator", GIT_COMMITTER_NAME="curator")
        if not reader.has_option("user", "email") and "GIT_AUTHOR_EMAIL" not in os.environ:
            env.update(GIT_AUTHOR_EMAIL="curator@localhost", GIT_COMMITTER_EMAIL="curator@localhost")
        return env


def _inside_a_work_tree(vault: Path) -> bool:
    """Whether `vault` or a folder above it holds a `.git` (a folder, or a file naming one)."""
    folder = vault.resolve()
    return any((candidate / ".git").exists() for candidate in (folder, *folder.parents))


def _last_line(exc: Exception) -> str:
    """The line of git's message that says what went wrong (its "fatal:" or "error:" line)."""
    lines = [line.strip().removeprefix("stderr: ").strip("'") for line in str(exc).splitlines() if line.strip()]
    for line in lines:
        for mark in ("fatal: ", "error: "):
            if mark in line:
                return line[line.index(mark) + len(mark) :]
    return lines[-1] if lines else type(exc).__name__
