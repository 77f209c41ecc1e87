"""Parse one page's text: frontmatter, links with positions, headings, block ids, body length.

Code, math and comments are masked (replaced by spaces, newlines kept) before links are looked
for, so offsets in the masked text are offsets in the file and nothing inside them is a link.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterator
from typing import Any, NamedTuple
from urllib.parse import unquote

from curator.core.common.simple_yaml import load_simple
from curator.core.read.link_order import split_wikilink
from curator.core.read.markdown import ATX_CLOSING, ATX_HEADING, fence_ranges
from curator.core.read.page import Heading, Link

_YAML: Any = None  # python-frontmatter's YAML handler, loaded when a header first needs it

_FM_OPEN = re.compile(r"\A(?:\ufeff)?---[ \t]*\r?\n")
_FM_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$", re.MULTILINE)
# Tokens that open a span which holds no links; group 1 is set for a whole one-backtick code span
# on one line (most code spans), found by the regex instead of by the loop that finds the others'
# ends. Every branch starts with a literal character, so the search jumps from one of them to the
# next (a pattern that does not, as "`+" would, is tried at every character: five times slower).
_SPAN_OPEN = re.compile(r"`([^`\n]+)`(?!`)|<!--|%%|\$\$|`(?:`*)|\$|\\[\[\]`$%!|]")
# Both start with a literal "[", which lets the regex engine skip ahead fast; a "!" before
# the match makes it an embed.
_WIKILINK_RE = r"\[\[([^\[\]\n]*?)\]\]"
_MD_LINK_RE = (
    r"\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]"  # [label], one level of nested brackets
    r"\(\s*(<[^<>\n]*>|(?:[^\s()]|\([^\s()]*\))*)"  # destination, <...> or balanced parens
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\s*\)"  # optional title
)
_WIKILINK = re.compile(_WIKILINK_RE)
# An agent's reply directive, as OpenClaw's session logs keep it ("assistant: [[reply_to_current]] Done."):
# no page's name.
_AGENT_DIRECTIVE = re.compile(r"\s*(?:reply_to_current|reply_to:[^|#]*|audio_as_voice|tts:[^|#]*)\s*\Z")
# One pass finds both; a wikilink's span is consumed, so no markdown link is found inside it.
_ANY_LINK = re.compile(f"{_WIKILINK_RE}|{_MD_LINK_RE}")
_REF_DEF = re.compile(
    r"^ {0,3}\[(?!\^)([^\[\]\n]+)\]:[ \t]*(<[^<>\n]*>|\S+)(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$",
    re.MULTILINE,
)
# Line-based patterns start with a literal newline (fast to find); the first line is checked apart.
_ATX = re.compile(ATX_HEADING)
_SETEXT_CORE = r"[ ]{0,3}(=+|-+)[ \t]*(?=\n|\Z)"
_SETEXT = re.compile(_SETEXT_CORE)
# Any line that may be a heading: ATX (groups 1, 2) or a setext underline (group 3).
_HEADING_LINE = re.compile(r"\n[ ]{0,3}(?:(#{1,6})(?:[ \t]([^\n]*))?|(=+|-+)[ \t]*)(?=\n|\Z)")
_BLOCK_ID = re.compile(r"\^([A-Za-z0-9-]+)[ \t]*(?=\n|\Z)")
_URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_HTML_TAG = re.compile(r"<[^<>\n]*>")  # no `<` inside: a run of `<` with no `>` is read once, not once per `<`
_MARKUP = "#*_>`~|=[]!-"
_MARKUP_CHAR = re.compile(r"[#*_>`~|=\[\]!-]")
# As bytes: a space for each ASCII separator (markup, and what str.split() splits at), "a" for
# every other byte. The other characters str.split() splits at (a text with one is counted on the str):
_SEPARATOR_OR_NOT = bytes(32 if i < 128 and (chr(i) in _MARKUP or chr(i).isspace()) else 97 for i in range(256))
_WIDE_SPACE = re.compile("[\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


class Parsed(NamedTuple):
    """A page's parse: the fields of `Page` that come from its text."""

    frontmatter: dict[str, Any]
    frontmatter_error: str | None
    frontmatter_error_line: int | None
    links: tuple[Link, ...]
    headings: tuple[Heading, ...]
    block_ids: tuple[str, ...]
    body_chars: int


