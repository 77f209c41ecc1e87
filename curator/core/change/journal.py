"""The journal of applied changes (`.curator/journal/`): one sealed entry a change, with what undoes
it; entries found by id or by a prefix of it."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Protocol, TypeVar

import orjson

from curator.core.change.edits import FileChange
from curator.core.common.atomic import write_atomic
from curator.core.common.errors import EditError
from curator.core.state.cache import STATE_DIR
from curator.core.state.statefiles import make_state_folder, read_state, seal, state_folder

JOURNAL = "journal"


# 4: every file sealed with this user's key (statefiles.seal); entries of earlier formats carry no
# seal and count as written by someone else. 3: each entry's file bytes in journal/files/.
FORMAT = 4


# The ids `new_id` makes; a file named otherwise is never used to build a path.
_ID = re.compile(r"[0-9]{8}-[0-9]{6}-[0-9a-f]{4}")


def _no_step(step: str) -> None:
    """Called before every file operation; tests replace it to simulate a crash at that point."""


before_step: Callable[[str], None] = _no_step


def about_to(step: str) -> None:
    """Before every file operation of a change: `before_step` as it is set now."""
    before_step(step)


@dataclass
class UndoRecord:
    """How a change was taken back (the bytes of its files: `Journal.files(entry, undo=True)`)."""

    time: float
    moved: dict[str, str]  # page the change made -> the page the undo brought back
    paths: list[str]
    commit: str = ""
    not_committed: str = ""  # git's reason, while the undo is written but not committed


BY_AGENT = "mcp"  # a plan's `details["by"]` when an agent made it (curator mcp); `details["agent"]`: its name


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

    @property
    def author(self) -> str:
        """Who made the change: the agent's name (as its MCP client gave it) or "you", the user."""
        if self.details.get("by") != BY_AGENT:
            return "you"
        name = str(self.details.get("agent") or "agent")
        return f"agent {name}" if name.strip().casefold() == "you" else name  # an agent is never "you"

    @property
    def suggested_by(self) -> str | None:
        """The agent whose queued suggestion this change applied (the person applied it), if any."""
        asked = self.details.get("suggested_by")
        return str(asked) if asked else None

    @property
    def credited(self) -> str:
        """Who made it, as a line of history says it: "agent ops-bot" for an agent's change, "you,
        suggested by agent ops-bot" for its suggestion a person applied. An agent names itself: it
        is said to be one, on one line, so that no name reads as "you" or as more of the line."""
        agent = self.details.get("by") == BY_AGENT
        made = f"agent {_shown_name(str(self.details.get('agent') or ''))}".rstrip() if agent else self.author
        asked = self.suggested_by
        return made if asked is None else f"{made}, suggested by {_shown_name(asked)}"


def _shown_name(name: str) -> str:
    """A name as a line shows it: its control characters and line breaks as blanks, 60 at most."""
    plain = " ".join("".join(ch if ch.isprintable() else " " for ch in name).split())
    return repr(plain[:60]) if plain != name or not plain else plain


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

    def keep_copy(self, entry: Entry, path: str, data: bytes) -> str:
        """Keep what another program wrote into a page's old copy when it cannot be put back into
        the page (the page was written to as well, at the same place); its path from the vault root."""
        name = f"{_checked_id(entry.id)}-{hashlib.sha1(path.encode()).hexdigest()[:12]}-{PurePosixPath(path).name}"
        folder = make_state_folder(self.root, JOURNAL, "kept")
        write_atomic(folder / name, data, sync_folder=True)
        return (folder / name).relative_to(self.root).as_posix()

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


def new_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S") + "-" + os.urandom(2).hex()
