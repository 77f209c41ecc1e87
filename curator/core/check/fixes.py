"""Fixes for findings that need no human choice, each a plan for the edit engine: applied through
the journal like a rename (one change, one commit, its own undo).

- a dead link with a did-you-mean: the link names the suggested page, its label and anchor kept;
- a dead link to another page's alias: `[[Title|alias]]` (the alias stays what the reader sees);
- an ambiguous link: the shortest path that names the page it resolves to now;
- a broken anchor with one close heading (or block id) on the target page: that heading;
- index drift: a line `- [[Page]]` in the index page, under the heading whose section lists most
  pages of the same folder (at the end when none does).

Every link fix is checked before it is offered: the new link must resolve to the page it means.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from typing import NamedTuple
from urllib.parse import quote

from curator.core.change.edits import FileChange, Plan, explicit_target, markdown_dest_span, wiki_target_span
from curator.core.check.findings import (
    Hit,
    findings_of,
    rule_ambiguous_links,
    rule_broken_anchors,
    rule_dead_links,
    rule_index,
)
from curator.core.common.errors import EditError
from curator.core.common.names import visible
from curator.core.common.rules import Finding
from curator.core.read.page import Heading, Link
from curator.core.read.resolve import anchor_key, fold
from curator.core.read.vault import Vault

FIXABLE_RULES = ("dead-link", "relation-dead", "ambiguous-link", "broken-anchor", "index-drift")
_CLOSE = 80  # rapidfuzz ratio at which a heading is the one a broken anchor meant


class Fix(NamedTuple):
    """One finding's fix: `before` at `offset` in `path` becomes `after`."""

    finding: Finding
    path: str  # the page the fix changes (the index page for index drift)
    offset: int
    before: str
    after: str
    target: str  # the page the new link names


def fixable_findings(vault: Vault) -> list[Finding]:
    """The findings of the rules that have fixes (fingerprints as `curator lint` prints them)."""
    hits: list[Hit] = [
        *rule_dead_links(vault),
        *rule_ambiguous_links(vault),
        *rule_broken_anchors(vault),
        *(hit for hit in rule_index(vault) if hit.rule == "index-drift"),
    ]
    return findings_of(vault, hits)


def fix_for(vault: Vault, finding: Finding) -> Fix | None:
    """The fix of `finding`, or None when it has none that needs no choice."""
    if finding.rule == "index-drift":
        return _index_line(vault, finding)
    if finding.rule not in FIXABLE_RULES or finding.line is None:
        return None
    link = _link_at(vault, finding)
    if link is None:
        return None
    raw = vault.text_of(finding.path)[link.offset : link.offset + link.length]
    if finding.rule == "broken-anchor":
        return _anchor_fix(vault, finding, link, raw)
    target = _target_page(vault, finding)
    if target is None:
        return None
    markdown = link.syntax == "markdown"
    if markdown:
        start, end = markdown_dest_span(raw)
        folder = posixpath.dirname(finding.path)
        dest = posixpath.relpath(target, folder or ".") if finding.rule == "dead-link" else None
        name = dest or explicit_target(vault.resolver, finding.path, target, True) + ".md"
        new = raw[:start] + quote(name, safe="/") + raw[end:]
    else:
        start, end = wiki_target_span(raw)
        name = explicit_target(vault.resolver, finding.path, target, False)
        new = raw[:start] + name + raw[end:]
        if finding.data.get("alias_of") and link.label is None:  # the alias stays what the reader sees
            new = new[: new.rindex("]]")] + f"|{link.target}]]"
    if vault.resolver.resolve(finding.path, name, markdown).path != target:
        return None  # the new link would not name the page it means: no fix without a choice
    return Fix(finding, finding.path, link.offset, raw, new, target)


