"""Apply and undo changes through a crash-safe journal, one git commit each.

Before a byte changes, the journal entry with the exact prior bytes of every file is on disk
(fsynced). An entry still marked `applying` or `undoing` at the next start is rolled back, so
the vault is always fully before or fully after a change. Undo restores what one change altered,
merging with later edits where they do not overlap, and refuses (changing nothing) where they do.
Every write happens under the vault's lock (lock.py): one writer at a time.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import orjson

from curator.core.change.edits import FileChange, Plan
from curator.core.change.merge3 import MergeConflict, merge3
from curator.core.common.atomic import fsync_dir, temporaries_of, write_all, write_atomic
from curator.core.common.errors import EditError, GitError
from curator.core.common.vaultpath import in_git, same_file
from curator.core.read.git import GitRepo
from curator.core.read.resolve import fold
from curator.core.state.cache import STATE_DIR
from curator.core.state.lock import vault_lock, writing
from curator.core.state.statefiles import make_state_folder, read_state, seal, state_folder

if TYPE_CHECKING:
    from curator.core.read.vault import Vault

JOURNAL = "journal"
# 4: every file sealed with this user's key (statefiles.seal); entries of earlier formats carry no
# seal and count as written by someone else. 3: each entry's file bytes in journal/files/.
FORMAT = 4
# The ids `_new_id` makes; a file named otherwise is never used to build a path.
_ID = re.compile(r"[0-9]{8}-[0-9]{6}-[0-9a-f]{4}")


def _no_step(step: str) -> None:
    """Called before every file operation; tests replace it to simulate a crash at that point."""


before_step: Callable[[str], None] = _no_step


@dataclass
class UndoRecord:
    """How a change was taken back (the bytes of its files: `Journal.files(entry, undo=True)`)."""

    time: float
    moved: dict[str, str]  # page the change made -> the page the undo brought back
    paths: list[str]
    commit: str = ""
    not_committed: str = ""  # git's reason, while the undo is written but not committed


@dataclass
class Entry:
    """One change as the journal keeps it (the bytes of its files: `Journal.files(entry)`)."""

    id: str
    kind: str
    reason: str
    time: float
    state: str  # applying, applied, undoing, undone, rolled-back
    paths: list[str]
    moved: dict[str, str] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)
    links_rewritten: int = 0
    created_dirs: list[str] = field(default_factory=list)
    commit: str = ""
    not_committed: str = ""  # git's reason, while the change is written but not committed
    undo: UndoRecord | None = None


def _b64(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(data).decode()


def _unb64(text: str | None) -> bytes | None:
    return None if text is None else base64.b64decode(text)


def _sha(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def _files_to_json(files: list[FileChange]) -> list[dict[str, Any]]:
    return [
        {
            "path": f.path,
            "before": _b64(f.before),
            "before_sha": _sha(f.before),
            "after": _b64(f.after),
            "after_sha": _sha(f.after),
        }
        for f in files
    ]


def _files_from_json(files: list[dict[str, Any]]) -> list[FileChange]:
    return [FileChange(f["path"], _unb64(f["before"]), _unb64(f["after"])) for f in files]


def _entry_to_json(entry: Entry) -> dict[str, Any]:
    undo = entry.undo
    return {
        "format": FORMAT,
        "id": entry.id,
        "kind": entry.kind,
        "reason": entry.reason,
        "time": entry.time,
        "state": entry.state,
        "paths": entry.paths,
        "moved": entry.moved,
        "details": entry.details,
        "links_rewritten": entry.links_rewritten,
        "created_dirs": entry.created_dirs,
        "commit": entry.commit,
        "not_committed": entry.not_committed,
        "undo": {
            "time": undo.time,
            "moved": undo.moved,
            "paths": undo.paths,
            "commit": undo.commit,
            "not_committed": undo.not_committed,
        }
        if undo
        else None,
    }


def _entry_from_json(data: dict[str, Any]) -> Entry:
    details = dict(data.get("details") or {})
    undo = data.get("undo") or None
    return Entry(
        id=data["id"],
        kind=data["kind"],
        reason=data["reason"],
        time=data["time"],
        state=data["state"],
        paths=list(data["paths"]),
        moved=data.get("moved", {}),
        details=details,
        links_rewritten=data.get("links_rewritten", 0),
        created_dirs=data.get("created_dirs", []),
        commit=data.get("commit", ""),
        not_committed=data.get("not_committed") or "",
        undo=UndoRecord(
            time=undo["time"],
            moved=undo.get("moved", {}),
            paths=list(undo["paths"]),
            commit=undo.get("commit") or "",
            not_committed=undo.get("not_committed") or "",
        )
        if undo
        else None,
    )


class Journal:
    """`.curator/journal/`: one small JSON file per change (`<id>.json`), and the exact bytes of
    the files it changed in `files/<id>.json` (of its undo: `files/<id>.undo.json`). Reading
    the history or checking for unfinished changes reads only the small files.

    Every file is sealed with this user's key: one that does not verify (written by someone else,
    by an earlier format, or damaged) is foreign, never recovered, committed, undone or listed;
    `entries` names them in `foreign`. Its folders are checked at each use (statefiles)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.foreign: list[str] = []  # what the last `entries` ignored, as paths from the vault root

    @property
    def folder(self) -> Path:
        return state_folder(self.root, JOURNAL)

    def write(self, entry: Entry) -> None:
        """Store the entry durably: atomic replace, then fsync of its folder."""
        name = _checked_id(entry.id) + ".json"
        data = orjson.dumps(_entry_to_json(entry), option=orjson.OPT_INDENT_2)
        folder = make_state_folder(self.root, JOURNAL)
        write_atomic(folder / name, b"".join(seal(f"{JOURNAL}/{name}", [data])), sync_folder=True)

    def store_files(self, entry: Entry, files: list[FileChange], undo: bool = False) -> None:
        """Store the bytes of a change's (or its undo's) files, before the entry that names them."""
        name = self._files_name(entry, undo)
        data = orjson.dumps({"format": FORMAT, "files": _files_to_json(files)})
        folder = make_state_folder(self.root, JOURNAL, "files")
        write_atomic(folder / name, b"".join(seal(f"{JOURNAL}/files/{name}", [data])), sync_folder=True)

    def files(self, entry: Entry, undo: bool = False) -> list[FileChange]:
        """The bytes each file of the change (or of its undo) had before it and after it."""
        stored = state_folder(self.root, JOURNAL, "files") / self._files_name(entry, undo)
        data = read_state(stored, sealed=True)
        if data is None:
            raise EditError(
                f"the journal's files of change {entry.id} are missing, damaged or not written by this curator; "
                "nothing was changed"
            )
        try:
            return _files_from_json(orjson.loads(data)["files"])
        except (ValueError, KeyError, TypeError) as exc:
            raise EditError(f"journal file {stored.name} is damaged ({exc}); nothing was changed") from exc

    def entries(self) -> list[Entry]:
        """Every entry this user's curator wrote, oldest first (the others: `foreign`)."""
        folder = self.folder
        self.foreign = []
        if not folder.is_dir():
            return []
        found = []
        for path in sorted(folder.glob("*.json")):
            entry = _entry_at(path)
            if entry is None:
                self.foreign.append(f"{STATE_DIR}/{JOURNAL}/{path.name}")
            else:
                found.append(entry)
        found.sort(key=lambda e: (e.time, e.id))
        return found

    def get(self, change_id: str) -> Entry:
        return by_id_prefix(self.entries(), change_id, "change", "curator history")

    @staticmethod
    def _files_name(entry: Entry, undo: bool) -> str:
        return f"{_checked_id(entry.id)}.undo.json" if undo else f"{_checked_id(entry.id)}.json"


