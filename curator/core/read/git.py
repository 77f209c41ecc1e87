"""The vault's git repository, when it has one: which files are dirty, and one commit per change.

Only the files a change touched are ever staged or committed (`git commit --only`), so whatever
else the user has staged or modified stays as it was. History is never rewritten.

A repository that came with the vault is data too (an archive can carry its own `.git/`): every
git command runs with its page names as literal pathspecs and with the repository's settings that
would run a program turned off (SAFE_CONFIG, and each filter driver the repository defines);
nothing is committed into a repository whose work tree is not the vault's folder, nor while a
merge, rebase or the like is in progress. What git still does on the repository's word: read
objects from `objects/info/alternates` and patterns from `core.excludesFile` (reads, not
programs), and convert line endings or encodings as `.gitattributes` says.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Any

from curator.core.common.errors import GitError
from curator.core.read.page import INDEX_NAMES

TRAILER = "Curator-Change"
SUBJECT_CHARS = 72  # a commit's first line, as `git log --oneline` and review tools show it

# Settings from the command line outrank the repository's own, and reach every git process the
# command starts (a submodule's too).
SAFE_CONFIG = (
    "core.fsmonitor=false",  # a command git would run on each status and add
    "core.hooksPath=/dev/null",  # hooks --no-verify leaves on: post-commit, post-index-change, ...
    "commit.gpgSign=false",  # gpg.program would run
    "log.showSignature=false",  # `git log` (the age of a page) would run gpg.program on a signed commit
    "gpg.program=false",  # and should anything else verify or sign: a program that does nothing
    "gpg.ssh.program=false",
    "gpg.x509.program=false",
    "gc.auto=0",  # no housekeeping after a commit
    "maintenance.auto=false",
    "protocol.allow=never",  # a partial clone's missing objects are not fetched (by a remote it names)
    "submodule.recurse=false",
    "diff.external=",
)

# What in the git dir says an operation is half done; a commit now would land inside it.
IN_PROGRESS = (
    ("rebase-merge", "a rebase"),
    ("rebase-apply/applying", "git am"),
    ("rebase-apply", "a rebase"),
    ("MERGE_HEAD", "a merge"),
    ("CHERRY_PICK_HEAD", "a cherry-pick"),
    ("REVERT_HEAD", "a revert"),
    ("sequencer", "a cherry-pick or revert"),
    ("BISECT_LOG", "a bisect"),
)

FOREIGN = ".git points at a repository outside the vault; commit by hand"


class GitRepo:
    def __init__(self, repo: Any, vault: Path, top: Path, refusal: str = "") -> None:
        self.repo = repo  # None when `refusal` says why git is not asked at all
        self.top = top
        self.vault = vault.resolve()
        self.refusal = refusal
        self.drivers: set[str] = set()  # the filter drivers the repository's config defines
        self._object_format = ""

    @classmethod
    def find(cls, vault: Path) -> GitRepo | None:
        """The repository the vault lies in, or None (no repository, or no git on this machine).

        A repository curator must not commit into is returned with `refusal` saying why."""
        vault = vault.resolve()
        top = _folder_with_dot_git(vault)
        if top is None:
            return None  # without importing GitPython (60 ms of every write in a vault outside git)
        try:
            import git
        except ImportError:  # GitPython needs the git program
            return None
        if _foreign_git_dir(top):
            return cls(None, vault, top, FOREIGN)
        try:
            repo = git.Repo(top)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            return None
        if repo.bare or repo.working_tree_dir is None:
            return None
        if _foreign_work_tree(repo, top) or Path(repo.working_tree_dir).resolve() != top:
            return cls(None, vault, top, "the repository's core.worktree is not the vault's folder; commit by hand")
        # Pinned, so that git answers about exactly this repository (not one GIT_DIR names).
        repo.git.update_environment(GIT_DIR=str(Path(repo.git_dir).resolve()), GIT_WORK_TREE=str(top))
        repo.git.set_persistent_git_options(c=list(SAFE_CONFIG), literal_pathspecs=True)
        found = cls(repo, vault, top)
        found.drivers = found.filter_drivers()
        off = [f"filter.{name}.{key}=" for name in found.drivers for key in ("clean", "smudge", "process")]
        off += [f"filter.{name}.required=false" for name in found.drivers]
        repo.git.set_persistent_git_options(c=[*SAFE_CONFIG, *off], literal_pathspecs=True)
        return found

    def _rel(self, path: str) -> str:
        return (self.vault / path).relative_to(self.top).as_posix()

    def blocked(self) -> str:
        """Why curator must not stage or commit now ("" when it may)."""
        if self.refusal:
            return self.refusal
        git_dir = Path(self.repo.git_dir)
        for name, what in IN_PROGRESS:
            if (git_dir / name).exists():
                return f"{what} is in progress"
        return ""

    def dirty(self, paths: list[str]) -> list[str]:
        """Those of `paths` (vault-relative) with changes git has not committed, untracked ones included.

        In a repository curator does not commit into, none: git is not asked."""
        if not paths or self.refusal:
            return []
        dirty = self.dirty_repo_paths([self._rel(p) for p in paths])
        return [p for p in paths if self._rel(p) in dirty]

    def dirty_repo_paths(self, rel: list[str]) -> set[str]:
        """Those of `rel` (relative to the repository) that differ from the last commit."""
        if self.refusal:
            raise GitError(self.refusal)
        self._check_rule_files(rel)
        try:
            out = self.repo.git.status(
                "--porcelain", "-z", "--untracked-files=all", "--ignore-submodules=all", "--", *rel
            )
        except Exception as exc:  # GitCommandError, or no git program: one line, nothing written yet
            raise GitError(f"git status failed: {_last_line(exc)}") from exc
        return {entry[3:] for entry in out.split("\0") if len(entry) > 3}

    def commit(self, paths: list[str], message: str, change_id: str) -> str:
        """Commit exactly `paths` (added, changed or deleted) with `message`; returns the commit id."""
        blocked = self.blocked()
        if blocked:
            raise GitError(blocked)
        try:  # any git failure (a locked index, permissions, a detached head) is one line, not a traceback
            rel = [self._rel(p) for p in paths]
            self._check_rule_files(rel)
            ignored = set(self._ignored(rel))
            rel = [p for p in rel if p not in ignored]
            if not rel:
                return ""
            filtered = self._filtered(rel)
            if filtered:
                raise GitError(f"{filtered} goes through a filter driver of the repository; commit by hand")
            before = self._index_entries(rel)
            present = [p for p in rel if (self.top / p).exists()]
            staged = [p for p in rel if p in before or (self.top / p).exists()]
            if present:
                self.repo.git.add("--", *present)
            if not staged or not self.dirty_repo_paths(staged):
                return ""  # nothing differs from the last commit (an undo of a change never committed)
            subject = _subject(message, rel)
            head = f"{subject}\n\n" if subject else ""
            full = f"{head}{message}\n\n{TRAILER}: {change_id}\n"
            try:
                options = ("--only", "--no-verify", "--quiet", "-m", full, "--")
                self.repo.git.commit(*options, *staged, env=self._identity())
            except Exception as exc:
                # What `add` staged for the commit goes back out of the index: left there, the
                # user's next commit would carry it, even a page an undo has taken away since.
                try:
                    self._put_back(present, before)
                except Exception:
                    files = " ".join(present)
                    raise GitError(f"git commit failed: {_last_line(exc)}; unstage with git reset -- {files}") from exc
                raise
            return str(self.repo.head.commit.hexsha)
        except GitError:
            raise
        except Exception as exc:
            raise GitError(f"git commit failed: {_last_line(exc)}") from exc

    def _index_entries(self, rel: list[str]) -> dict[str, tuple[str, str]]:
        """Each of these paths' index entry as (mode, object id); a path not in the index is left out."""
        entries = {}
        for item in self.repo.git.ls_files("-s", "-z", "--", *rel).split("\0"):
            meta, _, path = item.partition("\t")
            if path:
                mode, object_id = meta.split()[:2]
                entries[path] = (mode, object_id)
        return entries

    def _put_back(self, rel: list[str], before: dict[str, tuple[str, str]]) -> None:
        """The index entries of `rel` as they were in `before` (absent where they were absent)."""
        for path in rel:
            if path in before:
                mode, object_id = before[path]
                self.repo.git.update_index("--cacheinfo", f"{mode},{object_id},{path}")
            else:
                self.repo.git.rm("--cached", "-q", "--", path)

    def _check_rule_files(self, rel: list[str]) -> None:
        """GitError when an ignore or attributes file git reads for these paths is not a regular
        file: git opens a FIFO there and waits for a writer forever (a vault unpacked from an archive)."""
        git_dir = Path(self.repo.git_dir)
        candidates = {git_dir / "info" / "exclude", git_dir / "info" / "attributes"}
        for path in rel:
            for folder in (self.top / path).parents:
                candidates.update((folder / ".gitignore", folder / ".gitattributes"))
                if folder == self.top:
                    break
        for candidate in sorted(candidates):
            try:
                mode = candidate.stat().st_mode  # a symbolic link counts as what it leads to
            except (FileNotFoundError, NotADirectoryError):
                continue
            except OSError as exc:
                raise GitError(f"{candidate} cannot be read ({exc.strerror or exc}); commit by hand") from exc
            if not stat.S_ISREG(mode):
                raise GitError(f"{candidate} is not a regular file, and git would wait on it; commit by hand")

    def restore_index(self, written: dict[str, bytes]) -> list[str]:
        """Put the index entries of these vault paths back as in HEAD where they hold exactly the
        bytes curator wrote (staged by a commit a crash interrupted); what the user staged stays.
        Returns the vault paths restored."""
        if not written or self.blocked():
            return []
        rel = {self._rel(path): path for path in written}
        try:
            out = self.repo.git.ls_files("-s", "-z", "--", *rel)
            ours = []
            for item in out.split("\0"):
                meta, _, path = item.partition("\t")
                if path in rel and meta.split()[1] == self._blob_id(written[rel[path]]):
                    ours.append(path)
            if ours:
                if self.repo.head.is_valid():
                    self.repo.git.reset("-q", "--", *ours)
                else:  # no commit yet: nothing to go back to but absence
                    self.repo.git.rm("--cached", "-q", "--", *ours)
        except Exception as exc:
            raise GitError(f"git could not put the index back: {_last_line(exc)}") from exc
        return [rel[path] for path in ours]

    def _blob_id(self, data: bytes) -> str:
        if not self._object_format:
            self._object_format = str(self.repo.git.rev_parse("--show-object-format")).strip() or "sha1"
        return hashlib.new(self._object_format, b"blob %d\0" % len(data) + data).hexdigest()

    def head_commit_of(self, change_id: str) -> str:
        """The id of the last commit when it is this change's (its trailer names it), else ""."""
        if self.refusal:
            return ""
        try:
            head = self.repo.head.commit
        except ValueError:  # no commits yet
            return ""
        return str(head.hexsha) if f"{TRAILER}: {change_id}" in head.message else ""

    def filter_drivers(self) -> set[str]:
        """The filter drivers the repository's config defines (each would run a program)."""
        import git

        try:
            out = str(self.repo.git.config("-z", "--get-regexp", r"^filter\."))
        except git.GitCommandError:  # exit 1: none
            return set()
        keys = [item.split("\n", 1)[0] for item in out.split("\0") if item]
        return {key[len("filter.") : key.rindex(".")] for key in keys if key.count(".") >= 2}

    def _filtered(self, rel: list[str]) -> str:
        """The first of `rel` that `.gitattributes` sends through a filter driver the config defines:
        staging it without the filter would commit what the driver exists to change (git-crypt's
        plain text), and with it would run the repository's program."""
        if not self.drivers:
            return ""
        out = str(self.repo.git.check_attr("-z", "filter", "--", *rel)).split("\0")
        for path, value in zip(out[0::3], out[2::3], strict=False):
            if value in self.drivers:
                return path
        return ""

    def _ignored(self, rel: list[str]) -> list[str]:
        import git

        try:
            return str(self.repo.git.check_ignore("-z", "--", *rel)).split("\0")
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


