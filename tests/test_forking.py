"""Work run in a forked child while the parent goes on: the same answer as run here, or run here."""

from __future__ import annotations

import os
import threading

import pytest
from helpers import SAMPLE_VAULT

from curator.core import findings, forking
from curator.core.loading import load_vault


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fork even where the test process holds native threads other tests started."""
    monkeypatch.setattr(forking, "may_fork", lambda: True)


def test_work_set_aside_runs_in_a_child_and_its_answer_comes_back(forks: None) -> None:
    parent = os.getpid()
    result = forking.run_aside(lambda: {"pid": os.getpid(), "hits": [("dead-link", "a.md")] * 3000})
    answer = result()
    assert answer["pid"] != parent  # worked out in the child
    assert answer["hits"] == [("dead-link", "a.md")] * 3000  # more than a pipe holds at once


def test_work_whose_child_dies_is_done_here(forks: None) -> None:
    parent = os.getpid()

    def work() -> int:
        if os.getpid() != parent:
            os._exit(3)  # the child dies before it answers
        return 42

    assert forking.run_aside(work)() == 42


def test_no_fork_while_another_thread_runs() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not forking.may_fork()
        parent = os.getpid()
        assert forking.run_aside(os.getpid)() == parent  # run here, when asked
    finally:
        stop.set()
        thread.join()


def test_rules_set_aside_give_the_findings_the_rules_give_here(forks: None, monkeypatch: pytest.MonkeyPatch) -> None:
    vault = load_vault(SAMPLE_VAULT, use_cache=False)
    here = findings.check_vault(vault)
    assert {f.rule for f in here} >= {"dead-link", "diary-title"}  # the rules set aside have hits
    ran: list[str] = []
    real = forking.run_aside

    def counted(work: object) -> object:
        ran.append("aside")
        return real(work)  # type: ignore[arg-type]

    monkeypatch.setattr(findings, "RULES_ASIDE_MIN_PAGES", 1)
    monkeypatch.setattr(findings, "run_aside", counted)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert findings.check_vault(vault) == here and ran == ["aside"]
