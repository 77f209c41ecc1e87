"""How a long run reports its progress, phase by phase: what is being done, how far, and in what.

A callback `(what, done, total, unit)`: "stage one: page vectors", 3,000 of 13,020, "pages". The
CLI draws it as a bar with the rate in units a second and the time left (one bar a phase); the
TUI as a line in its status bar.
"""

from __future__ import annotations

from collections.abc import Callable

Phased = Callable[[str, int, int, str], None]


def phase(progress: Phased | None, what: str, unit: str = "pages") -> Callable[[int, int], None] | None:
    """A `(done, total)` callback, as loading and the embedders take, that reports as the phase
    `what` of `progress` (None without one)."""
    if progress is None:
        return None
    return lambda done, total: progress(what, done, total, unit)