def _folder_with_dot_git(vault: Path) -> Path | None:
    """`vault` or the nearest folder above it that holds a `.git` (a folder, or a file naming one)."""
    return next((folder for folder in (vault, *vault.parents) if (folder / ".git").exists()), None)


def _foreign_git_dir(top: Path) -> bool:
    """Whether `top/.git` leads to a repository that is not this folder's own: a git dir outside
    `top` that does not name `top` as its work tree (as a linked worktree's and a submodule's do),
    or a git dir whose `commondir` borrows another repository's branches without being its worktree."""
    dot = top / ".git"
    if dot.is_dir():  # a folder, or a link to one
        git_dir = dot.resolve()
    else:
        try:
            text = dot.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            return True
        if not text.startswith("gitdir:"):
            return True
        git_dir = (top / text.removeprefix("gitdir:").strip()).resolve()
    common = _common_dir(git_dir)
    if common != git_dir:  # a linked worktree: it must be one of `common`'s, and this folder its own
        return git_dir.parent != common / "worktrees" or not _names_back(git_dir, top)
    if git_dir.is_relative_to(top):
        return False
    return not _names_back(git_dir, top)


def _foreign_work_tree(repo: Any, top: Path) -> bool:
    """Whether the repository's `core.worktree` (relative to its git dir) names a folder other than `top`."""
    try:
        named = repo.config_reader("repository").get_value("core", "worktree", "")
    except Exception:  # a config GitPython cannot read: not known to name `top`
        return True
    return bool(named) and (Path(repo.git_dir) / str(named)).resolve() != top