def _checked_id(change_id: str) -> str:
    if not _ID.fullmatch(change_id):
        raise EditError(f"{change_id!r} is not a journal id; nothing was changed")
    return change_id


def _entry_at(path: Path) -> Entry | None:
    """The entry stored at `path`, or None unless this user's curator sealed it under its own id."""
    stem = path.name.removesuffix(".json")
    if not _ID.fullmatch(stem):
        return None
    data = read_state(path, sealed=True)
    if data is None:
        return None
    try:
        entry = _entry_from_json(orjson.loads(data))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    return entry if entry.id == stem else None


def foreign_note(foreign: list[str]) -> str:
    """One line naming the journal entries that were ignored, and what to do about them."""
    shown = ", ".join(foreign[:3]) + (", …" if len(foreign) > 3 else "")
    entries = "entry" if len(foreign) == 1 else "entries"
    return f"ignored {len(foreign)} journal {entries} this curator did not write ({shown}); move them aside"


class _HasId(Protocol):
    @property
    def id(self) -> str: ...


Identified = TypeVar("Identified", bound=_HasId)


def by_id_prefix(items: list[Identified], prefix: str, what: str, listed_by: str) -> Identified:
    """The one item whose id starts with `prefix` (a change, a suggestion); EditError when none
    or several do."""
    matches = [item for item in items if item.id.startswith(prefix)] if prefix else []
    if not matches:
        raise EditError(f"no {what} {prefix!r} (see '{listed_by}')")
    if len(matches) > 1:
        raise EditError(f"{prefix!r} matches {len(matches)} {what}s; give more of the id")
    return matches[0]


@lru_cache(maxsize=16)
def _real_root(root: Path) -> Path:
    return root.resolve()


