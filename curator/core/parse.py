"""Parse one page's text: frontmatter, links with positions, headings, block ids, body length.

Code, math and comments are masked (replaced by spaces, newlines kept) before links are looked
for, so offsets in the masked text are offsets in the file and nothing inside them is a link.
"""

from __future__ import annotations

import bisect
import datetime as _dt
import re
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import unquote

import yaml
from frontmatter.default_handlers import YAMLHandler

from curator.core.page import Heading, Link

_YAML = YAMLHandler()

_FM_OPEN = re.compile(r"\A(?:\ufeff)?---[ \t]*\r?\n")
_FM_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$", re.MULTILINE)
_FENCE = re.compile(r"[ \t]*(?:>[ \t]*)*(`{3,}|~{3,})")
# Tokens that open a span which holds no links.
_SPAN_OPEN = re.compile(r"<!--|%%|\$\$|`+|\$|\\[\[\]`$%!|]")
_WIKILINK = re.compile(r"(!?)\[\[([^\[\]\n]*?)\]\]")
_MD_LINK = re.compile(
    r"(!?)\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]"  # [label], one level of nested brackets
    r"\(\s*(<[^<>\n]*>|(?:[^\s()]|\([^\s()]*\))*)"  # destination, <...> or balanced parens
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\s*\)"  # optional title
)
_REF_DEF = re.compile(
    r"^ {0,3}\[([^\[\]\n]+)\]:[ \t]*(<[^<>\n]*>|\S+)(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$",
    re.MULTILINE,
)
_ATX = re.compile(r"^[ ]{0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$", re.MULTILINE)
_SETEXT = re.compile(r"^[ ]{0,3}(=+|-+)[ \t]*$")
_BLOCK_ID = re.compile(r"(?:^|[ \t])\^([A-Za-z0-9-]+)[ \t]*$", re.MULTILINE)
_URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_MARKUP = re.compile(r"[#*_>`~|=\[\]!-]+|<[^>\n]*>")
_WS = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Parsed:
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
    starts = _line_starts(text)
    links = tuple(
        replace(lk, offset=starts[lk.line - 1] + lk.column - 1, length=lk.length + text.count("\r", o, o + lk.length))
        for lk in parsed.links
        for o in (starts[lk.line - 1] + lk.column - 1,)
    )
    return replace(parsed, links=links)


