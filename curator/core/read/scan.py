"""Walk a vault: which files are pages, which are attachments, and what could not be walked.

Dot-folders and dot-files are skipped, so are ignore globs (gitignore syntax). Symlinks are
followed only when they stay inside the vault; nothing outside the vault root is ever read.
"""

from __future__ import annotations

import os
import posixpath
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from curator.core.common.errors import VaultNotFound
from curator.core.common.names import escaped, is_utf8
from curator.core.common.vaultpath import in_git

NOT_STATED = -1  # a FileEntry's size and time when the scan did not stat the file
# A page or folder whose name's bytes are not UTF-8 is left out (its path shown with `\xff`
# escapes): no title, link, JSON document or commit message can spell it.
_UNDECODABLE = "its name is not valid UTF-8, so no link can name it; not read (rename it)"


class FileEntry(NamedTuple):
    """A page file as the scan found it (a NamedTuple: a large vault has a hundred thousand)."""

    path: str  # POSIX, relative to the vault root
    size: int  # NOT_STATED when the scan was told not to stat pages (the reader then asks the open file)
    mtime_ns: int
    ctime_ns: int = 0  # when its inode last changed: a `cp -p` that keeps size and time still moves it


class ScanProblem(NamedTuple):
    path: str
    reason: str


class ScanResult(NamedTuple):
    pages: tuple[FileEntry, ...]
    attachments: tuple[str, ...]
    problems: tuple[ScanProblem, ...]
    # What the ignore globs leave out where the walk passes: (file, 0), and (folder with a "/",
    # its time) for a folder it does not enter: a lint's cache key, and `left_out_files`.
    left_out: tuple[tuple[str, int], ...] = ()


def scan_vault(root: Path, ignore: tuple[str, ...] = (), sizes: bool = True) -> ScanResult:
    """List the vault's pages (`.md`) and attachments, sorted by path.

    Without `sizes`, pages are not stat'ed (size and time NOT_STATED): a load with nothing cached to compare
    them with learns them from each open file instead, which costs a fifth of a separate stat.
    """
    spec = None
    if ignore:
        import pathspec  # only vaults with ignore globs need it

        spec = pathspec.GitIgnoreSpec.from_lines(ignore)
    real_root = os.path.realpath(root)
    pages: list[FileEntry] = []
    attachments: list[str] = []
    problems: list[ScanProblem] = []
    left_out: list[tuple[str, int]] = []
    stack: list[tuple[str, str]] = [(str(root), "")]
    while stack:
        folder, prefix = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError as exc:
            problems.append(ScanProblem(prefix.rstrip("/") or ".", f"folder cannot be read: {exc.strerror}"))
            continue
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                continue
            rel = prefix + name
            try:
                if not name.isascii() and not is_utf8(name):  # bytes that are not UTF-8 (see _UNDECODABLE)
                    if entry.is_dir() or name[-3:].lower() == ".md":
                        problems.append(ScanProblem(escaped(rel), _UNDECODABLE))
                    continue
                is_link = entry.is_symlink()
                if is_link:
                    target = os.path.realpath(entry.path)
                    if not _inside(target, real_root):
                        if name[-3:].lower() == ".md" or os.path.isdir(target):  # a page or folder not read
                            problems.append(ScanProblem(rel, "symlink points outside the vault; not read"))
                        continue
                    if in_git(Path(os.path.relpath(target, real_root)).parts):
                        problems.append(ScanProblem(rel, "symlink points into the repository's .git folder; not read"))
                        continue
                    st = os.stat(entry.path)  # follows the link; raises on a loop or a dangling link
                    if stat.S_ISDIR(st.st_mode):
                        continue  # its target is inside the vault and walked there already
                elif entry.is_dir(follow_symlinks=False):  # the entry's type needs no system call
                    if spec is not None and spec.match_file(rel + "/"):
                        left_out.append((f"{rel}/", entry.stat(follow_symlinks=False).st_mtime_ns))
                    elif not installed(entry.path, name):
                        stack.append((entry.path, rel + "/"))
                    continue
                elif spec is not None and spec.match_file(rel):
                    left_out.append((rel, 0))
                    continue
                elif name[-3:].lower() == ".md":
                    if not sizes:
                        if entry.is_file(follow_symlinks=False):
                            pages.append(FileEntry(rel, NOT_STATED, NOT_STATED))
                        continue
                    st = entry.stat(follow_symlinks=False)  # size and time key the cache
                else:
                    if entry.is_file(follow_symlinks=False):
                        attachments.append(rel)
                    continue
            except OSError as exc:
                problems.append(ScanProblem(rel, f"cannot be read: {exc.strerror or exc}"))
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            if spec is not None and spec.match_file(rel):
                continue
            if name[-3:].lower() == ".md":
                pages.append(FileEntry(rel, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
            else:
                attachments.append(rel)
    pages.sort(key=lambda e: e.path)
    attachments.sort()
    return ScanResult(tuple(pages), tuple(attachments), tuple(problems), tuple(sorted(left_out)))


LEFT_OUT_MOST = 20_000  # the files of left-out folders listed at most: a vendored tree may hold millions


def left_out_files(root: Path, left_out: Iterable[tuple[str, int]]) -> tuple[str, ...]:
    """Every file the scan found the ignore globs leave out (`ScanResult.left_out`), those of the
    folders it did not enter too (up to LEFT_OUT_MOST): a link may name one though it is no page
    (`[[templates/daily]]`, `![[Drawing.excalidraw]]`). Nothing is read; dot-folders, installed
    software, symbolic links and names that are not UTF-8 are passed by, nothing is reported."""
    found = [path for path, _ in left_out if not path.endswith("/")]
    folders = [(str(root / path), path) for path, _ in left_out if path.endswith("/")]
    stack = [(folder, path) for folder, path in folders if not installed(folder, posixpath.basename(path[:-1]))]
    while stack and len(found) < LEFT_OUT_MOST:
        folder, prefix = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError:
            continue
        for entry in entries:
            name, rel = entry.name, prefix + entry.name
            try:
                if name.startswith(".") or not is_utf8(name) or entry.is_symlink():
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if not installed(entry.path, name):
                        stack.append((entry.path, rel + "/"))
                elif entry.is_file(follow_symlinks=False):
                    found.append(rel)
            except OSError:
                continue
    return tuple(sorted(found))


_INSTALLED = frozenset({"node_modules", "site-packages", "__pycache__"})


def installed(path: str, name: str) -> bool:
    """Whether a folder holds software installed into the vault, not notes: a package manager's
    folder, or a Python virtual environment (its `pyvenv.cfg`). Their READMEs and licences are
    nobody's pages, and their findings alone would fail a build."""
    return name in _INSTALLED or os.path.isfile(os.path.join(path, "pyvenv.cfg"))


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def check_vault_root(root: Path | str) -> Path:
    path = Path(root)
    if not path.exists():
        raise VaultNotFound(f"vault not found: {path} does not exist")
    if not path.is_dir():
        raise VaultNotFound(f"vault must be a folder: {path} is a file")
    return path