def _inside(root: Path, path: str, folders: dict[Path, Path] | None = None) -> Path:
    """The absolute path of a vault file or folder; refuses (EditError) anything that would land
    outside the vault once symbolic links are followed, the vault itself, and anything in `.git/`.

    `folders`: the real paths of folders already resolved during this one operation (an apply
    touching 1,000 files resolves their few folders once, not every file's path)."""
    full = root / path
    real_root = _real_root(root)
    if os.path.islink(full) or folders is None:
        real = full.resolve()
    else:
        folder = folders.get(full.parent)
        if folder is None:
            folder = folders[full.parent] = full.parent.resolve()
        real = folder / full.name
    if real == real_root or not real.is_relative_to(real_root):
        raise EditError(f"{path} lies outside the vault; nothing was changed")
    if in_git(path.replace("\\", "/").split("/")) or in_git(real.relative_to(real_root).parts):
        raise EditError(f"{path} lies in the repository's .git folder; curator never writes there; nothing was changed")
    return full


def _read(root: Path, path: str, folders: dict[Path, Path] | None = None) -> bytes | None:
    try:
        return _inside(root, path, folders).read_bytes()
    except FileNotFoundError:
        return None


# A file whose clock stamp is this close to the moment it was read can be written again within
# the same tick of the file system's clock without its stat changing (FAT counts in 2 s steps):
# whether it changed since is then told by its bytes.
_RACY_NS = 2_000_000_000


def _stat_key(stat: os.stat_result) -> tuple[int, int, int, int]:
    """What changes with every write to a file: ctime too, which no program can set back."""
    return stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns


class _ChangedMeanwhile(Exception):
    """A file of a change was written by another program while the change was being written.
    `written`: the files the change had written (or deleted) by then; `edited`: what the other
    program left in a file whose old copy it wrote to as curator replaced it."""

    def __init__(self, path: str, written: list[str], edited: dict[str, bytes] | None = None) -> None:
        super().__init__(path)
        self.path = path
        self.written = written
        self.edited = edited or {}


