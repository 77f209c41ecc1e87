"""The rules about the vault's index page (`MEMORY.md` by default): `index-drift`, a page it does
not list, and `index-pressure`, an index near the size an agent harness loads; the fix of drift is
a line `- [[Page]]` under the heading whose section lists most pages of the same folder."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Iterator
from urllib.parse import quote, unquote

from curator.core.change.edits import FileChange, explicit_target
from curator.core.check.hits import Fix, Hit
from curator.core.common.rules import Finding, Rule
from curator.core.read.markdown import fenced_lines, lines_of
from curator.core.read.page import FOLDER_PAGES, Heading, loaded_by_name, title_of
from curator.core.read.parse import split_frontmatter
from curator.core.read.resolve import fold
from curator.core.read.vault import ResolvedLink, Vault

RULES = (
    Rule(
        "index-drift",
        "A page the vault's index page does not list.",
        "A page it links to, names by its path in code (`memory/dave.md`, as an agent's MEMORY.md lists its "
        "topic files), names by its path in its text, or lies under a folder it names so (`memory/`) is "
        "listed; a page of a dated series (a day's log) or one an agent's harness loads by name (`AGENTS.md`) "
        "needs no line. A MEMORY.md found by its name and listing pages of under half the vault's top folders "
        "is the index of those folders; a long one (over 2 KiB) listing under a quarter of the pages is an "
        "agent's memory naming some files, and misses none.",
    ),
    Rule("index-pressure", "The index page is over 80% of the size an agent harness loads."),
)


def rule_index(vault: Vault) -> Iterator[Hit]:
    index = vault.index_page
    if index is None:
        return
    deep = vault.config.index_deep_page  # entries tiered out of the index are listed there
    if lists_pages(vault, index):
        listed = {
            rl.resolution.path
            for page in (index, deep)
            for rl in vault.outlinks(page)
            if rl.resolution.kind == "page" and rl.resolution.path is not None
        }
        named, folders = written_paths(vault, index), named_by_path(vault, index)[1]
        wanted = [
            path
            for path in vault.pages
            if path not in (index, deep)
            and path not in vault.daily_notes  # a day's log: the index names the series (`memory/YYYY-MM-DD.md`)
            and not loaded_by_name(path)  # AGENTS.md, SOUL.md: the harness loads them, no index need list them
        ]
        missing = [path for path in wanted if path not in listed and path not in named and not path.startswith(folders)]
        if vault.config.index_page is None:  # one the settings name is the vault's index however little it lists
            missing = _in_its_scope(vault, index, missing, wanted, {*listed, *named, *folders})
        for path in missing:
            yield Hit("index-drift", path, f"not listed in the index page {index}", data={"index": index})
    yield from _pressure(vault, index)


# An index page that links to no page and is longer than this is an agent's memory written as
# prose (OpenClaw's MEMORY.md): no page is missing from it, and no link line belongs at its end.
MEMORY_PROSE_BYTES = 2048
LISTED = 3  # pages a longer one links to that make it a list
# The share of the pages it may list that a long MEMORY.md lists to be taken for an index. On the
# agent workspaces read: 0.05 (an agent's memory in prose naming some files), 0.40, 0.82 and 1.00.
COVERS = 0.25


def lists_pages(vault: Vault, index: str) -> bool:
    """Whether `index` is a list of pages: it is named so in the settings, is short enough to start
    as one, or links to LISTED other pages (or to as many that are gone); a link said on the way,
    to its own heading or an embedded image makes no list; nor is a page not read as text."""
    if vault.pages[index].unreadable is not None:
        return False  # not read as text (UTF-16, binary): no list curator reads or writes
    if vault.config.index_page is not None or vault.pages[index].size <= MEMORY_PROSE_BYTES:
        return True
    links = [rl for rl in vault.outlinks(index) if not rl.link.embed and rl.resolution.path != index]
    pages = {rl.resolution.path for rl in links if rl.resolution.kind == "page"} | set(named_by_path(vault, index)[0])
    return len(pages) >= LISTED or sum(rl.resolution.kind == "dead" for rl in links) >= LISTED


def _in_its_scope(vault: Vault, index: str, missing: list[str], wanted: list[str], listed: set[str]) -> list[str]:
    """The pages of `missing` a MEMORY.md found by its name is the index of. A long one that lists
    a few pages of many is an agent's memory naming some of its files (17 KiB of prose naming 8 of
    154 pages), not an index: it misses none. One listing what lies in a few of the vault's top
    folders is theirs (OpenClaw's tiers: `memory/facts.md`, `memory/decisions/`), and misses no page
    of `research/` or `projects/`."""
    if vault.pages[index].size > MEMORY_PROSE_BYTES and len(wanted) - len(missing) < COVERS * len(wanted):
        return []
    areas = {_top_folder(path) for path in listed}
    if len(areas & {_top_folder(path) for path in wanted}) >= len({_top_folder(path) for path in wanted}) / 2:
        return missing
    return [path for path in missing if _top_folder(path) in areas]


def _top_folder(path: str) -> str:
    """The folder at the vault's root a page or folder lies in ("" for the root itself)."""
    return path.split("/", 1)[0] if "/" in path else ""


_CODE_SPAN = re.compile(r"`([^`\n]{1,300})`")


def named_by_path(vault: Vault, index: str) -> tuple[dict[str, int], tuple[str, ...]]:
    """The pages the index names by their path in a code span, as an agent's MEMORY.md lists its
    topic files (`- DRS company facts: `memory/drs-reference.md``), each with the (1-based) line
    naming it first, outside fenced code; and the folders it names so (`memory/`)."""

    def named() -> tuple[dict[str, int], tuple[str, ...]]:
        pages: dict[str, int] = {}
        folders: set[str] = set()
        here = posixpath.dirname(index)
        held = {path[: at + 1] for path in vault.pages for at, char in enumerate(path) if char == "/"}
        fence = ""
        for number, line in enumerate(lines_of(vault.text_of(index)), 1):
            opening = _FENCE.match(line)
            if opening and (not fence or opening.group(1).startswith(fence)):  # closed by as long a run or longer
                fence = "" if fence else opening.group(1)
                continue
            for span in () if fence else _CODE_SPAN.finditer(line):
                said = span.group(1).strip().removeprefix("./")
                for path in dict.fromkeys((said, posixpath.join(here, said))):
                    if path in vault.pages:
                        pages.setdefault(path, number)
                    elif path in held:
                        folders.add(path)
        return pages, tuple(sorted(folders))

    return vault.once(f"index.named_by_path.{index}", named)


_FENCE = re.compile(r"[ \t]{0,3}(`{3,}|~{3,})")


def written_paths(vault: Vault, page: str) -> set[str]:
    """The pages `page` names by a path written out in its text, outside fenced code: in a code
    span or not, where an absolute path ends in theirs (a prose MEMORY.md's
    `/home/duane/.openclaw/workspace/memory/food-log.md`); the pages it lists so besides."""

    def named() -> set[str]:
        here = posixpath.dirname(page)
        found = set(named_by_path(vault, page)[0])
        text = vault.text_of(page)
        for line, in_fence in fenced_lines(text[split_frontmatter(text)[2] :]):
            if not in_fence:
                said = _PAGE_PATH.findall(_COMMENT.sub(" ", line))
                found.update(path for written in said if (path := _page_at(vault, written, here)))
        return found

    return vault.once(f"index.written_paths.{page}", named)


# A path to a Markdown file written out in a text, of a folder or more (`memory/food-log.md`,
# `/home/duane/.openclaw/workspace/USER.md`, `~/notes/x.md`); not inside a word, a web address's
# query or fragment, or a link's address (`](a/b.md)`). A match starts only where no path character
# stands before it, so each run of them is read once (from every `@` of a run it took minutes).
_PAGE_PATH = re.compile(r"(?<![\w.@+~/(:\]=?#&%-])((?:~/|/|\./)?(?:[\w.@+-]+/)+[\w.@+-]+\.md)(?![\w/-])")
# What is no text of the page: its frontmatter, an HTML comment on a line.
_COMMENT = re.compile(r"<!--.*?(?:-->|$)")


def _page_at(vault: Vault, written: str, here: str) -> str | None:
    """The page a path written out names: the vault's or its own folder's path; for an absolute
    path, the page whose path it ends in (its longest ending that is one)."""
    written = written.removeprefix("./")
    for path in (written, posixpath.join(here, written)):
        if path in vault.pages:
            return path
    if not written.startswith(("/", "~")):
        return None
    # Of a folder and a name at least: `/usr/share/doc/todo.md` names no page `todo.md` of the vault.
    parts = written.split("/")
    return next((end for at in range(1, len(parts) - 1) if (end := "/".join(parts[at:])) in vault.pages), None)


def topics_folder(vault: Vault) -> str | None:
    """The folder an agent's index keeps its topic files in: of the pages it names by path, the
    folder of more than half of them, three or more ("- ...: `memory/dave.md`"), when it names
    that folder too ("topic files under `memory/`") or names no folder; None otherwise (a folder
    named on the way, "moved to `archive/`", is none)."""
    if vault.index_page is None:
        return None
    pages, folders = named_by_path(vault, vault.index_page)
    counts: dict[str, int] = {}
    for path in pages:
        counts[posixpath.dirname(path)] = counts.get(posixpath.dirname(path), 0) + 1
    folder, most = max(counts.items(), key=lambda item: (item[1], item[0]), default=("", 0))
    if not folder or most < LISTED or most * 2 <= len(pages):
        return None
    return folder if not folders or f"{folder}/" in folders else None


def _pressure(vault: Vault, index: str) -> Iterator[Hit]:
    size = vault.pages[index].size
    budget = vault.config.index_budget
    if size > 0.8 * budget:
        yield Hit(
            "index-pressure",
            index,
            f"index page is {size / 1024:.1f} KiB, {100 * size / budget:.0f}% of its {budget / 1024:.0f} KiB load "
            "budget; an agent harness cuts it off at the budget",
            data={"bytes": size, "budget": budget},
        )


def fix_drift(vault: Vault, finding: Finding) -> Fix | None:
    """The index line that lists the page."""
    page = vault.pages.get(finding.path)
    found = index_line(vault, finding.path, page.title if page else "")
    if found is None or page is None:
        return None
    index, offset, entry = found
    return Fix(finding, index, offset, "", entry, finding.path)


def listing_page(vault: Vault, path: str) -> str | None:
    """The page a new page at `path` is listed on: the vault's index page, or else the nearest
    folder page (`index.md`, `README.md`, `_index.md`) in its folder or one above that links to
    LISTED pages or more (a docs site's or a wiki's table of contents); in an mdBook, its
    `SUMMARY.md` (the book shows no page it does not list); None when there is none."""
    if vault.index_page is not None:
        return vault.index_page
    if (contents := vault.book_contents) is not None and in_folder(path, posixpath.dirname(contents)):
        return contents
    folder = posixpath.dirname(path)
    for place in dict.fromkeys((folder, posixpath.dirname(folder))):
        for name in FOLDER_PAGES:
            page = posixpath.join(place, name)
            if page in vault.pages and page != path and vault.pages[page].unreadable is None:
                listed = {rl.resolution.path for rl in _list_links(vault, page) if rl.resolution.kind == "page"}
                if len(listed - {page}) >= LISTED:
                    return page
    return None


def listing_change(vault: Vault, path: str, title: str) -> FileChange | None:
    """The line that lists a page about to be made at `path` with `title` on the page listing it."""
    found = index_line(vault, path, title_of(path), listing_page(vault, path), title)
    if found is None:
        return None
    index, offset, entry = found
    before = (vault.root / index).read_bytes()
    text = before.decode("utf-8")
    return FileChange(index, before, (text[:offset] + entry + text[offset:]).encode("utf-8"))


def book_pages(vault: Vault) -> frozenset[str] | None:
    """The pages an mdBook's summary lists, which alone the book publishes; None for no book."""
    contents = vault.book_contents
    if contents is None:
        return None
    return vault.once(
        "index.book_pages",
        lambda: frozenset(
            rl.target_path for rl in vault.outlinks(contents) if rl.target_path and rl.resolution.kind == "page"
        ),
    )


def in_folder(path: str, folder: str) -> bool:
    """Whether the path lies in the folder or below it ("" is the vault's top)."""
    return not folder or path.startswith(folder + "/")


def _list_links(vault: Vault, page: str) -> list[ResolvedLink]:
    """The links of `page` that stand first on a line of a list (`- [[A]]`, `1. [B](b.md)`): a
    table of contents' entries, not links said in prose, a table, a callout or the frontmatter."""
    lines = lines_of(vault.text_of(page))
    return [
        rl
        for rl in vault.outlinks(page)
        if rl.link.syntax != "frontmatter"
        and not rl.link.embed
        and 0 < rl.link.line <= len(lines)
        and (found := _ENTRY.match(lines[rl.link.line - 1])) is not None
        and found.end() == rl.link.column - 1
    ]


def index_line(
    vault: Vault, path: str, title: str, index: str | None = None, heading: str | None = None
) -> tuple[str, int, str] | None:
    """(index page, offset, line) that lists `path` (a page, or one about to be made with `title`,
    the name a wikilink gives it, and `heading`, a Markdown link's text) on `index` (by default
    the vault's index page): `- [[Page]]` after the list of the section named for the page's type
    ("## Topics" for `type: topic`), else of the section that lists most pages of the same folder,
    beside them in a nested list (the end of the index when no section does; no line on a folder
    page then); None without an index page, or with one that is an agent's memory in prose
    (`lists_pages`)."""
    index = index or vault.index_page
    if index is None or index == path or not lists_pages(vault, index):
        return None
    text = vault.text_of(index)
    lines = lines_of(text)
    newline = "\r\n" if "\r\n" in text else "\n"
    folder = posixpath.dirname(path)
    headings = sorted(h.line for h in vault.pages[index].headings)
    votes: dict[int, int] = {}  # heading line -> links in its section to pages of the folder
    last_link_line: dict[int, int] = {}
    siblings: dict[int, bool] = {}  # lines listing a page of the folder -> whether it is the folder's own page
    links = [rl for rl in vault.outlinks(index) if rl.link.syntax != "frontmatter"]
    # A folder's page is a table of contents by its list entries only: a line goes after one of
    # them, never into its prose, a table, or under a footer's or an image's link.
    entries = [
        (rl.link.line, rl.resolution.path) for rl in (links if index == vault.index_page else _list_links(vault, index))
    ]
    # The pages it names by path on a list's line (an agent's MEMORY.md), where it links to none.
    by_path = [] if links else [(n, p) for p, n in named_by_path(vault, index)[0].items() if _ENTRY.match(lines[n - 1])]
    for line, listed in entries + by_path:
        section = max((h for h in headings if h <= line), default=0)
        last_link_line[section] = max(last_link_line.get(section, 0), line)
        if listed is not None and posixpath.dirname(listed) == folder:
            votes[section] = votes.get(section, 0) + 1
            siblings[line] = posixpath.basename(listed) in FOLDER_PAGES
    known = path in vault.pages
    name = explicit_target(vault.resolver, index, path, False) if known else title
    typed = _type_section(vault.pages[index].headings, vault.pages[path].type if known else None)
    if typed is not None:
        votes = {typed: 1}
        last_link_line.setdefault(typed, typed)  # a section without links yet: right under its heading
    indent = ""
    if votes:
        section = max(votes, key=lambda line: (votes[line], -line))
        after_line = last_link_line[section]  # 1-based: insert after this line
        if typed is None:
            here = {
                line: own
                for line, own in siblings.items()
                if max((h for h in headings if h <= line), default=0) == section
            }
            after_line, indent = _beside(lines, here, after_line)
    elif last_link_line and not [h for h in vault.pages[index].headings if h.level > 1]:
        # a list without sections: after its last link, not under a closing line ("Last updated ...")
        after_line = max(last_link_line.values())
    elif index != vault.index_page:
        return None  # a folder's table of contents has no section for it: its end is a footer's place
    else:
        after_line = len(lines)
    after_line = _past_nested(lines, after_line, indent)  # a draft chapter nested under it stays its own
    # A link said in prose or a table's row: the line goes after its paragraph or table, apart from it.
    in_prose = 0 < after_line <= len(lines) and not _ENTRY.match(lines[after_line - 1])
    in_prose = in_prose and bool(lines[after_line - 1].strip()) and not lines[after_line - 1].lstrip().startswith("#")
    while in_prose and after_line < len(lines) and lines[after_line].strip():
        after_line += 1
    offset = sum(len(line) for line in lines[:after_line])
    prefix = "" if offset == 0 or text[offset - 1] == "\n" else newline
    prefix += newline if in_prose else ""
    # As the index writes its own entries: its bullet, and a Markdown link where it never writes a wikilink.
    syntaxes = {rl.link.syntax for rl in links if not rl.link.embed}
    if "markdown" in syntaxes and not syntaxes & {"wiki", "dendron"}:
        target = quote(posixpath.relpath(path, posixpath.dirname(index) or "."))
        targets = [rl.link.target for rl in links if rl.link.syntax == "markdown" and rl.resolution.path]
        if targets and not any(t.lower().endswith(".md") for t in targets):  # `[Mail](Mail)`: as the index links
            target = target.removesuffix(".md")
        shown = (vault.pages[path].title if known else heading or title).replace("[", "(").replace("]", ")")
        if sum(t.startswith("./") for t in targets) * 2 > len(targets):  # as the index writes its paths
            target = f"./{target}"
        if index == vault.book_contents and "%" in target and not set(unquote(target)) & set("<>\r\n"):
            target = f"<{unquote(target)}>"  # mdBook reads no "%20" in its summary (rust-lang/mdBook#1640)
        link = f"[{shown}]({target})"
    elif by_path and "`" not in path:
        link = f"`{path}`"
    else:
        link = f"[[{name}]]"
    lined = [rl.link.line for rl in links] + [line for line, _ in by_path]
    bullets = [m.group(1) for line in lined if (m := _ENTRY.match(lines[line - 1])) and m.group(1)]
    bullet = max(["-", *bullets], key=bullets.count)
    # As the entry before it at its depth in its list (not past a heading): its bullet, or its number counted on.
    opening = None
    for n in range(after_line, 0, -1):
        found = _ENTRY.match(lines[n - 1])
        if found is None and lines[n - 1].lstrip().startswith("#"):
            break
        if found is not None and _depth(found.group(0)) == _depth(indent):
            opening = found
            break
    if opening is not None:
        bullet = f"{int(opening.group(2)) + 1}{opening.group(3)}" if opening.group(2) else opening.group(1)
    entry = f"{prefix}{indent}{bullet} {link}{newline}"
    return index, offset, entry


def _beside(lines: list[str], siblings: dict[int, bool], after: int) -> tuple[int, str]:
    """Where a page goes among the list entries listing its folder's pages (line -> whether it is
    the folder's own page, the chapter the others are nested under): after the last of them and
    what is nested under it, as deep as the least nested of them that is no folder's own page;
    else after `after`, at the top."""
    openings = {line: found.group(0) for line in siblings if (found := _ENTRY.match(lines[line - 1]))}
    if not openings:
        return after, ""
    own = [opening for line, opening in openings.items() if not siblings[line]] or list(openings.values())
    least = min(own, key=_depth)
    indent = least[: len(least) - len(least.lstrip(" \t"))]
    return max(openings), indent


def _past_nested(lines: list[str], after: int, indent: str) -> int:
    """The line after which a list item as deep as `indent` goes, when it is to go after line
    `after` (1-based): past the items nested under that one."""
    while after < len(lines) and (nested := _ENTRY.match(lines[after])) and _depth(nested.group(0)) > _depth(indent):
        after += 1
    return after


def _depth(opening: str) -> int:
    """How deep a list item's opening stands: the width of the blanks before it, a tab four."""
    return len(opening[: len(opening) - len(opening.lstrip(" \t"))].expandtabs(4))


# A list item's opening: its bullet (1), or its number (2) and mark (3); and a task's box.
_ENTRY = re.compile(r"[ \t]*(?:([-*+])|(\d{1,6})([.)]))[ \t]+(?:\[[ xX]\][ \t]+)?")


def _type_section(headings: Iterable[Heading], page_type: object) -> int | None:
    """The line of the heading named for a page type ("Topics", "Topic" for `topic`), if any."""
    if not isinstance(page_type, str) or not page_type.strip():
        return None
    kind = fold(page_type.strip())
    names = {kind, f"{kind}s", f"{kind}es", kind[:-1] + "ies" if kind.endswith("y") else kind}
    return next((h.line for h in headings if fold(h.text.strip()) in names), None)
