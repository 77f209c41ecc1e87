"""A memory handed as a whole page: its frontmatter and first heading taken apart from what it
says, and the header of the page remember makes of it, which what was handed can neither break
nor overrule."""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, NamedTuple

from curator.core.common.errors import EditError
from curator.core.common.names import FORBIDDEN, name_problem
from curator.core.common.vaultpath import link_target
from curator.core.meaning.page_reads import NAME_CHARS
from curator.core.read.page import instructions
from curator.core.read.parse import split_frontmatter
from curator.core.read.resolve import fold
from curator.core.read.vault import Vault

if TYPE_CHECKING:
    from curator.core.change.edits import Plan

H1 = re.compile(r"#[ \t]+(.+?)[ \t#]*\r?(?:\n|$)")  # a level-one heading line, its text in group 1
# A new page's fields that remember writes itself, or that only its own decision writes: a page
# handed as superseded would be hidden as out of date the moment it is written.
WRITTEN_HERE = frozenset({"type", "source", "title", "superseded_by"})
_TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:")
_SOURCE = re.compile(r"[^\W_][\w.-]{0,63}")  # who learned it, as a plain YAML word ("agent", "jürgen.k")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # what no page holds: lint calls it binary
MAX_CHARS = 100_000  # a memory is a note: a text this long takes remember minutes, a page's worth of seconds


def checked(text: str, source: str) -> str:
    """The text an agent hands over and who learned it, checked before anything is decided:
    EditError with one line for what cannot become a page."""
    from curator.core.read.credentials import find_credentials

    if not text:
        raise EditError("nothing to remember: the text is empty")
    if not any(ch.isalnum() for ch in text):  # every page "says all of" a text with no words
        raise EditError("nothing to remember: the text has no words")
    if len(text) > MAX_CHARS:
        raise EditError(f"the text is {len(text):,} characters long; at most {MAX_CHARS:,}: hand it over in parts")
    if (control := _CONTROL.search(text)) is not None:
        raise EditError(f"the text holds a control character ({control.group()!r}); nothing was written")
    found = find_credentials(text, allowlist=False)  # a pragma in a memory is no person's acceptance
    if found:
        raise EditError(
            f"the text holds a credential ({found[0].kind}) on its line {found[0].line}; nothing was written"
        )
    if not source.strip():
        raise EditError("the source is empty: say who learned it (agent, manual, or a name)")
    if not _SOURCE.fullmatch(source):  # written into the page's YAML as it is: "bob: x" breaks it
        raise EditError(f"source {source!r}: a plain name of letters, digits, '.', '_' or '-' (such as 'agent')")
    return text


class Handed(NamedTuple):
    """A memory as handed over: an agent may hand a whole page, its frontmatter and first heading
    naming it. `fields` are its other frontmatter lines as written, for a new page to keep."""

    body: str
    title: str
    type: str | None
    fields: str


def handed_page(text: str) -> Handed:
    """The text's frontmatter (its `title`, `type` and the rest) and a first-line heading taken
    apart from what it says; a text without them is all body."""
    from curator.core.read.parse import parse_page, split_frontmatter

    header, _, body_at = split_frontmatter(text)
    fields = parse_page(text).frontmatter if header is not None else {}
    body = text[body_at:].strip() if header is not None else text
    title = str(fields.get("title") or "") if isinstance(fields.get("title"), str | int | float) else ""
    heading = H1.match(body)
    if heading is not None and len(heading.group(1)) <= NAME_CHARS:
        title = title or heading.group(1)
        if fold(heading.group(1)) == fold(title):
            body = body[heading.end() :].strip() or body
    if any(unicodedata.category(ch) == "Cf" for ch in title):
        title = ""  # it hides what it names (a zero-width space, a right-to-left override spelling "exe.md")
    title = " ".join(FORBIDDEN.sub(" ", title).split()).strip(" .")
    kind = fields.get("type")
    return Handed(
        body,
        title if nameable(title) else "",
        kind if isinstance(kind, str) else None,
        kept_lines(header or "", WRITTEN_HERE),
    )


def nameable(title: str) -> bool:
    """Whether a handed title can name a page: a file name on every system that shows a letter or
    digit and hides nothing (a zero-width space, a right-to-left override that spells "exe.md")."""
    return (
        name_problem(title, ".md") is None
        and any(ch.isalnum() for ch in title)
        and not any(unicodedata.category(ch) == "Cf" for ch in title)
    )


def kept_lines(header: str, not_kept: frozenset[str]) -> str:
    """A frontmatter's lines as written, less the fields in `not_kept` (with their nested lines)."""
    kept: list[str] = []
    keep = False
    for line in str(header).splitlines():
        if line.strip() in ("---", ""):
            continue
        m = _TOP_KEY.match(line)
        if m is not None:
            keep = m.group(1).casefold() not in not_kept
        if keep:
            kept.append(line.rstrip("\r") + "\n")
    return "".join(kept)


def new_header(kind: str, kept: str, source: str, own: str = "") -> str:
    """A new page's frontmatter: the lines `own` remember writes first (a basic-memory page's
    `title:` and `permalink:`), its type, the lines `kept` as written, its source. Without the
    kept lines when they break the header or write its type or source again (a quote left open
    once a line is dropped, an alias bomb, a quoted "source" key): who wrote a page is remember's
    to say."""
    from curator.core.read.parse import parse_page

    header = f"---\n{own}type: {kind}\n{kept}source: {source}\n---\n"
    if not kept:
        return header
    alone, read = parse_page(f"---\n{kept}---\n"), parse_page(header)
    if (
        alone.frontmatter_error
        or read.frontmatter_error
        or WRITTEN_HERE & {str(key).casefold() for key in alone.frontmatter}
        or str(read.frontmatter.get("type")) != kind
        or str(read.frontmatter.get("source")) != source
    ):
        return f"---\n{own}type: {kind}\nsource: {source}\n---\n"
    return header


# Instructions in a hidden folder, which is no page of the vault: a link there reads a page as them.
_HIDDEN_INSTRUCTIONS = (".github/copilot-instructions.md", ".claude/CLAUDE.md", ".claude/CLAUDE.local.md")


def for_review(vault: Vault, decision: str, plan: Plan | None) -> str:
    """Why an agent's change waits for a person ("AGENTS.md is an agent's instructions"): the page
    it merges into or supersedes was written by hand, or a file it writes (a new one and the index
    too) is an agent's instructions; "" when none, and for a drop."""
    if plan is None or decision == "drop":
        return ""
    target = plan.details.get("superseded", plan.details.get("page"))
    if decision in ("merge-into", "supersede") and target in vault.pages and written_by_person(vault, target):
        return f"{target} is written by hand (source: manual)"
    held = next((change.path for change in plan.changes if instructions(change.path)), None)
    if held is None:  # a page an instructions file links to is read as those instructions
        named = [path for path in (*vault.pages, *_HIDDEN_INSTRUCTIONS) if instructions(path)]
        links = {link_target(vault.root, path): path for path in named}
        held = next((f"{c.path} ({links[c.path]})" for c in plan.changes if c.path in links), None)
    return f"{held} is an agent's instructions" if held else ""


def written_by_person(vault: Vault, path: str) -> bool:
    """Whether the page says `source: manual`, in its frontmatter or, where that is no YAML
    curator can read, in a line of its header."""
    page = vault.pages[path]
    if str(page.frontmatter.get("source", "")).strip() == "manual":
        return True
    header = None if page.frontmatter_error is None else split_frontmatter(vault.text_of(path))[0]
    return header is not None and re.search(r"(?m)^source:[ \t]*['\"]?manual['\"]?[ \t]*$", header) is not None