class _Reads:
    """The files one change or undo reads, each once: the bytes, and the stat as they were read.

    Every read of one path returns the same bytes, so what is planned and what is checked before
    writing are one version of the file; `known` tells from the stat, right before the file is
    replaced, that nothing has written to it since (its bytes tell where the stat cannot)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.folders: dict[Path, Path] = {}
        self._seen: dict[str, tuple[bytes | None, tuple[int, int, int, int] | None, int]] = {}

    def read(self, path: str) -> bytes | None:
        seen = self._seen.get(path)
        if seen is None:
            full = _inside(self.root, path, self.folders)
            data: bytes | None
            key: tuple[int, int, int, int] | None
            try:
                with open(full, "rb") as handle:  # the stat first: a write after it shows in the next one
                    key = _stat_key(os.fstat(handle.fileno()))
                    data = handle.read()
            except FileNotFoundError:
                data, key = None, None
            seen = self._seen[path] = (data, key, time.time_ns())
        return seen[0]

    def known(self, path: str, stat: os.stat_result, expected: bytes) -> bool:
        """Whether a file of this stat is the one read as `expected`, untouched since."""
        seen = self._seen.get(path)
        return (
            seen is not None
            and seen[1] == _stat_key(stat)
            and max(stat.st_mtime_ns, stat.st_ctime_ns) < seen[2] - _RACY_NS
            and seen[0] == expected
        )


def _set_files(root: Path, files: list[FileChange], created_dirs: list[str], reads: _Reads) -> None:
    """Bring each file from `before` (what it holds now) to `after` (None: absent). Deletions
    first, so that a case-only rename works on a case-insensitive file system; empty folders the
    change made are removed. Each folder is synced once at the end: until then the journal,
    synced first, can put back whatever a crash leaves half renamed.

    Right before each file is deleted or replaced it is checked again against `before` (`reads`
    knows what its stat was when `before` was read), and right after, its old copy: a file another
    program wrote meanwhile stops the writing there with `_ChangedMeanwhile` (see `_stopped`)."""
    changing = [f for f in files if f.before != f.after]
    touched: set[Path] = set()
    folders: dict[Path, Path] = {}
    gone: set[str] = set()
    written: list[str] = []
    held: dict[str, tuple[int, os.stat_result]] = {}
    old_copies = _OldCopies()
    try:
        for f in changing:
            if f.after is None:
                full = _inside(root, f.path, folders)
                if full.exists():
                    # A case-only rename on a case-insensitive disk: the new name is this file.
                    same = [
                        g.path
                        for g in changing
                        if g.after is not None and fold(g.path) == fold(f.path) and same_file(full, root / g.path)
                    ]
                    before_step(f"delete {f.path}")
                    _hold(reads, f.path, full, f.before, written, held)
                    full.unlink()
                    written.append(f.path)
                    _release(f.path, written, held, old_copies)
                    touched.add(full.parent)
                    gone.update(same)
        writes: list[tuple[Path, bytes, int | None]] = []
        planned: dict[Path, FileChange] = {}
        for f in changing:
            if f.after is None:
                continue
            full = _inside(root, f.path, folders)
            try:
                mode: int | None = full.stat().st_mode & 0o7777  # keep the page's permissions
            except FileNotFoundError:
                full.parent.mkdir(parents=True, exist_ok=True)
                mode = None
            writes.append((full, f.after, mode))
            planned[full] = f

        def before_replace(full: Path) -> None:
            f = planned[full]
            before_step(f"write {f.path}")
            # A case-only rename on a case-insensitive disk: the name read the file just deleted.
            _hold(reads, f.path, full, None if f.path in gone else f.before, written, held)
            written.append(f.path)  # write_all renames it now, or fails with the error that stops it all

        write_all(writes, before_replace, lambda full: _release(planned[full].path, written, held, old_copies))
        old_copies.check_all(written)
    finally:
        for fd, _ in held.values():
            os.close(fd)
        old_copies.close()
    touched.update(full.parent for full, _, _ in writes)
    for parent in touched:
        fsync_dir(parent)
    for folder in sorted(created_dirs, key=len, reverse=True):
        try:
            full = _inside(root, folder)
        except EditError:
            continue  # removing an empty folder can wait; one outside the vault is never touched
        if full.is_dir() and not full.is_symlink() and not any(full.iterdir()):
            wanted = any(f.after is not None and f.path.startswith(folder + "/") for f in files)
            if not wanted:
                full.rmdir()


def _hold(
    reads: _Reads,
    path: str,
    full: Path,
    expected: bytes | None,
    written: list[str],
    held: dict[str, tuple[int, os.stat_result]],
) -> None:
    """Refuse to replace a file another program changed since it was read as `expected`; the
    file checked stays open (in `held`) until `_release`, once it is replaced.

    Nothing but the rename (or unlink) follows this check. The moment between the two cannot be
    closed: no file system offers "replace if unchanged", and other programs do not take
    curator's advisory lock. What is written into the old copy in that moment shows in its stat
    afterwards (`_release`); a program that replaces the file itself then is not seen."""
    try:
        fd = os.open(full, os.O_RDONLY)
    except FileNotFoundError:
        if expected is None:
            return
        raise _ChangedMeanwhile(path, written) from None
    try:
        stat = os.fstat(fd)
        if expected is None or not (reads.known(path, stat, expected) or _read_all(fd) == expected):
            raise _ChangedMeanwhile(path, written)
    except BaseException:
        os.close(fd)
        raise
    if os.name == "nt":  # pragma: no cover - Windows cannot rename over a file held open
        os.close(fd)
        return
    held[path] = fd, stat


def _release(
    path: str, written: list[str], held: dict[str, tuple[int, os.stat_result]], old_copies: _OldCopies
) -> None:
    """After `path` is replaced or deleted: an edit that reached its old copy since `_hold` is
    taken up as the other program's edit, to be put back (the rename itself changes the old
    copy's ctime, not its size or mtime). The old copy stays open to be checked again at the end."""
    if path not in held:
        return
    fd, stat = held.pop(path)
    old_copies.keep(path, fd, stat, written)


class _OldCopies:
    """The old copies of the files a change replaced, held open (the last KEEP of them) and checked
    once more when every file is written: a program that opened a file just before it was replaced
    writes into the old copy, and may do so well after the rename (an append on a loaded machine)."""

    KEEP = 256  # open files at most: well under the usual limit of 1,024

    def __init__(self) -> None:
        self.held: list[tuple[str, int, os.stat_result]] = []

    def keep(self, path: str, fd: int, stat: os.stat_result, written: list[str]) -> None:
        self.held.append((path, fd, stat))
        self._check(self.held[-1], written)
        if len(self.held) > self.KEEP:
            self._close(self.held.pop(0))

    def check_all(self, written: list[str]) -> None:
        for entry in self.held:
            self._check(entry, written)

    def close(self) -> None:
        while self.held:
            self._close(self.held.pop())

    @staticmethod
    def _check(entry: tuple[str, int, os.stat_result], written: list[str]) -> None:
        path, fd, stat = entry
        now = os.fstat(fd)
        if (now.st_size, now.st_mtime_ns) != (stat.st_size, stat.st_mtime_ns):
            raise _ChangedMeanwhile(path, written, {path: _read_all(fd)})

    @staticmethod
    def _close(entry: tuple[str, int, os.stat_result]) -> None:
        os.close(entry[1])


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _put_back(
    root: Path, files: list[FileChange], created_dirs: list[str], edited: dict[str, bytes] | None = None
) -> list[str]:
    """Bring every file of `files` (written from `before` to `after`) back to `before`, where it
    still holds what curator wrote; returns the files another program has changed since, which
    keep that program's edit. `edited`: files whose old copy another program wrote to as curator
    replaced it; they get that copy back."""
    afters: dict[str, list[bytes | None]] = {}
    for f in files:  # on a case-insensitive disk a case-only rename's old name reads the new file
        afters.setdefault(fold(f.path), []).append(f.after)
    edited = dict(edited or {})
    left: list[str] = []
    while True:
        reads = _Reads(root)
        back = []
        for f in files:
            now, wanted = reads.read(f.path), edited.get(f.path, f.before)
            if now == f.before or now == wanted or now in afters[fold(f.path)]:
                back.append(FileChange(f.path, now, wanted))
            elif f.path not in left:
                left.append(f.path)
        try:
            _set_files(root, back, created_dirs, reads)
            return left
        except _ChangedMeanwhile as exc:  # written to while being put back: it keeps that edit too
            edited.update(exc.edited)
            if exc.path not in exc.edited:  # (those put back already are as wanted: the next round skips them)
                left.append(exc.path)
                files = [f for f in files if f.path != exc.path]