def parse_page(text: str) -> Parsed:
    """Parse the full text of a page (frontmatter included; line numbers are file lines).

    Link offsets index the text as given, CRLF line endings included.
    """
    if "\r\n" not in text:
        return _parse(text)
    parsed = _parse(text.replace("\r\n", "\n"))
    starts = [0, *(m.end() for m in re.finditer("\n", text))]
    links = tuple(
        lk._replace(offset=o, length=lk.length + text.count("\r", o, o + lk.length))
        for lk in parsed.links
        for o in (starts[lk.line - 1] + lk.column - 1,)
    )
    return parsed._replace(links=links)


def _parse(text: str) -> Parsed:
    fm_text, fm_start, body_start = split_frontmatter(text)
    frontmatter: dict[str, Any] = {}
    fm_error: str | None = None
    fm_error_line: int | None = None
    links: list[Link] = []
    if fm_text is not None:
        try:
            loaded = load_simple(fm_text)  # JSON-safe already when it answers
            if loaded is None:
                loaded = _load_yaml(fm_text)
                loaded = {} if loaded is None else json_safe(loaded)
            if not isinstance(loaded, dict):
                fm_error = f"frontmatter is a {type(loaded).__name__}, not a mapping of keys"
                fm_error_line = 2
            else:
                frontmatter = loaded
                if "[[" in fm_text:
                    links.extend(_frontmatter_links(frontmatter, text, fm_start))
        except _BadYaml as exc:
            fm_error, fm_error_line = exc.args
        except (ValueError, TypeError, OverflowError, RecursionError) as exc:
            # A value YAML parses but cannot build (a 30th of February), or one that never ends.
            fm_error = f"frontmatter is not valid YAML: {exc}"
            fm_error_line = 2

    masked = mask_non_link_text(text, body_start)
    body_links, link_words = _body_links(text, masked, body_start)
    links.extend(body_links)
    return Parsed(
        frontmatter=frontmatter,
        frontmatter_error=fm_error,
        frontmatter_error_line=fm_error_line,
        links=tuple(links),
        headings=_headings(masked, body_start, text),
        block_ids=block_ids(masked, body_start),
        body_chars=_body_text_length(text, body_start, link_words),
    )


class _Positions:
    """Line and column of offsets visited in increasing order, without indexing every line."""

    __slots__ = ("line", "line_start", "pos", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.line_start = 0

    def at(self, offset: int) -> tuple[int, int]:
        if offset < self.pos:
            self.pos, self.line, self.line_start = 0, 1, 0
        newlines = self.text.count("\n", self.pos, offset)
        if newlines:  # the line start searched for only since the last offset: a long line is read once
            self.line += newlines
            self.line_start = self.text.rfind("\n", self.pos, offset) + 1
        self.pos = offset
        return self.line, offset - self.line_start + 1


def split_frontmatter(text: str) -> tuple[str | None, int, int]:
    """Return (frontmatter text or None, its start offset, the body's start offset)."""
    opening = _FM_OPEN.match(text)
    if not opening:
        return None, 0, 1 if text.startswith("\ufeff") else 0
    closing = _FM_CLOSE.search(text, opening.end())
    if not closing:
        return None, 0, 0
    end = closing.end()
    if end < len(text) and text[end] == "\n":
        end += 1
    return text[opening.end() : closing.start()], opening.end(), end


def mask_non_link_text(text: str, start: int = 0) -> str:
    """Blank out fenced code, inline code, math, comments and escapes from `start` on, keeping
    every offset (text before `start` is left as it is)."""
    # Nothing to hide without one of these characters (a scan for each beats one for a class).
    find = text.find
    if (
        find("`", start) < 0
        and find("$", start) < 0
        and find("<", start) < 0
        and find("%", start) < 0
        and find("~", start) < 0
        and find("\\", start) < 0
    ):
        return text
    fences = fence_ranges(text, start)
    fenced = _blank(text, fences) if fences else text
    spans: list[tuple[int, int]] = []
    n = len(fenced)
    pos = start
    while pos >= 0:
        resume = -1  # where to search again after a span that ends past its opening token
        for m in _SPAN_OPEN.finditer(fenced, pos):
            if m.group(1) is not None:
                spans.append(m.span())
                continue
            token = m.group(0)
            if token == "<!--":
                close = fenced.find("-->", m.end())
                end = n if close < 0 else close + 3
            elif token == "%%":
                close = fenced.find("%%", m.end())
                end = n if close < 0 else close + 2
            elif token == "$$":
                close = fenced.find("$$", m.end())
                end = -1 if close < 0 else close + 2
            elif token[0] == "`":
                end = _inline_code_end(fenced, m.end(), len(token))
            elif token == "$":
                end = _inline_math_end(fenced, m.end())
            else:  # a backslash escape: the escaped character is text, not markup
                end = m.end()
            if end < 0:  # it opens nothing: the search goes on after the token
                continue
            spans.append((m.start(), end))
            if end > m.end():
                resume = end
                break
        pos = resume
    return _blank(fenced, spans) if spans else fenced


def _blank(text: str, ranges: list[tuple[int, int]]) -> str:
    """`text` with every character but newlines in the (ordered, disjoint) ranges made a space."""
    pieces: list[str] = []
    pos = 0
    for begin, end in ranges:
        hidden = text[begin:end]
        # Line by line: a regex that replaces each character took ten times as long.
        blanked = "\n".join(" " * len(line) for line in hidden.split("\n")) if "\n" in hidden else " " * len(hidden)
        pieces += (text[pos:begin], blanked)
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)


