"""App-wide messages: small, past tense, posted by workers; only their handlers (the app's and the
screens') change what the app shows or holds."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message
from textual.screen import Screen

from curator.core.common.rules import Finding
from curator.core.curate.dream import DreamResult
from curator.core.read.pagefilter import PageIndex
from curator.core.read.vault import Vault


@dataclass
class VaultLoaded(Message):
    vault: Vault
    findings: list[Finding]
    index: PageIndex
    pending_suggestions: int = 0
    scoring: bool = False  # the model's similar pages follow in a second step


@dataclass
class SimilarScored(Message):
    findings: list[Finding]
    provider: str


@dataclass(frozen=True)
class Shown:
    """What the app shows, held once (`CuratorApp.shown`) and watched by the screens: the vault as
    read, its findings, and how far they are."""

    vault: Vault
    findings: list[Finding]
    index: PageIndex
    note: str = ""  # what is still being worked out, or how it was


@dataclass
class LoadProgressed(Message):
    what: str
    done: int
    total: int


@dataclass
class PageSelected(Message):
    path: str
    line: int | None = None
    follow: bool = False  # chosen outside the index (a link, a finding): the index moves to it too
    travel: bool = False  # going back or forward through the pages followed: not a new step


@dataclass
class Noticed(Message):
    """Something a worker has to say (recovery, a fallback, a dream's notes)."""

    text: str
    title: str = ""
    severity: str = "information"


@dataclass
class ChangeMade(Message):
    """A worker applied or undid a change; the app says so and reads the vault again."""

    text: str
    entry_id: str
    screen: Screen[None] | None = None  # the screen that asked for it: its list is read again
    undoable: str = ""  # "fix": the findings' u undoes it; "accept": the review's u does


@dataclass
class Dreamt(Message):
    """A dream pass is done."""

    pending: int  # waiting for a decision, in all
    new: int  # proposed by this dream and not waiting before it
    set_aside: int  # skipped, undone or rejected
    looked_at: int
    notes: list[str]
    open_review: bool
    untrusted: bool

    @classmethod
    def of(cls, result: DreamResult, waiting: set[str], open_review: bool, untrusted: bool) -> Dreamt:
        """A dream's result counted: `waiting` are the ids pending before it (renewed, not new)."""
        pending = sum(1 for s in result.suggestions if s.status == "pending")
        new = sum(1 for s in result.proposed if s.id not in waiting)
        aside = sum(1 for s in result.suggestions if s.status in ("skipped", "undone", "rejected"))
        return cls(pending, new, aside, result.looked_at, result.notes, open_review, untrusted)

    def said(self) -> str:
        """What the dream found, as a person asked it: new suggestions, or none and why."""
        looked = f"Dream looked at {self.looked_at:,} page{'' if self.looked_at == 1 else 's'}: "
        aside = f"; {self.set_aside} set aside (v in the review lists them)" if self.set_aside else ""
        if self.new:
            return (
                f"{looked}{self.new} new suggestion{'s' if self.new != 1 else ''}, {self.pending} waiting in all{aside}"
            )
        if self.pending:
            return f"{looked}nothing new; the {self.pending} waiting still stand{aside}"
        if self.set_aside:
            return f"{looked}nothing new to suggest; the pages of the suggestions set aside did not change{aside}"
        return f"{looked}nothing to suggest: no event-style title, near-duplicate, status update or crowded index found"


@dataclass
class SuggestionDecided(Message):
    screen: Screen[None]