def _discard_temporaries(root: Path, paths: list[str]) -> None:
    """Remove what a writer killed between writing and renaming left beside these files."""
    for path in paths:
        try:
            full = _inside(root, path)
        except EditError:
            continue  # nothing is removed outside the vault
        if full.parent.is_dir():
            for stray in temporaries_of(full):
                stray.unlink(missing_ok=True)


def _new_dirs(root: Path, paths: list[str]) -> list[str]:
    made = set()
    for path in paths:
        parent = Path(path).parent
        while parent != Path(".") and not (root / parent).exists():
            made.add(parent.as_posix())
            parent = parent.parent
    return sorted(made)


def recover(root: Path, on_wait: Callable[[str], None] | None = None) -> list[str]:
    """Settle what earlier commands left: roll back every change or undo a crash left half done,
    then commit each change that was written but not committed (git was busy or refused).
    Returns what was done, one line each.

    Under the vault's lock: an entry still being written by a live process is not half done.
    Entries this user's curator did not write are left alone, and named in the first line."""
    journal = Journal(root)
    entries = journal.entries()
    notes = [foreign_note(journal.foreign)] if journal.foreign else []
    if not any(_half_done(e) or _to_commit(e) for e in entries):
        return notes
    with vault_lock(root, on_wait=on_wait):
        return notes + _recover(root)


def _half_done(entry: Entry) -> bool:
    return entry.state in ("applying", "undoing")


def _to_commit(entry: Entry) -> bool:
    if entry.state == "applied":
        return bool(entry.not_committed)
    return entry.state == "undone" and entry.undo is not None and bool(entry.undo.not_committed)


def _recover(root: Path) -> list[str]:
    journal = Journal(root)
    done = []
    entries = journal.entries()
    for entry in entries:
        if entry.state == "applying":
            repo = GitRepo.find(root)
            if repo is not None and entry.commit == "" and repo.head_mentions(entry.id):
                entry.state = "applied"  # it was committed just before the crash: finish marking it
                entry.not_committed = ""
                journal.write(entry)
                done.append(f"change {entry.id} was complete; marked applied")
                continue
            _discard_temporaries(root, entry.paths)
            files = journal.files(entry)
            left = _put_back(root, files, entry.created_dirs)
            done += _restore_index(repo, files)
            entry.state = "rolled-back"
            journal.write(entry)
            done.append(f"change {entry.id} ({entry.reason}) was interrupted and has been rolled back{_kept(left)}")
        elif entry.state == "undoing" and entry.undo is not None:
            repo = GitRepo.find(root)
            if repo is not None and not entry.undo.commit and repo.head_mentions(f"undo-{entry.id}"):
                entry.state = "undone"
                entry.undo.not_committed = ""
                journal.write(entry)
                continue
            _discard_temporaries(root, entry.undo.paths)
            files = journal.files(entry, undo=True)
            left = _put_back(root, files, [])
            done += _restore_index(repo, files)
            entry.state = "applied"
            entry.undo = None
            journal.write(entry)
            done.append(f"undo of {entry.id} was interrupted; the change is back in place{_kept(left)}")
    for entry in entries:
        if _to_commit(entry):
            done.append(_commit_late(root, journal, entry))
    return done


def _restore_index(repo: GitRepo | None, files: list[FileChange]) -> list[str]:
    """After a rollback, take out of git's index what the interrupted commit had staged of these
    files: left there, it would go into the user's next commit and make every file look dirty."""
    if repo is None:
        return []
    try:
        repo.restore_index({f.path: f.after for f in files if f.after is not None})
    except GitError as exc:
        return [f"{exc}; unstage what the interrupted change staged with git reset -- FILE"]
    return []


def _kept(left: list[str]) -> str:
    return f" ({', '.join(left)} changed since: kept as they are)" if left else ""


