"""How often `curator remember` decides as a person would, on labelled cases over small vaults.

    python -m benchmarks.remember_eval [--cases PATH] [--vault NAME] [--provider KIND] [--index]
        [--keep DIR] [--verbose] [--record FILE]

The cases are `benchmarks/labels/remember_cases.jsonl`, one object a line: the `vault` it runs
against (`sample` is `sample_vault/`, `de` and `en` are the German and the English team vaults in
`benchmarks/remember_vaults/`, `sec` a pentester's English notes there, with empty tag pages), the
`text` an agent hands over, the `decision` a person would make
(add, merge-into, supersede, drop; `drop|merge-into` where either is right, as for a status
update), the `pages` it may go to (merged into or superseded) and the `kind` of sentence
(incident, fact, status, repeat, new, changed; `sample` for the older cases on the sample vault)
and, for the cases written after the rules were set and never tuned on, `"set": "held-out"`.
`--cases` scores another file of the same form; its `vault` may also name a real vault of
`benchmarks/real_vaults.py` (checked out at its pinned commit and copied).
`--index` has the model read every page first (as `curator index` does; without it, as on a vault
never indexed, the model reads a few pages a call and a first stage answers for the rest); `--keep
DIR` keeps the copies there, their index with them, for the next run.
`--record FILE` writes each case's proposal to FILE, one JSON object a line: its decision, page
and the best five pages' scores and why, beside the case. Nothing is applied. Prints the share
decided as a person would (the decision, and the page where it goes to one), by vault and by kind,
the confusion table, and how many incidents put the event's words (date, ticket) into the page's
history section rather than its body.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from curator.core.curate.remember import DECISIONS, Proposal, remember
from curator.core.meaning.vectors import fill_all, provider_for
from curator.core.read.loading import load_vault
from curator.core.read.titles import find_date

HERE = Path(__file__).resolve().parent
CASES = HERE / "labels" / "remember_cases.jsonl"
VAULTS = {
    "sample": HERE.parent / "sample_vault",
    "de": HERE / "remember_vaults" / "de",
    "en": HERE / "remember_vaults" / "en",
    "sec": HERE / "remember_vaults" / "sec",
}
HISTORY_HEADINGS = ("## History", "## Verlauf")


def load_cases(path: Path = CASES) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def vault_dir(name: str) -> Path:
    """A small vault of the repository, or a real vault of the registry at its pinned commit."""
    if name in VAULTS:
        return VAULTS[name]
    from benchmarks.real_vaults import checkout

    return checkout(name)


def judged(case: dict[str, Any], proposal: Proposal) -> bool:
    """Whether the proposal is the decision a person would make, on a page they would choose."""
    if proposal.decision not in case["decision"].split("|"):
        return False
    if proposal.decision == "merge-into":
        return proposal.page in case["pages"]
    if proposal.decision == "supersede":
        return proposal.plan is not None and proposal.plan.details.get("superseded") in case["pages"]
    return True


def in_history(proposal: Proposal) -> bool:
    """Whether a merge put the text under the page's history heading."""
    if proposal.plan is None or not proposal.plan.changes:
        return False
    after = (proposal.plan.changes[0].after or b"").decode("utf-8")
    return any(heading in after for heading in HISTORY_HEADINGS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=CASES, help="the labelled cases (default: %(default)s)")
    parser.add_argument("--vault", action="append", help="only these vaults' cases")
    parser.add_argument("--verbose", action="store_true", help="print every case that went wrong")
    parser.add_argument("--provider", help="the vaults' [embedding] provider (default: theirs)")
    parser.add_argument("--index", action="store_true", help="have the model read every page first (curator index)")
    parser.add_argument("--keep", type=Path, help="keep the vaults' copies (and their index) in this folder")
    parser.add_argument("--record", type=Path, help="write each case's proposal and evidence to this file (JSON lines)")
    args = parser.parse_args()
    record = args.record.open("w", encoding="utf-8") if args.record else None
    cases = [c for c in load_cases(args.cases) if not args.vault or c["vault"] in args.vault]
    work = args.keep or Path(tempfile.mkdtemp(prefix="curator-remember-"))
    work.mkdir(parents=True, exist_ok=True)
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    confusion: Counter[tuple[str, str]] = Counter()
    seconds = []
    history_right = history_total = 0
    for name in sorted({c["vault"] for c in cases}):
        if not (work / name).exists():  # a kept copy has its provider set already
            shutil.copytree(vault_dir(name), work / name, ignore=shutil.ignore_patterns(".git"))
            if args.provider:
                config = work / name / ".curator.toml"
                kept = config.read_text(encoding="utf-8") if config.exists() else ""
                config.write_text(f'{kept}\n[embedding]\nprovider = "{args.provider}"\n', encoding="utf-8")
        vault = load_vault(work / name)
        if args.index:
            provider, _ = provider_for(vault)
            started = time.perf_counter()
            read = fill_all(vault, provider)
            print(f"  {name}: the model ({provider.label}) read {read} pages in {time.perf_counter() - started:.0f} s")
        remember(vault, "warm up the model and the search index")
        for case in (c for c in cases if c["vault"] == name):
            started = time.perf_counter()
            proposal = remember(vault, case["text"])
            seconds.append(time.perf_counter() - started)
            ok = judged(case, proposal)
            for key in ("all", f"vault {name}", f"kind {case['kind']}", f"set {case.get('set', 'tuned')}"):
                total[key] += 1
                right[key] += ok
            confusion[(case["decision"].split("|")[0], proposal.decision)] += 1
            dated = find_date(case["text"]) is not None or any(ch.isdigit() for ch in case["text"].split(":")[0])
            if case["kind"] == "incident" and proposal.decision == "merge-into" and dated:
                history_total += 1
                history_right += in_history(proposal)
            if record is not None:
                evidence = [[c.path, round(c.score, 3), c.why] for c in proposal.evidence]
                decided = {"decided": proposal.decision, "page": proposal.page, "ok": ok, "evidence": evidence}
                record.write(json.dumps({**case, **decided}, ensure_ascii=False) + "\n")
            if args.verbose and not ok:
                print(
                    f"  [{name}] expected {case['decision']} {case['pages']}, got {proposal.decision} {proposal.page}"
                )
                print(f"      {case['text']}")
                print(f"      {proposal.reason}")
    if record is not None:
        record.close()
    if not args.keep:
        shutil.rmtree(work)
    for key in sorted(total, key=lambda k: (k != "all", k)):
        print(f"{key:>16}: {right[key]:>3}/{total[key]:<3} decided as a person would ({right[key] / total[key]:.0%})")
    if history_total:
        print(f"dated incidents merged into a history section: {history_right}/{history_total}")
    print(f"seconds a case: median {sorted(seconds)[len(seconds) // 2]:.3f}, max {max(seconds):.3f}")
    print("expected \\ decided  " + "  ".join(f"{d:>10}" for d in DECISIONS))
    for expected in DECISIONS:
        print(f"{expected:>18}  " + "  ".join(f"{confusion[(expected, d)]:>10}" for d in DECISIONS))


if __name__ == "__main__":
    main()
