"""What a rule is (its catalogue entry) and the Finding it reports."""

from __future__ import annotations

from typing import Any, NamedTuple

# NamedTuples, not dataclasses, here and in the other modules a warm lint imports: importing
# `dataclasses` (and `inspect` with it) costs more than the rest of a warm lint of 1,000 pages.


class Rule(NamedTuple):
    """A rule's entry in the catalogue: declared in the module of curator/core/check/ that holds its
    check (its default severity is a setting: `RULE_SEVERITY` in curator/core/state/config.py)."""

    id: str
    summary: str
    detail: str = ""  # what it reports and leaves alone, for the reference (docs/reference/rules.md)


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