def _parse(text: str) -> Parsed:
    fm_text, fm_start, body_start = split_frontmatter(text)
    frontmatter: dict[str, Any] = {}
    fm_error: str | None = None
    fm_error_line: int | None = None
    line_starts = _line_starts(text)
    links: list[Link] = []
    if fm_text is not None:
        try:
            loaded = _YAML.load(fm_text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            fm_error = _yaml_message(exc)
            fm_error_line = (_line_of(line_starts, fm_start) + mark.line) if mark is not None else 1
        else:
            if loaded is None:
                loaded = {}
            if isinstance(loaded, dict):
                frontmatter = {str(k): json_safe(v) for k, v in loaded.items()}
                links.extend(_frontmatter_links(frontmatter, text, fm_start, line_starts))
            else:
                fm_error = f"frontmatter is a {type(loaded).__name__}, not a mapping of keys"
                fm_error_line = _line_of(line_starts, fm_start)

    masked = mask_non_link_text(text, body_start)
    links.extend(_body_links(text, masked, body_start, line_starts))
    headings = _headings(masked, body_start, line_starts, text)
    block_ids = tuple(m.group(1) for m in _BLOCK_ID.finditer(masked, body_start))
    return Parsed(
        frontmatter=frontmatter,
        frontmatter_error=fm_error,
        frontmatter_error_line=fm_error_line,
        links=tuple(links),
        headings=headings,
        block_ids=block_ids,
        body_chars=body_text_length(text[body_start:]),
    )


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
    """Blank out fenced code, inline code, math, comments and escapes, keeping every offset."""
    chars = list(text)
    _mask_range(chars, 0, start)
    _mask_fences(text, chars, start)
    fenced = "".join(chars)
    pos = start
    n = len(fenced)
    while True:
        m = _SPAN_OPEN.search(fenced, pos)
        if not m:
            break
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
        if end < 0:
            pos = m.end()
            continue
        _mask_range(chars, m.start(), end)
        pos = end
    return "".join(chars)


def _mask_range(chars: list[str], begin: int, end: int) -> None:
    for i in range(begin, end):
        if chars[i] != "\n":
            chars[i] = " "


def _mask_fences(text: str, chars: list[str], start: int) -> None:
    pos = start
    fence: str | None = None
    fence_start = 0
    while pos < len(text):
        nl = text.find("\n", pos)
        line_end = len(text) if nl < 0 else nl
        m = _FENCE.match(text, pos, line_end)
        if fence is None:
            if m and not (m.group(1)[0] == "`" and "`" in text[m.end() : line_end]):
                fence = m.group(1)
                fence_start = pos
        elif m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not text[m.end() : line_end].strip():
            _mask_range(chars, fence_start, line_end)
            fence = None
        pos = line_end + 1
    if fence is not None:  # an unclosed fence runs to the end of the page
        _mask_range(chars, fence_start, len(text))


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


def _line_starts(text: str) -> list[int]:
    starts = [0]
    find = text.find
    i = find("\n")
    while i >= 0:
        starts.append(i + 1)
        i = find("\n", i + 1)
    return starts


def _line_of(line_starts: list[int], offset: int) -> int:
    return bisect.bisect_right(line_starts, offset)


def _position(line_starts: list[int], offset: int) -> tuple[int, int]:
    line = bisect.bisect_right(line_starts, offset)
    return line, offset - line_starts[line - 1] + 1


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


def _body_links(text: str, masked: str, start: int, line_starts: list[int]) -> list[Link]:
    links: list[Link] = []
    if "[" not in masked:
        return links
    spans: list[tuple[int, int]] = []
    for m in _WIKILINK.finditer(masked, start):
        # The masked text finds the link; the original text gives its exact characters.
        inner = text[m.start(2) : m.end(2)]
        target, anchor, label = split_wikilink(inner)
        spans.append((m.start(), m.end()))
        if not target and anchor is None:
            continue
        line, col = _position(line_starts, m.start())
        links.append(
            Link("wiki", target, anchor, label, line, col, bool(m.group(1)), None, m.start(), m.end() - m.start())
        )
    search_text = masked
    if spans:
        parts = list(masked)
        for a, b in spans:
            _mask_range(parts, a, b)
        search_text = "".join(parts)
    for m in _MD_LINK.finditer(search_text, start):
        link = _markdown_link(text[m.start(3) : m.end(3)], text[m.start(2) : m.end(2)], bool(m.group(1)))
        if link is None:
            continue
        line, col = _position(line_starts, m.start())
        target, anchor, label, embed = link
        links.append(Link("markdown", target, anchor, label, line, col, embed, None, m.start(), m.end() - m.start()))
    for m in _REF_DEF.finditer(search_text, start):
        link = _markdown_link(text[m.start(2) : m.end(2)], text[m.start(1) : m.end(1)], False)
        if link is None:
            continue
        line, col = _position(line_starts, m.start())
        target, anchor, label, _ = link
        links.append(Link("markdown", target, anchor, label, line, col, False, None, m.start(), m.end() - m.start()))
    links.sort(key=lambda lk: lk.offset)
    return links


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


_FM_WIKILINK = re.compile(r"\[\[([^\[\]\n]*?)\]\]")


def _frontmatter_links(fm: dict[str, Any], text: str, fm_start: int, line_starts: list[int]) -> list[Link]:
    links: list[Link] = []
    search_from = fm_start
    for key, value in fm.items():
        for string in _strings_in(value):
            for m in _FM_WIKILINK.finditer(string):
                target, anchor, label = split_wikilink(m.group(1))
                if not target:
                    continue
                raw = m.group(0)
                at = text.find(raw, search_from)
                if at < 0:
                    at = text.find(raw, fm_start)
                if at < 0:
                    at = fm_start
                else:
                    search_from = at + len(raw)
                line, col = _position(line_starts, at)
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


def _headings(masked: str, start: int, line_starts: list[int], text: str) -> tuple[Heading, ...]:
    headings: list[Heading] = []
    for m in _ATX.finditer(masked, start):
        if m.group(2) is None and not m.group(0).strip("# \t"):
            title = ""
        else:
            title = text[m.start(2) : m.end(2)].strip() if m.group(2) is not None else ""
        if title:
            headings.append(Heading(len(m.group(1)), title, _line_of(line_starts, m.start())))
    # Setext headings: a paragraph line underlined with === or ---.
    lines = masked.split("\n")
    original_lines = text.split("\n")
    first_body_line = _line_of(line_starts, start) - 1
    for i in range(first_body_line + 1, len(lines)):
        underline = _SETEXT.match(lines[i])
        if not underline:
            continue
        previous = lines[i - 1]
        if not previous.strip() or previous.startswith("    ") or _ATX.match(previous):
            continue
        if previous.lstrip().startswith((">", "- ", "* ", "+ ", "|")) or _SETEXT.match(previous):
            continue
        level = 1 if underline.group(1)[0] == "=" else 2
        headings.append(Heading(level, original_lines[i - 1].strip(), i))
    headings.sort(key=lambda h: h.line)
    return tuple(headings)


def body_text_length(body: str) -> int:
    """Characters of body text: markup characters dropped and each whitespace run counted as one."""
    if not body:
        return 0
    text = _WIKILINK.sub(lambda m: split_wikilink(m.group(2))[2] or split_wikilink(m.group(2))[0], body)
    text = _MD_LINK.sub(lambda m: m.group(2), text)
    text = _MARKUP.sub(" ", text)
    return len(_WS.sub(" ", text).strip())


def json_safe(value: Any) -> Any:
    """YAML values as JSON-safe data: dates become ISO strings, unknown objects their text."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    if isinstance(value, (list, tuple, set)):
        return [json_safe(v) for v in value]
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _yaml_message(exc: yaml.YAMLError) -> str:
    problem = getattr(exc, "problem", None)
    context = getattr(exc, "context", None)
    text = " ".join(str(p) for p in (context, problem) if p) or str(exc).splitlines()[0]
    return f"frontmatter is not valid YAML: {text}"