def plan_fix(vault: Vault, fingerprint: str) -> tuple[Fix, Plan]:
    """The plan that applies the fix of the finding with `fingerprint`, as the vault is now."""
    finding = next((f for f in fixable_findings(vault) if f.fingerprint == fingerprint), None)
    if finding is None:
        raise EditError(f"no finding {fingerprint} with a fix in the vault now (see 'curator lint')")
    fix = fix_for(vault, finding)
    if fix is None:
        raise EditError(f"finding {fingerprint} ({finding.rule} in {finding.path}) has no fix without a choice")
    before = (vault.root / fix.path).read_bytes()
    text = before.decode("utf-8")
    end = fix.offset + len(fix.before)
    if text[fix.offset : end] != fix.before:
        raise EditError(f"{fix.path} changed since it was read; nothing was changed")
    after = (text[: fix.offset] + fix.after + text[end:]).encode("utf-8")
    shown = f"{visible(fix.before)} → {visible(fix.after)}" if fix.before else f"adds {visible(fix.after.strip())}"
    reason = f"Fix {finding.rule} in {finding.path}:{finding.line or 1}: {shown}"
    details = {"fingerprint": fingerprint, "rule": finding.rule, "path": fix.path}
    return fix, Plan("fix", reason, (FileChange(fix.path, before, after),), {}, 1, (), details)


def _link_at(vault: Vault, finding: Finding) -> Link | None:
    page = vault.pages.get(finding.path)
    if page is None or page.unreadable is not None or page.bad_encoding:
        return None
    return next((k for k in page.links if k.line == finding.line and k.column == finding.column), None)


def _target_page(vault: Vault, finding: Finding) -> str | None:
    data = finding.data
    if finding.rule == "ambiguous-link":
        chosen = data.get("chosen")
        return chosen if isinstance(chosen, str) and chosen in vault.pages else None
    if data.get("alias_of"):
        owners = data["alias_of"]
        return owners[0] if len(owners) == 1 else None  # several pages claim the alias: a choice
    guess = data.get("did_you_mean")
    if not isinstance(guess, str):
        return None
    pages = vault.resolver.titles().get(fold(guess), [])
    return min(pages) if pages else None


def _anchor_fix(vault: Vault, finding: Finding, link: Link, raw: str) -> Fix | None:
    """The one heading (or block id) of the target close to the anchor that is not there."""
    from rapidfuzz import fuzz, process

    target = vault.pages.get(str(finding.data.get("target")))
    anchor = link.anchor or ""
    if target is None or not anchor or f"#{anchor}" not in raw:
        return None
    if anchor.startswith("^"):
        names = [f"^{block}" for block in target.block_ids]
        keys = [name.casefold() for name in names]
        wanted = anchor.casefold()
    else:
        names = [h.text for h in target.headings]
        keys = [anchor_key(name) for name in names]
        wanted = anchor_key(anchor.split("#")[-1])
    close = process.extract(wanted, keys, scorer=fuzz.ratio, score_cutoff=_CLOSE, limit=2)
    if not close or (len(close) > 1 and close[1][1] == close[0][1]):
        return None  # no heading is close, or two are as close: a choice
    name = names[close[0][2]]
    if link.syntax == "markdown" and not name.startswith("^"):
        name = _slug(name)
    at = raw.index(f"#{anchor}")
    new = raw[:at] + f"#{name}" + raw[at + 1 + len(anchor) :]
    return Fix(finding, finding.path, link.offset, raw, new, target.path)


