"""Plan renames and merges: the exact new bytes of every file a change touches, nothing written.

A plan rewrites every link to the moved page in the way it was written (bare name, folder path,
relative path, markdown link with its encoding), keeps labels and anchors, and is then checked by
resolving every link of the vault again as it would be afterwards: a link whose meaning would
change is written out explicitly, and one that would still break is reported.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import quote, unquote

from curator.core.change.frontmatter_edit import add_list_items, copy_key
from curator.core.common.errors import EditError, FrontmatterEditError
from curator.core.common.names import escaped, name_problem
from curator.core.read.markdown import blocks
from curator.core.read.page import Link, aliases_of, content_hash
from curator.core.read.parse import parse_page, split_frontmatter, split_wikilink
from curator.core.read.resolve import Resolution, Resolver, fold
from curator.core.read.vault import Vault


@dataclass(frozen=True, slots=True)
class FileChange:
    path: str
    before: bytes | None  # None: the file does not exist before the change
    after: bytes | None  # None: the change deletes it


@dataclass(frozen=True)
class Plan:
    kind: str  # "rename", "merge", "drop", "tier", "remember", "fix"
    reason: str
    changes: tuple[FileChange, ...]
    moved: dict[str, str]  # old page path -> the page that answers for it afterwards
    links_rewritten: int
    notes: tuple[str, ...] = ()
    details: dict[str, str] = field(default_factory=dict)


def find_page(vault: Vault, name: str) -> str:
    """A page given by path (`folder/Page.md`, `folder/Page`) or by title; ambiguity is an error."""
    wanted = name.strip().replace("\\", "/").lstrip("/")
    if not wanted:
        raise EditError("no page named: give a title or a path")
    for exact in (wanted, wanted + ".md"):  # MaaS.md and MAAS.md can both exist: the spelling given wins
        if exact in vault.pages:
            return exact
    key = fold(wanted)
    for candidate in (key, key + ".md"):
        for path in vault.pages:
            if fold(path) == candidate:
                return path
    titles = vault.resolver.titles().get(key.removesuffix(".md"), [])
    if len(titles) == 1:
        return titles[0]
    if len(titles) > 1:
        raise EditError(f"{name!r} names {len(titles)} pages ({', '.join(sorted(titles))}); give the path")
    raise EditError(f"no page {name!r} in the vault")


def target_path(vault: Vault, old: str, new: str) -> str:
    """The path NEW names: a folder path from the root, or a title beside OLD; checked for safety."""
    new = new.strip()  # a backslash is refused as a character below, never read as a folder
    if not new or new.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:[/\\]", new):
        raise EditError(f"new name '{escaped(new)}' must be a title or a path inside the vault")
    given = new.split("/")  # the names checked: those NEW gives (OLD's folders exist already)
    if given[-1].lower().endswith(".md"):
        given[-1] = given[-1][:-3]
    for i, part in enumerate(given):
        problem = name_problem(part, ".md" if i == len(given) - 1 else "")
        if problem is not None:
            raise EditError(f"new name '{escaped(new)}': {problem}")
    parts = given
    if "/" not in new:
        folder = posixpath.dirname(old)
        parts = [*(folder.split("/") if folder else []), *given]
    path = "/".join(parts) + ".md"
    if fold(path) != fold(old):
        clash = [p for p in (*vault.pages, *vault.attachments) if fold(p) == fold(path)]
        if clash or (vault.root / path).exists():
            raise EditError(f"{path} already exists; choose another name or merge into it")
    elif path == old:
        raise EditError(f"{old} already has that name")
    elif path in vault.pages or path in vault.attachments:  # MaaS.md renamed to MAAS.md, which exists
        raise EditError(f"{path} already exists; choose another name or merge into it")
    return path


def _title(path: str) -> str:
    return posixpath.basename(path)[:-3]


class _Texts:
    """The current text of each page a plan touches, read from disk as exact bytes."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault
        self.before: dict[str, bytes] = {}
        self.text: dict[str, str] = {}

    def get(self, path: str) -> str:
        if path not in self.text:
            data = self.bytes_of(path)
            try:
                self.text[path] = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise EditError(f"{path} is not valid UTF-8, so its links cannot be rewritten safely") from exc
        return self.text[path]

    def bytes_of(self, path: str) -> bytes:
        """The page's bytes; refused when they are not those the vault was loaded with."""
        if path not in self.before:
            data = (self.vault.root / path).read_bytes()
            page = self.vault.pages.get(path)
            if page is not None and page.sha and content_hash(data) != page.sha:
                raise EditError(f"{path} changed while the change was planned; run it again")
            self.before[path] = data
        return self.before[path]


