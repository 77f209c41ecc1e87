"""What the duplicate rule reads from each page: its prose as words, its first heading and the web
and e-mail addresses it names, kept in the derived store by the page's content hash so that a
lint after one edit reads one page again, not every page."""

from __future__ import annotations

import re
from itertools import pairwise
from typing import TYPE_CHECKING, Any, NamedTuple

from curator import __version__
from curator.core.read import boilerplate
from curator.core.read.markdown import fence_ranges, without_comments, without_heading_lines
from curator.core.read.page import content_hash
from curator.core.read.parse import split_frontmatter
from curator.core.state import cache

if TYPE_CHECKING:
    from curator.core.read.page import Page
    from curator.core.read.vault import Vault

READS_STORE = "duplicate-reads.json"  # each page's words, heading and addresses, by content hash
READS_FORMAT = 7
NAME_CHARS = 300  # a title, heading or alias longer than this is prose, not a name
EMAIL_CHARS = 254  # the longest an e-mail address may be (RFC 5321)
BOOKMARK_CHARS = 2000  # a longer web address is no page's bookmark

# Chinese and Japanese put no space between words: each of their characters is a word, so a
# copy with one word changed shares most runs with its page (a clause as one word shares none).
CJK = "\u3005-\u3007\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD = re.compile(rf"[{CJK}]|[^\W{CJK}]+")
_CJK_CHAR = re.compile(rf"[{CJK}]")
_ANY_HEADING = re.compile(r"#{1,6}[ \t]")
_URL = re.compile(r"https?://[^\s)\]>\"'`|,]+", re.IGNORECASE)
_BELOW_ROOT = re.compile(r"https?://[^/?#]+/[^/?#]", re.IGNORECASE)  # not a site's home page
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
# Each run of blanks can be matched one way only: `\s*[-*]?\s*` took seconds on a line of spaces.
_FIELD_LINE = re.compile(
    r"[ \t]*(?:[-*][ \t]*)?\**(?:website|homepage|home page|repository|repo|github|url|e-?mail|webseite)\**[ \t]*:",
    re.IGNORECASE,
)
# A query parameter that says how the page was reached, not which page: a campaign, a click id,
# an analytics cookie (`_gl`, `_ga`) or a reader app's place (`__readwiseLocation`).
_TRACKER = re.compile(r"(?i)(?:_\w*|utm_\w*|fbclid|gclid|mc_cid|mc_eid|ref|ref_src|si|feature)(?:=|$)")
# The keys that give a page's own address: a web address, an e-mail, a DOI (`source_url` and `doi`
# in a reference manager's paper notes; not `meeting_url` or `cover_url`, which many pages share).
_ADDRESS_KEYS = frozenset(
    "url website homepage home repo repository github source source_url doi email e-mail link".split()
)
_IMAGE = re.compile(r"^img\.shields\.io/|badge|\.(?:png|jpe?g|gif|svg|webp)(?:\?|$)")


class Read(NamedTuple):
    words: list[str]
    heading: str  # the first level-one heading as written
    addresses: frozenset[str]
    sha: str = ""  # the content hash of the bytes these were read from ("" when unreadable)
    code: str = ""  # a hash of its code blocks ("" without any): what a page of mostly code says
    code_words: int = 0
    bookmark: str = ""  # the web address the page is nothing but

    def mostly_code(self) -> bool:
        """Whether the page says more in code blocks than in prose (a log of commands, a query's results)."""
        return self.code_words > len(self.words)


def reads(vault: Vault, pages: list[Page]) -> dict[str, Read]:
    """Each page's words, heading and addresses, kept in the derived store by the page's content
    hash: a lint after one edit reads one page again, not every page (1.2 s of the rule's 1.5 s on
    13k pages). Only a store this user's curator wrote is read."""
    stored: dict[str, Any] = {}
    root = vault.root
    if vault.use_cache and cache.has_cache(root):
        data = cache.read_large_json(cache.cache_path(root, READS_STORE), sealed=True)
        if isinstance(data, dict) and data.get("format") == [READS_FORMAT, __version__]:
            pages_stored = data.get("pages")
            stored = pages_stored if isinstance(pages_stored, dict) else {}
    reads: dict[str, Read] = {}
    for page in pages:
        row = stored.get(page.path)
        if isinstance(row, list) and len(row) == 7 and row[0] == page.sha and isinstance(row[3], str):
            words_, heading, addresses, code, code_words = row[3].split(), str(row[1]), row[2], str(row[4]), row[5]
            words_ = words_ if row[3].isascii() else [_one_string(word) for word in words_]
            code_words = code_words if isinstance(code_words, int) else 0
            addresses = frozenset(map(str, addresses))
            reads[page.path] = Read(words_, heading, addresses, page.sha, code, code_words, str(row[6]))
        else:
            reads[page.path] = read(vault, page)
    kept = {
        path: [
            read.sha,
            read.heading,
            sorted(read.addresses),
            " ".join(read.words),
            read.code,
            read.code_words,
            read.bookmark,
        ]
        for path, read in reads.items()
        if read.sha == vault.pages[path].sha  # not a page that changed after it was loaded
    }
    if vault.use_cache and kept != stored:
        cache.write_json(root, READS_STORE, {"format": [READS_FORMAT, __version__], "pages": kept}, sealed=True)
    return reads


