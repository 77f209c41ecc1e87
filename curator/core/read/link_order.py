"""How a wikilink names its target: `[[target#anchor|label]]` as Obsidian and Foam write it, or
`[[label|target#anchor]]` as Dendron does (`Config.link_order`), with Dendron's cross-vault
`dendron://<vault>/` before the target."""

from __future__ import annotations

import re
from pathlib import Path

from curator.core.read.page import Link


def split_wikilink(inner: str) -> tuple[str, str | None, str | None]:
    """`target#anchor|label` -> (target, anchor, label); `\\|` (a table's escaped pipe) splits too."""
    label: str | None = None
    bar = inner.find("|")
    if bar >= 0:
        label = inner[bar + 1 :]
        inner = inner[:bar]
        if inner.endswith("\\"):
            inner = inner[:-1]
    anchor: str | None = None
    hash_at = inner.find("#")
    if hash_at >= 0:
        anchor = inner[hash_at + 1 :].strip()
        inner = inner[:hash_at]
    return inner.strip(), anchor, label


DENDRON = "dendron"  # the syntax of a wikilink read as Dendron writes it
# Dendron's cross-vault form `dendron://<vault>/<note>`: one vault is read, so the note is this vault's.
_DENDRON_VAULT = re.compile(r"[ \t]*dendron://[^/|#\]]*/")
# A note reference's range after its heading slug: `#h,1` (a level), `#h:#end`, `#h:#*`; `#*` alone
# is the whole note. An anchor with a space is a heading as written ("Step 1: install"), no range.
_REFERENCE_RANGE = re.compile(r"(?:,\d+)?(?::#.*)?$|^\*$")


# Files Dendron keeps at a vault's root (its workspace config; the schema of the root note).
_DENDRON_FILES = ("dendron.yml", "root.schema.yml")


def dendron_files(root: Path) -> bool:
    """Whether Dendron's own files are at the vault's root: its note names are hierarchies."""
    return any((root / name).is_file() for name in _DENDRON_FILES)


def settled(setting: str, marked: bool) -> str:
    """The order the vault's links are read in: the setting, or for "auto" Dendron's when its
    files are at the root (`marked`, from `dendron_files`). The links themselves do not decide:
    links to notes not written yet, or left behind by a folder's move, resolve the other way round
    as often as not. A dead link that would resolve read the other way says so (check/links.py)."""
    if setting == "auto":
        return "label|target" if marked else "target|label"
    return setting


def other_reading(link: Link) -> Link | None:
    """A labelled wikilink read in the other order than it was, or None for one without a label."""
    if link.label is None or link.syntax not in ("wiki", DENDRON):
        return None
    if link.syntax == "wiki":
        return _label_first(link)
    target, anchor, _ = split_wikilink(link.label)
    return link._replace(syntax="wiki", target=target, anchor=anchor, label=link.target)


def label_first(links: tuple[Link, ...]) -> tuple[Link, ...]:
    """A page's wikilinks read as Dendron writes them: `[[label|target#anchor]]`, the target
    perhaps after `dendron://<vault>/`. Their syntax becomes DENDRON, so that an edit knows where
    the target stands. A wildcard reference (`![[note.*]]`, a note's children) names no page."""
    read = (_label_first(link) if link.syntax == "wiki" else link for link in links)
    return tuple(link for link in read if not (link.embed and "*" in link.target))


def _label_first(link: Link) -> Link:
    target, anchor, label = link.target, link.anchor, link.label
    if label is not None:
        label = target if anchor is None else f"{target}#{anchor}"
        target, anchor, _ = split_wikilink(link.label or "")
    vault = _DENDRON_VAULT.match(target)
    if vault is not None:
        target = target[vault.end() :]
    if anchor is not None and link.embed and " " not in anchor:
        anchor = _REFERENCE_RANGE.sub("", anchor, count=1) or None
    return link._replace(syntax=DENDRON, target=target, anchor=anchor, label=label)


def wikilink(target: str, label: str | None, label_first: bool) -> str:
    """`[[target|label]]` in the vault's order (`[[target]]` without a label)."""
    if label is None:
        return f"[[{target}]]"
    return f"[[{label}|{target}]]" if label_first else f"[[{target}|{label}]]"


def label_bar(text: str, offset: int) -> str:
    """The bar that parts the target and the label of a link written at `offset` of `text`: `\\|`
    in a table row, where a bare one would end the cell."""
    line = text[text.rfind("\n", 0, offset) + 1 : offset]
    return "\\|" if line.lstrip().startswith("|") else "|"


def wiki_target_span(raw: str, dendron: bool = False) -> tuple[int, int]:
    """Start and end, inside a raw `[[...]]` or `![[...]]`, of its target part (`dendron`: the
    link is read as Dendron writes it, its target after the label and any `dendron://<vault>/`)."""
    start = raw.index("[[") + 2
    inner = raw[start : len(raw) - 2]
    if dendron:
        bar = _cut(inner, "|")
        if bar < len(inner):
            start, inner = start + bar + 1 + (inner[bar] == "\\"), inner[bar + 1 + (inner[bar] == "\\") :]
        vault = _DENDRON_VAULT.match(inner)
        if vault is not None:
            start, inner = start + vault.end(), inner[vault.end() :]
    return start, start + _cut(inner, "|#")


def _cut(inner: str, marks: str) -> int:
    """Where the part of a link's inside before the first of `marks` ends (before the backslash
    of a table's escaped `\\|`)."""
    cut = min((at for at in map(inner.find, marks) if at >= 0), default=len(inner))
    if 0 < cut < len(inner) and inner[cut] == "|" and inner[cut - 1] == "\\":
        cut -= 1
    return cut
