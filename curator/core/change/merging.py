"""A merge planned: one page's text, and the fields the other lacks, carried into the other; the
links to it rewritten to the page it became."""

from __future__ import annotations

import posixpath
import re

from curator.core.change.edits import (
    Edit,
    Plan,
    Texts,
    apply_edits,
    check_and_fix,
    file_title,
    frontmatter_of,
    links_of,
    page_to_change,
    relative_links_moved,
    rewrite_link,
    text_changes,
)
from curator.core.change.frontmatter_edit import add_list_items, copy_key
from curator.core.common.errors import EditError, FrontmatterEditError
from curator.core.read.link_order import DENDRON, label_bar, split_wikilink
from curator.core.read.markdown import blocks, fence_ranges
from curator.core.read.page import TAG_KEYS, alias_key, aliases_of, key_of
from curator.core.read.parse import block_ids, parse_page, split_frontmatter
from curator.core.read.resolve import Resolver, anchor_key, fold
from curator.core.read.vault import Vault, book_escaped

_OWN_KEYS = ("aliases", "alias", "title")  # the merge's own business: the titles become aliases
# Where a page stands on its site (Jekyll's address and layout, just-the-docs' menu, Hugo's): taken
# over, they would move the kept page's address or menu entry; a value of SOURCE is listed instead.
_PLACE_KEYS = frozenset(
    "permalink layout parent grand_parent nav_order has_children nav_exclude redirect_from slug url weight".split()
)


def _carry_fields(
    source_text: str, into_text: str, source: str, into: str, notes: list[str], resolver: Resolver
) -> tuple[str, list[tuple[str, object, object]]]:
    """INTO's text with SOURCE's frontmatter fields that it lacks copied over as written, list
    values joined (a text and a list make one list); and each field whose values differ, as
    (key, SOURCE's, INTO's), for the merged text to list. Read after the links were rewritten."""
    theirs, ours = frontmatter_of(source_text), frontmatter_of(into_text)
    carried: list[str] = []
    differ: list[tuple[str, object, object]] = []
    for key, value in theirs.items():
        if str(key).casefold() in _OWN_KEYS:  # "Aliases:" too
            continue
        if str(key).casefold() in TAG_KEYS and (kept := key_of(ours, TAG_KEYS)) is not None:
            key = kept  # `Tags:` joins INTO's `tags:`: Obsidian reads one of them, in any case
        current = ours.get(key)
        if key in _PLACE_KEYS:
            if value != current:
                differ.append((key, value, current))
            continue
        # SOURCE's edge to INTO (`related: "[[Into]]"`) would be INTO's edge to itself: left out.
        values = value if isinstance(value, list) else [value]
        to_into = [v for v in values if _names(v, into, resolver)]
        if to_into:
            value = [v for v in values if v not in to_into]
            if not value:
                continue
        try:
            if key not in ours and not to_into:
                into_text = copy_key(into_text, source_text, key, into)
                carried.append(key)
            elif key not in ours or (
                (isinstance(value, list) or isinstance(current, list)) and isinstance(current, (list, str))
            ):  # joined as a list (a new key: SOURCE's list without its edges to INTO)
                values = value if isinstance(value, list) else [value]
                items = [str(v) for v in values if isinstance(v, (str, int, float)) and not isinstance(v, bool)]
                into_text = add_list_items(into_text, key, items, into)
                if len(items) < len(values):
                    differ.append((key, value, current))  # what a list cannot hold is listed
            elif value != current:
                differ.append((key, value, current))
        except FrontmatterEditError:  # a header too unusual to edit: the value is not lost, it is listed
            differ.append((key, value, current))
    if carried:
        notes.append(f"{into}: takes {', '.join(f'`{k}`' for k in carried)} from {source}")
    for key, value, current in differ:
        notes.append(
            f"{into}: `{key}` stays {_shown(current)}; {source} has {_shown(value)}, listed in the merged text"
        )
    return into_text, differ


_WIKILINK_VALUE = re.compile(r"\s*\[\[([^\[\]\n]*)\]\]\s*")


def _names(value: object, path: str, resolver: Resolver) -> bool:
    """Whether a frontmatter value is just a wikilink that resolves to the page at `path`."""
    found = _WIKILINK_VALUE.fullmatch(value) if isinstance(value, str) else None
    if found is None:
        return False
    target, _, _ = split_wikilink(found.group(1))
    return resolver.resolve(path, target).path == path


