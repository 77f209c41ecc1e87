"""Plan renames and merges: the exact new bytes of every file a change touches, nothing written.

A plan rewrites every link to the moved page in the way it was written (bare name, folder path,
relative path, markdown link with its encoding), keeps labels and anchors, and is then checked by
resolving every link of the vault again as it would be afterwards: a link whose meaning would
change is written out explicitly, and one that would still break is reported.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import quote, unquote

from curator.core.change.frontmatter_edit import add_list_items, set_scalar
from curator.core.common.errors import EditError
from curator.core.common.names import escaped, name_problem
from curator.core.read.link_order import DENDRON, label_first, wiki_target_span
from curator.core.read.loading import PAGES_CACHE, reads_titles
from curator.core.read.markdown import lines_of
from curator.core.read.page import FOLDER_PAGES, Link, alias_key, aliases_of, content_hash
from curator.core.read.parse import parse_page
from curator.core.read.resolve import Resolution, Resolver, fold, permalink_key
from curator.core.read.vault import Vault
from curator.core.state.cache import cache_path


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
    # By its file's title; where links name pages by their `title:` (basic-memory), by that too.
    bare = key.removesuffix(".md")
    for titles in (vault.resolver.titles().get(bare, []), vault.resolver.titled(bare)):
        if len(titles) == 1:
            return titles[0]
        if len(titles) > 1:
            raise EditError(f"{name!r} names {len(titles)} pages ({', '.join(sorted(titles))}); give the path")
    # Never the page by its heading (a journal note headed "# Proxmox" is not the page the alias
    # Proxmox links to), but said: `remember` names a page `Tiago-plays.md` and heads it "Tiago plays".
    headed = sorted(
        path for path, page in vault.pages.items() if page.headings[:1] and fold(page.headings[0].text) == key
    )
    hint = f" (headed so: {', '.join(headed[:3])}; give its path)" if headed else ""
    raise EditError(f"no page {name!r} in the vault{hint}")


def page_to_change(vault: Vault, name: str) -> str:
    """`find_page`, refusing a page curator could not read (too large, binary, unreadable): it
    changes only what it has read."""
    path = find_page(vault, name)
    why = vault.pages[path].unreadable
    if why is not None:
        raise EditError(f"{path} was not read ({why}); curator changes only pages it has read: nothing was changed")
    return path


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
        if os.path.islink(vault.root / path):  # no page is read through it: a name taken by a link
            raise EditError(f"{path} is a symbolic link, which curator does not write through; choose another name")
        if clash or (vault.root / path).exists():
            raise EditError(f"{path} already exists; choose another name or merge into it")
    elif path == old:
        raise EditError(f"{old} already has that name")
    elif path in vault.pages or path in vault.attachments:  # MaaS.md renamed to MAAS.md, which exists
        raise EditError(f"{path} already exists; choose another name or merge into it")
    return path


def file_title(path: str) -> str:
    return posixpath.basename(path)[:-3]


class Texts:
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
                # Or since the stored reading was made, by an edit that kept the file's size and
                # time (`cp -p`, `rsync -t`): that reading goes, so the next run reads the page anew.
                with contextlib.suppress(OSError):
                    cache_path(self.vault.root, PAGES_CACHE).unlink()
                raise EditError(f"{path} changed while the change was planned; run it again")
            self.before[path] = data
        return self.before[path]


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
    """`target` with or without its `.md`, or as the page the site builds (`.html`), as the link was written."""
    if target.lower().endswith(".md") and not written.lower().endswith(".md"):
        return target[:-3] + written[-5:] if written.lower().endswith(".html") else target[:-3]
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


def _new_markdown_dest(written: str, home: str, target: str, by_name: bool, was: str | None = None) -> str:
    """The same for a markdown link's destination, keeping its percent-encoding."""
    site = _site_address(unquote(written), was, target) if written.startswith("/") and was else None
    target = _written_target(unquote(written), target)
    if site is not None:
        dest = site
    elif written.startswith("/"):
        dest = "/" + target
    elif by_name:
        dest = posixpath.basename(target)
    else:
        dest = posixpath.relpath(target, posixpath.dirname(home) or ".")
    if "%" in written or (" " in dest and " " not in written):
        dest = quote(dest, safe="/!$&'()*+,;=:@-._~")
    return dest


