"""The parsed form of one vault page: links, headings, block ids and frontmatter.

Values here are immutable so they can be cached, compared and shared between adapters. They are
NamedTuples rather than dataclasses: a large vault holds a hundred thousand pages and several
links each, and a tuple is several times cheaper to create (a frozen dataclass sets each field
through `object.__setattr__`), pickle and compare.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from curator.core.common.fast import blake2b, tuple_maker


class Link(NamedTuple):
    """One link as written in a page, with where it stands (1-based line and column)."""

    # "wiki" ([[x]]), "markdown" ([l](x)), "frontmatter" (a [[x]] in a YAML value) or "dendron" ([[label|x]])
    syntax: str
    target: str  # the page or file part as written (markdown: URL-decoded); "" for [[#heading]]
    anchor: str | None  # text after '#': a heading, or "^id" for a block; None without '#'
    label: str | None  # [[t|label]] or [label](t)
    line: int
    column: int
    embed: bool = False  # ![[x]] or ![alt](x)
    key: str | None = None  # the frontmatter key a typed edge comes from
    offset: int = 0  # character offset of the whole link in the file text
    length: int = 0  # character length of the whole link as written


class Heading(NamedTuple):
    level: int
    text: str
    line: int


class Page(NamedTuple):
    """A `.md` file under the vault root, read and parsed (or marked unreadable)."""

    path: str  # POSIX path relative to the vault root
    size: int
    mtime_ns: int
    sha: str  # content hash of the file bytes ("" when unreadable)
    frontmatter: dict[str, Any]  # JSON-safe values; never changed once made
    frontmatter_error: str | None = None
    frontmatter_error_line: int | None = None
    links: tuple[Link, ...] = ()
    headings: tuple[Heading, ...] = ()
    block_ids: tuple[str, ...] = ()
    body_chars: int = 0  # body text length, markup and whitespace runs not counted
    unreadable: str | None = None  # why the page could not be read; it still exists as a title
    bad_encoding: bool = False  # not valid UTF-8; read with replacement characters
    maybe_secret: bool = False  # a line could hold a credential (credentials.may_hold_credential)
    status_update: bool = False  # it only logs an event (titles.only_logs_an_event)

    @property
    def title(self) -> str:
        return title_of(self.path)

    @property
    def shown_title(self) -> str:
        """The title a reader knows the page by: its title, but for a page named by an id (zk's
        `04hx.md`, a timestamp `202301011200.md`) its frontmatter `title:` or its first heading
        of level one, as zk shows it."""
        title = self.title
        if not _AN_ID.fullmatch(title):
            return title
        named = self.frontmatter.get("title") if self.frontmatter else None
        if isinstance(named, str) and named.strip():
            return named.strip()
        first = self.headings[0] if self.headings else None
        return first.text.strip() if first is not None and first.level == 1 and first.text.strip() else title

    @property
    def name(self) -> str:
        """The name the page goes by: its title, or its folder's for a folder's index page
        (`Docker/index.md`, `README.md`, Hugo's `_index.md`), without a site generator's `.html`
        (`pagerduty.html.md`)."""
        title = self.title
        if title.lower() in INDEX_NAMES and "/" in self.path:
            return self.path.rsplit("/", 2)[-2]
        return title[:-5] if title[-5:].lower() == ".html" and len(title) > 5 else title

    @property
    def folder(self) -> str:
        return self.path.rsplit("/", 1)[0] if "/" in self.path else ""

    @property
    def aliases(self) -> tuple[str, ...]:
        return aliases_of(self.frontmatter)

    @property
    def permalink(self) -> str | None:
        """The page's own site address (`permalink:` in its frontmatter, as Jekyll and Hugo give it)."""
        value = self.frontmatter.get("permalink") if self.frontmatter else None
        return value if isinstance(value, str) else None

    @property
    def drawing(self) -> bool:
        """An Excalidraw drawing: its text is the drawing's data, its name the plugin's."""
        return self.path.lower().endswith(".excalidraw.md") or "excalidraw-plugin" in self.frontmatter

    @property
    def type(self) -> str | None:
        value = self.frontmatter.get("type")
        return value.strip() if isinstance(value, str) and value.strip() else None


# An agent's standing instructions, read as orders at each session's start (AGENTS.md, CLAUDE.md,
# CLAUDE.local.md, OpenClaw's SOUL.md, IDENTITY.md, HEARTBEAT.md and BOOTSTRAP.md, a skill's files,
# a prompt file): a memory written into one changes what the agent does. Named in capitals, as
# the harnesses load them: `models/Claude.md` is a note on a model.
_HARNESS_FILES = r"AGENTS|CLAUDE|CLAUDE\.local|GEMINI|SOUL|IDENTITY|HEARTBEAT|BOOTSTRAP|SKILL"
_PROMPT_FILES = r"copilot-instructions\.md|[^/]+\.prompt\.md"
# A name that is an id: a timestamp (`202301011200`), a Luhmann number (`94`, `94b`, `1a2`), or
# zk's few random letters and digits, a digit among them and no vowel (`04hx`, `8m5l`; not
# `fail2ban`, `arma3`).
_AN_ID = re.compile(r"\d{8,14}|\d{1,3}(?:[a-z]{1,2}\d{1,3})*[a-z]{0,2}|(?=.*\d)(?=.*[a-z])(?=[^aeiouy]*$)[a-z0-9]{4,8}")
_INSTRUCTIONS = re.compile(
    rf"(?:^|/)(?:(?:{_HARNESS_FILES})\.md|(?i:{_PROMPT_FILES}|(?:prompts|skills)/(?:[^/]+/)*[^/]+\.md))$"
)


def instructions(path: str) -> bool:
    """Whether the page is an agent's standing instructions rather than what it knows."""
    return _INSTRUCTIONS.search(path) is not None


# What a harness loads by its name at each session's start (OpenClaw's bootstrap files, Claude's and
# Gemini's, a skill's SKILL.md, a prompt file, an index MEMORY.md): a link never needs to find it.
_LOADED_BY_NAME = re.compile(rf"(?:^|/)(?:(?:{_HARNESS_FILES}|USER|TOOLS|MEMORY)\.md|(?i:{_PROMPT_FILES}))$")
# A repository's own files at its top, which its forge shows or links on its front page.
REPOSITORY_FILES = ("readme", "license", "licence", "changelog", "contributing", "code_of_conduct", "security")


def loaded_by_name(path: str) -> bool:
    """Whether an agent's harness loads the page by its name (no index need list it)."""
    return _LOADED_BY_NAME.search(path) is not None


def found_by_name(path: str) -> bool:
    """Whether the page is found by its name without a link: an agent's harness loads it, it is a
    folder's README (a forge shows it with the folder), or a repository's CHANGELOG or the like at
    the top."""
    name = title_of(path).lower()
    return loaded_by_name(path) or name == "readme" or ("/" not in path and name in REPOSITORY_FILES)


INDEX_NAMES = frozenset({"index", "readme", "_index"})
FOLDER_PAGES = ("index.md", "README.md", "readme.md", "_index.md")  # the page a folder's own link names


def title_of(path: str) -> str:
    """A page's title: its file name without `.md`."""
    name = path[path.rfind("/") + 1 :]
    return name[:-3] if name.endswith(".md") or name[-3:].lower() == ".md" else name


def content_hash(data: bytes) -> str:
    """`Page.sha` of a file's bytes: what the cache and the edits' changed-meanwhile check compare."""
    return blake2b(data, digest_size=16).hexdigest()


# Obsidian reads these keys in any case ("Aliases:", "Alias:", "Tags:"): a page's names and tags.
ALIAS_KEYS = ("aliases", "alias")
TAG_KEYS = ("tags", "tag")


def key_of(frontmatter: dict[str, Any], names: tuple[str, ...]) -> str | None:
    """The frontmatter's key that is one of `names` (the first of them first), in any case: the
    key as written, or None."""
    for name in names:
        if name in frontmatter:
            return name
    folded = {str(key).casefold(): key for key in frontmatter}
    return next((folded[name] for name in names if name in folded), None)


def alias_key(frontmatter: dict[str, Any]) -> str:
    """Where a page's new aliases go: the key it keeps them under, as written, else `aliases`."""
    return key_of(frontmatter, ALIAS_KEYS) or "aliases"


def has_aliases(frontmatter: dict[str, Any]) -> bool:
    """Whether the frontmatter has a key `aliases_of` reads (cheaper to ask than reading them)."""
    return key_of(frontmatter, ALIAS_KEYS) is not None


def tags_of(frontmatter: dict[str, Any]) -> list[Any]:
    """Frontmatter `tags` (or `tag`, in any case), as a list."""
    key = key_of(frontmatter, TAG_KEYS)
    value = frontmatter.get(key) if key is not None else None
    value = [value] if isinstance(value, str) else value
    return value if isinstance(value, list) else []


def aliases_of(frontmatter: dict[str, Any]) -> tuple[str, ...]:
    """Frontmatter `aliases` (or the older `alias`, in any case), as a list or a single string."""
    key = key_of(frontmatter, ALIAS_KEYS)
    value = frontmatter.get(key) if key is not None else None
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return ()
    return tuple(str(v).strip() for v in value if isinstance(v, (str, int, float)) and str(v).strip())


# A page as a cache row (a list in `.curator/cache/pages.json`): every field but the path, in
# order, so a 100k-page store stays small and loads fast. `cache.FORMAT` changes when this layout does.
def rows_json(pages: Iterable[Page]) -> bytes:
    """The pages' cache rows as JSON object members, `"path":[...],...` (b"" for no page), written
    straight from the pages (a row is the page's fields after its path; links and headings, which
    orjson does not write as NamedTuples, as lists)."""
    import orjson  # 9 ms to import, for the commands that store pages

    return orjson.dumps({page.path: page[1:] for page in pages}, default=tuple)[1:-1]


def page_from_row(path: str, row: list[Any]) -> Page:
    size, mtime_ns, sha, fm, fm_error, fm_line, links, headings, block_ids, *flat = row  # flat: body_chars on
    return Page(
        path,
        size,
        mtime_ns,
        sha,
        fm,
        fm_error,
        fm_line,
        _made(_link, links, len(Link._fields)),
        _made(_heading, headings, len(Heading._fields)),
        tuple(block_ids),
        *flat,
    )


# A row's links and headings become NamedTuples without a Python call each (a fifth of the time
# to make a page from its row), so their sizes are checked apart.
_link = tuple_maker(Link)
_heading = tuple_maker(Heading)


def _made(make: Callable[[Any], tuple[Any, ...]], rows: Iterable[Any], width: int) -> tuple[Any, ...]:
    made = tuple(map(make, rows))
    if made and {*map(len, made)} != {width}:
        raise ValueError("a cache row holds a link or heading of the wrong size")
    return made
