"""The Markdown structure of a page that more than one part of curator reads: fenced code blocks,
heading lines, sections under headings, and blocks separated by blank lines.

The parser (parse.py) builds a page's links and headings on these; the merge (edits.py) keeps a
fenced block whole; search (search.py) chunks a page into its sections; the duplicate and search
vectors (boilerplate.py, similarity.py) leave heading lines out.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

from curator.core.read.resolve import fold

# A fence's marker, and what may stand before it on its line (indentation, block quote markers).
_FENCE_MARK = re.compile(r"`{3,}|~{3,}")
_FENCE_INDENT = re.compile(r"[ \t]*(?:>[ \t]*)*")
# An ATX heading line: its hashes (group 1) and its text (group 2, None for a bare "#").
ATX_HEADING = r"[ ]{0,3}(#{1,6})(?:[ \t]([^\n]*))?(?=\n|\Z)"
_ATX_LINE = re.compile(ATX_HEADING)
ATX_CLOSING = re.compile(r"[ \t]+#+[ \t]*$")  # "## Title ##": the closing hashes
# Every line that is or may be a heading (ATX, or a setext underline), as whole lines of a text.
_HEADING_LINES = re.compile(r"^[ ]{0,3}#{1,6}(?:[ \t].*)?$|^[ ]{0,3}(?:=+|-+)[ \t]*$", re.MULTILINE)


def fence_ranges(text: str, start: int) -> list[tuple[int, int]]:
    """(start, end) of each fenced code block from `start` on; an unclosed fence runs to the end."""
    ticks, tildes = text.find("```", start), text.find("~~~", start)
    if ticks < 0 and tildes < 0:
        return []
    ranges: list[tuple[int, int]] = []
    fence: str | None = None
    fence_start = fence_indent = 0
    # From one run of three backticks or tildes to the next, each found by str.find (a regex search
    # for either read the rest of a long page character by character: 70 ms for 6,500 real pages).
    while ticks >= 0 or tildes >= 0:
        m = _FENCE_MARK.match(text, min(at for at in (ticks, tildes) if at >= 0))
        assert m is not None  # a run starts where str.find found three
        line_start = max(text.rfind("\n", 0, m.start()) + 1, start)
        line_end = text.find("\n", m.end())
        if line_end < 0:
            line_end = len(text)
        pos = line_end + 1
        if ticks < pos:
            ticks = text.find("```", pos) if ticks >= 0 else -1
        if tildes < pos:
            tildes = text.find("~~~", pos) if tildes >= 0 else -1
        if not _FENCE_INDENT.fullmatch(text, line_start, m.start()):
            continue  # not at the start of its line: no fence, nor any later run on that line
        marker, rest = m.group(0), text[m.end() : line_end]
        indent = len(text[line_start : m.start()].replace(">", " ").expandtabs(4))
        if fence is None:
            if not (marker[0] == "`" and "`" in rest):
                fence, fence_start, fence_indent = marker, line_start, indent
        # A closing fence stands at most three spaces further in than its opening one: "    ```"
        # inside a block opened at the margin is a line of its code (CommonMark, as Obsidian reads it).
        elif marker[0] == fence[0] and len(marker) >= len(fence) and not rest.strip() and indent <= fence_indent + 3:
            ranges.append((fence_start, line_end))
            fence = None
    if fence is not None:
        ranges.append((fence_start, len(text)))
    return ranges


# Markup a page exported from a website carries (WordPress, a CMS, a docs generator): HTML tags
# with their attributes (a widget's JSON config among them), comments, shortcodes.
_HTML_TAGS = (
    "a|abbr|article|aside|audio|b|blockquote|br|button|center|cite|code|col|colgroup|dd|del|details|div|dl|dt|em|"
    "embed|figcaption|figure|font|footer|form|h[1-6]|header|hr|i|iframe|img|input|ins|kbd|label|li|main|mark|nav|"
    "object|ol|option|p|picture|pre|s|script|section|select|small|source|span|strike|strong|style|sub|summary|sup|"
    "table|tbody|td|textarea|tfoot|th|thead|tr|u|ul|video"
)
# A code span stays as written; an HTML tag goes with its attributes; a shortcode (a name with an
# underscore, or with attributes, in single brackets, after no word or bracket: not a [[wikilink]],
# a [link](x), a [ref]: or a checkbox) goes. Each on one line and bounded: linear in the text.
_HTML_MARKUP = re.compile(
    rf"`[^`\n]*`|</?(?i:{_HTML_TAGS})\b(?:[^<>\"'\n]|\"[^\"\n]{{0,8000}}\"|'[^'\n]{{0,8000}}'){{0,400}}/?>"
    r"|(?<![\[\]\w])\[/?[a-z]+(?:_[a-z0-9_]*|(?=\s+[a-z_-]+=))(?:\s(?:[^\]\"\n]|\"[^\"\n]{0,400}\"){0,200})?\](?![\](:])"
)


def without_html(text: str) -> str:
    """`text` without HTML comments, tags and shortcodes outside code, its character references
    read ("&quot;" is a quote): what a page says, as a reader of the rendered page sees it."""
    if "<" not in text and "[" not in text and "&" not in text:
        return text
    fences = fence_ranges(text, 0)
    kept, at = [], 0
    for start, end in [*fences, (len(text), len(text))]:
        prose = without_comments(text[at:start]) if "<!--" in text[at:start] else text[at:start]
        kept.append(html.unescape(_HTML_MARKUP.sub(lambda m: m.group(0) if m.group(0)[0] == "`" else " ", prose)))
        kept.append(text[start:end])
        at = end
    return "".join(kept)


def lines_of(text: str) -> list[str]:
    """The text's lines with their ends, split at "\n" alone as the parser numbers them (a form
    feed, a lone CR or U+2028 inside a line is no line end there, as it is to `str.splitlines`)."""
    return re.findall(r"[^\n]*\n|[^\n]+\Z", text)


def without_heading_lines(text: str) -> str:
    """`text` without its heading lines (setext underlines included): a template's headings are
    the same on unrelated pages, so the duplicate and search vectors leave them out. Lines in
    fenced code that look like headings go too; either way they are not what a page says."""
    return _HEADING_LINES.sub("", text)


def sections(title: str, body: str) -> Iterator[tuple[str, str]]:
    """(heading path, text) of each part of `body` under an ATX heading outside fenced code,
    first the part before any heading; a path reads "Title > Section > Subsection"."""
    stack: list[tuple[int, str]] = []
    heading, lines = title, []
    for line, in_fence in fenced_lines(body):
        m = None if in_fence else _ATX_LINE.match(line)
        if m is None or m.group(2) is None:
            lines.append(line)
            continue
        yield heading, "\n".join(lines)
        level = len(m.group(1))
        text = ATX_CLOSING.sub("", m.group(2)).strip()
        stack = [(lvl, h) for lvl, h in stack if lvl < level] + [(level, text)]
        heading, lines = " > ".join([title, *(h for _, h in stack if fold(h) != fold(title))]), []
    yield heading, "\n".join(lines)


def blocks(body: str) -> list[str]:
    """Blocks separated by blank lines; a fenced code block stays one block even with blank lines."""
    found: list[str] = []
    current: list[str] = []
    for line, in_fence in fenced_lines(body):
        if not in_fence and not line.strip():
            if current:
                found.append("\n".join(current))
                current = []
            continue
        current.append(line)
    if current:
        found.append("\n".join(current))
    return found


def fenced_lines(body: str) -> Iterator[tuple[str, bool]]:
    """Each line of `body` (as str.splitlines gives it) and whether it lies in fenced code."""
    fenced = iter(fence_ranges(body, 0))  # in order and apart: walked once, beside the lines
    current = next(fenced, None)
    pos = 0
    for raw, line in zip(body.splitlines(keepends=True), body.splitlines(), strict=True):
        while current is not None and current[1] <= pos:
            current = next(fenced, None)
        yield line, current is not None and current[0] <= pos < current[1]
        pos += len(raw)


_LINE_MARKS = re.compile(
    r"^[ \t]*(?:>[ \t]?)*[ \t]*(?:#{1,6}[ \t]+|[-*+][ \t]+(?:\[[ xX]\][ \t]+)?|\d{1,9}[.)][ \t]+)?"
)
# Lines with nothing to read: fences, table rules, link reference definitions.
_BARE_LINE = re.compile(
    r"^[ ]{0,3}\[[^\]]+\]:[ \t]+\S.*$"
    r"|^[ \t]*(?:`{3,}|~{3,}).*$|^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$"
)
_INLINE = (
    (re.compile(r"!?\[\[([^\]|]*)\|([^\]]*)\]\]"), r"\2"),  # [[target|label]]: the label
    (re.compile(r"!?\[\[([^\]#|]*)#([^\]|]*)\]\]"), r"\1 \2"),  # [[target#heading]]
    (re.compile(r"!?\[\[([^\]|]*)\]\]"), r"\1"),
    (re.compile(r"!?\[([^\]]*)\]\([^)\s]*(?:\s+\"[^\"]*\")?\)"), r"\1"),  # [text](url), ![alt](image)
    (re.compile(r"!?\[([^\]]+)\]\[[^\]]*\]"), r"\1"),  # [text][ref]: the text
    (re.compile(r"<((?:https?|mailto):[^>\s]+)>"), r"\1"),  # <https://autolink>
    (re.compile(r"(\*\*|__|~~|==)(\S(?:.*?\S)?)\1"), r"\2"),
    (re.compile(r"(?<![\w*\\])\*([^\s\\](?:[^*]*?[^\s\\])?)\*(?![\w*])"), r"\1"),  # not \*escaped\*
    (re.compile(r"(?<![\w_\\])_([^\s\\](?:[^_]*?[^\s\\])?)_(?![\w_])"), r"\1"),  # _emphasis_, not snake_case
    (re.compile(r"`+([^`]*)`+"), r"\1"),
    (re.compile(r"<!--.*?-->"), ""),
    (re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~<>])"), r"\1"),  # \* and the other escapes: the mark itself
)


def plain(text: str) -> str:
    """`text` as words to read: no heading, quote or list marks, no fences, table rules or link
    definitions, links as their labels, no emphasis or code marks: a passage shown outside a
    Markdown renderer."""
    lines = []
    for line in text.splitlines():
        if _BARE_LINE.match(line):
            continue
        line = _LINE_MARKS.sub("", line, count=1)
        if "|" in line and line.lstrip().startswith("|"):
            line = " ".join(cell.strip() for cell in line.strip().strip("|").split("|"))
        for pattern, replacement in _INLINE:
            line = pattern.sub(replacement, line)
        lines.append(line.rstrip())
    return "\n".join(lines)


_COMMENTS = (("%%", "%%"), ("<!--", "-->"))  # Obsidian's and HTML's: a drawing's data, a template's notes


def without_comments(body: str) -> str:
    """`body` with each closed comment a space, in one pass: a regex took seconds on thousands of
    unclosed `<!--` (each one searched to the end)."""
    kept: list[str] = []
    at = 0
    # Where each opener is next, searched again only once passed: a missing one is searched once.
    next_at = {opener: body.find(opener) for opener, _ in _COMMENTS}
    while True:
        for opener, _ in _COMMENTS:
            if 0 <= next_at[opener] < at:  # inside the comment just cut out
                next_at[opener] = body.find(opener, at)
        open_at = [(where, opener, closer) for opener, closer in _COMMENTS if (where := next_at[opener]) >= 0]
        if not open_at:
            break
        where, opener, closer = min(open_at)
        end = body.find(closer, where + len(opener))
        if end < 0:  # unclosed, and so is every later one of its kind: they stay text
            next_at[opener] = -1
            continue
        kept += [body[at:where], " "]
        at = end + len(closer)
    kept.append(body[at:])
    return "".join(kept)
