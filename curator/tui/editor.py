"""The command line that opens a page in the user's editor."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

# Editors whose parser stops at the first argument that is not an option (Go's flag package): a
# `--` after `+N` would reach them as a second file to open; the absolute path alone is safe there.
_NO_DOUBLE_DASH_AFTER_LINE = frozenset({"micro"})


def editor_command(editor: str, page: Path, line: int | None = None) -> list[str]:
    """The editor's command line for `page`: `$EDITOR` split as a shell would, `+N` (vi, vim, nano,
    emacs and micro open at line N), `--`, then the absolute path, so a page named `+!cmd` or `-x`
    reaches the editor as a file name, never as an option or a command to run."""
    argv = shlex.split(editor)
    if not argv:
        raise ValueError("$VISUAL or $EDITOR names no program")
    at_line = [f"+{line}"] if line else []
    end = [] if at_line and Path(argv[0]).name in _NO_DOUBLE_DASH_AFTER_LINE else ["--"]
    return [*argv, *at_line, *end, os.path.abspath(page)]
