"""State files under `VAULT/.curator/`: opened without blocking, in folders checked at use, and
sealed with a MAC keyed by this user's secret, so that state a clone or a shared folder brings
along is never taken for this user's own.

A vault may come from someone else, `.curator/` included: a symlinked state folder would move
curator's writes outside the vault, a FIFO would block a read forever, and a journal entry or a
cache written by someone else would be acted on. The key lives in the user's config folder
(`state.key`, 32 random bytes, 0600), never in the vault.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from curator.core.common import vaultpath
from curator.core.common.atomic import write_atomic
from curator.core.common.errors import CuratorError
from curator.core.common.fast import blake2b, compare_digest
from curator.core.common.vaultpath import open_regular as open_regular

STATE_DIR = ".curator"
GITIGNORE = b"# derived by curator; safe to delete\n*\n"
KEY_FILE = "state.key"
KEY_BYTES = 32
# A sealed store is a JSON object whose first member is its MAC: `{"mac":"<64 hex>",` then the
# rest of the object. It stays JSON (any reader can look at it) and the MAC covers every byte
# after that prefix, which is checked in place, without a copy of a large store.
_MAC_OPEN = b'{"mac":"'
_MAC_HEX = 2 * KEY_BYTES
_MAC_CLOSE = b'",'
_PREFIX = len(_MAC_OPEN) + _MAC_HEX + len(_MAC_CLOSE)


class UnsafeState(CuratorError):
    """A state folder under `.curator/` is a symbolic link or not a folder: curator refuses to
    read or write through it."""


class StateKeyError(CuratorError):
    """This user's state key cannot be read or made: nothing can be sealed or verified."""


def state_folder(root: Path, *parts: str) -> Path:
    """`VAULT/.curator/<parts…>`, each existing component checked not to be a symbolic link (a
    folder reached only through real folders of the vault lies inside it); UnsafeState otherwise.
    A component that does not exist yet is fine: `make_state_folder` makes it and checks again."""
    folder = root / STATE_DIR
    for part in ("", *parts):
        folder = folder / part if part else folder
        try:
            mode = os.lstat(folder).st_mode
        except (FileNotFoundError, NotADirectoryError):  # below a file: nothing to read, and writes fail
            return root.joinpath(STATE_DIR, *parts)
        except OSError as exc:
            raise UnsafeState(f"cannot use {folder}: {exc.strerror or exc}") from exc
        if stat.S_ISLNK(mode):  # anything else that is no folder fails when used, as the file system says
            raise UnsafeState(
                f"{folder} is a symbolic link; curator keeps its state only in a folder of its own inside the vault: "
                "remove it and run again"
            )
    return folder


def make_state_folder(root: Path, *parts: str) -> Path:
    """`state_folder`, created where missing (`.curator/` with a `.gitignore`, so that derived data
    never lands in the user's commits); each component checked before and after it is made."""
    _made(state_folder(root))
    top = state_folder(root)
    ignore = top / ".gitignore"
    if read_regular(ignore) != GITIGNORE:  # one a clone brought along may let the journal be committed
        write_atomic(ignore, GITIGNORE)
    for depth in range(1, len(parts) + 1):
        _made(state_folder(root, *parts[:depth]))
        state_folder(root, *parts[:depth])
    return root.joinpath(STATE_DIR, *parts)


def _made(folder: Path) -> None:
    """`folder` made where missing; UnsafeState where a file stands in its place (whatever wrote
    it, not curator)."""
    if not folder.exists():
        folder.mkdir(exist_ok=True)
    elif not folder.is_dir():
        raise UnsafeState(f"{folder} is not a folder; curator keeps its state there: remove it and run again")


MAX_STATE_BYTES = 1 << 29  # 512 MiB; the largest curator writes, ten million words for the duplicate rule, is ~130 MiB