def _inline_code_end(text: str, after: int, ticks: int) -> int:
    """End of an inline code span opened by `ticks` backticks, or -1 if it never closes."""
    pos = after
    paragraph_end = text.find("\n\n", after)
    limit = len(text) if paragraph_end < 0 else paragraph_end
    while True:
        i = text.find("`", pos, limit)
        if i < 0:
            return -1
        j = i
        while j < limit and text[j] == "`":
            j += 1
        if j - i == ticks:
            return j
        pos = j


def _inline_math_end(text: str, after: int) -> int:
    """Pandoc's rule: `$x$` needs no space inside either dollar and no digit right after."""
    if after >= len(text) or text[after] in " \t\n$":
        return -1
    line_end = text.find("\n", after)
    limit = len(text) if line_end < 0 else line_end
    pos = after
    while True:
        i = text.find("$", pos, limit)
        if i < 0:
            return -1
        if text[i - 1] not in " \t" and not (i + 1 < len(text) and text[i + 1].isdigit()):
            return i + 1
        pos = i + 1


def _body_links(text: str, masked: str, start: int) -> tuple[list[Link], list[tuple[int, int, str]]]:
    """The body's links, and each inline link's span with the words it shows (its label, or the
    target of an unlabelled wikilink), for counting body text."""
    links: list[Link] = []
    shown: list[tuple[int, int, str]] = []
    if masked.find("[", start) < 0:
        return links, shown
    exact = masked is text  # nothing masked: a match's groups are the text's own characters
    # A markdown link needs "](": without one, the wikilinks' pattern alone finds the same (half the time).
    pattern = _ANY_LINK if masked.find("](", start) >= 0 else _WIKILINK
    line, line_at, line_start = 1, 0, 0
    for m in pattern.finditer(masked, start):
        begin, end = m.span()
        embed = begin > start and masked[begin - 1] == "!"
        at = begin - embed
        newlines = text.count("\n", line_at, at)
        if newlines:  # searched since the last link only: a line of 100k links is read once
            line += newlines
            line_start = text.rfind("\n", line_at, at) + 1
        line_at = at
        column = at - line_start + 1
        inner = m.group(1)
        if inner is not None:  # a wikilink
            if not exact:
                inner = text[m.start(1) : m.end(1)]
            if "|" in inner or "#" in inner:
                target, anchor, label = split_wikilink(inner)
            else:  # most links: a bare target
                target, anchor, label = inner.strip(), None, None
            shown.append((begin, end, label or target))
            if (target or anchor is not None) and not _AGENT_DIRECTIVE.match(inner):
                links.append(Link("wiki", target, anchor, label, line, column, embed, None, at, end - at))
            continue
        label_text, dest = m.group(2, 3) if exact else (text[m.start(2) : m.end(2)], text[m.start(3) : m.end(3)])
        shown.append((begin, end, label_text))
        found = _markdown_link(dest, label_text, embed)
        if found is not None:
            target, anchor, label, _ = found
            links.append(Link("markdown", target, anchor, label, line, column, embed, None, at, end - at))
    if masked.find("]:", start) >= 0:
        where = _Positions(text)
        for m in _reference_definitions(masked, start):
            found = _markdown_link(text[m.start(2) : m.end(2)], text[m.start(1) : m.end(1)], False)
            if found is None:
                continue
            line, column = where.at(m.start())
            target, anchor, label, _ = found
            links.append(
                Link("markdown", target, anchor, label, line, column, False, None, m.start(), m.end() - m.start())
            )
        links.sort(key=lambda lk: lk.offset)
    return links, shown