def _site_address(written: str, was: str, target: str) -> str | None:
    """A site address (`/guide/install/`, `/de/a/alpha.html`) that named the page at `was`, made
    to name `target` in its form: the folders the site serves from (`docs/`) stay left out, a
    prefix of its own (`/de/`) stays in, the ending stays. None when the address does not end in
    the page's folders and name, or `target` lies outside those folders."""
    core = written.strip("/")
    ending = "/" if written.endswith("/") and core else ""
    for suffix in (".html", ".md"):
        if core.lower().endswith(suffix):
            core, ending = core[: -len(suffix)], suffix
    said, old, new = core.split("/") if core else [], _address_parts(was), _address_parts(target)
    shared = 0
    while shared < min(len(said), len(old)) and fold(said[-1 - shared]) == fold(old[-1 - shared]):
        shared += 1
    served = old[: len(old) - shared]  # the folders the site is served from
    if not shared or new[: len(served)] != served:
        return None
    if ending == "/" and posixpath.basename(target) not in FOLDER_PAGES and posixpath.basename(was) in FOLDER_PAGES:
        ending = ""  # a folder's page become a page of its own
    return "/" + "/".join(said[: len(said) - shared] + new[len(served) :]) + ending


def _address_parts(path: str) -> list[str]:
    """A page's path as a site serves it: its folder for a folder's page, no `.md`."""
    if posixpath.basename(path) in FOLDER_PAGES:
        path = posixpath.dirname(path)
    return path.removesuffix(".md").split("/") if path else []


def _resolved_relatively(origin: str, written: str, path: str | None) -> bool:
    """Whether a markdown link in `origin` reached `path` as a path relative to its folder: to
    the page, or to its folder when it is the folder's page (`guide/`, `guide/index.html`)."""
    if path is None:
        return False
    joined = fold(posixpath.normpath(posixpath.join(posixpath.dirname(origin), written)))
    page = fold(path).removesuffix(".md")
    forms = {fold(path), page, page + ".html"}
    if posixpath.basename(path) in FOLDER_PAGES:
        folder = fold(posixpath.dirname(path)) or "."
        forms |= {folder, posixpath.join(folder, "index.html")}
    return joined in forms


@dataclass
class Edit:
    offset: int
    length: int
    text: str


def apply_edits(text: str, edits: list[Edit]) -> str:
    for edit in sorted(edits, key=lambda e: e.offset, reverse=True):
        text = text[: edit.offset] + edit.text + text[edit.offset + edit.length :]
    return text


def rewrite_link(
    text: str,
    link: Link,
    origin: str,
    home: str,
    target: str,
    found: Resolution,
    title: str | None = None,
    address: str | None = None,
) -> Edit | None:
    """The edit that makes `link` (written in `origin`, living in `home` afterwards) name `target`;
    a wikilink by a bare name names it by `title` when given (where links name pages by `title:`),
    an address from the site's root by `address` (the target's `permalink:`)."""
    raw = text[link.offset : link.offset + link.length]
    title = title if title and linkable(title) else None
    if link.syntax == "markdown":
        start, end = markdown_dest_span(raw)
        written = raw[start:end]
        if not written:
            return None  # [x](#heading) names its own page, wherever it moves
        by_name = not written.startswith("/") and not _resolved_relatively(origin, unquote(written), found.path)
        if address and written.startswith("/"):
            new = quote(address, safe="/!$&'()*+,;=:@-._~%")
        else:
            new = _new_markdown_dest(written, home, target, by_name, found.path)
    else:
        start, end = wiki_target_span(raw, link.syntax == DENDRON)
        written = raw[start:end].strip()
        if not written:
            return None  # [[#heading]] names its own page, wherever it moves
        new = title if title and "/" not in written else _new_wiki_target(written, home, target)
    if new == raw[start:end]:
        return None
    return Edit(link.offset + start, end - start, new)