def wiki_target_span(raw: str) -> tuple[int, int]:
    """Start and end, inside a raw `[[...]]` or `![[...]]`, of its target part."""
    start = raw.index("[[") + 2
    end = len(raw) - 2
    inner = raw[start:end]
    cut = len(inner)
    for mark in ("|", "#"):
        at = inner.find(mark)
        if at >= 0:
            cut = min(cut, at)
    if cut > 0 and inner[cut - 1] == "\\" and cut < len(inner) and inner[cut] == "|":
        cut -= 1
    return start, start + cut


def markdown_dest_span(raw: str) -> tuple[int, int]:
    """Start and end of the destination's path part in a raw `[l](dest "t")` or `[id]: dest`."""
    start = raw.index("](") + 2 if raw.rstrip().endswith(")") and "](" in raw else raw.index("]:") + 2
    while start < len(raw) and raw[start] in " \t":
        start += 1
    if raw[start] == "<":
        end = raw.index(">", start)
        start += 1
    else:
        end = start
        depth = 0
        while end < len(raw):
            ch = raw[end]
            if ch in " \t" or (ch == ")" and depth == 0):
                break
            depth += ch == "("
            depth -= ch == ")"
            end += 1
    dest = raw[start:end]
    cut = min([i for i in (dest.find("#"), dest.find("?")) if i >= 0], default=len(dest))
    return start, start + cut


def _written_target(written: str, target: str) -> str:
    """`target` with or without its `.md`, as the link was written."""
    if target.lower().endswith(".md") and not written.lower().endswith(".md"):
        return target[:-3]
    return target


def _new_wiki_target(written: str, home: str, target: str) -> str:
    """How a wikilink written as `written`, living in page `home`, names `target` in the same style."""
    target = _written_target(written, target)
    folder = posixpath.dirname(home)
    if written.startswith(("./", "../")):
        rel = posixpath.relpath(target, folder or ".")
        return rel if rel.startswith("../") else "./" + rel
    if written.startswith("/"):
        return "/" + target
    if "/" in written:
        return target
    return posixpath.basename(target)


def _new_markdown_dest(written: str, home: str, target: str, by_name: bool) -> str:
    """The same for a markdown link's destination, keeping its percent-encoding."""
    target = _written_target(unquote(written), target)
    if written.startswith("/"):
        dest = "/" + target
    elif by_name:
        dest = posixpath.basename(target)
    else:
        dest = posixpath.relpath(target, posixpath.dirname(home) or ".")
    if "%" in written or (" " in dest and " " not in written):
        dest = quote(dest, safe="/!$&'()*+,;=:@-._~")
    return dest


def _resolved_relatively(origin: str, written: str, path: str | None) -> bool:
    """Whether a markdown link in `origin` reached `path` as a path relative to its folder."""
    if path is None:
        return False
    joined = fold(posixpath.normpath(posixpath.join(posixpath.dirname(origin), written)))
    return joined in (fold(path), fold(path).removesuffix(".md"))


@dataclass
class _Edit:
    offset: int
    length: int
    text: str


def _apply_edits(text: str, edits: list[_Edit]) -> str:
    for edit in sorted(edits, key=lambda e: e.offset, reverse=True):
        text = text[: edit.offset] + edit.text + text[edit.offset + edit.length :]
    return text