def _common_dir(git_dir: Path) -> Path:
    try:
        text = (git_dir / "commondir").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return git_dir.resolve()
    return (git_dir / text).resolve()


def _names_back(git_dir: Path, top: Path) -> bool:
    """Whether `git_dir` names `top` as its work tree: a linked worktree's `gitdir` file names
    `top/.git`, a submodule's config has `core.worktree` = `top`."""
    try:
        back = (git_dir / "gitdir").read_text(encoding="utf-8").strip()
        if (git_dir / back).resolve() == (top / ".git").resolve():
            return True
    except (OSError, UnicodeDecodeError):
        pass
    from git.config import GitConfigParser

    try:
        config = GitConfigParser(str(git_dir / "config"), read_only=True)
        worktree = config.get_value("core", "worktree", "")
    except Exception:  # no config, or one that does not parse: it names nothing
        return False
    return bool(worktree) and (git_dir / str(worktree)).resolve() == top


def _last_line(exc: Exception) -> str:
    """The line of git's message that says what went wrong (its "fatal:" or "error:" line)."""
    lines = [line.strip().removeprefix("stderr: ").strip("'") for line in str(exc).splitlines() if line.strip()]
    for line in lines:
        for mark in ("fatal: ", "error: "):
            if mark in line:
                return line[line.index(mark) + len(mark) :]
    return lines[-1] if lines else type(exc).__name__