def linkable(title: str) -> bool:
    """Whether a wikilink can name a page by this title and read back as it: no sign a wikilink or
    the YAML around a frontmatter link reads otherwise ("C# Tips", "A|B", "Weird]] Title", "x
    [draft]", 'The "Best" Plan'), no blank at either end."""
    return bool(title) and title == title.strip() and not _NOT_IN_LINKS.search(title)


_NOT_IN_LINKS = re.compile(r"[#|\[\]^\"\\\n\r]")


def explicit_target(resolver: Resolver, source: str, path: str, markdown: bool) -> str:
    """The page's title where links name pages by it (a basic-memory vault's `title:`), or the
    shortest folder path to `path` that resolves to it from `source`."""
    title = resolver.named_title.get(path)
    if title and not markdown and linkable(title):
        found = resolver.resolve(source, title)
        if found.path == path and not found.candidates:
            return title
    stem = path[:-3]
    parts = stem.split("/")
    for size in range(1, len(parts) + 1):
        candidate = "/".join(parts[-size:])
        found = resolver.resolve(source, candidate, markdown)
        if found.path == path and not found.candidates:
            return candidate
    return "/" + stem


def links_of(text: str, dendron: bool = False) -> tuple[Link, ...]:
    """A page text's links (`dendron`: its wikilinks read as Dendron writes them)."""
    links = parse_page(text).links
    return label_first(links) if dendron else links


def check_and_fix(
    vault: Vault,
    texts: Texts,
    new_pages: list[str],
    new_aliases: dict[str, tuple[str, ...]],
    moved: dict[str, str],
    removed: set[str],
) -> tuple[list[str], int]:
    """Resolve every link as it will be; rewrite explicitly those whose meaning would change.

    Returns the problems left (links that resolved before and would not) and how many links were fixed.
    """
    resolver = Resolver(new_pages, vault.attachments, new_aliases, vault.config.resolve_aliases)
    resolver.add_permalinks((moved.get(page, page), key) for page, key in vault.resolver.permalink_claims())
    # A title goes with its page's file, as the change writes it; a page merged away takes its title
    # with it, and with it may go the vault's reading of links by title (`reads_titles`).
    kept = [page for path, page in vault.pages.items() if path not in removed]
    titles = {moved.get(page, page): title for page, title in vault.resolver.named_title.items() if page not in removed}
    if not reads_titles(kept):
        titles = {}
    for page in titles.keys() & texts.text.keys():
        if isinstance(written := frontmatter_of(texts.text[page]).get("title"), str):
            titles[page] = written
    resolver.add_titles(titles.items())
    dendron = vault.config.label_first
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
        links = links_of(texts.text[source], dendron) if source in texts.text else vault.pages[old_source].links
        if len(links) != len(old_resolutions):
            continue  # the page's links were rebuilt by the change itself (a merge); checked below
        edits: list[Edit] = []
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
                start, end = wiki_target_span(raw, link.syntax == DENDRON)
                replacement = explicit
            edits.append(Edit(link.offset + start, end - start, replacement))
        if edits:
            texts.text[source] = apply_edits(texts.get(source), edits)
            fixed += len(edits)
            rewritten.append(old_source)
    # Second look at the pages just rewritten (every link elsewhere resolved as before above):
    # anything still not resolving as before is reported.
    for old_source in rewritten:
        source = moved.get(old_source, old_source)
        links = links_of(texts.text[source], dendron) if source in texts.text else vault.pages[old_source].links
        old_resolutions = before_by_source.get(old_source, [])
        if len(links) != len(old_resolutions):
            continue
        for link, old in zip(links, old_resolutions, strict=True):
            if old.kind == "page" and old.path is not None:
                now = resolver.resolve(source, link.target, link.syntax == "markdown")
                if now.path != moved.get(old.path, old.path):
                    problems.append(f"{source}:{link.line}: {link.target!r} would no longer resolve as before")
    return problems, fixed


