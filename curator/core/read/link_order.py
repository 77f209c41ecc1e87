"""How a wikilink names its target: `[[target#anchor|label]]` as Obsidian and Foam write it, or
`[[label|target#anchor]]` as Dendron does (`Config.link_order`), with Dendron's cross-vault
`dendron://<vault>/` before the target."""

from __future__ import annotations

import re

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
# A note reference's range after its heading: `#h,1` (a level), `#h:#end`, `#h:#*`; `#*` alone is the whole note.
_REFERENCE_RANGE = re.compile(r"(?:,\d+)?(?::.*)?$|^\*$")


def label_first(links: tuple[Link, ...]) -> tuple[Link, ...]:
    """A page's wikilinks read as Dendron writes them: `[[label|target#anchor]]`, the target
    perhaps after `dendron://<vault>/`. Their syntax becomes DENDRON, so that an edit knows where
    the target stands."""
    return tuple(_label_first(link) if link.syntax == "wiki" else link for link in links)


def _label_first(link: Link) -> Link:
    target, anchor, label = link.target, link.anchor, link.label
    if label is not None:
        label = target if anchor is None else f"{target}#{anchor}"
        target, anchor, _ = split_wikilink(link.label or "")
    vault = _DENDRON_VAULT.match(target)
    if vault is not None:
        target = target[vault.end() :]
    if anchor is not None and link.embed:
        anchor = _REFERENCE_RANGE.sub("", anchor, count=1) or None
    return link._replace(syntax=DENDRON, target=target, anchor=anchor, label=label)


def wikilink(target: str, label: str | None, label_first: bool) -> str:
    """`[[target|label]]` in the vault's order (`[[target]]` without a label)."""
    if label is None:
        return f"[[{target}]]"
    return f"[[{label}|{target}]]" if label_first else f"[[{target}|{label}]]"


def wiki_target_span(raw: str, dendron: bool = False) -> tuple[int, int]:
    """Start and end, inside a raw `[[...]]` or `![[...]]`, of its target part (`dendron`: the
    link is read as Dendron writes it, its target after the label and any `dendron://<vault>/`)."""
    start = raw.index("[[") + 2
    inner = raw[start : len(raw) - 2]
    if dendron:
        bar = inner.find("|")
        if bar >= 0:
            start, inner = start + bar + 1, inner[bar + 1 :]
        vault = _DENDRON_VAULT.match(inner)
        if vault is not None:
            start, inner = start + vault.end(), inner[vault.end() :]
        cut = inner.find("#")
        return start, start + (len(inner) if cut < 0 else cut)
    cut = len(inner)
    for mark in ("|", "#"):
        at = inner.find(mark)
        if at >= 0:
            cut = min(cut, at)
    if cut > 0 and inner[cut - 1] == "\\" and cut < len(inner) and inner[cut] == "|":
        cut -= 1
    return start, start + cut
