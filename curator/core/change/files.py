"""Writing a change's files: each read and held as it was planned on, refused when it changed
meanwhile, written atomically, with old copies kept so an interrupted change can be put back."""

from __future__ import annotations

import os
import time
from functools import lru_cache
from pathlib import Path

from curator.core.change.edits import FileChange
from curator.core.change.journal import about_to
from curator.core.common.atomic import fsync_dir, temporaries_of, write_all
from curator.core.common.errors import EditError
from curator.core.common.vaultpath import in_git, same_file
from curator.core.read.resolve import fold


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


def read_bytes_of(root: Path, path: str, folders: dict[Path, Path] | None = None) -> bytes | None:
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


class ChangedMeanwhile(Exception):
    """A file of a change was written by another program while the change was being written.
    `written`: the files the change had written (or deleted) by then; `edited`: what the other
    program left in a file whose old copy it wrote to as curator replaced it."""

    def __init__(self, path: str, written: list[str], edited: dict[str, bytes] | None = None) -> None:
        super().__init__(path)
        self.path = path
        self.written = written
        self.edited = edited or {}


class Reads:
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


def set_files(root: Path, files: list[FileChange], created_dirs: list[str], reads: Reads) -> None:
    """Bring each file from `before` (what it holds now) to `after` (None: absent). Deletions
    first, so that a case-only rename works on a case-insensitive file system; empty folders the
    change made are removed. Each folder is synced once at the end: until then the journal,
    synced first, can put back whatever a crash leaves half renamed.

    Right before each file is deleted or replaced it is checked again against `before` (`reads`
    knows what its stat was when `before` was read), and right after, its old copy: a file another
    program wrote meanwhile stops the writing there with `ChangedMeanwhile` (see `_stopped`)."""
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
                    about_to(f"delete {f.path}")
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
            about_to(f"write {f.path}")
            # A case-only rename on a case-insensitive disk: the name read the file just deleted.
            _hold(reads, f.path, full, None if f.path in gone else f.before, written, held)
            written.append(f.path)  # write_all renames it now, or fails with the error that stops it all

        write_all(writes, before_replace, lambda full: _release(planned[full].path, written, held, old_copies))
        old_copies.check_all(written)
    except ChangedMeanwhile as exc:
        # Whatever stopped the writing, every old copy written to meanwhile is that program's edit.
        for path, data in old_copies.edits().items():
            exc.edited.setdefault(path, data)
        raise
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
    reads: Reads,
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
        raise ChangedMeanwhile(path, written) from None
    try:
        stat = os.fstat(fd)
        if expected is None or not (reads.known(path, stat, expected) or _read_all(fd) == expected):
            raise ChangedMeanwhile(path, written)
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
    """The old copies of the files a change replaced, held open and checked once more when every
    file is written, or when the writing stops: a program that opened a file just before it was
    replaced writes into the old copy, and may do so well after the rename (an append on a loaded
    machine). A change of more files than may be open at once holds the last `keep_at_most`."""

    def __init__(self) -> None:
        self.held: list[tuple[str, int, os.stat_result]] = []
        self.keep_at_most = _open_files_to_spare()

    def keep(self, path: str, fd: int, stat: os.stat_result, written: list[str]) -> None:
        self.held.append((path, fd, stat))
        edited = self._edited(self.held[-1])
        if edited is not None:
            raise ChangedMeanwhile(path, written, {path: edited})
        if len(self.held) > self.keep_at_most:
            self._close(self.held.pop(0))

    def edits(self) -> dict[str, bytes]:
        """What each old copy written to since it was replaced holds now."""
        found = {}
        for entry in self.held:
            edited = self._edited(entry)
            if edited is not None:
                found[entry[0]] = edited
        return found

    def check_all(self, written: list[str]) -> None:
        edits = self.edits()
        if edits:
            raise ChangedMeanwhile(next(iter(edits)), written, edits)

    def close(self) -> None:
        while self.held:
            self._close(self.held.pop())

    @staticmethod
    def _edited(entry: tuple[str, int, os.stat_result]) -> bytes | None:
        _, fd, stat = entry
        now = os.fstat(fd)
        if (now.st_size, now.st_mtime_ns) != (stat.st_size, stat.st_mtime_ns):
            return _read_all(fd)
        return None

    @staticmethod
    def _close(entry: tuple[str, int, os.stat_result]) -> None:
        os.close(entry[1])


