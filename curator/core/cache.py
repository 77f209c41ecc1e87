"""The derived store under `VAULT/.curator/`: parsed pages (rows written by `page.rows_json`) and the
last lint result.

Everything here can be deleted; it only saves time. Files are JSON (never pickle or marshal: a
vault may come from someone else) and are replaced atomically. A store that cannot be written is
skipped. orjson writes them and reads the large ones; the small ones a warm lint reads go through
the standard json module, as importing orjson (it imports dataclasses, uuid and more) costs 9 ms.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from curator.core.atomic import write_atomic, write_atomic_with

try:  # hashlib loads OpenSSL (3 ms) to offer every algorithm; a warm lint needs only BLAKE2
    from _blake2 import blake2b as blake2b
except ImportError:  # pragma: no cover - an interpreter built without it
    from hashlib import blake2b as blake2b

STATE_DIR = ".curator"
# Of pages.json, {format, config, stored_ns, pages: {path: row}} (5: rows end with Page.maybe_secret
# and Page.status_update, and maybe_secret is the prefilter of every plugin the `secret` rule runs).
FORMAT = 5
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


def read_json(path: Path) -> Any:
    """A stored JSON file, or None when it is missing or unreadable (it is rebuilt then)."""
    return _read(path, json.loads)


def read_large_json(path: Path) -> Any:
    """`read_json` for a large store of lists and numbers (the pages, vectors), which orjson reads faster."""
    import orjson

    return _read(path, orjson.loads)


def _read(path: Path, loads: Callable[[bytes], Any]) -> Any:
    try:
        with open(path, "rb") as handle:
            return loads(handle.read())
    except (OSError, ValueError):  # orjson.JSONDecodeError and json.JSONDecodeError are ValueErrors
        return None


def write_json(root: Path, name: str, data: Any) -> str | None:
    """Store `data` under `.curator/cache/`; return why not when the vault is not writable."""
    import orjson

    return _store(root, name, orjson.dumps(data))


def write_in_background(root: Path, name: str, parts: list[bytes]) -> Callable[[], str | None]:
    """Store the file made of `parts` (written one after the other, never joined into one more
    copy) as `write_json` stores its JSON, but written and synced by a thread (the disk wait
    releases the GIL, so the caller goes on working); the returned call waits and says why not,
    if it failed."""
    import threading

    outcome: list[str | None] = [None]

    def store() -> None:
        outcome[0] = write_with(root, name, lambda handle: handle.writelines(parts))

    thread = threading.Thread(target=store, name="curator-cache-write")
    thread.start()

    def wait() -> str | None:
        thread.join()
        return outcome[0]

    return wait


def _store(root: Path, name: str, encoded: bytes) -> str | None:
    return write_with(root, name, lambda handle: handle.write(encoded))


def write_with(root: Path, name: str, write: Callable[[BinaryIO], object]) -> str | None:
    """Store `name` under `.curator/cache/`, its bytes streamed by `write(handle)` (a large array,
    without a copy); return why not when the vault is not writable."""
    try:
        folder = ensure_state_dir(root) / "cache"
        folder.mkdir(exist_ok=True)
        write_atomic_with(folder / name, write)
    except OSError as exc:
        return f"derived data not stored in {STATE_DIR}/: {exc.strerror or exc}"
    return None


def cache_path(root: Path, name: str) -> Path:
    return state_dir(root) / "cache" / name


def has_cache(root: Path) -> bool:
    """Whether anything was stored for this vault (when not, a load has nothing to compare with)."""
    return (state_dir(root) / "cache").is_dir()
