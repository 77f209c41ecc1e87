"""The derived store under `VAULT/.curator/`: parsed pages (rows written by `page.rows_json`) and the
last lint result.

Everything here can be deleted; it only saves time. Files are JSON (never pickle or marshal: a
vault may come from someone else) and are replaced atomically. A store that cannot be written is
skipped. orjson writes them and reads the large ones; the small ones a warm lint reads go through
the standard json module, as importing orjson (it imports dataclasses, uuid and more) costs 9 ms.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from curator.core.common.atomic import write_atomic_with
from curator.core.state.statefiles import STATE_DIR as STATE_DIR
from curator.core.state.statefiles import (
    StateKeyError,
    UnsafeState,
    checked,
    make_state_folder,
    open_regular,
    read_state,
    seal,
    state_folder,
)

# Of pages.json, {format, config, stored_ns, pages: {path: row}} (rows end with Page.maybe_secret
# and Page.status_update, and maybe_secret is the prefilter of every plugin the `secret` rule runs;
# 7: a footnote (`[^1]: text`) is no link definition; 8: a fence closes only three spaces or fewer
# further in than it opened).
FORMAT = 8
# A file modified this close to the moment its entry was stored may have changed again within
# the file system's timestamp resolution, so its stat alone is not trusted (git's "racy" rule).
RACY_NS = 2_000_000_000


def state_dir(root: Path) -> Path:
    """`VAULT/.curator/`, checked to be a real folder of the vault if it exists (UnsafeState)."""
    return state_folder(root)


def ensure_state_dir(root: Path) -> Path:
    """Create `.curator/` with a `.gitignore` so derived data never lands in the user's commits."""
    return make_state_folder(root)


def read_json(path: Path, sealed: bool = False) -> Any:
    """A stored JSON file, or None when it is missing or unreadable (it is rebuilt then).
    `sealed`: only a store this user's curator wrote (`write_json(..., sealed=True)`) counts."""
    return _read(path, json.loads, sealed)


def read_large_json(path: Path, sealed: bool = False) -> Any:
    """`read_json` for a large store of lists and numbers (the pages, vectors), which orjson reads faster."""
    import orjson

    return _read(path, orjson.loads, sealed)


def _read(path: Path, loads: Callable[[bytes], Any], sealed: bool) -> Any:
    try:
        data = read_state(path, sealed)
    except StateKeyError:  # nothing can be verified: the store is made again
        return None
    if data is None:
        return None
    try:
        return loads(data)
    except ValueError:  # orjson.JSONDecodeError and json.JSONDecodeError are ValueErrors
        return None


def open_binary(path: Path) -> BinaryIO:
    """A stored binary file (numpy's), opened as `read_json` opens a store: never through a
    symlinked state folder, never blocking; FileNotFoundError when it is not a regular file."""
    fd = open_regular(checked(path))
    if fd is None:
        raise FileNotFoundError(errno.ENOENT, "not a regular file", str(path))
    return os.fdopen(fd, "rb")


def write_json(root: Path, name: str, data: Any, sealed: bool = False) -> str | None:
    """Store `data` under `.curator/cache/`; return why not when the vault is not writable.
    `sealed`: with this user's MAC, for a store that decides a result (read it with `sealed`)."""
    import orjson

    parts = [orjson.dumps(data)]
    if sealed:
        try:
            parts = seal(f"cache/{name}", parts)
        except StateKeyError as exc:  # nothing stored: the next run reads the pages again
            return f"derived data not stored in {STATE_DIR}/: {exc}"
    return write_with(root, name, lambda handle: handle.writelines(parts))


def write_in_background(root: Path, name: str, parts: list[bytes], sealed: bool = False) -> Callable[[], str | None]:
    """Store the file made of `parts` (written one after the other, never joined into one more
    copy) as `write_json` stores its JSON, but written and synced by a thread (the disk wait
    releases the GIL, so the caller goes on working); the returned call waits and says why not,
    if it failed."""
    import threading

    outcome: list[str | None] = [None]

    def store() -> None:
        try:
            written = seal(f"cache/{name}", parts) if sealed else parts
        except StateKeyError as exc:  # no key to seal it with: nothing stored, the next run reads again
            outcome[0] = f"derived data not stored in {STATE_DIR}/: {exc}"
            return
        try:
            outcome[0] = write_with(root, name, lambda handle: handle.writelines(written))
        except UnsafeState as exc:  # said once, by the caller's own use of the state folder, not as a thread's trace
            outcome[0] = str(exc)

    thread = threading.Thread(target=store, name="curator-cache-write")
    thread.start()

    def wait() -> str | None:
        thread.join()
        return outcome[0]

    return wait


def write_with(root: Path, name: str, write: Callable[[BinaryIO], object]) -> str | None:
    """Store `name` under `.curator/cache/`, its bytes streamed by `write(handle)` (a large array,
    without a copy); return why not when the vault is not writable. UnsafeState when a state
    folder is a symbolic link."""
    try:
        folder = make_state_folder(root, "cache")
        write_atomic_with(folder / name, write)
    except OSError as exc:
        return f"derived data not stored in {STATE_DIR}/: {exc.strerror or exc}"
    return None


def cache_path(root: Path, name: str) -> Path:
    return state_folder(root, "cache") / name


def has_cache(root: Path) -> bool:
    """Whether anything was stored for this vault (when not, a load has nothing to compare with)."""
    return state_folder(root, "cache").is_dir()
