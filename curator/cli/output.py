"""The one place the CLI writes: results to stdout, diagnostics to stderr."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from curator.core.common.progress import Phased


# Control characters other than newline and tab, except curator's own colours (SGR `ESC[…m`): a
# page's name or text could otherwise set the terminal's title or write to its clipboard.
_CONTROL = re.compile(r"\x1b\[[0-9;]*m|[\x00-\x08\x0b-\x1f\x7f-\x9f]")


_C1 = re.compile(r"[\x7f-\x9f]")


def _shown(match: re.Match[str]) -> str:
    char = match.group()
    return char if len(char) > 1 else char.encode("unicode_escape").decode("ascii")


def printable(text: str) -> str:
    """`text` with every control character that could steer a terminal written as an escape (`\\x1b`)."""
    return _CONTROL.sub(_shown, text)


def emit(text: str) -> None:
    """Write a result to stdout (a newline is added)."""
    sys.stdout.write(printable(text) + "\n")


def emit_json(data: Any, large: bool = False) -> None:
    """JSON with two-space indents and non-ASCII kept.

    `large` output goes through orjson, which encodes it 20 times faster; for small output that
    does not repay importing it (9 ms). json also takes what orjson refuses, e.g. huge ints.
    """
    text = None
    if large:
        import orjson

        with contextlib.suppress(TypeError):  # orjson.JSONEncodeError
            text = orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS).decode()
    if text is None:
        text = json.dumps(data, ensure_ascii=False, indent=2, default=str)
    # JSON escapes the C0 controls but not DEL and the C1 ones (a page's text can hold them, and
    # ESC's C1 twin 0x9b steers a terminal); they can only stand inside strings, so escaping them is still JSON.
    sys.stdout.write(_C1.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n")


def diagnose(message: str) -> None:
    """One line on stderr: a warning or an error the user can act on."""
    sys.stderr.write(f"curator: {printable(message)}\n")


def use_colour() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


@contextmanager
def progress_bar() -> Iterator[Phased | None]:
    """A callback `(what, done, total, unit)` that draws a Rich progress bar on stderr when it is a
    terminal: what is being done, how far, the rate in units a second and the time left, the bar
    starting again at each new phase; None otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    # Redrawn on each update, not by a refresh thread: while only one thread runs, parsing may fork.
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(file=sys.stderr), transient=True, auto_refresh=False) as bar:
        task = bar.add_task("", total=None, rate="")

        def update(what: str, done: int, total: int, unit: str) -> None:
            if bar.tasks[0].description != what:  # a new phase: its own rate and time left
                bar.reset(task, total=total, description=what, rate="")
            speed = bar.tasks[0].speed
            rate = f"{speed:,.0f} {unit}/s" if speed else ""
            bar.update(task, completed=done, total=total, rate=rate, refresh=True)

        yield update