def _shown(value: object) -> str:
    """A frontmatter value on one line, as a reader would write it."""
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_shown(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else " ".join(str(value).split())


def _blocks_by_id(text: str, ids: set[str]) -> dict[str, str]:
    """Each of `ids` and the block it ends (`^q1`), as `_normal` words it; the text's blocks read once."""
    found: dict[str, str] = {}
    for block in blocks(text[split_frontmatter(text)[2] :]) if ids else []:
        for block_id in block_ids(block):
            if block_id in ids:
                found.setdefault(block_id, _normal(block))
    return found


def _normal(block: str) -> str:
    """A block as two pages may word it alike: spacing aside, except in code, where spacing is
    meaning (`print` inside a loop or after it). Case is kept: a token `AbCdEf` is not `abcdef`."""
    if _is_code(block):
        return "\n".join(line.rstrip() for line in block.strip("\n").splitlines())
    return " ".join(block.split())


def _is_code(block: str) -> bool:
    """A fenced block, or one whose every line is indented as code is (four spaces or a tab)."""
    lines = [line for line in block.splitlines() if line.strip()]
    return bool(_FENCED.match(block)) or (bool(lines) and all(line.startswith(("    ", "\t")) for line in lines))


_FENCED = re.compile(r"[ \t]*(?:`{3,}|~{3,})")
_HEADING = re.compile(r"\s*#{1,6}(?:[ \t]+|$)")  # "# Title"; not "#tag" nor "#1 priority"


def _held_as_lines(block: str, lines: list[str]) -> bool:
    """Whether a block's lines stand in that order, one after another, among a page's lines: a
    heading right under a rule, a paragraph inside a fence left open. Code is compared whole."""
    own = [_normal(line) for line in block.splitlines() if line.strip()]
    if not own or _is_code(block):
        return False
    return any(lines[at : at + len(own)] == own for at, line in enumerate(lines) if line == own[0])


def _closed(text: str, body_at: int, newline: str) -> str:
    """TEXT with what it leaves open at its end closed, so that a section after it is text: a code
    fence, an HTML or Obsidian comment, a math block (each hides what follows it)."""
    if (fences := fence_ranges(text, body_at)) and fences[-1][1] == len(text):
        opened = text[fences[-1][0] :].lstrip(" \t>")
        return text + opened[: len(opened) - len(opened.lstrip(opened[0]))] + newline
    prose = text[body_at:]
    for start, end in reversed(fences):  # markers inside code are code
        prose = prose[: start - body_at] + prose[end - body_at :]
    if prose.rfind("<!--") > prose.rfind("-->"):
        text += "-->" + newline
    for marker in ("%%", "$$"):
        if prose.count(marker) % 2:
            text += marker + newline
    return text


_FOOTNOTE = re.compile(r"\[\^([^\]\s]+)\]")


def _own_footnotes(added: str, into_text: str) -> str:
    """ADDED with its footnotes renamed where INTO's text uses the same label: two `[^1]`
    definitions on one page would cite one source for both."""
    taken = set(_FOOTNOTE.findall(into_text))
    renamed = {label: f"{label}-merged" for label in set(_FOOTNOTE.findall(added)) & taken}
    return _FOOTNOTE.sub(lambda m: f"[^{renamed.get(m.group(1), m.group(1))}]", added) if renamed else added


def _anchors_moved(vault: Vault, source: str, into: str, merged: str) -> list[str]:
    """A note for each link to a heading of SOURCE that the merged INTO lacks, or holds as its own
    section about something else: the link now lands elsewhere on the page."""
    own = {anchor_key(h.text) for h in vault.pages[into].headings}
    after = {anchor_key(h.text) for h in parse_page(merged).headings}
    headings = {anchor_key(h.text) for h in vault.pages[source].headings}
    notes: list[str] = []
    for rl in vault.backlinks(source):
        anchor = rl.link.anchor
        if not anchor or anchor_key(anchor) not in headings:
            continue
        if anchor_key(anchor) in own:
            notes.append(f"{rl.source}: its link to {source}#{anchor} now lands on {into}'s own section '{anchor}'")
        elif anchor_key(anchor) not in after:
            notes.append(f"{rl.source}: its link to {source}#{anchor} now names a heading {into} does not have")
    return notes


def plan_merge(vault: Vault, source_name: str, into_name: str, reason: str | None = None) -> Plan:
    """Fold SOURCE into INTO: its distinct paragraphs, titles (as aliases) and frontmatter fields
    (missing ones copied as written, lists joined, differing values listed in the text); SOURCE goes."""
    source = page_to_change(vault, source_name)
    into = page_to_change(vault, into_name)
    if source == into:
        raise EditError("a page cannot be merged into itself")
    texts = Texts(vault)
    rewritten = 0
    # A block id both pages use (`^q1`) on other blocks is renamed in what SOURCE brings, and so are
    # links to it; on one block (a copy) the links land on INTO's.
    ids = {i for i in vault.pages[source].block_ids if i in vault.pages[into].block_ids}
    theirs, ours = (_blocks_by_id(texts.get(path), ids) for path in (source, into))
    clashing = {i for i in ids if theirs.get(i) != ours.get(i)}
    # Every link to SOURCE now names INTO; a bare [[Source]] keeps its words as a label.
    by_page: dict[str, list[Edit]] = {}
    source_title, into_title = file_title(source), file_title(into)
    # How a link names INTO where links name pages by `title:`, or by a site's address.
    title, address = vault.resolver.named_title.get(into), vault.pages[into].permalink
    address = address if address and address.startswith("/") else None  # a site's, not basic-memory's
    for rl in vault.links:
        if rl.resolution.path != source or rl.resolution.kind != "page":
            continue
        home = into if rl.source == source else rl.source
        edit = rewrite_link(texts.get(rl.source), rl.link, rl.source, home, into, rl.resolution, title, address)
        if edit is None:
            continue
        if (rl.link.anchor or "").startswith("^") and (rl.link.anchor or "")[1:] in clashing:  # renamed there
            text, end, anchor = texts.get(rl.source), edit.offset + edit.length, f"#{rl.link.anchor}"
            at = text.find(anchor, end, end + len(anchor) + 2)
            if at >= 0:
                by_page.setdefault(rl.source, []).append(Edit(at + len(anchor), 0, "-merged"))
        if rl.link.syntax != "markdown" and rl.link.label is None and rl.link.target and rl.link.anchor is None:
            text = texts.get(rl.source)
            bar = label_bar(text, rl.link.offset)  # escaped in a table row
            if rl.link.syntax == DENDRON:  # the label first: [[Source|dendron://vault/into]]
                inner = text.index("[[", rl.link.offset) + 2
                kept = text[inner : edit.offset]
                edit = Edit(inner, edit.offset + edit.length - inner, f"{rl.link.target}{bar}{kept}{edit.text}")
            else:
                edit = Edit(edit.offset, edit.length, f"{edit.text}{bar}{rl.link.target}")
        by_page.setdefault(rl.source, []).append(edit)
        rewritten += 1
    if posixpath.dirname(source) != posixpath.dirname(into):  # SOURCE's relative links, from INTO's folder
        by_page.setdefault(source, []).extend(relative_links_moved(vault, texts, source, into))
    written = texts.get(source)  # before its links are rewritten: a block INTO holds as written is no news
    for path, edits in by_page.items():
        texts.text[path] = apply_edits(texts.get(path), edits)
    source_text = texts.get(source)
    into_text = texts.get(into)
    # Distinct paragraphs of SOURCE, under a heading that names where they came from.
    _, _, source_body_at = split_frontmatter(source_text)
    _, _, into_body_at = split_frontmatter(into_text)
    have = {_normal(b) for b in blocks(into_text[into_body_at:])}
    # Its lines too: a block INTO holds as lines of other blocks (a heading right under a rule, a
    # paragraph inside a fence left open) is no news either.
    lines = [_normal(line) for line in into_text[into_body_at:].splitlines() if line.strip()]
    now = blocks(source_text[source_body_at:])
    before = blocks(written[split_frontmatter(written)[2] :])
    pairs = zip(now, before, strict=True) if len(before) == len(now) else ((b, b) for b in now)
    fresh = [b for b, was in pairs if not any(_normal(x) in have or _held_as_lines(x, lines) for x in (b, was))]
    # A heading that only repeats either title adds nothing: the "From" heading names the origin.
    titles = {fold(into_title), fold(source_title)}
    fresh = [b for b in fresh if not (_HEADING.match(b) and fold(_HEADING.sub("", b.strip())) in titles)]
    # Titles and aliases of SOURCE become aliases of INTO; its other fields are carried over.
    source_page, into_page = vault.pages[source], vault.pages[into]
    notes: list[str] = []
    if source_page.frontmatter_error:
        notes.append(f"{source}: its frontmatter does not parse, so only its title became an alias")
    aliases_at = alias_key(into_page.frontmatter)
    written_title = source_page.frontmatter.get("title")  # "Quarterly Review Q1" of src-note.md: a name too
    new_aliases = [source_title, *([written_title] if isinstance(written_title, str) else []), *source_page.aliases]
    new_aliases = list(dict.fromkeys(new_aliases))
    differ: list[tuple[str, object, object]] = []
    if into_text.lstrip("\ufeff").startswith(("+++\n", "+++\r\n")):  # Hugo's TOML header: a YAML one above it breaks it
        notes.append(f"{into}: its front matter is TOML, so {source}'s titles and fields were not added to it")
    elif vault.in_book(into):
        notes.append(f"{into} is a page of an mdBook, which prints frontmatter: {source}'s titles and fields stay out")
    else:
        into_text = add_list_items(into_text, aliases_at, [a for a in new_aliases if fold(a) != fold(into_title)], into)
        into_text, differ = _carry_fields(source_text, into_text, source, into, notes, vault.resolver)
    newline = "\r\n" if "\r\n" in into_text else "\n"
    if differ:  # kept where a reader of the merged page sees them, with where each came from
        listed = [f"Frontmatter of {source_title} that differs here:", ""]
        listed += [f"- {key}: {_shown(theirs)} ({into_title} has {_shown(ours)})" for key, theirs, ours in differ]
        fresh.insert(0, "\n".join(listed))
    if fresh:
        joined = _own_footnotes("\n\n".join(fresh), into_text)
        if vault.in_book(into):
            joined = book_escaped(joined)
        for block_id in clashing:
            joined = re.sub(rf"(\s\^){re.escape(block_id)}$", rf"\g<1>{block_id}-merged", joined, flags=re.MULTILINE)
        joined = joined.replace("\n", newline)
        tail = into_text if into_text.endswith(("\n", "\r")) or not into_text else into_text + newline
        # of two pages of one name, the path says which the text came from
        origin = source_title if fold(source_title) != fold(into_title) else posixpath.splitext(source)[0]
        # A site's page (one with a place on it) or a basic-memory page goes by its `title:` ("Toggl
        # Setup & Upload", not `toggl`); an Obsidian page by its file's.
        shown = source_page.frontmatter.get("title") if _PLACE_KEYS & source_page.frontmatter.keys() else None
        shown = vault.resolver.named_title.get(source, shown)
        origin = shown.strip() if isinstance(shown, str) and shown.strip() and "\n" not in shown else origin
        origin = book_escaped(origin) if vault.in_book(into) else origin
        into_text = (
            f"{_closed(tail, into_body_at, newline)}{newline}## From {origin}{newline}{newline}{joined}{newline}"
        )
    texts.text[into] = into_text
    aliases = {p.path: p.aliases for p in vault.pages.values() if p.frontmatter and p.path not in (source, into)}
    aliases[into] = aliases_of(frontmatter_of(into_text))
    new_pages = [p for p in vault.pages if p != source]
    source_text = texts.text.pop(source)
    problems, fixed = check_and_fix(vault, texts, new_pages, aliases, {source: into}, {source})
    texts.text[source] = source_text
    # INTO's links were rebuilt: every page SOURCE or INTO reached before must still be reached.
    resolver = Resolver(new_pages, vault.attachments, aliases, vault.config.resolve_aliases)
    resolver.add_permalinks(vault.resolver.permalink_claims())
    resolver.add_titles(vault.resolver.named_title.items())
    reached = {
        resolver.resolve(into, lk.target, lk.syntax == "markdown").path
        for lk in links_of(texts.text[into], vault.config.label_first)
    }
    for rl in (*vault.outlinks(source), *vault.outlinks(into)):
        lost = rl.resolution.kind == "page" and rl.resolution.path not in (source, into, *reached)
        if lost:
            problems.append(f"{into}: the link to {rl.resolution.path} from {rl.source} was lost in the merge")
    notes.extend(problems)
    notes.extend(_anchors_moved(vault, source, into, texts.text[into]))
    changes = text_changes(texts, deleted=[source])
    why = f"Merge {source} into {into}"  # the commit names both pages whatever the reason says
    if reason:
        why += f" {reason.removeprefix('Merge ')}" if reason.startswith("Merge ") else f": {reason}"
    return Plan(
        "merge",
        why,
        tuple(changes),
        {source: into},
        rewritten + fixed,
        tuple(notes),
        {"source": source, "into": into},
    )