def _short(written: str, paths: list[str]) -> str:
    """A page's path from its folder on, with as many folders as tell it from the other pages'
    ("ops/release-watch/README" beside "homelab/release-watch/README")."""
    parts = written.removesuffix(".md").split("/")
    others = {"/".join(p.removesuffix(".md").split("/")[-len(parts) :]) for p in paths if not p.endswith(written)}
    for keep in range(2, len(parts) + 1):
        if not any(other.endswith("/".join(parts[-keep:])) for other in others):
            return "/".join(parts[-keep:])
    return "/".join(parts)


def _subject(message: str, paths: list[str]) -> str:
    """A first line for a commit whose message opens with a paragraph longer than SUBJECT_CHARS
    (git shows a first paragraph as the subject; "" for a short one): what changed, each of its
    pages by name ("Merge a into b" of "Merge notes/dsa/a.md into notes/dsa/b.md because ..."), at
    most SUBJECT_CHARS; the whole message follows it."""
    what = " ".join(message.split("\n\n", 1)[0].split())
    if len(what) <= SUBJECT_CHARS:
        return ""
    stems = [Path(path).stem for path in paths]
    names: list[str] = []  # each page written in the message, by its name, kept apart from the words
    for path in sorted(paths, key=len, reverse=True):
        parts = path.split("/")
        for start in range(len(parts)):  # the message names a page from the vault, a repository's subfolder
            written = "/".join(parts[start:])
            if written in what:
                what = what.replace(written, f"\0{len(names)}\0")
                # Two pages of one name keep their folders, and so does a folder's README alone.
                stem = Path(written).stem
                alone = stems.count(stem) == 1 and stem.lower() not in INDEX_NAMES
                names.append(stem if alone else _short(written, paths))
                break
    cut = what.split(" because ", 1)[0]  # a page's name may say "because": it is held apart above
    what = cut if "\0" in cut else what  # a reason that names no page before "because" keeps its words
    for number, name in enumerate(names):
        what = what.replace(f"\0{number}\0", name)
    return what if len(what) <= SUBJECT_CHARS else what[: SUBJECT_CHARS - 1].rstrip() + "…"
