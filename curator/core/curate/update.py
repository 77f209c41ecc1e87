"""A changed fact on a page that states many: the new statement goes right after the old one,
which is struck through where the text names the value it replaces.

Superseding a whole page (a successor "X (updated)" holding the text, the old page marked
`superseded_by`) suits a page that states one fact. A runbook or a service page states dozens:
marking it out of date for one value would push all of them down in search and leave the
successor holding one sentence. There the text goes beside the sentence that states the old
value, the page's sentence sharing most words with it ("Raised the AdGuard query log retention to
30 days" beside "a 7-day query log is plenty"); that sentence is struck through (`~~...~~`) only
when the text names what it replaces ("instead of 03:00", "nicht mehr bei LWLcom", "statt
huextertor") and the sentence holds that name. A wrong guess of the sentence then leaves every
statement of the page standing.

Only plain paragraphs and list items are written in (CommonMark's blocks, as markdown-it reads
them): never a heading, table, code, HTML, math, comment, footnote, quote or callout, nor a section
of the page's history or of how things were, and never inside a link, code span or emphasis. The
page is read again after the edit, and an edit that changed any of its blocks, links or code spans
is not made.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from curator.core.curate.facts import STOP, UNITS, abbreviation, names_in, negated, sentences
from curator.core.curate.observations import category_of, item_end, next_lead, tail_of
from curator.core.curate.replaced import DASH, OLD_VALUE, old_values
from curator.core.read.parse import split_frontmatter
from curator.core.read.resolve import fold
from curator.core.read.words import WORD, Analyser

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

ONE_FACT = 2  # a page of one sentence on at most this many lines states one fact: it is superseded whole
_LEAST_SHARED = 3  # words of the text a sentence holds to be taken for the old statement unnamed
LONGEST = 600  # characters: a longer text is no one changed fact, and goes where a merge puts it

_MARKER = re.compile(r"[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(?:\[.\][ \t]+)?")  # "- [/] " too
# A sentence ends at . ! ? with what closes around it: bold, a strike, a highlight, a bracket, a
# quote, a footnote, a line break (`<br>`, a backslash) or a closing tag.
_END = re.compile(r"[.!?](?:\*\*|\*|__|_|~~|==|[)\"”’']|\[\^[^\]\s]*\]|<br\s*/?>|</\w+>|\\(?=\n))*(?=\s)")
# Spans no edit may begin or end in: code, links, footnotes, HTML tags, math, addresses; a link's
# text or a code span may run over a line.
_INLINE = re.compile(
    r"`[^`]{0,300}`|!?\[\[[^\]]{0,300}\]\]|!?\[[^\]]{0,300}\]\([^)\s]*\)|\[[^\]]{0,300}\]\[[^\]\n]*\]|"
    r"\[\^[^\]\n]*\]|<[^<>\n]*>|\$(?=\S)[^$\n]+(?<=\S)\$(?!\d)|\S+://\S*[^\s.,;:!?)]"
)
_HIDDEN = re.compile(r"%%.*?%%|<!--.*?-->", re.DOTALL)  # comments Obsidian and HTML hide, over paragraphs too
_PAST = re.compile(
    r"(?i)\b(?:old|older|previous|former|deprecated|legacy|archived?|alte[nrs]?|veraltet\w*|früher\w*|bisherig\w*|"
    r"history|verlauf|chronik|changelog)\b"
)
_ROW = re.compile(r"^[ \t]*\|", re.MULTILINE)  # a table's row a paragraph runs on into
_NOT_PLAIN = ("%%", "$$", "::", "<!--", "```", "~~~")  # comments, math, fields, fences
_BLOCK_ID = re.compile(r"\s+\^[\w-]+$")  # Obsidian's "^id" that ends a line
# A line of a field and its value ("Minimum score to email: 50") before another ends where the line
# does: the next line of the paragraph is the next field, not the rest of its sentence.
_FIELD = r"[ \t]*[^\s:][^\n:]{0,60}:(?:\*\*|__)?[ \t]+"  # "Key: value", "**Key:** value"
_FIELD_LINE = re.compile(rf"(?m)^{_FIELD}[^\n]*[^\s.!?,;:][ \t]*\n(?={_FIELD}\S)")


class Statement(NamedTuple):
    start: int
    end: int
    named: bool  # the text names the value this sentence holds: strike it through
    # Where the named value stands in a sentence that says more that stays true: struck alone.
    value: tuple[int, int] | None = None


def states_one_fact(page_text: str, text: str) -> bool:
    """Whether the page's body is one sentence of text on a line or two (headings left out): a
    list item (a history line too), a table, a quote, a struck statement or a second sentence make
    it a page of many; and a text that names the value it replaces says all of it again but that
    value (a sentence that also says something such a text leaves out, "... and keeps 14 days",
    "..., encrypted", stays: it is struck and followed, not the page retired)."""
    body = page_text[_body_start(page_text) :]
    lines = [line for line in body.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if len(lines) > ONE_FACT or any(re.match(r"\s*(?:[-*+|>]|\d+[.)]\s)", line) for line in lines):
        return False
    if len(sentences(" ".join(lines))) > 1:
        return False
    olds = old_values(text)
    analyser = bilingual()
    told = set(analyser.terms(text))
    plain = re.sub(r"\]\([^)]*\)", "]", "\n".join(lines))  # a link's words, not its target's
    if not olds:  # the fact told anew ("no longer restricts ...; any weekday works now"), of the same thing
        return len(told & set(analyser.terms(plain)) - set(analyser.terms(" ".join(STOP)))) >= 2
    gone = {fold(old) for old in olds | old_values(plain)}  # its own "instead of" says what was before
    said = {fold(w) for w in WORD.findall(plain) if not analyser.is_stop(w)} - gone
    return all(told & set(analyser.terms(w)) for w in said)


def prose_sentences(page_text: str) -> list[tuple[int, int]]:
    """The (start, end) of each sentence of the page's plain paragraphs and list items."""
    guarded = [m.span() for m in _INLINE.finditer(page_text)]
    starts = [start for start, _ in guarded]
    spans = []
    for start, end in _paragraphs(page_text):
        at = start
        for match in _END.finditer(page_text, start, end):
            before = page_text[at : match.start()].split()
            after = page_text[match.end() : match.end() + 12].split()[:1]
            if _inside(guarded, starts, match.start()) or (
                before and abbreviation(before[-1], after, " ".join(before[-2:-1]))
            ):
                continue
            spans.append((at, match.end()))
            at = match.end()
            while at < end and page_text[at].isspace():
                at += 1
        if at < end:
            spans.append((at, end))
    spans = [part for span in spans for part in _by_field_lines(page_text, *span)]
    spans = [(s, s + len(_BLOCK_ID.sub("", page_text[s:e]))) for s, e in spans]  # "^id" stays at the line's end
    return [(s, e) for s, e in spans if e > s and not (_inside(guarded, starts, s) or _inside(guarded, starts, e))]


