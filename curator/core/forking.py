"""Work done in a forked child while the parent goes on, for the CPU-bound steps of a large lint
that do not wait on each other (2 cores or more: reading pages, the slowest rule).

Fork is cheap and needs nothing pickled on the way in, but it is safe only in a process with one
thread: a child inherits every lock another thread held at that moment and no thread to free it.
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def may_fork() -> bool:
    """Whether this process can fork safely now: the platform forks, and this is its only thread,
    Python's or native (onnxruntime's pool, once the model has run, is native)."""
    if not hasattr(os, "fork") or threading.active_count() != 1:
        return False
    if sys.platform.startswith("linux"):
        try:
            return len(os.listdir("/proc/self/task")) == 1
        except OSError:
            return False
    return True


def run_aside(work: Callable[[], T]) -> Callable[[], T]:
    """Start `work` in a forked child; the call returned waits for its result (sent back pickled
    through a pipe). Where it cannot fork (`may_fork`), or the child fails, `work` runs in this
    process when the result is asked for: the answer is the same either way."""
    if not may_fork():
        return work
    readable, writable = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: do the work, send it, leave without running the parent's exit handlers
        code = 1
        try:
            os.close(readable)
            with os.fdopen(writable, "wb") as out:
                out.write(pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL))
            code = 0
        finally:
            os._exit(code)
    os.close(writable)

    def result() -> T:
        with os.fdopen(readable, "rb") as pipe:
            sent = pipe.read()
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            return work()
        answer: T = pickle.loads(sent)
        return answer

    return result