def _rewrite_link(text: str, link: Link, origin: str, home: str, target: str, found: Resolution) -> _Edit | None:
    """The edit that makes `link` (written in `origin`, living in `home` afterwards) name `target`."""
    raw = text[link.offset : link.offset + link.length]
    if link.syntax == "markdown":
        start, end = markdown_dest_span(raw)
        written = raw[start:end]
        by_name = not written.startswith("/") and not _resolved_relatively(origin, unquote(written), found.path)
        new = _new_markdown_dest(written, home, target, by_name)
    else:
        start, end = wiki_target_span(raw)
        written = raw[start:end].strip()
        if not written:
            return None  # [[#heading]] names its own page, wherever it moves
        new = _new_wiki_target(written, home, target)
    if new == raw[start:end]:
        return None
    return _Edit(link.offset + start, end - start, new)


def explicit_target(resolver: Resolver, source: str, path: str, markdown: bool) -> str:
    """The shortest folder path to `path` that resolves to it from `source`."""
    stem = path[:-3]
    parts = stem.split("/")
    for size in range(1, len(parts) + 1):
        candidate = "/".join(parts[-size:])
        found = resolver.resolve(source, candidate, markdown)
        if found.path == path and not found.candidates:
            return candidate
    return "/" + stem


def _links_of(text: str) -> tuple[Link, ...]:
    return parse_page(text).links


def _check_and_fix(
    vault: Vault,
    texts: _Texts,
    new_pages: list[str],
    new_aliases: dict[str, tuple[str, ...]],
    moved: dict[str, str],
    removed: set[str],
) -> tuple[list[str], int]:
    """Resolve every link as it will be; rewrite explicitly those whose meaning would change.

    Returns the problems left (links that resolved before and would not) and how many links were fixed.
    """
    resolver = Resolver(new_pages, vault.attachments, new_aliases, vault.config.resolve_aliases)
    problems: list[str] = []
    fixed = 0
    rewritten: list[str] = []
    before_by_source: dict[str, list[Resolution]] = {}
    for rl in vault.links:
        before_by_source.setdefault(rl.source, []).append(rl.resolution)
    for old_source in vault.pages:
        if old_source in removed:
            continue
        source = moved.get(old_source, old_source)
        old_resolutions = before_by_source.get(old_source, [])
        if not old_resolutions:
            continue
        links = _links_of(texts.text[source]) if source in texts.text else vault.pages[old_source].links
        if len(links) != len(old_resolutions):
            continue  # the page's links were rebuilt by the change itself (a merge); checked below
        edits: list[_Edit] = []
        for link, old in zip(links, old_resolutions, strict=True):
            if old.kind != "page" or old.path is None:
                continue
            expected = moved.get(old.path, old.path)
            now = resolver.resolve(source, link.target, link.syntax == "markdown")
            newly_ambiguous = len(now.candidates) > 1 and len(old.candidates) < 2
            if now.path == expected and not newly_ambiguous:
                continue
            text = texts.get(source)
            explicit = explicit_target(resolver, source, expected, link.syntax == "markdown")
            raw = text[link.offset : link.offset + link.length]
            if link.syntax == "markdown":
                start, end = markdown_dest_span(raw)
                replacement = quote(explicit + ".md", safe="/") if not explicit.startswith("/") else explicit + ".md"
            else:
                start, end = wiki_target_span(raw)
                replacement = explicit
            edits.append(_Edit(link.offset + start, end - start, replacement))
        if edits:
            texts.text[source] = _apply_edits(texts.get(source), edits)
            fixed += len(edits)
            rewritten.append(old_source)
    # Second look at the pages just rewritten (every link elsewhere resolved as before above):
    # anything still not resolving as before is reported.
    for old_source in rewritten:
        source = moved.get(old_source, old_source)
        links = _links_of(texts.text[source]) if source in texts.text else vault.pages[old_source].links
        old_resolutions = before_by_source.get(old_source, [])
        if len(links) != len(old_resolutions):
            continue
        for link, old in zip(links, old_resolutions, strict=True):
            if old.kind == "page" and old.path is not None:
                now = resolver.resolve(source, link.target, link.syntax == "markdown")
                if now.path != moved.get(old.path, old.path):
                    problems.append(f"{source}:{link.line}: {link.target!r} would no longer resolve as before")
    return problems, fixed