def text_changes(texts: Texts, deleted: Iterable[str] = (), created: dict[str, str] | None = None) -> list[FileChange]:
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
    old = page_to_change(vault, old_name)
    new = target_path(vault, old, new_name)
    texts = Texts(vault)
    rewritten = 0
    by_source: dict[str, list[Edit]] = {}
    # Where links name pages by their `title:` (basic-memory), a rename gives the page its new title.
    titled = vault.resolver.named_title.get(old)
    for rl in vault.links:  # every link to the page, its own self links included
        if rl.resolution.path != old or rl.resolution.kind != "page":
            continue
        if rl.link.target.startswith("/") and vault.resolver.permalinks.get(permalink_key(rl.link.target)) == old:
            continue  # the page's own site address (`permalink:`), which moves with it
        home = new if rl.source == old else rl.source
        by_title = titled is not None and rl.link.syntax != "markdown" and fold(rl.link.target.strip()) == fold(titled)
        title = file_title(new) if by_title else None
        edit = rewrite_link(texts.get(rl.source), rl.link, rl.source, home, new, rl.resolution, title)
        if edit is not None:
            by_source.setdefault(rl.source, []).append(edit)
            rewritten += 1
    if posixpath.dirname(old) != posixpath.dirname(new):
        by_source.setdefault(old, []).extend(relative_links_moved(vault, texts, old, new))
    for source, edits in by_source.items():
        texts.text[source] = apply_edits(texts.get(source), edits)
    old_title, new_title = file_title(old), file_title(new)
    page = vault.pages[old]
    text = texts.get(old)
    if titled is not None:
        text = set_scalar(text, "title", new_title, old)
    elif fold(old_title) != fold(new_title) and not vault.in_book(old) and not vault.in_book(new):  # it prints them
        text = add_list_items(text, alias_key(page.frontmatter), [old_title], old)
    aliases = {p.path: p.aliases for p in vault.pages.values() if p.frontmatter and p.path != old}
    aliases[new] = aliases_of(frontmatter_of(text))
    new_pages = [new if p == old else p for p in vault.pages]
    del texts.text[old]
    texts.text[new] = text  # checked at its new path, like every other page
    problems, fixed = check_and_fix(vault, texts, new_pages, aliases, {old: new}, set())
    moved_text = texts.text.pop(new)
    changes = text_changes(texts, deleted=[old], created={new: moved_text})
    return Plan(
        "rename",
        reason or f"Rename {old} to {new}",
        tuple(changes),
        {old: new},
        rewritten + fixed,
        tuple(problems),
        {"old": old, "new": new},
    )


def relative_links_moved(vault: Vault, texts: Texts, old: str, new: str) -> list[Edit]:
    """Edits that keep a moving page's relative links (`./x`, `[l](../x.md)`) pointing where they did."""
    edits = []
    for rl in vault.outlinks(old):
        link, found = rl.link, rl.resolution
        if found.kind == "dead" or found.path is None or found.path == old:
            continue
        if link.syntax == "markdown" and link.target.startswith("/"):
            continue  # a site's address from its root: the same wherever the page lives
        if link.syntax == "markdown" or link.target.startswith(("./", "../")):
            edit = rewrite_link(texts.get(old), link, old, new, found.path, found)
            if edit is not None:
                edits.append(edit)
    return edits


def frontmatter_of(text: str) -> dict[str, object]:
    return parse_page(text).frontmatter


def plan_drop(vault: Vault, name: str, reason: str | None = None) -> Plan:
    """Delete a page nothing needs: no page links to it, except the index page, whose lines that
    only list it go too. Journaled like every change, so undo brings the page (and the lines) back."""
    path = find_page(vault, name)
    index = vault.index_page
    texts = Texts(vault)
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
        lines = lines_of(texts.get(index))
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
        for line in difflib.unified_diff(before, after, old, new, n=context):
            # A last line without its newline ends as git shows it, not joined to the next.
            parts.append(line if line.endswith("\n") else f"{line}\n\\ No newline at end of file\n")
    return "".join(parts)
