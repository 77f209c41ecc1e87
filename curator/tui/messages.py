"""App-wide messages: small, past tense, posted by workers and handled by screens."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from curator.core.pagefilter import PageIndex
from curator.core.rules import Finding
from curator.core.vault import Vault


@dataclass
class VaultLoaded(Message):
    vault: Vault
    findings: list[Finding]
    index: PageIndex


@dataclass
class DuplicatesScored(Message):
    findings: list[Finding]
    provider: str


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