def _reference_definitions(masked: str, start: int) -> Iterator[re.Match[str]]:
    """`_REF_DEF.finditer(masked, start)`, tried only on the lines that hold a "]:" (as every
    definition does, where its label ends): searched from every line start, the pattern read
    long pages character by character (3 % of parsing a real-length vault)."""
    tried = -1
    at = masked.find("]:", start)
    while at >= 0:
        newline = masked.rfind("\n", max(tried, 0), at)  # since the last line tried: read once
        line_start = newline + 1 if newline >= 0 else max(tried, 0)
        if line_start != tried and line_start >= start:
            tried = line_start
            m = _REF_DEF.match(masked, line_start)
            if m is not None:
                yield m
        at = masked.find("]:", at + 2)


def _markdown_link(dest: str, label: str, embed: bool) -> tuple[str, str | None, str | None, bool] | None:
    """Split a markdown destination into (target, anchor, label, embed); None if not a vault link."""
    dest = dest.strip()
    if dest.startswith("<") and dest.endswith(">"):
        dest = dest[1:-1].strip()
    if not dest or _URL_SCHEME.match(dest) or dest.startswith("//"):
        return None
    anchor: str | None = None
    hash_at = dest.find("#")
    if hash_at >= 0:
        anchor = unquote(dest[hash_at + 1 :])
        dest = dest[:hash_at]
    query_at = dest.find("?")
    if query_at >= 0:
        dest = dest[:query_at]
    if not dest and not anchor:
        return None
    return unquote(dest), anchor, label, embed


def _frontmatter_links(fm: dict[str, Any], text: str, fm_start: int) -> list[Link]:
    links: list[Link] = []
    search_from = fm_start
    where = _Positions(text)
    for key, value in fm.items():
        for string in _strings_in(value):
            for m in _WIKILINK.finditer(string):
                target, anchor, label = split_wikilink(m.group(1))
                if not target:
                    continue
                raw = m.group(0)
                at = text.find(raw, search_from)
                if at < 0:
                    at = max(text.find(raw, fm_start), fm_start)
                else:
                    search_from = at + len(raw)
                line, col = where.at(at)
                links.append(Link("frontmatter", target, anchor, label, line, col, False, key, at, len(raw)))
    return links


def _strings_in(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in _strings_in(item)]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings_in(item)]
    return []


def _headings(masked: str, start: int, text: str) -> tuple[Heading, ...]:
    """ATX headings (`## x`) and setext ones (a paragraph line underlined with === or ---), in one pass."""
    headings: list[Heading] = []
    first = _ATX.match(masked, start)
    if first and first.group(2) is not None:
        _add_atx(headings, first.group(1), text[first.start(2) : first.end(2)], masked.count("\n", 0, start) + 1)
    line, line_at = 1, 0
    for m in _HEADING_LINE.finditer(masked, start):
        line_start = m.start() + 1
        line += masked.count("\n", line_at, line_start)
        line_at = line_start
        hashes = m.group(1)
        if hashes is not None:
            if m.group(2) is not None:
                _add_atx(headings, hashes, text[m.start(2) : m.end(2)], line)
            continue
        prev_start = masked.rfind("\n", 0, m.start()) + 1
        if prev_start < start:
            continue
        previous = masked[prev_start : m.start()]
        if not previous.strip() or previous.startswith("    ") or _ATX.match(previous):
            continue
        if previous.lstrip().startswith((">", "- ", "* ", "+ ", "|")) or _SETEXT.match(previous):
            continue
        level = 1 if m.group(3)[0] == "=" else 2
        headings.append(Heading(level, text[prev_start : m.start()].strip(), line - 1))
    return tuple(headings)


