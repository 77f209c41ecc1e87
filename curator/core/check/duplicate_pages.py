"""The rules `duplicate` (two pages a person would merge, on text or identity evidence: found by
curator/core/meaning/duplicates.py) and `similar` (the embedding model's suspicion, off by default)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from curator.core.check.hits import Hit
from curator.core.common.rules import Rule
from curator.core.read.vault import Vault

if TYPE_CHECKING:
    from curator.core.common.rules import Finding
    from curator.core.meaning.similarity import SimilarReport

RULES = (
    Rule(
        "duplicate",
        "Two pages a person would merge: one holds the other's text, or both name one thing (title, name and address).",
        "Text: one page holds 85% of the other's own text (template text left out; under 90% only under one name), "
        "or two files are byte for byte the same, or one page saved again at two times of one day. Identity: "
        "one title up to case and separators, in a folder or a folder and its subfolder; "
        "one name and one website; one name and a rarely linked page both list. A folder kept twice (`x` and "
        "`references/x`, a renamed folder's old copy). Says which evidence holds. No model. Dated pages, "
        "drawings, templates, parallel platform or language trees, vendored copies, derived series and passages "
        "copied into an overview are never duplicates. See [duplicates](../design/duplicates.md).",
    ),
    Rule(
        "similar",
        "Two pages close in meaning, by the embedding model: a suspicion to read, not a verdict. Off unless asked for.",
        'Aligned score 0.92, or reworded piece by piece; `[rules] similar = "info"` or `--select similar` turns it on.',
    ),
)


def rule_duplicates(vault: Vault) -> Iterator[Hit]:
    if vault.config.severity("duplicate") is None:
        return
    from curator.core.meaning.duplicates import find

    for found in find(vault):
        yield Hit(
            "duplicate",
            found.page,
            f"duplicate of {found.other}: {'; '.join(found.evidence)}"
            + ("; the same text under two names: edit one to say what its name means" if found.fix == "edit" else ""),
            found.other,
            data={
                "other": found.other,
                "evidence": list(found.evidence),
                "kinds": list(found.kinds),
                "contained": found.contained,
                "fix": found.fix,
            },
        )


def rule_similar(report: SimilarReport) -> Iterator[Hit]:
    for pair in report.pairs:
        evidence = []
        if pair.shared_title_words:
            evidence.append(f"shared title words: {', '.join(pair.shared_title_words)}")
        if pair.shared_neighbours:
            shown = ", ".join(pair.shared_neighbours[:3]) + (", …" if len(pair.shared_neighbours) > 3 else "")
            evidence.append(f"both linked with {shown}")
        message = f"close in meaning to {pair.b} (similarity {pair.score:.2f}): read both before merging"
        if pair.reworded:  # below the threshold, but each page says best what the other says
            message = (
                f"close in meaning to {pair.b}, in other words (similarity {pair.score:.2f}; "
                "every part of each page is closest to the other)"
            )
        if evidence:
            message += "; " + "; ".join(evidence)
        yield Hit(
            "similar",
            pair.a,
            message,
            pair.b,
            data={
                "other": pair.b,
                "score": pair.score,
                "merge_worthy": pair.merge_worthy,
                "reworded": pair.reworded,
                "shared_title_words": list(pair.shared_title_words),
                "shared_neighbours": list(pair.shared_neighbours),
                "provider": report.provider,
            },
        )


def evidence_about(findings: Iterable[Finding], path: str) -> dict[str, str]:
    """Each page the duplicate rule pairs with `path`, and the evidence it found, in words."""
    return {
        f.data["other"] if f.path == path else f.path: "; ".join(f.data.get("evidence", []))
        for f in findings
        if f.rule == "duplicate" and path in (f.path, f.data.get("other"))
    }