def _commit_late(root: Path, journal: Journal, entry: Entry) -> str:
    """Commit a change (or undo) that was written but not committed; one line on what happened.

    Only a file that still holds exactly what curator wrote is committed: a file edited since
    would carry the user's edit into curator's commit, so the change then waits for the user."""
    undoing = entry.state == "undone"
    record = entry.undo if undoing else entry
    assert record is not None
    files = journal.files(entry, undo=undoing)
    what = f"{'undo of ' if undoing else ''}change {entry.id} ({entry.reason})"
    repo = GitRepo.find(root)
    was = record.not_committed
    commit, why = ("", "") if repo is None else _commit_written(root, repo, files, entry, undoing)
    record.commit, record.not_committed = commit or record.commit, why
    if why == was:
        return f"{what} is still not committed: {why}"
    journal.write(entry)
    if why:
        return f"{what} is not committed: {why}"
    if commit:
        return f"{what} is committed now, as {commit[:10]}"
    return f"{what} needs no commit any more (its files are committed, or there is no repository)"


def _commit_written(root: Path, repo: GitRepo, files: list[FileChange], entry: Entry, undoing: bool) -> tuple[str, str]:
    """(commit id, "") once committed; ("", "") when git has nothing to commit; ("", why) when not."""
    paths = [f.path for f in files]
    blocked = repo.blocked()
    if blocked:  # it waits for the merge or rebase to be over
        return "", blocked
    try:
        if not repo.dirty(paths):
            return "", ""
        edited = [f.path for f in files if _read(root, f.path) != f.after]
        if edited:
            return "", f"{', '.join(edited)} changed since; commit by hand"
        if undoing:
            return repo.commit(paths, f"Undo: {entry.reason}", f"undo-{entry.id}"), ""
        return repo.commit(paths, entry.reason, entry.id), ""
    except GitError as exc:
        return "", str(exc)


def pending(root: Path) -> tuple[list[str], str | None]:
    """Ids of changes a crash left half done, and a line naming the journal entries this user's
    curator did not write, if there are any (read only: lint uses it to warn). A change whose
    writer is alive (it holds the vault's lock) is being written, not interrupted."""

    def read() -> tuple[list[str], str | None]:
        journal = Journal(root)
        half_done = [e.id for e in journal.entries() if _half_done(e)]
        return half_done, foreign_note(journal.foreign) if journal.foreign else None

    half_done, note = read()
    if not half_done:
        return half_done, note
    if writing(root) is not None:
        return [], note
    return read()  # read again: a writer marks its entry done before it lets the lock go


def history(root: Path) -> list[Entry]:
    """Changes newest first (rolled-back ones are left out)."""
    return [e for e in reversed(Journal(root).entries()) if e.state != "rolled-back"]


def reverted_outside(root: Path, entries: list[Entry] | None = None) -> set[str]:
    """Ids of the applied changes whose files all hold again what they held before the change:
    put back outside curator (a git reset, a checkout, an aborted rebase), so nothing is left to undo."""
    journal = Journal(root)
    entries = journal.entries() if entries is None else entries
    return {e.id for e in entries if _reverted(root, journal, e, entries)}


def _reverted(root: Path, journal: Journal, entry: Entry, entries: list[Entry]) -> bool:
    if entry.state != "applied":
        return False
    try:
        for new in entry.moved.values():  # a page the change made still there: cheap, and settles most
            if _read(root, _follow(entries, entry, new)) is not None:
                return False
        files = journal.files(entry)
        return bool(files) and all(
            f.before != f.after and _read(root, _follow(entries, entry, f.path)) == f.before for f in files
        )
    except (EditError, OSError):  # a file followed into a merge, or unreadable: not known to be reverted
        return False


def _new_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S") + "-" + os.urandom(2).hex()


def apply(root: Path, plan: Plan, allow_dirty: bool = False) -> Entry:
    """Write a plan to disk: journal first, then the files, then one git commit, under the vault's
    lock. A plan made outside the lock is refused when a file it touches changed since: plan
    inside it (`plan_and_apply`) to be sure of planning against what is on disk."""
    with vault_lock(root):
        recover(root)
        return _apply(root, plan, allow_dirty)


def plan_and_apply(
    root: Path,
    make_plan: Callable[[Vault], Plan],
    allow_dirty: bool = False,
    on_wait: Callable[[str], None] | None = None,
) -> tuple[Plan, Entry]:
    """Load the vault, plan and apply, all under its lock: a second writer waits, then plans
    against what the first one wrote."""
    from curator.core.read.loading import load_vault

    with vault_lock(root, on_wait=on_wait):
        recover(root)
        plan = make_plan(load_vault(root))
        return plan, _apply(root, plan, allow_dirty)