def read(vault: Vault, page: Page) -> Read:
    try:
        data = (vault.root / page.path).read_bytes()
    except OSError:
        return Read([], "", frozenset())
    text = data.decode("utf-8", "replace")
    _, _, body_at = split_frontmatter(text)
    body = text[body_at:]
    heading = _first_heading(body)
    fields = [
        _as_address(k.lower(), str(v))
        for k, v in page.frontmatter.items()
        if k.lower() in _ADDRESS_KEYS and v is not None
    ]
    fields += [line for line in body.splitlines() if _FIELD_LINE.match(line)]
    values = "\n".join(fields)
    found = [_address(url) for url in _URL.findall(values)] + _emails(values)
    addresses = frozenset(a for a in found if a and not _IMAGE.search(a))
    fences = fence_ranges(body, 0)  # found once for the code and the prose: seconds on a page of 5 MB of fences
    code = "\n".join(body[start:end] for start, end in fences)
    code_hash = content_hash(code.encode("utf-8")) if code else ""
    code_words = len(_WORD.findall(code))
    return Read(words(body, fences), heading, addresses, content_hash(data), code_hash, code_words, _bookmark(body))


def _bookmark(body: str) -> str:
    """The web address a body is nothing but, as written (a fragment or a query may name another
    part: `os.html#os.walk`, `?ref=main`), when it names a page below a site's root."""
    address = body.strip()
    if len(address) > BOOKMARK_CHARS or not _URL.fullmatch(address) or not _BELOW_ROOT.match(address):
        return ""
    return address.removesuffix("/")


def _as_address(key: str, value: str) -> str:
    """A DOI written bare ("10.1445/106772") as the address it resolves at."""
    return f"https://doi.org/{value.strip()}" if key == "doi" and value.strip().startswith("10.") else value


def code_words(vault: Vault, page: Page) -> list[str]:
    """The words of a page's code blocks."""
    try:
        text = (vault.root / page.path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    body = text[split_frontmatter(text)[2] :]
    return _WORD.findall("\n".join(body[start:end] for start, end in fence_ranges(body, 0)).casefold())


def _first_heading(body: str) -> str:
    """The page's first heading outside code as written, when it is of level one, or "": a
    catalogue's pages put it below their badges."""
    fenced = False
    for line in body.splitlines():
        if line.startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and _ANY_HEADING.match(line):
            return _heading(line)
    return ""


def _heading(line: str) -> str:
    """The text of an ATX heading of level one (`# Name #`), or ""; a line longer than NAME_CHARS names no page."""
    if len(line) > NAME_CHARS or not line.startswith(("# ", "#\t")):
        return ""
    return line[1:].strip().rstrip("#").rstrip()


def _emails(values: str) -> list[str]:
    """E-mail addresses, one a word: a word longer than an address may be is none, and is not searched."""
    return [
        mail.lower()
        for word in values.split()
        if "@" in word and len(word) <= EMAIL_CHARS
        for mail in _EMAIL.findall(word)
    ]


def words(body: str, fences: list[tuple[int, int]] | None = None) -> list[str]:
    """A body's prose as words: no code blocks (`fences`, when they are found already), comments,
    heading lines, web addresses or link targets (a link counts as the words it shows)."""
    ranges = fence_ranges(body, 0) if fences is None else fences
    if ranges:
        kept, at = [], 0
        for start, end in ranges:
            kept.append(body[at:start])
            at = end
        body = "".join([*kept, body[at:]])
    if "%%" in body or "<!--" in body:
        body = without_comments(body)
    body = _URL.sub(" ", boilerplate.wikilinks_as_shown(without_heading_lines(body)))
    if "](" in body:
        body = re.sub(r"!?\[([^\[\]\n]*)\]\([^()\n]*\)", r"\1", body)
    found = _WORD.findall(body.casefold())
    return found if body.isascii() else [_one_string(word) for word in found]


def character_pairs(words: list[str]) -> list[str]:
    """Each two Chinese or Japanese characters running in a page's words: a name of theirs ("张伟")
    is said by its characters, each of them a word."""
    return [a + b for a, b in pairwise(words) if len(a) == len(b) == 1 and _CJK_CHAR.match(a) and _CJK_CHAR.match(b)]


def _one_string(word: str) -> str:
    """One string for each word of one Chinese or Japanese character: 1.3k pages of them hold four
    million words of a few thousand characters (340 MB as words each its own string)."""
    return _CHARS.setdefault(word, word) if len(word) == 1 else word


_CHARS: dict[str, str] = {}


def _address(url: str) -> str:
    """A web address as one page is known by: without scheme, "www.", a fragment or a tracker in
    its query (a clipping keeps the heading or the campaign it was taken from:
    "bash.html#special-parameters", "?utm_source=x"); the rest of the query names the page
    (`watch?v=A` and `watch?v=B` are two videos)."""
    url = url.strip().rstrip(".;:")
    url = re.sub(r"^https?://(?:www\.)?", "", url, flags=re.IGNORECASE)
    url, _, query = url.split("#", 1)[0].partition("?")
    kept = [part for part in re.split(r"[&?;]", query) if part and not _TRACKER.match(part)]
    address = url.lower().rstrip("/").removesuffix(".git")
    return f"{address}?{'&'.join(kept)}" if kept else address
