"""The CI gate on retrieval: a fall below the committed baseline is reported, holding it is not."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.search_eval import GOLDEN, check, ndcg  # noqa: E402


def baseline(tmp_path: Path, recall: float, mrr: float, queries: int = len(GOLDEN)) -> Path:
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps({"queries": queries, "fusion": {"recall@10": recall, "MRR@10": mrr}}))
    return path


def test_the_gate_fails_below_the_baseline_and_holds_at_it(tmp_path: Path) -> None:
    now = {"recall@5": 0.9, "recall@10": 0.95, "MRR@10": 0.8, "nDCG@10": 0.8}
    assert check(now, baseline(tmp_path, 0.95, 0.8)) == []
    assert check(now, baseline(tmp_path, 0.9, 0.7)) == []
    (problem,) = check(now, baseline(tmp_path, 0.96, 0.8))
    assert "recall@10 0.950 is below the baseline 0.960" in problem
    assert len(check(now, baseline(tmp_path, 0.96, 0.81))) == 2
    assert "queries" in check(now, baseline(tmp_path, 0.9, 0.7, queries=10))[0]


def test_the_committed_baseline_is_for_this_golden_set() -> None:
    data = json.loads((ROOT / "benchmarks" / "search_baseline.json").read_text())
    assert data["queries"] == len(GOLDEN) >= 150
    assert len({vault for vault, _, _ in GOLDEN}) >= 2


def test_ndcg_counts_every_page_that_answers() -> None:
    assert ndcg(["a", "b"], ["a"]) == 1.0
    assert ndcg(["x", "a"], ["a"]) < 1.0
    assert ndcg(["a", "b"], ["a", "b"]) == 1.0 and ndcg(["b", "x", "a"], ["a", "b"]) < 1.0