def read_regular(path: Path) -> bytes | None:
    """The bytes of a state file, or None when it is missing, unreadable, not a regular file (a
    symbolic link, FIFO or device: `vaultpath.open_regular`) or larger than any curator writes
    (a file planted to be read whole before its seal is checked costs its size in memory)."""
    try:
        if os.lstat(path).st_size > MAX_STATE_BYTES:
            return None
        return vaultpath.read_regular(path, follow_links=False)
    except OSError:
        return None


@lru_cache(maxsize=4)
def _key_at(path: Path) -> bytes:
    data = read_regular(path)
    if data is None:
        data = _make_key(path)
    if len(data) != KEY_BYTES:
        raise StateKeyError(f"{path} is not a curator state key ({KEY_BYTES} bytes); move it aside to make a new one")
    return data


def _make_key(path: Path) -> bytes:
    """Create the key: written 0600 to a temporary file, then linked into place, so that two
    processes creating it at once agree on one key."""
    path.parent.mkdir(parents=True, exist_ok=True)
    key = os.urandom(KEY_BYTES)
    tmp = path.with_name(f".{path.name}.{os.urandom(4).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(key)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            existing = read_regular(path)
            return existing if existing is not None else b""
    finally:
        os.unlink(tmp)
    return key


def key() -> bytes:
    """This user's state key (`config_home()/state.key`), made on first need."""
    from curator.core.common.userdirs import config_home

    try:
        return _key_at(config_home() / KEY_FILE)
    except OSError as exc:
        raise StateKeyError(f"cannot make the state key in {config_home()}: {exc.strerror or exc}") from exc


def _mac(label: str, parts: Iterable[bytes | memoryview]) -> bytes:
    mac = blake2b(key=key(), digest_size=KEY_BYTES)
    mac.update(label.encode() + b"\0")
    for part in parts:
        mac.update(part)
    return mac.hexdigest().encode()


def seal(label: str, parts: list[bytes]) -> list[bytes]:
    """The parts of a JSON object (`parts[0]` starts with `{`, the object has a member) with its
    MAC for `label` (what the file is, e.g. `journal/<id>.json`) as the first member."""
    if not parts or not parts[0].startswith(b"{"):
        raise ValueError("only a JSON object is sealed")
    rest = [parts[0][1:], *parts[1:]]
    return [_MAC_OPEN + _mac(label, rest) + _MAC_CLOSE, *rest]


def is_sealed(label: str, data: bytes) -> bool:
    """Whether `data` was sealed for `label` with this user's key (and not changed since)."""
    if len(data) <= _PREFIX or not data.startswith(_MAC_OPEN) or data[_PREFIX - 2 : _PREFIX] != _MAC_CLOSE:
        return False
    return compare_digest(data[len(_MAC_OPEN) : _PREFIX - 2], _mac(label, [memoryview(data)[_PREFIX:]]))


def _state_at(path: Path) -> int:
    """Where `.curator` is among the parts of a state file's path (the last one named so)."""
    parts = path.parts
    if STATE_DIR not in parts[:-1]:
        raise ValueError(f"{path} is not under {STATE_DIR}/")
    return len(parts) - 2 - parts[-2::-1].index(STATE_DIR)


def label_of(path: Path) -> str:
    """What a state file is, as its seal names it: its path under `.curator/` (`cache/lint.json`)."""
    return "/".join(path.parts[_state_at(path) + 1 :])


def checked(path: Path) -> Path:
    """A state file's path, once every folder between `.curator` and it is checked (`state_folder`)."""
    at = _state_at(path)
    state_folder(Path(*path.parts[:at]), *path.parts[at + 1 : -1])
    return path


def read_state(path: Path, sealed: bool = False) -> bytes | None:
    """The bytes of a state file (`read_regular`) in checked folders (UnsafeState otherwise).
    `sealed`: None unless this user's key sealed it (not written by someone else, not damaged)."""
    data = read_regular(checked(path))
    if data is None or not sealed:
        return data
    return data if is_sealed(label_of(path), data) else None