def _apply(root: Path, plan: Plan, allow_dirty: bool) -> Entry:
    """`apply` once the vault's lock is held and what earlier commands left is settled."""
    refuse_credentials(plan.changes)  # before a byte is written
    for change in plan.changes:  # writing would put a file where the link is, and undo could not put the link back
        if os.path.islink(root / change.path):
            raise EditError(
                f"{change.path} is a symbolic link; curator changes only the files themselves: nothing was changed"
            )
    deleted = {fold(c.path) for c in plan.changes if c.after is None}
    reads = _Reads(root)
    for change in plan.changes:
        if change.before is None and fold(change.path) in deleted:
            continue  # a case-only rename: on a case-insensitive disk the new name reads the old file
        if reads.read(change.path) != change.before:
            raise EditError(f"{change.path} changed since the change was planned; nothing was changed")
    repo = GitRepo.find(root)
    if repo is not None and not allow_dirty:
        dirty = repo.dirty([c.path for c in plan.changes if c.before is not None])
        if dirty:
            raise EditError(f"uncommitted changes in {', '.join(dirty)}; commit them first or pass --allow-dirty")
    entry = Entry(
        id=_new_id(),
        kind=plan.kind,
        reason=plan.reason,
        time=time.time(),
        state="applying",
        paths=[c.path for c in plan.changes],
        moved=plan.moved,
        details={**plan.details, "notes": list(plan.notes)},
        links_rewritten=plan.links_rewritten,
        created_dirs=_new_dirs(root, [c.path for c in plan.changes if c.after is not None]),
    )
    journal = Journal(root)
    journal.store_files(entry, list(plan.changes))
    journal.write(entry)
    try:
        _set_files(root, list(plan.changes), [], reads)  # each file checked again as it is written
    except _ChangedMeanwhile as exc:
        raise _stopped(root, journal, entry, list(plan.changes), exc) from None
    if repo is not None:
        before_step("commit")
        try:
            entry.commit = repo.commit(entry.paths, plan.reason, entry.id)
        except GitError as exc:  # the files are written and journaled: the change stands, uncommitted
            entry.not_committed = str(exc)  # the next command tries again (recover)
    entry.state = "applied"
    journal.write(entry)
    return entry


def _stopped(root: Path, journal: Journal, entry: Entry, files: list[FileChange], exc: _ChangedMeanwhile) -> EditError:
    """Take back what a change (or an undo) has written of `files` by the time another program
    wrote to one of them, keeping that program's edits; the entry ends as if the change (the
    undo) had never started. The error to report."""
    changed = exc.path
    undoing = entry.state == "undoing"
    written = set(exc.written)
    left = _put_back(root, [f for f in files if f.path in written], [] if undoing else entry.created_dirs, exc.edited)
    if undoing:
        entry.state, entry.undo = "applied", None
    else:
        entry.state = "rolled-back"
    journal.write(entry)
    what = "the undo" if undoing else "the change"
    also = [path for path in left if path != changed]
    if also:
        return EditError(
            f"{changed} changed while {what} was being written, and so did {', '.join(also)} once written; "
            f"{what} is taken back where it could be, every edit kept: check those files"
        )
    return EditError(f"{changed} changed while {what} was being written; nothing was changed, its edit kept")


def _follow(entries: list[Entry], entry: Entry, path: str) -> str:
    """Where the file `entry` knew as `path` is now, after the renames of later changes and undos.

    A file merged into another page by a later change cannot be followed: its lines now live in
    a different document, so undoing into it would not commute with undoing that merge.
    """
    events: list[tuple[float, Entry, dict[str, str]]] = []
    for other in entries:
        if other.id == entry.id or other.state not in ("applied", "undone"):
            continue
        if other.time > entry.time:
            if other.state == "applied":  # a later change undone since moved nothing for good
                events.append((other.time, other, other.moved))
        elif other.state == "undone" and other.undo is not None and other.undo.time > entry.time:
            events.append((other.undo.time, other, other.undo.moved))
    for _, other, moves in sorted(events, key=lambda event: event[0]):
        if path in moves and other.kind == "merge" and moves is other.moved:
            raise EditError(f"{path} was merged into {moves[path]} by change {other.id}; undo that first")
        path = moves.get(path, path)
    return path


