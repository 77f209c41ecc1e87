"""Counts: pages, links by kind, findings by rule and severity, and how pages spread over the
values of any frontmatter field (`type`, `source`, `confidence`, `owner`, ...) or their folder."""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from curator.core.common.rules import Finding
from curator.core.read.query import page_field
from curator.core.read.vault import Vault

DEFAULT_BY = ("type", "source")
NONE = ""  # the value counted for pages without the field


class Stats(NamedTuple):
    pages: int
    links: dict[str, int]  # "total", "resolved", "dead", and one entry per kind ("link", "embed", typed keys)
    findings: dict[str, dict[str, int]]  # "by_rule" and "by_severity"
    by: dict[str, dict[str, int]]  # field -> value -> pages, most pages first


def stats(vault: Vault, findings: list[Finding], by: tuple[str, ...] = DEFAULT_BY) -> Stats:
    links: Counter[str] = Counter()
    for rl in vault.links:
        links["total"] += 1
        links["dead" if rl.resolution.kind == "dead" else "resolved"] += 1
        links[rl.link.key or ("embed" if rl.link.embed else "link")] += 1
    counted = {
        "by_rule": dict(Counter(f.rule for f in findings).most_common()),
        "by_severity": dict(Counter(f.severity for f in findings).most_common()),
    }
    spread = {name: _spread(vault, name) for name in by}
    return Stats(len(vault.pages), {"total": 0, "resolved": 0, "dead": 0, **links}, counted, spread)


def _spread(vault: Vault, name: str) -> dict[str, int]:
    """How many pages hold each value of `name` (a frontmatter field, or `folder`, `scheme`...: see
    query.page_field; a list counts each item; "" for none)."""
    counts: Counter[str] = Counter()
    for path in vault.pages:
        value = page_field(vault, path, name)
        values: list[Any] = value if isinstance(value, list) else [value]
        for item in values or [None]:
            counts[NONE if item is None else str(item)] += 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