def _open_files_to_spare() -> int:
    """How many old copies a change may hold open: half the process's limit on open files, raised
    to what the system allows (1,024 is a common default; the limit is per process)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows: old copies are not held there
        return 256
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 65_536 if hard == resource.RLIM_INFINITY else min(hard, 65_536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return max(256, (65_536 if soft == resource.RLIM_INFINITY else soft) // 2)


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def put_back(
    root: Path,
    files: list[FileChange],
    created_dirs: list[str],
    edited: dict[str, bytes] | None = None,
    unmerged: dict[str, bytes] | None = None,
) -> list[str]:
    """Bring every file of `files` (written from `before` to `after`) back to `before`, where it
    still holds what curator wrote; returns the files another program has changed since, which
    keep that program's edit. `edited`: files whose old copy another program wrote to as curator
    replaced it; they get that copy back, with what was written into the new file since merged
    in, or, where the two edits touch one place, that copy goes into `unmerged` to be kept."""
    afters: dict[str, list[bytes | None]] = {}
    for f in files:  # on a case-insensitive disk a case-only rename's old name reads the new file
        afters.setdefault(fold(f.path), []).append(f.after)
    edited = dict(edited or {})
    left: list[str] = []
    while True:
        reads = Reads(root)
        back = []
        for f in files:
            now, wanted = reads.read(f.path), edited.get(f.path, f.before)
            if now == f.before or now == wanted or now in afters[fold(f.path)]:
                back.append(FileChange(f.path, now, wanted))
            elif f.path in edited and (both := _both_edits(f, now, edited[f.path])) is not None:
                back.append(FileChange(f.path, now, both))  # one program wrote the old copy, one the new
            elif f.path not in left:
                left.append(f.path)
                if f.path in edited and unmerged is not None:
                    unmerged[f.path] = edited[f.path]
        try:
            set_files(root, back, created_dirs, reads)
            return left
        except ChangedMeanwhile as exc:  # written to while being put back: it keeps that edit too
            edited.update(exc.edited)
            if exc.path not in exc.edited:  # (those put back already are as wanted: the next round skips them)
                left.append(exc.path)
                files = [f for f in files if f.path != exc.path]


def _both_edits(f: FileChange, now: bytes | None, old_copy: bytes) -> bytes | None:
    """The page as it was before the change, with what one program wrote into its old copy and
    another into the new file since; None when the two cannot both be had (they touch one place)."""
    from curator.core.change.merge3 import MergeConflict, merge3

    if now is None or f.before is None or f.after is None:
        return None
    if now.startswith(f.after) and old_copy.startswith(f.before):  # both appended, as logs do
        return old_copy + now[len(f.after) :]
    try:
        before, after, current, copy = (data.decode("utf-8") for data in (f.before, f.after, now, old_copy))
        return merge3(before, merge3(after, before, current), copy).encode("utf-8")
    except (UnicodeDecodeError, MergeConflict):
        return None


def discard_temporaries(root: Path, paths: list[str]) -> None:
    """Remove what a writer killed between writing and renaming left beside these files."""
    for path in paths:
        try:
            full = _inside(root, path)
        except EditError:
            continue  # nothing is removed outside the vault
        if full.parent.is_dir():
            for stray in temporaries_of(full):
                stray.unlink(missing_ok=True)


def new_dirs(root: Path, paths: list[str]) -> list[str]:
    made = set()
    for path in paths:
        parent = Path(path).parent
        while parent != Path(".") and not (root / parent).exists():
            made.add(parent.as_posix())
            parent = parent.parent
    return sorted(made)