def plan_undo(
    root: Path,
    entry: Entry,
    files: list[FileChange],
    entries: list[Entry],
    read: Callable[[str], bytes | None] | None = None,
) -> tuple[list[tuple[str, bytes | None]], dict[str, str]]:
    """What each file must become to take `entry` (which changed `files`) back, later edits
    kept, and the moves that makes. `read`: how a file of the vault is read (default: as it is
    on disk now).

    EditError on a conflict: a line both changed, or a page the change moved that moved again.
    """
    if read is None:
        read = _Reads(root).read
    by_path = {f.path: f for f in files}
    moves = {
        old: new
        for old, new in entry.moved.items()
        if old in by_path and new in by_path and by_path[old].after is None and by_path[new].before is None
    }
    wanted: dict[str, bytes | None] = {}
    undone_moves: dict[str, str] = {}
    for f in files:
        path, before, after = f.path, f.before, f.after
        if path in moves.values():
            continue  # a page the change made by moving another: decided with the page it came from
        if path in moves:  # bring the moved page back, with whatever was written into it since
            new = moves[path]
            if _follow(entries, entry, new) != new:
                raise EditError(f"{new} was moved again by a later change; undo that change first")
            new_after, new_now, current = by_path[new].after, read(new), read(path)
            if new_now is None:
                raise EditError(f"{new} was deleted since change {entry.id}; nothing was changed")
            if current is not None and current != before and fold(path) != fold(new):
                raise EditError(f"{path} exists again since change {entry.id}; nothing was changed")
            wanted[path] = before if new_now == new_after else _merge(new, new_after, new_now, before)
            wanted[new] = None
            undone_moves[new] = path
            continue
        here = _follow(entries, entry, path)
        current = read(here)
        if current == after:
            wanted[here] = before
        elif current == before:
            continue  # already as it was
        elif current is None or after is None or before is None:
            raise EditError(f"{here} was created, deleted or moved since change {entry.id}; nothing was changed")
        else:
            wanted[here] = _merge(here, after, current, before)
    return sorted(wanted.items()), undone_moves


def _merge(path: str, base: bytes | None, ours: bytes, theirs: bytes | None) -> bytes:
    try:
        result = merge3((base or b"").decode("utf-8"), ours.decode("utf-8"), (theirs or b"").decode("utf-8"))
    except MergeConflict as exc:
        raise EditError(
            f"{path} was edited since, in the words this change touched; undo refused, nothing was changed"
        ) from exc
    except UnicodeDecodeError as exc:
        raise EditError(f"{path} is no longer valid UTF-8; undo refused, nothing was changed") from exc
    return result.encode("utf-8")


def undo(root: Path, change_id: str, allow_dirty: bool = False, on_wait: Callable[[str], None] | None = None) -> Entry:
    """Take back one change, leaving every other in place (under the vault's lock)."""
    with vault_lock(root, on_wait=on_wait):
        return _undo(root, change_id, allow_dirty)


def _undo(root: Path, change_id: str, allow_dirty: bool) -> Entry:
    recover(root)
    journal = Journal(root)
    entry = journal.get(change_id)
    if entry.state == "undone":
        raise EditError(f"change {entry.id} was already undone")
    if entry.state != "applied":
        raise EditError(f"change {entry.id} is {entry.state}, not applied; nothing to undo")
    if _reverted(root, journal, entry, journal.entries()):
        raise EditError(
            f"change {entry.id} was reverted outside curator (its files hold what they held before it); nothing to undo"
        )
    reads = _Reads(root)  # the undo is planned and checked against one version of each file
    wanted, undone_moves = plan_undo(root, entry, journal.files(entry), journal.entries(), reads.read)
    files = [FileChange(path, reads.read(path), data) for path, data in wanted]
    repo = GitRepo.find(root)
    if repo is not None and not allow_dirty:
        dirty = repo.dirty([f.path for f in files if f.before is not None])
        if dirty:
            raise EditError(f"uncommitted changes in {', '.join(dirty)}; commit them first or pass --allow-dirty")
    entry.state = "undoing"
    entry.undo = UndoRecord(time=time.time(), moved=undone_moves, paths=[f.path for f in files])
    journal.store_files(entry, files, undo=True)
    journal.write(entry)
    # Folders any change created are removed once an undo leaves them empty.
    made = sorted({folder for e in journal.entries() for folder in e.created_dirs})
    try:
        _set_files(root, files, made, reads)
    except _ChangedMeanwhile as exc:
        raise _stopped(root, journal, entry, files, exc) from None
    if repo is not None:
        before_step("commit")
        try:
            entry.undo.commit = repo.commit([f.path for f in files], f"Undo: {entry.reason}", f"undo-{entry.id}")
        except GitError as exc:  # the undo is written: it stands, uncommitted; the next command tries again
            entry.undo.not_committed = str(exc)
    entry.state = "undone"
    journal.write(entry)
    return entry


def refuse_credentials(changes: Iterable[FileChange]) -> None:
    """EditError naming the file, line and kind when a change adds a line that holds a credential.
    The whole new text is scanned, so an allowlist comment on the line before counts; a line the
    file held before is not the change's to answer for (lint reports it)."""
    from curator.core.read.credentials import find_credentials

    for change in changes:
        if change.after is None:
            continue
        before = set((change.before or b"").decode("utf-8", "replace").splitlines())
        after = change.after.decode("utf-8", "replace")
        lines = after.splitlines()
        for found in find_credentials(after):
            if lines[found.line - 1] not in before:
                raise EditError(
                    f"{change.path}:{found.line} would hold a credential ({found.kind}); nothing was written. "
                    "Keep secrets out of the vault (a password manager, an environment variable), "
                    "or mark a line you accept with <!-- pragma: allowlist secret -->."
                )