def _text_changes(
    texts: _Texts, deleted: Iterable[str] = (), created: dict[str, str] | None = None
) -> list[FileChange]:
    changes: list[FileChange] = []
    created = created or {}
    for path, text in texts.text.items():
        if path in created or path in deleted:
            continue
        data = text.encode("utf-8")
        if data != texts.before.get(path):
            changes.append(FileChange(path, texts.before[path], data))
    for path in deleted:
        changes.append(FileChange(path, texts.before[path], None))
    for path, text in created.items():
        changes.append(FileChange(path, None, text.encode("utf-8")))
    return sorted(changes, key=lambda c: c.path)


def plan_rename(vault: Vault, old_name: str, new_name: str, reason: str | None = None) -> Plan:
    """Move a page and rewrite every link to it; its old title becomes an alias."""
    old = find_page(vault, old_name)
    new = target_path(vault, old, new_name)
    texts = _Texts(vault)
    rewritten = 0
    by_source: dict[str, list[_Edit]] = {}
    for rl in vault.links:  # every link to the page, its own self links included
        if rl.resolution.path != old or rl.resolution.kind != "page":
            continue
        home = new if rl.source == old else rl.source
        edit = _rewrite_link(texts.get(rl.source), rl.link, rl.source, home, new, rl.resolution)
        if edit is not None:
            by_source.setdefault(rl.source, []).append(edit)
            rewritten += 1
    if posixpath.dirname(old) != posixpath.dirname(new):
        by_source.setdefault(old, []).extend(_relative_links_moved(vault, texts, old, new))
    for source, edits in by_source.items():
        texts.text[source] = _apply_edits(texts.get(source), edits)
    old_title, new_title = _title(old), _title(new)
    page = vault.pages[old]
    text = texts.get(old)
    if fold(old_title) != fold(new_title):
        key = "alias" if "alias" in page.frontmatter and "aliases" not in page.frontmatter else "aliases"
        text = add_list_items(text, key, [old_title], old)
    aliases = {p.path: p.aliases for p in vault.pages.values() if p.frontmatter and p.path != old}
    aliases[new] = aliases_of(_frontmatter_of(text))
    new_pages = [new if p == old else p for p in vault.pages]
    del texts.text[old]
    texts.text[new] = text  # checked at its new path, like every other page
    problems, fixed = _check_and_fix(vault, texts, new_pages, aliases, {old: new}, set())
    moved_text = texts.text.pop(new)
    changes = _text_changes(texts, deleted=[old], created={new: moved_text})
    return Plan(
        "rename",
        reason or f"Rename {old} to {new}",
        tuple(changes),
        {old: new},
        rewritten + fixed,
        tuple(problems),
        {"old": old, "new": new},
    )


def _relative_links_moved(vault: Vault, texts: _Texts, old: str, new: str) -> list[_Edit]:
    """Edits that keep a moving page's relative links (`./x`, `[l](../x.md)`) pointing where they did."""
    edits = []
    for rl in vault.outlinks(old):
        link, found = rl.link, rl.resolution
        if found.kind == "dead" or found.path is None or found.path == old:
            continue
        if link.syntax == "markdown" or link.target.startswith(("./", "../")):
            edit = _rewrite_link(texts.get(old), link, old, new, found.path, found)
            if edit is not None:
                edits.append(edit)
    return edits


def _frontmatter_of(text: str) -> dict[str, object]:
    return parse_page(text).frontmatter


_OWN_KEYS = ("aliases", "alias", "title")  # the merge's own business: the titles become aliases


