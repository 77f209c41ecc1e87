"""The one place the CLI writes: results to stdout, diagnostics to stderr."""

from __future__ import annotations

import json
import os
import sys
from typing import Any


def emit(text: str) -> None:
    """Write a result to stdout (a newline is added)."""
    sys.stdout.write(text + "\n")


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def diagnose(message: str) -> None:
    """One line on stderr: a warning or an error the user can act on."""
    sys.stderr.write(f"curator: {message}\n")


def use_colour() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"