def _slug(heading: str) -> str:
    """The anchor a markdown link uses for a heading (GitHub's rule: lower case, words joined by -)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _index_line(vault: Vault, finding: Finding) -> Fix | None:
    page = vault.pages.get(finding.path)
    found = index_line(vault, finding.path, page.title if page else "")
    if found is None or page is None:
        return None
    index, offset, entry = found
    return Fix(finding, index, offset, "", entry, finding.path)


def index_line(vault: Vault, path: str, title: str) -> tuple[str, int, str] | None:
    """(index page, offset, line) that lists `path` (a page, or one about to be made with
    `title`): `- [[Page]]` after the list of the section named for the page's type ("## Topics"
    for `type: topic`), else of the section that lists most pages of the same folder (the end of
    the index when no section does); None without an index page."""
    index = vault.index_page
    if index is None or index == path:
        return None
    text = vault.text_of(index)
    lines = text.splitlines(keepends=True)
    folder = posixpath.dirname(path)
    headings = sorted(h.line for h in vault.pages[index].headings)
    votes: dict[int, int] = {}  # heading line -> links in its section to pages of the folder
    last_link_line: dict[int, int] = {}
    for rl in vault.outlinks(index):
        section = max((h for h in headings if h <= rl.link.line), default=0)
        last_link_line[section] = max(last_link_line.get(section, 0), rl.link.line)
        if rl.resolution.path is not None and posixpath.dirname(rl.resolution.path) == folder:
            votes[section] = votes.get(section, 0) + 1
    known = path in vault.pages
    name = explicit_target(vault.resolver, index, path, False) if known else title
    typed = _type_section(vault.pages[index].headings, vault.pages[path].type if known else None)
    if typed is not None:
        votes = {typed: 1}
        last_link_line.setdefault(typed, typed)  # a section without links yet: right under its heading
    if votes:
        section = max(votes, key=lambda line: (votes[line], -line))
        after_line = last_link_line[section]  # 1-based: insert after this line
        offset = sum(len(line) for line in lines[:after_line])
        prefix = "" if offset == 0 or text[offset - 1] == "\n" else "\n"
    else:
        offset = len(text)
        prefix = "" if not text or text.endswith("\n") else "\n"
    newline = "\r\n" if "\r\n" in text else "\n"
    entry = f"{prefix}- [[{name}]]{newline}"
    return index, offset, entry


def _type_section(headings: Iterable[Heading], page_type: object) -> int | None:
    """The line of the heading named for a page type ("Topics", "Topic" for `topic`), if any."""
    if not isinstance(page_type, str) or not page_type.strip():
        return None
    kind = fold(page_type.strip())
    names = {kind, f"{kind}s", f"{kind}es", kind[:-1] + "ies" if kind.endswith("y") else kind}
    return next((h.line for h in headings if fold(h.text.strip()) in names), None)


# Fixes that need a choice (the TUI asks, then plans with the answer).


def plan_type(vault: Vault, path: str, value: str) -> Plan:
    """Set the page's frontmatter `type` to `value` (one of the vault's types)."""
    from curator.core.change.frontmatter_edit import set_scalar

    if value not in vault.types:
        raise EditError(f"{value!r} is not one of the vault's types ({', '.join(vault.types)})")
    before = (vault.root / path).read_bytes()
    after = set_scalar(before.decode("utf-8"), "type", value, path).encode("utf-8")
    return Plan("fix", f"Type {path} as {value}", (FileChange(path, before, after),), {}, 0, (), {"path": path})


def link_from_choices(vault: Vault, orphan: str, limit: int = 5) -> list[str]:
    """The pages an orphan could be linked from: the index page, then those search finds most
    like it (by its title and first words)."""
    from curator.core.meaning.search import search

    page = vault.pages[orphan]
    query = " ".join([page.title, *vault.text_of(orphan).split()[:30]])
    index = vault.index_page
    hits = [h.path for h in search(vault, query, limit=limit * 3).hits if h.path not in (orphan, index)]
    linked = [p for p in hits if any(rl.source != p for rl in vault.backlinks(p))]  # never another orphan
    return ([index] if index and index != orphan else []) + linked[:limit]


def plan_link_from(vault: Vault, orphan: str, source: str) -> Plan:
    """Link `orphan` from `source`: a line in the index page's best section, or a "See also" line
    at the end of any other page."""
    if source == vault.index_page:
        found = index_line(vault, orphan, vault.pages[orphan].title)
        if found is None:
            raise EditError(f"{orphan} cannot be listed in {source}")
        _, offset, entry = found
    else:
        text = vault.text_of(source)
        newline = "\r\n" if "\r\n" in text else "\n"
        offset = len(text)
        name = explicit_target(vault.resolver, source, orphan, False)
        entry = ("" if not text or text.endswith("\n") else newline) + f"{newline}See also [[{name}]].{newline}"
    before = (vault.root / source).read_bytes()
    text = before.decode("utf-8")
    after = (text[:offset] + entry + text[offset:]).encode("utf-8")
    reason = f"Link {orphan} from {source}"
    return Plan("fix", reason, (FileChange(source, before, after),), {}, 1, (), {"path": source})
