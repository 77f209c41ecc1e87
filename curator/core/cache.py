"""The derived store under `VAULT/.curator/`: parsed pages and the last lint result.

Everything here can be deleted; it only saves time. Files are JSON via orjson (never pickle or
marshal: a vault may come from someone else) and are replaced atomically. A store that cannot be
written is skipped.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any

import orjson

from curator.core.page import Heading, Link, Page

STATE_DIR = ".curator"
FORMAT = 1
# A file modified this close to the moment its entry was stored may have changed again within
# the file system's timestamp resolution, so its stat alone is not trusted (git's "racy" rule).
RACY_NS = 2_000_000_000


def state_dir(root: Path) -> Path:
    return root / STATE_DIR


def ensure_state_dir(root: Path) -> Path:
    """Create `.curator/` with a `.gitignore` so derived data never lands in the user's commits."""
    folder = state_dir(root)
    folder.mkdir(exist_ok=True)
    ignore = folder / ".gitignore"
    if not ignore.exists():
        write_atomic(ignore, b"# derived by curator; safe to delete\n*\n")
    return folder


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same folder, fsync it, then rename it into place."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def read_json(path: Path) -> Any:
    """A stored JSON file, or None when it is missing or unreadable (it is rebuilt then)."""
    try:
        with open(path, "rb") as handle:
            return orjson.loads(handle.read())
    except (OSError, orjson.JSONDecodeError):
        return None


def write_json(root: Path, name: str, data: Any) -> str | None:
    """Store `data` under `.curator/cache/`; return why not when the vault is not writable."""
    try:
        folder = ensure_state_dir(root) / "cache"
        folder.mkdir(exist_ok=True)
        write_atomic(folder / name, orjson.dumps(data))
    except OSError as exc:
        return f"derived data not stored in {STATE_DIR}/: {exc.strerror or exc}"
    return None


def cache_path(root: Path, name: str) -> Path:
    return state_dir(root) / "cache" / name


def page_to_row(page: Page) -> list[Any]:
    return [
        page.size,
        page.mtime_ns,
        page.sha,
        page.frontmatter,
        page.frontmatter_error,
        page.frontmatter_error_line,
        [tuple(lk) for lk in page.links],  # orjson writes plain tuples, not NamedTuples
        [tuple(h) for h in page.headings],
        list(page.block_ids),
        page.body_chars,
        page.unreadable,
        page.bad_encoding,
    ]


def page_from_row(path: str, row: list[Any]) -> Page:
    (size, mtime_ns, sha, fm, fm_error, fm_line, links, headings, block_ids, body_chars, unreadable, bad) = row
    return Page(
        path=path,
        size=size,
        mtime_ns=mtime_ns,
        sha=sha,
        frontmatter=fm,
        frontmatter_error=fm_error,
        frontmatter_error_line=fm_line,
        links=tuple(Link._make(lk) for lk in links),
        headings=tuple(Heading._make(h) for h in headings),
        block_ids=tuple(block_ids),
        body_chars=body_chars,
        unreadable=unreadable,
        bad_encoding=bad,
    )
