"""The speed helpers, in one place; code elsewhere asks for them by name. What each saves on a
real vault is measured by benchmarks/lint_real.py (a whole lint, cold and warm).

- Hashing without OpenSSL: hashlib and hmac load it (3-4 ms a process) to offer every algorithm;
  a warm lint needs BLAKE2 and SHA-1 only, which CPython builds in.
- `gc_paused`: reading a vault makes many small acyclic objects, which the cycle collector only
  slows down.
- `tuple_maker` and `pickled_as_tuple`: NamedTuples made and unpickled without a Python call each
  (every page, link and heading of a vault is one).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from hashlib import blake2b as blake2b
    from hashlib import sha1 as sha1
    from hmac import compare_digest as compare_digest
else:
    try:
        from _blake2 import blake2b as blake2b
        from _operator import _compare_digest as compare_digest
        from _sha1 import sha1 as sha1
    except ImportError:  # pragma: no cover - an interpreter built without them
        from hashlib import blake2b as blake2b
        from hashlib import sha1 as sha1
        from hmac import compare_digest as compare_digest

T = TypeVar("T", bound=tuple[Any, ...])


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cycle collector off for a block that makes many acyclic objects; afterwards they are
    frozen out of its reach too, so later collections do not walk them again (they are still freed
    by reference counting)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def collector_off() -> None:
    """The cycle collector off for the rest of a worker process that makes only acyclic data and exits."""
    gc.disable()


def tuple_maker(cls: type[T]) -> Callable[[Any], T]:
    """Makes a `cls` (a NamedTuple) from an iterable of its fields without calling its `__new__`:
    the caller checks the width."""
    return partial(tuple.__new__, cls)


def pickled_as_tuple(value: tuple[Any, ...]) -> tuple[Any, ...]:
    """A pickle reducer: a NamedTuple pickled as a tuple of its type, which unpickles without a
    Python call (for `copyreg`/`Pickler.dispatch_table`)."""
    return tuple.__new__, (type(value), tuple(value))
