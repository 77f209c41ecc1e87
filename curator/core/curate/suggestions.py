"""The review queue's store (`VAULT/.curator/suggestions.json`): suggestions with stable ids and a
status, sealed with this user's key; what the journal says was done with them read back in."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from curator.core.change.journal import Entry, Journal
from curator.core.common.atomic import write_atomic
from curator.core.state import cache
from curator.core.state.statefiles import seal

SUGGESTIONS = "suggestions.json"
SCHEMA = "curator.suggestions/1"


@dataclass
class Suggestion:
    id: str
    kind: str  # "rename", "merge", "drop", "tier" or "remember"
    pages: list[str]  # rename: [page]; merge: [source, survivor]; drop: [page, the index if it lists it]
    title: str | None  # the proposed title (rename)
    reason: str
    evidence: dict[str, Any]
    status: str = "pending"  # accepted, rejected, skipped or undone
    page_shas: dict[str, str] = field(default_factory=dict)  # the pages as they were when proposed
    change: str | None = None  # the journal entry of an accepted suggestion
    proposer: str = "rules"
    proposed: float = field(default_factory=time.time)  # a change made before it is not its acceptance

    @property
    def survivor(self) -> str | None:
        return self.pages[1] if self.kind == "merge" else None


def suggestion_id(kind: str, pages: list[str]) -> str:
    return hashlib.sha1(f"{kind}\0{chr(0).join(pages)}".encode()).hexdigest()[:10]


def load_suggestions(root: Path) -> list[Suggestion]:
    """Stored suggestions as the journal leaves them: an accepted one whose change was undone since
    reads as `undone`; a pending one whose change (its journal entry names the suggestion, made
    after it was proposed) is applied or undone, as `accepted` or `undone`: a process was killed
    between writing the change and this file."""
    data = cache.read_json(cache.state_dir(root) / SUGGESTIONS, sealed=True)  # only this user's own
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        return []
    try:
        suggestions = [Suggestion(**s) for s in data.get("suggestions", [])]
    except TypeError:  # sealed by an other version of curator, with other fields: proposed again
        return []
    entries = Journal(root).entries()
    undone = {e.id for e in entries if e.state == "undone"}
    latest: dict[str, Entry] = {}
    for entry in sorted(entries, key=lambda e: e.time):
        if entry.state in ("applied", "undone") and isinstance(named := entry.details.get("suggestion"), str):
            latest[named] = entry
    for s in suggestions:
        made = latest.get(s.id)
        if s.status == "pending" and made is not None and made.time >= s.proposed:
            s.status, s.change = ("accepted" if made.state == "applied" else "undone"), made.id
        elif s.status == "accepted" and s.change in undone:
            s.status = "undone"
    return suggestions


def save_suggestions(root: Path, suggestions: list[Suggestion]) -> None:
    folder = cache.ensure_state_dir(root)
    body = json.dumps({"schema": SCHEMA, "suggestions": [asdict(s) for s in suggestions]}, ensure_ascii=False, indent=2)
    write_atomic(folder / SUGGESTIONS, b"".join(seal(SUGGESTIONS, [body.encode()])))