def _carry_fields(
    source_text: str, into_text: str, source: str, into: str, notes: list[str], resolver: Resolver
) -> tuple[str, list[tuple[str, object, object]]]:
    """INTO's text with SOURCE's frontmatter fields that it lacks copied over as written, list
    values joined (a text and a list make one list); and each field whose values differ, as
    (key, SOURCE's, INTO's), for the merged text to list. Read after the links were rewritten."""
    theirs, ours = _frontmatter_of(source_text), _frontmatter_of(into_text)
    carried: list[str] = []
    differ: list[tuple[str, object, object]] = []
    for key, value in theirs.items():
        if key in _OWN_KEYS:
            continue
        current = ours.get(key)
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


def _normal(block: str) -> str:
    return " ".join(block.split()).casefold()


def plan_merge(vault: Vault, source_name: str, into_name: str, reason: str | None = None) -> Plan:
    """Fold SOURCE into INTO: its distinct paragraphs, titles (as aliases) and frontmatter fields
    (missing ones copied as written, lists joined, differing values listed in the text); SOURCE goes."""
    source = find_page(vault, source_name)
    into = find_page(vault, into_name)
    if source == into:
        raise EditError("a page cannot be merged into itself")
    texts = _Texts(vault)
    rewritten = 0
    # Every link to SOURCE now names INTO; a bare [[Source]] keeps its words as a label.
    by_page: dict[str, list[_Edit]] = {}
    source_title, into_title = _title(source), _title(into)
    for rl in vault.links:
        if rl.resolution.path != source or rl.resolution.kind != "page":
            continue
        home = into if rl.source == source else rl.source
        edit = _rewrite_link(texts.get(rl.source), rl.link, rl.source, home, into, rl.resolution)
        if edit is None:
            continue
        if rl.link.syntax != "markdown" and rl.link.label is None and rl.link.target and rl.link.anchor is None:
            edit = _Edit(edit.offset, edit.length, f"{edit.text}|{rl.link.target}")
        by_page.setdefault(rl.source, []).append(edit)
        rewritten += 1
    if posixpath.dirname(source) != posixpath.dirname(into):  # SOURCE's relative links, from INTO's folder
        by_page.setdefault(source, []).extend(_relative_links_moved(vault, texts, source, into))
    for path, edits in by_page.items():
        texts.text[path] = _apply_edits(texts.get(path), edits)
    source_text = texts.get(source)
    into_text = texts.get(into)
    # Distinct paragraphs of SOURCE, under a heading that names where they came from.
    _, _, source_body_at = split_frontmatter(source_text)
    _, _, into_body_at = split_frontmatter(into_text)
    have = {_normal(b) for b in blocks(into_text[into_body_at:])}
    fresh = [b for b in blocks(source_text[source_body_at:]) if _normal(b) not in have]
    # A heading that only repeats either title adds nothing: the "From" heading names the origin.
    titles = {fold(into_title), fold(source_title)}
    fresh = [b for b in fresh if not (b.lstrip().startswith("#") and _normal(b).lstrip("# ") in titles)]
    # Titles and aliases of SOURCE become aliases of INTO; its other fields are carried over.
    source_page, into_page = vault.pages[source], vault.pages[into]
    notes: list[str] = []
    if source_page.frontmatter_error:
        notes.append(f"{source}: its frontmatter does not parse, so only its title became an alias")
    alias_key = "alias" if "alias" in into_page.frontmatter and "aliases" not in into_page.frontmatter else "aliases"
    new_aliases = [source_title, *source_page.aliases]
    into_text = add_list_items(into_text, alias_key, [a for a in new_aliases if fold(a) != fold(into_title)], into)
    into_text, differ = _carry_fields(source_text, into_text, source, into, notes, vault.resolver)
    newline = "\r\n" if "\r\n" in into_text else "\n"
    if differ:  # kept where a reader of the merged page sees them, with where each came from
        listed = [f"Frontmatter of {source_title} that differs here:", ""]
        listed += [f"- {key}: {_shown(theirs)} ({into_title} has {_shown(ours)})" for key, theirs, ours in differ]
        fresh.insert(0, "\n".join(listed))
    if fresh:
        joined = "\n\n".join(fresh).replace("\n", newline)
        tail = into_text if into_text.endswith(("\n", "\r")) or not into_text else into_text + newline
        into_text = f"{tail}{newline}## From {source_title}{newline}{newline}{joined}{newline}"
    texts.text[into] = into_text
    aliases = {p.path: p.aliases for p in vault.pages.values() if p.frontmatter and p.path not in (source, into)}
    aliases[into] = aliases_of(_frontmatter_of(into_text))
    new_pages = [p for p in vault.pages if p != source]
    source_text = texts.text.pop(source)
    problems, fixed = _check_and_fix(vault, texts, new_pages, aliases, {source: into}, {source})
    texts.text[source] = source_text
    # INTO's links were rebuilt: every page SOURCE or INTO reached before must still be reached.
    resolver = Resolver(new_pages, vault.attachments, aliases, vault.config.resolve_aliases)
    reached = {resolver.resolve(into, lk.target, lk.syntax == "markdown").path for lk in _links_of(texts.text[into])}
    for rl in (*vault.outlinks(source), *vault.outlinks(into)):
        lost = rl.resolution.kind == "page" and rl.resolution.path not in (source, into, *reached)
        if lost:
            problems.append(f"{into}: the link to {rl.resolution.path} from {rl.source} was lost in the merge")
    notes.extend(problems)
    changes = _text_changes(texts, deleted=[source])
    why = reason or f"Merge {source} into {into}"
    return Plan(
        "merge",
        why,
        tuple(changes),
        {source: into},
        rewritten + fixed,
        tuple(notes),
        {"source": source, "into": into},
    )


