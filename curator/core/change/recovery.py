"""What an interrupted change left: finished or put back before anything else runs, and the
commits a change could not make at once made late."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from curator.core.change.edits import FileChange
from curator.core.change.files import discard_temporaries, put_back, read_bytes_of
from curator.core.change.journal import Entry, Journal, foreign_note
from curator.core.common.errors import GitError
from curator.core.read.git import GitRepo
from curator.core.state.lock import vault_lock


def recover(root: Path, on_wait: Callable[[str], None] | None = None) -> list[str]:
    """Settle what earlier commands left: roll back every change or undo a crash left half done,
    then commit each change that was written but not committed (git was busy or refused).
    Returns what was done, one line each.

    Under the vault's lock: an entry still being written by a live process is not half done.
    Entries this user's curator did not write are left alone, and named in the first line."""
    journal = Journal(root)
    entries = journal.entries()
    notes = [foreign_note(journal.foreign)] if journal.foreign else []
    if not any(half_done(e) or _to_commit(e) for e in entries):
        return notes
    with vault_lock(root, on_wait=on_wait):
        return notes + _recover(root)


def half_done(entry: Entry) -> bool:
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
            if repo is not None and entry.commit == "" and (commit := repo.head_commit_of(entry.id)):
                entry.state = "applied"  # it was committed just before the crash: finish marking it
                entry.commit, entry.not_committed = commit, ""
                journal.write(entry)
                done.append(f"change {entry.id} was complete; marked applied")
                continue
            discard_temporaries(root, entry.paths)
            files = journal.files(entry)
            left = put_back(root, files, entry.created_dirs)
            done += _restore_index(repo, files)
            entry.state = "rolled-back"
            journal.write(entry)
            done.append(f"change {entry.id} ({entry.reason}) was interrupted and has been rolled back{_kept(left)}")
        elif entry.state == "undoing" and entry.undo is not None:
            repo = GitRepo.find(root)
            if repo is not None and not entry.undo.commit and (commit := repo.head_commit_of(f"undo-{entry.id}")):
                entry.state = "undone"
                entry.undo.commit, entry.undo.not_committed = commit, ""
                journal.write(entry)
                continue
            discard_temporaries(root, entry.undo.paths)
            files = journal.files(entry, undo=True)
            left = put_back(root, files, [])
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
        edited = [f.path for f in files if read_bytes_of(root, f.path) != f.after]
        if edited:
            return "", f"{', '.join(edited)} changed since; commit by hand"
        if undoing:
            return repo.commit(paths, f"Undo: {entry.reason}", f"undo-{entry.id}"), ""
        return repo.commit(paths, entry.reason, entry.id), ""
    except GitError as exc:
        return "", str(exc)
