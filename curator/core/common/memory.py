"""Hand memory a long run no longer uses back to the system, between its phases.

glibc's allocator keeps what Python and numpy free on its heaps for later use: after the phases of
the duplicate search that build and drop large temporary structures, the process still holds
hundreds of MiB it will not use, and the next phase (the model's weights, onnxruntime's buffers)
comes on top of them. `malloc_trim` returns those free pages. Elsewhere (macOS, musl) there is
nothing to call and nothing is done.
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable
from functools import lru_cache


@lru_cache(maxsize=1)
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # a C library without it (musl)
        return None
    return trim


def release_free_memory() -> None:
    """Give the heap's free pages back to the system (glibc), so that the next phase's peak does
    not stack on the last one's leftovers."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