def plan_drop(vault: Vault, name: str, reason: str | None = None) -> Plan:
    """Delete a page nothing needs: no page links to it, except the index page, whose lines that
    only list it go too. Journaled like every change, so undo brings the page (and the lines) back."""
    path = find_page(vault, name)
    index = vault.index_page
    texts = _Texts(vault)
    listed: set[int] = set()
    for rl in vault.links:
        if rl.resolution.kind != "page" or rl.resolution.path != path or rl.source == path:
            continue
        if rl.source != index or rl.link.syntax == "frontmatter":
            raise EditError(f"{rl.source} links to {path}; merge it into a page instead of dropping it")
        listed.add(rl.link.line)
    changes = [FileChange(path, texts.bytes_of(path), None)]  # refused if it changed since the load
    if listed and index is not None:
        others = {rl.link.line for rl in vault.links if rl.source == index and rl.resolution.path != path}
        if listed & others:
            raise EditError(f"{index} names {path} on a line with other links; edit that line by hand first")
        lines = texts.get(index).splitlines(keepends=True)
        kept = "".join(line for number, line in enumerate(lines, 1) if number not in listed)
        changes.append(FileChange(index, texts.before[index], kept.encode("utf-8")))
    changes.sort(key=lambda c: c.path)
    return Plan("drop", reason or f"Drop {path}", tuple(changes), {}, 0, (), {"page": path})


def plan_diff(plan: Plan, context: int = 1) -> str:
    """A unified diff of every file a plan touches, as a person reviews it; a moved page is shown
    as one diff from its old path to its new one."""
    import difflib

    by_path = {c.path: c for c in plan.changes}
    moved_to = {new: old for old, new in plan.moved.items() if old in by_path and new in by_path}
    parts: list[str] = []
    for change in plan.changes:
        if change.path in moved_to.values() and by_path[plan.moved[change.path]].before is None:
            continue  # shown with the page it became
        old_path = moved_to.get(change.path) if change.before is None else None
        before_bytes = by_path[old_path].before if old_path else change.before
        before = (before_bytes or b"").decode("utf-8", "replace").splitlines(keepends=True)
        after = (change.after or b"").decode("utf-8", "replace").splitlines(keepends=True)
        old = old_path or (change.path if change.before is not None else "/dev/null")
        new = change.path if change.after is not None else "/dev/null"
        parts.extend(difflib.unified_diff(before, after, old, new, n=context))
    return "".join(parts)
