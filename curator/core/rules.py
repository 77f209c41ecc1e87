"""The catalogue of finding rules (id, default severity, meaning) and the Finding they report."""

from __future__ import annotations

from typing import Any, NamedTuple

# NamedTuples, not dataclasses, here and in the other modules a warm lint imports: importing
# `dataclasses` (and `inspect` with it) costs more than the rest of a warm lint of 1,000 pages.


class Rule(NamedTuple):
    id: str
    severity: str  # the severity it reports at when on
    summary: str
    on: bool = True  # whether it runs without being asked for (`rules.<id>` or `--select`)


CATALOGUE: tuple[Rule, ...] = (
    Rule("orphan", "warning", "A page with no incoming link and no resolving outgoing link."),
    Rule("dead-link", "error", "A link whose target resolves to no page or file in the vault."),
    Rule("stub", "info", "A page with too little body text to be worth its title."),
    Rule("diary-title", "warning", "A title that names an event (it holds a date, or is very long), not a thing."),
    Rule(
        "duplicate",
        "warning",
        "Two pages a person would merge: one holds the other's text, or both name one thing (title, name and address).",
    ),
    Rule(
        "similar",
        "info",
        "Two pages close in meaning, by the embedding model: a suspicion to read, not a verdict. Off unless asked for.",
        on=False,
    ),
    Rule("untyped", "info", "Frontmatter `type` missing or outside the vault's vocabulary."),
    Rule("ambiguous-link", "warning", "A link that several pages could answer; the nearest wins."),
    Rule("broken-anchor", "warning", "A link to a heading or block id that the target does not have."),
    Rule("bad-frontmatter", "error", "Frontmatter that does not parse as a YAML mapping."),
    Rule("index-drift", "info", "A page the vault's index page does not list."),
    Rule("index-pressure", "warning", "The index page is over 80% of the size an agent harness loads."),
    Rule(
        "unreadable",
        "error",
        "A page or folder that cannot be read: binary, too large, unreadable, or a symlink leaving the vault.",
    ),
    Rule("bad-encoding", "warning", "A page that is not valid UTF-8."),
    Rule("status-update", "info", "A page that only logs events (merged, deployed, closed) that git holds."),
    Rule("secret", "error", "A credential in a page: a private key, a cloud or API token, a password in a URL."),
    Rule("relation-dead", "error", "A typed edge in the frontmatter (`broader: [[X]]`) whose target is no page."),
    Rule("relation-cycle", "warning", "A page broader than itself (or part of itself) through a chain of pages."),
    Rule("stale", "info", "A page many pages link to that nobody has edited for a long time."),
)
BY_ID = {rule.id: rule for rule in CATALOGUE}


SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}


class Finding(NamedTuple):
    rule: str
    severity: str  # "error", "warning" or "info"
    path: str
    line: int | None
    column: int | None
    message: str
    fingerprint: str
    data: dict[str, Any]  # what the message says, as values for scripts

    def as_dict(self) -> dict[str, Any]:
        """Plain data, as stored in the lint cache and printed as JSON (a literal: `_asdict` is slower)."""
        return {
            "rule": self.rule,
            "severity": self.severity,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "fingerprint": self.fingerprint,
            "data": self.data,
        }