def _add_atx(headings: list[Heading], hashes: str, title: str, line: int) -> None:
    if title.endswith("#"):
        title = ATX_CLOSING.sub("", title)
    title = title.strip()
    if title:
        headings.append(Heading(len(hashes), title, line))


def block_ids(masked: str, start: int = 0) -> tuple[str, ...]:
    """`^id` at the end of a line, after a space or alone on its line (code masked out)."""
    if masked.find("^", start) < 0:
        return ()
    return tuple(
        m.group(1) for m in _BLOCK_ID.finditer(masked, start) if m.start() == start or masked[m.start() - 1] in " \t\n"
    )


def _body_text_length(text: str, start: int, link_words: list[tuple[int, int, str]]) -> int:
    """Characters of body text: each link counts as the words it shows, other markup characters
    are dropped, and each whitespace run counts as one."""
    if link_words:
        pieces: list[str] = []
        pos = start
        for begin, end, shown in link_words:
            pieces += (text[pos:begin], shown)
            pos = end
        pieces.append(text[pos:])
        body = "".join(pieces)
    else:
        body = text[start:]
    if "<" in body:
        body = _HTML_TAG.sub(" ", body)
    if body.isascii() or not _WIDE_SPACE.search(body):
        # On the UTF-8 bytes (a third of the cost): every separator is one space byte after the
        # translation, and no byte of a longer character is one.
        spaced = body.encode().translate(_SEPARATOR_OR_NOT)
        words = spaced.count(b" a") + spaced.startswith(b"a")  # a word starts after a separator
        return len(body) - spaced.count(32) + words - 1 if words else 0
    separated = _MARKUP_CHAR.sub(" ", body).split()  # str.translate with a table is slow on long pages
    return sum(map(len, separated)) + len(separated) - 1 if separated else 0


class FrontmatterTooLarge(ValueError):
    """YAML aliases can make a short header expand without end (or refer to itself)."""


_MAX_NODES = 20_000
_MAX_DEPTH = 50


def json_safe(value: Any, budget: list[int] | None = None, depth: int = 0) -> Any:
    """YAML values as JSON-safe data: dates become ISO strings, unknown objects their text."""
    if budget is None:
        budget = [_MAX_NODES]
    budget[0] -= 1
    if budget[0] < 0 or depth > _MAX_DEPTH:
        raise FrontmatterTooLarge("frontmatter expands to too many values (YAML aliases?)")
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    if isinstance(value, (list, tuple, set)):
        return [json_safe(v, budget, depth + 1) for v in value]
    if isinstance(value, dict):
        return {str(k): json_safe(v, budget, depth + 1) for k, v in value.items()}
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


class _BadYaml(Exception):
    """A YAML syntax error as (message, file line)."""


def _load_yaml(text: str) -> Any:
    """PyYAML (C loader, via python-frontmatter) for the headers the flat reader declines.

    Imported on first use: most headers are flat, and a small vault then never pays for it.
    """
    global _YAML
    import yaml

    if _YAML is None:
        from frontmatter.default_handlers import YAMLHandler

        _YAML = YAMLHandler()
    try:
        return _YAML.load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise _BadYaml(_yaml_message(exc), 2 + mark.line if mark is not None else 1) from exc


def _yaml_message(exc: Any) -> str:
    problem = getattr(exc, "problem", None)
    context = getattr(exc, "context", None)
    text = " ".join(str(p) for p in (context, problem) if p) or str(exc).splitlines()[0]
    return f"frontmatter is not valid YAML: {text}"
