"""Index tiering: when the always-loaded index page nears its load budget, move its oldest or
closed entries, whole lines with their links, to a second index page read on demand
(`index_deep_page`, default MEMORY_DEEP.md), linked from the first; as one change with its undo.

An entry is a list line of the index that links a page. Closed entries go first: lines that link
only event pages (a diary title), or pages marked done (`status: closed|done|resolved|superseded`
or `superseded_by`); then the oldest (the page least recently changed). Lines move until the
index is under 70 % of its budget.
"""

from __future__ import annotations

import re

from curator.core.change.edits import FileChange, Plan
from curator.core.common.errors import EditError
from curator.core.read.markdown import lines_of
from curator.core.read.titles import diary_title
from curator.core.read.vault import Vault

TARGET_SHARE = 0.7
_ENTRY = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+.*\[\[")
_CLOSED = {"closed", "done", "resolved", "superseded", "archived"}


def plan_tiering(vault: Vault) -> Plan:
    """The change that moves entries from the index page to the deep index until it fits."""
    index = vault.index_page
    if index is None:
        raise EditError("the vault has no index page to tier")
    deep = vault.config.index_deep_page
    budget = vault.config.index_budget
    before = (vault.root / index).read_bytes()
    text = before.decode("utf-8")
    newline = "\r\n" if "\r\n" in text else "\n"
    deep_name = deep.removesuffix(".md")
    pointer = f"- [[{deep_name}]] — older and closed entries, read when needed{newline}"
    lines = lines_of(text)
    targets_by_line: dict[int, list[str]] = {}
    for rl in vault.outlinks(index):
        if rl.resolution.path is not None and rl.resolution.kind == "page":
            targets_by_line.setdefault(rl.link.line, []).append(rl.resolution.path)
    entries = [
        (number, targets)
        for number, targets in targets_by_line.items()
        if _ENTRY.match(lines[number - 1]) and deep_name not in lines[number - 1]
    ]
    entries.sort(key=lambda entry: (not _closed(vault, entry[1]), min(vault.pages[t].mtime_ns for t in entry[1])))
    size = len(before) + (0 if f"[[{deep_name}]]" in text else len(pointer.encode()))
    moving: set[int] = set()
    for number, _ in entries:
        if size < TARGET_SHARE * budget:
            break
        moving.add(number)
        size -= len(lines[number - 1].encode())
    if not moving:
        raise EditError(f"{index} is under {TARGET_SHARE:.0%} of its budget, or has no entries to move")
    kept = [line for number, line in enumerate(lines, 1) if number not in moving]
    if f"[[{deep_name}]]" not in text:
        if kept and not kept[-1].endswith("\n"):
            kept[-1] += newline
        kept.append(pointer)
    moved = [
        lines[number - 1] if lines[number - 1].endswith("\n") else lines[number - 1] + newline
        for number in sorted(moving)
    ]
    deep_before = (vault.root / deep).read_bytes() if (vault.root / deep).is_file() else None
    deep_text = deep_before.decode("utf-8") if deep_before is not None else f"# {deep_name}{newline}{newline}"
    if deep_text and not deep_text.endswith("\n"):
        deep_text += newline
    changes = [
        FileChange(index, before, "".join(kept).encode("utf-8")),
        FileChange(deep, deep_before, (deep_text + "".join(moved)).encode("utf-8")),
    ]
    reason = f"Tier the index: move {len(moving)} entries of {index} to {deep}"
    return Plan("tier", reason, tuple(sorted(changes, key=lambda c: c.path)), {}, 0, (), {"index": index, "deep": deep})


def _closed(vault: Vault, targets: list[str]) -> bool:
    def done(path: str) -> bool:
        page = vault.pages[path]
        status = page.frontmatter.get("status")
        return (
            diary_title(page.title, vault.config.title_chars) is not None
            or "superseded_by" in page.frontmatter
            or (isinstance(status, str) and status.casefold() in _CLOSED)
        )

    return all(done(path) for path in targets)