def _by_field_lines(page_text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The sentence at (start, end) cut after each field line of it, the line break left out."""
    parts = []
    for match in _FIELD_LINE.finditer(page_text, start, end):
        stop = match.end() - 1
        while stop > start and page_text[stop - 1] in " \t":  # a hard line break ("  ") stays the line's end
            stop -= 1
        parts.append((start, stop))
        start = match.end()
        while start < end and page_text[start].isspace():
            start += 1
    return [*parts, (start, end)] if start < end else parts


_SUB_ITEM = re.compile(r"[ \t]+(?:[-*+]|\d+[.)])[ \t]")


def _observation_at(page_text: str, at: int) -> tuple[int, int, str, int, str] | None:
    """Of a basic-memory observation item holding offset `at`: where its words start and end (its
    category before them, its tags and context after them), its lead and category, where the item
    ends (its continuation lines and sub-items too), and its tags; None when the line is no such item."""
    line_start = page_text.rfind("\n", 0, at) + 1
    lines = page_text[line_start:].split("\n")
    found = category_of(lines[0].rstrip("\r"))
    if found is None:
        return None
    whole = lines[: item_end(lines, 0)]
    item = "\n".join(whole).rstrip("\r\n")
    # its own words end where a sub-item begins ("  - the moderator counts too")
    own = "\n".join(whole[: next((n for n in range(1, len(whole)) if _SUB_ITEM.match(whole[n])), len(whole))])
    tail = tail_of(own.rstrip("\r\n"))
    words_end = tail.start() if tail else len(own.rstrip())
    tags = " ".join(re.findall(r"(?<!\S)#[^\s#]\S*", tail.group(0))) if tail else ""
    lead = found.group(0)[: found.end("category") + 1]
    return line_start + found.end(), line_start + words_end, lead, line_start + len(item), tags


def old_statement(text: str, page_text: str, title: str) -> Statement | None:
    """The page's sentence the text changes: the one holding the value the text names as the old
    one, with a word of the thing besides; else the one sharing most words with the text (three or
    more, the page's own name left out), when no other shares as many and the page holds the old
    value nowhere else (in code or a table, where no edit goes)."""
    analyser = bilingual()
    wanted = set(analyser.terms(text)) - set(analyser.terms(title))
    names, olds = names_in(text), old_values(text)
    # The words said of the old value ("instead of the weekly Sunday projection"): of two sentences
    # holding its first word, the one holding more of them ("Timing: weekly Sunday projection ...",
    # not "Weekly cultural radar for ...").
    old_words = {term for match in OLD_VALUE.finditer(text) for term in analyser.terms(match.group("value"))}
    # The page the text names, by its title or its first heading (a folder's README).
    heading = re.search(r"(?m)^#[ \t]+(.+)$", page_text)
    text_terms = set(analyser.terms(text))
    on_named_page = any(
        (name_terms := set(analyser.terms(name))) and name_terms <= text_terms
        for name in (title, heading[1] if heading else "")
    )
    best: list[tuple[bool, int, int, int, int]] = []
    for start, end in prose_sentences(page_text):
        sentence = page_text[start:end]
        # Not one that opens a list or code after it, is cut inside its bold, or is struck already.
        if sentence.rstrip("*_ ").endswith(":") or not _paired(sentence) or "~~" in sentence:
            continue
        if len(WORD.findall(_INLINE.sub(" ", sentence))) < 3:  # a link, an address or a setting: no statement
            continue
        terms = set(analyser.terms(sentence))
        shared = len(wanted & terms)
        # A word of the thing besides the old value's own ("instead of Priya Shah" says nothing of
        # "Priya Shah leads the team"), or the old value said whole on the page the text names.
        about = (wanted - old_words) & terms or (on_named_page and shared >= 2)
        holds_old = bool(about) and any(_holds(sentence, old) for old in olds)
        said_old = len(old_words & terms) if holds_old else 0
        best.append((holds_old, said_old, shared + len(names & names_in(sentence, every=True)), start, end))
    best.sort(key=lambda b: b[:3], reverse=True)
    if not best or not (best[0][0] or best[0][2] >= _LEAST_SHARED):
        return None
    if not best[0][0] and any(_holds(page_text, old) for old in olds):
        return None  # the page holds the old value elsewhere (code, a table, a sentence of other words): not here
    if len(best) > 1 and best[1][:3] == best[0][:3]:  # two sentences as likely: neither is told
        return None
    if any(said > best[0][2] for _, _, said in _blocks_holding_old(text, page_text, title)):
        return None  # a line of code or a table giving the old value says more of the text: the text goes after it
    named, _, _, start, end = best[0]
    # A basic-memory observation's category, tags and context stay outside what is struck
    # ("- [spec] ~~...~~ #cadence"): it stays an observation of that kind.
    if (item := _observation_at(page_text, start)) is not None:
        start = max(start, item[0])
        end = min(end, item[1])
    sentence = page_text[start:end]
    # "~~~" would open a fence; a "not" of the page's ("does not run on Sundays") may still hold.
    said_not = negated(OLD_VALUE.sub(" ", text))  # "no longer" says what changed, not a "not"
    named = named and not sentence.startswith("~") and negated(sentence) <= said_not
    # A clause of the sentence the change leaves true is not struck with it ("pve-01 has 64 GB RAM
    # and pve-02 has 32 GB RAM", "Ingrid lives in Dresden; he calls her every Sunday"): followed.
    clauses = [part for part in _CLAUSE.split(sentence) if len(WORD.findall(part)) >= 3]
    if named and len(clauses) > 1 and not all(any(_holds(part, old) for old in olds) for part in clauses):
        # the value itself is struck where it stands once ("**~~24~~ GB RAM**, 4 vCPU"), the rest kept
        found = _value_in(sentence, olds)
        return Statement(start, end, False, (start + found[0], start + found[1]) if found else None)
    return Statement(start, end, named)


def _value_in(sentence: str, olds: set[str]) -> tuple[int, int] | None:
    """Where the one old value the sentence holds stands in it, outside code, links and addresses;
    None for none, or for a value standing twice (which one changed is not told)."""
    if len(sentence.casefold()) != len(sentence):  # "ß" folds to "ss": places would shift
        return None
    guarded = [m.span() for m in _INLINE.finditer(sentence)]
    found = [
        match.span()
        for old in olds
        for match in re.finditer(_holding(old), sentence.casefold())
        if not any(a <= match.start() < b for a, b in guarded)
    ]
    return found[0] if len(found) == 1 else None


# Where a sentence goes on to another thing: a semicolon, or "and" before a subject of its own (a
# name, a number's thing, an article, a pronoun; not "and are kept for 30 days", which goes on of it).
_CLAUSE = re.compile(
    r";\s+|,?\s+(?:and|und|but|aber|sowie|while|während)\s+"
    r"(?=(?:the|a|an|der|die|das|den|dem|ein|eine|he|she|it|they|we|er|sie|es|wir|[A-Z]\S*|\S*\d\S*)\s+\S+\s+\S)"
)


def block_holding_old(text: str, page_text: str) -> tuple[int, int] | None:
    """The lines (first, 1-based, and last) of the code block or table of the page whose line
    holding a value the text says it replaces shares most words with the text (no edit goes into
    one: the text goes after it), or None."""
    blocks = _blocks_holding_old(text, page_text)
    return max(blocks, key=lambda block: block[2])[:2] if blocks else None


def _blocks_holding_old(text: str, page_text: str, title: str = "") -> list[tuple[int, int, int]]:
    """Each code block or table holding an old value of the text: its lines (first, 1-based, and
    last) and the most words of the text but the page's name one of its lines holding that value
    shares, as `old_statement` counts a sentence's."""
    olds = old_values(text)
    if not olds:
        return []
    analyser = bilingual()
    wanted, names = set(analyser.terms(text)) - set(analyser.terms(title)), names_in(text)
    body = _body_start(page_text)
    before = page_text[:body].count("\n")
    lines = page_text[body:].splitlines(keepends=True)
    found = []
    for token in _markdown().parse(page_text[body:]):
        if token.type in ("fence", "code_block", "table_open") and token.map is not None and token.level == 0:
            first, last = token.map
            holding = [line for line in lines[first:last] if any(_holds(line, old) for old in olds)]
            if holding:
                said = max(
                    len(wanted & set(analyser.terms(line))) + len(names & names_in(line, every=True))
                    for line in holding
                )
                found.append((before + first + 1, before + last, said))
    return found


def updated(page_text: str, statement: Statement, new: str) -> str | None:
    """The page with `new` after the old statement, struck through when it is named; None for a
    text that is no one-line fact, or when the page read again differs in more than the words."""
    if "\n" in new.strip():
        return None
    new = " ".join(new.split())
    unsafe = any(mark in new for mark in (*_NOT_PLAIN, "~~")) or new.count("`") % 2 or not _paired(new)
    if len(new) > LONGEST or unsafe:
        return None
    start, end = statement.start, statement.end
    if (item := _observation_at(page_text, start)) is not None:
        return _next_observation(page_text, statement, new, *item[2:])
    old = page_text[start:end]
    joined = " " if old.rstrip("*_`)\"”’'").endswith((".", "!", "?", ";")) else "; "
    if statement.named:
        after = f"{page_text[:start]}~~{old}~~ {new}{page_text[end:]}"
    elif statement.value is not None:
        at, to = statement.value
        after = f"{page_text[:at]}~~{page_text[at:to]}~~{page_text[to:end]}{joined}{new}{page_text[end:]}"
    else:
        after = f"{page_text[:end]}{joined}{new}{page_text[end:]}"
    return after if _shape(after) == _shape(page_text) + _shape(new, blocks=False) else None


def _next_observation(page_text: str, statement: Statement, new: str, lead: str, end_of_item: int, tags: str) -> str:
    """The page with `new` as an observation of the old one's category (and tags) after its item
    (its continuation lines and sub-items), whose words are struck through when named, or its
    value alone; never across a code span's backticks."""
    start, end = statement.start, statement.end
    struck = 0
    if statement.named and page_text.count("`", start, end) % 2 == 0:
        page_text, struck = f"{page_text[:start]}~~{page_text[start:end]}~~{page_text[end:]}", 4
    elif statement.value is not None and page_text.count("`", *statement.value) % 2 == 0:
        at, to = statement.value
        page_text, struck = f"{page_text[:at]}~~{page_text[at:to]}~~{page_text[to:]}", 4
    newline = "\r\n" if "\r\n" in page_text else "\n"
    end_of_item += struck
    if page_text[end_of_item - 1 : end_of_item] == "\r":
        end_of_item -= 1
    item = f"{next_lead(lead[: lead.rindex('[')])}{lead[lead.rindex('[') :]} {new}{' ' + tags if tags else ''}"
    return f"{page_text[:end_of_item]}{newline}{item}{page_text[end_of_item:]}"


def _paragraphs(page_text: str) -> list[tuple[int, int]]:
    """The (start, end) of each plain paragraph's text (a list item's marker left out), outside
    quotes and callouts, without comments, math, fields or fences in it."""
    body = _body_start(page_text)
    text = page_text[body:]
    starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
    hidden = [m.span() for m in _HIDDEN.finditer(text)]
    found, quoted, past = [], 0, False
    tokens = _markdown().parse(text)
    for at, token in enumerate(tokens):
        quoted += {"blockquote_open": 1, "blockquote_close": -1}.get(token.type, 0)
        if token.type == "heading_open":  # a section the page keeps of how it was: "Alte Version", "Old setup"
            past = bool(_PAST.search(tokens[at + 1].content))
        if token.type != "paragraph_open" or quoted or past or token.map is None:
            continue
        first, last = token.map
        line_end = starts[last] - 1 if last < len(starts) else len(text)
        start = _MARKER.match(text, starts[first]).end()  # type: ignore[union-attr]
        end = start + len(text[start:line_end].rstrip())
        plain = not any(mark in text[start:end] for mark in _NOT_PLAIN) and not _ROW.search(text, start, end)
        plain = plain and not text.startswith("[^", start) and not any(a < end and start < b for a, b in hidden)
        if end > start and plain:
            found.append((body + start, body + end))
    return found


def _body_start(page_text: str) -> int:
    """Where the page's body starts: after its YAML header, or Hugo's TOML header between `+++` lines."""
    _, _, body = split_frontmatter(page_text)
    toml = re.match(r"\ufeff?\+\+\+[ \t]*\r?\n.*?^\+\+\+[ \t]*$\n?", page_text, re.DOTALL | re.MULTILINE)
    return max(body, toml.end() if toml else 0)


def _shape(text: str, blocks: bool = True) -> Counter[str]:
    """What an edit must keep: the page's blocks in order, and its links, code spans, images and HTML."""
    shape: Counter[str] = Counter()
    for token in _markdown().parse(text):
        if blocks and token.type != "inline":
            shape[f"{token.type}:{token.level}"] += 1
        for child in token.children or ():
            if child.type in ("link_open", "code_inline", "image", "html_inline"):
                shape[child.type] += 1
    return shape


def _inside(guarded: list[tuple[int, int]], starts: list[int], at: int) -> bool:
    """Whether `at` lies inside one of the spans (sorted by start, none inside another)."""
    found = bisect_left(starts, at) - 1
    return found >= 0 and guarded[found][0] < at < guarded[found][1]


def _paired(text: str) -> bool:
    """Whether the text's emphasis marks pair up (no bold, italics or highlight is cut)."""
    plain = re.sub(r"`[^`\n]*`|\S+://\S+|\*(?=[./])", "", text)  # a wildcard's "*.lab.example.net" is no emphasis
    singles = len(re.findall(r"(?<!\*)\*(?!\*)", plain)) + len(re.findall(r"(?<!\w)_(?!_)|(?<!_)_(?!\w)", plain))
    return all(plain.count(mark) % 2 == 0 for mark in ("**", "__", "==")) and singles % 2 == 0


def _holds(sentence: str, word: str) -> bool:
    """Whether the sentence holds the word whole ("10" is not in "10.0.100.20", "11" is in "Channel: 11",
    "$9.99" is in "$9.99/month"), a number with its unit glued to it too ("30s", "64gb")."""
    return re.search(_holding(word), sentence.casefold()) is not None


def _holding(word: str) -> str:
    """The pattern of `_holds`: the word whole in a folded sentence."""
    if re.fullmatch(r"\+?\d+(?: \d+)+", word):  # a phone number's groups, however the page joins them
        return r"(?<![\w.+-])" + r"(?:[\s/.-]|\(0\))*".join(map(re.escape, word.split())) + r"(?![\w-])"
    per = r"(?:month|mo|year|yr|week|day|hour|h|min|s|monat|jahr|woche|tag|stunde)\b"
    glued = rf"(?!{'|'.join(sorted(UNITS, key=len, reverse=True))}\b)" if re.fullmatch(r"[\d.,]+", word) else ""
    ranged = rf"(?<!\d[{DASH}] )(?<!\d [{DASH}])(?<!\d [{DASH}] )"  # not in a range: "10–15", "10 – 15"
    return rf"(?<![\w.{DASH}-]){ranged}{re.escape(word)}(?!{glued}[\w{DASH}-]|[.,:]\w|/(?!{per})\w| ?[{DASH}] ?\d)"


@cache
def bilingual() -> Analyser:
    """English and German words met by stem and glossary: "Kanal" holds "channel"."""
    return Analyser()


@cache
def _markdown() -> MarkdownIt:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table")
