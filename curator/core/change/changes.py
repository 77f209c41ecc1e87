"""Apply and undo changes through a crash-safe journal, one git commit each.

Before a byte changes, the journal entry with the exact prior bytes of every file is on disk
(fsynced). An entry still marked `applying` or `undoing` at the next start is rolled back, so
the vault is always fully before or fully after a change. Undo restores what one change altered,
merging with later edits where they do not overlap, and refuses (changing nothing) where they do.
Every write happens under the vault's lock (lock.py): one writer at a time.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from curator.core.change.edits import FileChange, Plan
from curator.core.change.files import ChangedMeanwhile, Reads, new_dirs, put_back, read_bytes_of, set_files
from curator.core.change.journal import BY_AGENT, Entry, Journal, UndoRecord, about_to, foreign_note, new_id
from curator.core.change.merge3 import MergeConflict, added_headings, headings_kept, left_behind, merge3
from curator.core.change.recovery import half_done, recover
from curator.core.common.atomic import discard_stale_temporaries
from curator.core.common.errors import EditError, GitError
from curator.core.read.git import GitRepo
from curator.core.read.reading import UTF16_BOMS
from curator.core.read.resolve import fold
from curator.core.state.lock import vault_lock, writing
from curator.core.state.statefiles import STATE_DIR

if TYPE_CHECKING:
    from curator.core.read.vault import Vault


def pending(root: Path) -> tuple[list[str], str | None]:
    """Ids of changes a crash left half done, and a line naming the journal entries this user's
    curator did not write, if there are any (read only: lint uses it to warn). A change whose
    writer is alive (it holds the vault's lock) is being written, not interrupted."""

    def read() -> tuple[list[str], str | None]:
        journal = Journal(root)
        ids = [e.id for e in journal.entries() if half_done(e)]
        return ids, foreign_note(journal.foreign) if journal.foreign else None

    ids, note = read()
    if not ids:
        return ids, note
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
            if read_bytes_of(root, _follow(entries, entry, new)) is not None:
                return False
        files = journal.files(entry)
        return bool(files) and all(
            f.before != f.after and read_bytes_of(root, _where(entries, entry, f)) == f.before for f in files
        )
    except (EditError, OSError):  # a file followed into a merge, or unreadable: not known to be reverted
        return False


def apply(root: Path, plan: Plan, allow_dirty: bool = False) -> Entry:
    """Write a plan to disk: journal first, then the files, then one git commit, under the vault's
    lock. A plan made outside the lock is refused when a file it touches changed since: plan
    inside it (`plan_and_apply`) to be sure of planning against what is on disk."""
    with vault_lock(root):
        recover(root)
        return _apply(root, plan, allow_dirty)


class WrittenMeanwhile(EditError):
    """Another program (an editor's autosave, a sync) wrote a file of the change after it was
    planned or while it was written: nothing of the change stands, that program's edit is kept."""


# The plans made against a vault another program keeps writing before its writer gives up (an
# editor saving every few seconds rarely meets a change twice), a pause growing by PAUSE before each.
PLANS = 3
PAUSE = 0.1
# A page found empty this soon after it was written may be an editor's save under way (it empties
# the file, then writes it through the same handle): what curator wrote would lose the editor's text.
JUST_EMPTIED_S = 2.0


def plan_and_apply(
    root: Path,
    make_plan: Callable[[Vault], Plan],
    allow_dirty: bool = False,
    on_wait: Callable[[str], None] | None = None,
    load: Callable[[Path], Vault] | None = None,
) -> tuple[Plan, Entry]:
    """Load the vault (with `load`, e.g. a resident's that reads only what changed), plan and
    apply, all under its lock: a second writer waits, then plans against what the first one wrote;
    a program writing (or removing) a file of the change meanwhile has it planned again, PLANS
    times at most."""
    from curator.core.read.loading import load_vault

    with vault_lock(root, on_wait=on_wait):
        recover(root)
        failure = None
        for attempt in range(PLANS):
            time.sleep(PAUSE * attempt)  # the other program's save may take a moment
            try:
                plan = make_plan((load or load_vault)(root))
                return plan, _apply(root, plan, allow_dirty)
            except WrittenMeanwhile as exc:
                failure = exc
            except FileNotFoundError as exc:  # removed (and perhaps written anew) as it was read
                named = isinstance(exc.filename, str)
                gone = os.path.relpath(os.path.abspath(exc.filename), os.path.abspath(root)) if named else "a page"
                failure = WrittenMeanwhile(f"{gone} was removed while the change was planned; nothing was changed")
        assert failure is not None  # PLANS >= 1
        raise failure


def _written_within(path: Path, seconds: float) -> bool:
    try:
        return time.time() - path.stat().st_mtime < seconds
    except OSError:
        return False


def _apply(root: Path, plan: Plan, allow_dirty: bool) -> Entry:
    """`apply` once the vault's lock is held and what earlier commands left is settled."""
    by_agent = plan.details.get("by") == BY_AGENT
    refuse_credentials(plan.changes, plan.reason, by_agent)  # before a byte is written
    for change in plan.changes:  # writing would put a file where the link is, and undo could not put the link back
        if os.path.islink(root / change.path):
            raise EditError(
                f"{change.path} is a symbolic link; curator changes only the files themselves: nothing was changed"
            )
        repository = own_repository(root, change.path)
        if repository:  # its own commits are another project's: a submodule, a clone kept in the vault
            raise EditError(
                f"{change.path} is in {repository}/, a git repository of its own; curator changes only the "
                "vault's own files: nothing was changed"
            )
    deleted = {fold(c.path) for c in plan.changes if c.after is None}
    reads = Reads(root)
    for change in plan.changes:
        if change.before is None and fold(change.path) in deleted:
            continue  # a case-only rename: on a case-insensitive disk the new name reads the old file
        on_disk = reads.read(change.path)
        if on_disk is not None and (why := _not_rewritable(on_disk)):  # rewritten, or moved (a rename)
            raise EditError(f"{change.path} {why}; nothing was changed")
        if on_disk != change.before:
            raise WrittenMeanwhile(f"{change.path} changed since the change was planned; nothing was changed")
        if on_disk == b"" and change.after and _written_within(root / change.path, JUST_EMPTIED_S):
            raise WrittenMeanwhile(f"{change.path} is being saved (emptied a moment ago); nothing was changed")
    repo = GitRepo.find(root)
    if repo is not None and not allow_dirty:
        dirty = repo.dirty([c.path for c in plan.changes if c.before is not None])
        if dirty:
            raise EditError(f"uncommitted changes in {', '.join(dirty)}; commit them first or pass --allow-dirty")
    entry = Entry(
        id=new_id(),
        kind=plan.kind,
        reason=plan.reason,
        time=time.time(),
        state="applying",
        paths=[c.path for c in plan.changes],
        moved=plan.moved,
        details={**plan.details, "notes": list(plan.notes)},
        links_rewritten=plan.links_rewritten,
        created_dirs=new_dirs(root, [c.path for c in plan.changes if c.after is not None]),
    )
    discard_stale_temporaries(root / STATE_DIR)  # what writers killed earlier left
    journal = Journal(root)
    journal.store_files(entry, list(plan.changes))
    journal.write(entry)
    try:
        set_files(root, list(plan.changes), [], reads)  # each file checked again as it is written
    except ChangedMeanwhile as exc:
        raise _stopped(root, journal, entry, list(plan.changes), exc) from None
    if repo is not None:
        about_to("commit")
        try:
            entry.commit = repo.commit(entry.paths, plan.reason, entry.id)
        except GitError as exc:  # the files are written and journaled: the change stands, uncommitted
            entry.not_committed = str(exc)  # the next command tries again (recover)
    entry.state = "applied"
    journal.write(entry)
    return entry


def _stopped(root: Path, journal: Journal, entry: Entry, files: list[FileChange], exc: ChangedMeanwhile) -> EditError:
    """Take back what a change (or an undo) has written of `files` by the time another program
    wrote to one of them, keeping that program's edits; the entry ends as if the change (the
    undo) had never started. The error to report."""
    changed = exc.path
    undoing = entry.state == "undoing"
    written = set(exc.written)
    unmerged: dict[str, bytes] = {}
    left = put_back(
        root, [f for f in files if f.path in written], [] if undoing else entry.created_dirs, exc.edited, unmerged
    )
    kept = {path: journal.keep_copy(entry, path, data) for path, data in unmerged.items()}
    if undoing:
        entry.state, entry.undo = "applied", None
    else:
        entry.state = "rolled-back"
    journal.write(entry)
    what = "the undo" if undoing else "the change"
    also = [path for path in left if path != changed]
    if kept:
        copies = "; ".join(
            f"{path} was also written through its old copy, kept as {copy}" for path, copy in kept.items()
        )
        return EditError(
            f"{', '.join(left)} changed while {what} was being written, by two programs at once; "
            f"{what} is taken back where it could be, each file keeping the newer edit: {copies}; check those files"
        )
    if also:
        return EditError(
            f"{changed} changed while {what} was being written, and so did {', '.join(also)} once written; "
            f"{what} is taken back where it could be, every edit kept: check those files"
        )
    return WrittenMeanwhile(f"{changed} changed while {what} was being written; nothing was changed, its edit kept")


def _follow(entries: list[Entry], entry: Entry, path: str) -> str:
    """Where the file `entry` knew as `path` is now, after the renames of later changes and undos.

    A file merged into another page by a later change cannot be followed: its lines now live in
    a different document, so undoing into it would not commute with undoing that merge.
    """
    for other, moves in _moves_after(entries, entry):
        if path in moves and other.kind == "merge" and moves is other.moved:
            raise EditError(f"{path} was merged into {moves[path]} by change {other.id}; undo that first")
        path = moves.get(path, path)
    return path


def _where(entries: list[Entry], entry: Entry, file: FileChange) -> str:
    """Where a file `entry` changed is now; one it deleted stays at its path: a page that comes
    to that path later is another page, and where that one moves on is not followed."""
    return file.path if file.after is None else _follow(entries, entry, file.path)


def _moves_after(entries: list[Entry], entry: Entry) -> list[tuple[Entry, dict[str, str]]]:
    """The moves made after `entry`, oldest first, each with the change it belongs to: of the
    later changes, and of the undos made after it.

    A later change undone since counts too, there and back: while its page was away another
    page could take the path and move on, and it is that other page that moved on, not this one.
    """
    events: list[tuple[float, Entry, dict[str, str]]] = []
    for other in entries:
        if other.id == entry.id or other.state not in ("applied", "undone"):
            continue
        if other.time > entry.time:
            if other.state == "applied":
                events.append((other.time, other, other.moved))
            elif other.undo is not None:
                back = dict(other.undo.moved)
                moves = other.moved
                if other.kind == "merge":  # the merged page was in no file until its undo brought it back
                    moves = {old: f"{old}\0merged by {other.id}" for old in other.moved}
                    back.update({away: old for old, away in moves.items()})
                events += [(other.time, other, moves), (other.undo.time, other, back)]
        elif other.state == "undone" and other.undo is not None and other.undo.time > entry.time:
            events.append((other.undo.time, other, other.undo.moved))
    return [(other, moves) for _, other, moves in sorted(events, key=lambda event: event[0])]


def _blocker(
    entries: list[Entry],
    entry: Entry,
    path: str,
    texts: tuple[bytes | None, bytes | None],
    files_of: Callable[[Entry], list[FileChange]],
) -> Entry | None:
    """The oldest later change still in place that edited the file `entry` knew as `path` in the
    words `entry` changed there (`texts`: the file just after `entry`, and just before it).

    Judged on that change's own edit, not on the file now: two later edits can cancel out in the
    bytes (a link renamed and renamed back) and still each need the words this undo would take.
    """
    after, before = texts
    if after is None:  # the change deleted the file: a later change edited another one at its path
        return None
    for other, moves in _moves_after(entries, entry):
        at, path = path, moves.get(path, path)
        if other.state != "applied" or at not in other.paths:
            continue
        by_path = {f.path: f for f in files_of(other)}
        found, made = by_path[at].before, by_path[at].after
        if made is None and path in by_path and by_path[path].before is None:
            made = by_path[path].after  # the page moved on with its text
        if found == made or found is None:
            continue
        if made is None or before is None:  # the later change deleted the page, or edited one this change made
            return other
        try:
            undone = merge3(after.decode("utf-8"), found.decode("utf-8"), before.decode("utf-8"))
        except (MergeConflict, UnicodeDecodeError):
            continue  # edits between the two stand in the way: judged against the file as it is now
        try:
            merge3(found.decode("utf-8"), undone, made.decode("utf-8"))
        except MergeConflict:
            return other
        except UnicodeDecodeError:
            continue
    return None


def _refuse_if_blocked(
    entries: list[Entry],
    entry: Entry,
    path: str,
    texts: tuple[bytes | None, bytes | None],
    files_of: Callable[[Entry], list[FileChange]],
) -> None:
    """EditError naming the later change to undo first, when `_blocker` finds one."""
    blocker = _blocker(entries, entry, path, texts, files_of)
    if blocker is not None:
        raise _edited_by(_follow(entries, entry, path), blocker.id)


def _edited_by(path: str, change_id: str) -> EditError:
    """The refusal of an undo whose words a later change still in place edited since."""
    return EditError(
        f"{path} was edited by change {change_id} since, in the words this change touched; "
        "undo that change first: undo refused, nothing was changed"
    )


def plan_undo(
    root: Path,
    entry: Entry,
    files: list[FileChange],
    entries: list[Entry],
    read: Callable[[str], bytes | None] | None = None,
    files_of: Callable[[Entry], list[FileChange]] | None = None,
) -> tuple[list[tuple[str, bytes | None]], dict[str, str]]:
    """What each file must become to take `entry` (which changed `files`) back, later edits
    kept, and the moves that makes. `read`: how a file of the vault is read (default: as it is
    on disk now); `files_of`: the files of another change (default: from the journal).

    EditError on a conflict: a line both changed, a later change still in place that edited
    the words this one changed, or a page the change moved that moved again.
    """
    if read is None:
        read = Reads(root).read
    loaded: dict[str, list[FileChange]] = {}
    journal_files = Journal(root).files if files_of is None else files_of

    def later_files(other: Entry) -> list[FileChange]:
        if other.id not in loaded:
            loaded[other.id] = journal_files(other)
        return loaded[other.id]

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
                movers = [o.id for o, moved in _moves_after(entries, entry) if new in moved and o.state == "applied"]
                by = f"change {movers[0]}" if movers else "a later change"
                raise EditError(f"{new} was moved again by {by}; undo that change first")
            new_after, new_now, current = by_path[new].after, read(new), read(path)
            _refuse_if_blocked(entries, entry, new, (new_after, before), later_files)
            if new_now is None:
                by = _by(entries, entry, new)
                raise EditError(f"{new} was deleted since change {entry.id}{by}; nothing was changed")
            if current is not None and current != before and fold(path) != fold(new):
                by = _by(entries, entry, path)
                raise EditError(f"{path} exists again since change {entry.id}{by}; nothing was changed")
            writer = _writer(entries, entry, new)
            wanted[path] = before if new_now == new_after else _merge(new, new_after, new_now, before, writer)
            wanted[new] = None
            undone_moves[new] = path
            continue
        here = _where(entries, entry, f)
        current = read(here)
        if current != before:
            _refuse_if_blocked(entries, entry, path, (after, before), later_files)
        if current == after:
            wanted[here] = before
        elif current == before:
            continue  # already as it was
        elif current is None or after is None or before is None:
            raise EditError(
                f"{here} was created, deleted or moved since change {entry.id}{_by(entries, entry, here)}; "
                "nothing was changed"
            )
        else:
            # A section a change taken back since this one was made goes with the last text under it.
            since = [o for o in entries if o.state == "undone" and o.undo is not None and o.undo.time > entry.time]
            made = added_headings([(f.before, f.after) for o in since for f in later_files(o) if f.path == here])
            wanted[here] = _merge(here, after, current, before, _writer(entries, entry, path), made)
    for path, data in wanted.items():
        if data is not None and read(path) is None:
            _refuse_if_left(entries, entry, path)
    return sorted(wanted.items()), undone_moves


def _refuse_if_left(entries: list[Entry], entry: Entry, path: str) -> None:
    """EditError when a later change still in place moved a page off `path`, which this undo
    would fill for good: that change's own undo needs the path back, and could never be made.
    A page an earlier change still in place brought to `path` moves off it again when that one
    is undone, so it takes the path for a while only."""
    if any(o.state == "applied" and o.time < entry.time and path in o.moved.values() for o in entries):
        return
    left = [
        o.id
        for o in entries
        if o.state == "applied" and o.time > entry.time and any(fold(old) == fold(path) for old in o.moved)
    ]
    if left:
        raise EditError(
            f"{path} was left by change {left[-1]} since change {entry.id}, and its undo needs the path back; "
            "undo that change first: nothing was changed"
        )


def _by(entries: list[Entry], entry: Entry, path: str) -> str:
    """ ", by change ID: undo that first", naming the newest later change still in place that
    wrote `path`, or "" when none did (it was changed outside curator, or by an undo)."""
    later = [e.id for e in entries if e.state == "applied" and e.time > entry.time and path in e.paths]
    return f", by change {later[-1]}: undo that first" if later else ""


def _writer(entries: list[Entry], entry: Entry, path: str) -> str | None:
    """The id of the newest later change still in place that wrote the file `entry` knew as
    `path`, under whichever name it had then; None when none did (it was edited outside curator).

    A conflict `_blocker` could not pin on one change (a change undone since had edited the
    file between them) still names a change whose undo lets this one through.
    """
    found = None
    for other, moves in _moves_after(entries, entry):
        at, path = path, moves.get(path, path)
        if other.state == "applied" and (at in other.paths or path in other.paths):
            found = other.id
    return found


def _merge(
    path: str,
    base: bytes | None,
    ours: bytes,
    theirs: bytes | None,
    writer: str | None = None,
    made: tuple[str, ...] = (),
) -> bytes:
    try:
        now, was, wanted = (data.decode("utf-8") for data in (ours, base or b"", theirs or b""))
        result = headings_kept(now, merge3(was, now, wanted), made)
        if left_behind(was, now, wanted, result):  # its lines moved since: the merge kept what it wrote
            raise MergeConflict
    except MergeConflict as exc:
        if writer is not None:
            raise _edited_by(path, writer) from exc
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
    reads = Reads(root)  # the undo is planned and checked against one version of each file
    stored = journal.files(entry)
    wanted, undone_moves = plan_undo(root, entry, stored, journal.entries(), reads.read, journal.files)
    files = [FileChange(path, reads.read(path), data) for path, data in wanted]
    repo = GitRepo.find(root)
    if repo is not None and not allow_dirty:
        dirty = repo.dirty([f.path for f in files if f.before is not None])
        if entry.not_committed:  # what git has not taken may be this change's own writing: no one else's edit
            wrote = {f.path: f.after for f in stored}
            dirty = [path for path in dirty if path not in wrote or reads.read(path) != wrote[path]]
        if dirty:
            raise EditError(f"uncommitted changes in {', '.join(dirty)}; commit them first or pass --allow-dirty")
    entry.state = "undoing"
    entry.undo = UndoRecord(time=time.time(), moved=undone_moves, paths=[f.path for f in files])
    journal.store_files(entry, files, undo=True)
    journal.write(entry)
    # Folders any change created are removed once an undo leaves them empty.
    made = sorted({folder for e in journal.entries() for folder in e.created_dirs})
    try:
        set_files(root, files, made, reads)
    except ChangedMeanwhile as exc:
        raise _stopped(root, journal, entry, files, exc) from None
    if repo is not None:
        about_to("commit")
        try:
            entry.undo.commit = repo.commit([f.path for f in files], f"Undo: {entry.reason}", f"undo-{entry.id}")
        except GitError as exc:  # the undo is written: it stands, uncommitted; the next command tries again
            entry.undo.not_committed = str(exc)
    entry.state = "undone"
    journal.write(entry)
    return entry


def own_repository(root: Path, path: str) -> str:
    """The folder between the vault and a file that is a git repository of its own ("" when none)."""
    parts = path.split("/")[:-1]
    for end in range(1, len(parts) + 1):
        if os.path.lexists(root.joinpath(*parts[:end], ".git")):
            return "/".join(parts[:end])
    return ""


def refuse_credentials(changes: Iterable[FileChange], reason: str = "", by_agent: bool = False) -> None:
    """EditError naming the file, line and kind when a change adds a line that holds a credential,
    names a new file with one, or gives one as its reason (its commit message, which git keeps
    for good). The whole new text is scanned, so an allowlist comment on the line before counts;
    a line the file held before is not the change's to answer for (lint reports it). In an
    agent's change (`by_agent`) a pragma counts only where a person's page held it before: an
    agent writing one beside its own credential accepts nothing."""
    from curator.core.read.credentials import allowlisted_lines, find_credentials

    changes = list(changes)
    accepted: set[str] = set()  # lines a pragma on disk accepts, which an agent's merge may carry over
    if by_agent:
        for change in changes:
            accepted |= allowlisted_lines((change.before or b"").decode("utf-8", "replace"))
    named = [(c.path, f"the new page name {c.path!r}") for c in changes if c.before is None]
    for text, what in [(reason, "the change's reason (its commit message)"), *named]:
        for found in find_credentials(text, allowlist=False):  # no page holds these lines: git does, for good
            raise EditError(
                f"{what} would hold a credential ({found.kind}); nothing was written. "
                "Keep secrets out of the vault and its history."
            )

    for change in changes:
        if change.after is None:
            continue
        before = set((change.before or b"").decode("utf-8", "replace").splitlines())
        after = change.after.decode("utf-8", "replace")
        lines = after.splitlines()
        for found in find_credentials(after, allowlist=not by_agent):
            if lines[found.line - 1] not in before and lines[found.line - 1] not in accepted:
                raise EditError(
                    f"{change.path}:{found.line} would hold a credential ({found.kind}); nothing was written. "
                    "Keep secrets out of the vault (a password manager, an environment variable), "
                    "or mark a line you accept with <!-- pragma: allowlist secret -->."
                )


def _not_rewritable(data: bytes) -> str | None:
    """Why a file cannot be rewritten or moved in its own form, or None: curator writes UTF-8 with
    the file's own line endings (LF or CRLF), and a UTF-16 page, a binary file or one with lines
    ending in CR alone would come back changed in every line."""
    if data.startswith(UTF16_BOMS):
        return "is UTF-16 text: curator writes UTF-8 only; save it as UTF-8 first"
    if b"\x00" in data:
        return "holds binary data (NUL bytes), not text"
    if len(re.findall(rb"\r(?!\n)", data)) > data.count(b"\n"):  # a stray CR inside a line is the line's
        return "ends lines in CR alone (old Mac OS): save it with LF line endings first"
    return None
