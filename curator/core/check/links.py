"""The rules about links: `dead-link` (and `relation-dead`, a dead typed edge of the frontmatter),
`ambiguous-link` and `broken-anchor`, each with its catalogue entry, its check and its fix.

The fixes need no human choice:
- a dead link with a did-you-mean: the link names the suggested page, its label and anchor kept;
- a dead link to another page's alias: `[[Title|alias]]` (the alias stays what the reader sees);
- an ambiguous link: the shortest path that names the page it resolves to now;
- a broken anchor with one close heading (or block id) on the target page: that heading.
Every link fix is checked before it is offered: the new link must resolve to the page it means.
"""

from __future__ import annotations

import posixpath
import re
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import quote, unquote

from curator.core.change.edits import explicit_target, links_of, markdown_dest_span
from curator.core.check.hits import Fix, Hit, readable, written
from curator.core.common.names import name_marks
from curator.core.common.rules import Finding, Rule
from curator.core.read.link_order import DENDRON, label_bar, other_reading, wiki_target_span, wikilink
from curator.core.read.page import Heading, Link
from curator.core.read.resolve import anchor_key, fold
from curator.core.read.scan import left_out_files
from curator.core.read.vault import ResolvedLink, Vault
from curator.core.read.words import WORD
from curator.core.state.config import CONFIG_NAME
from curator.core.state.obsidian import is_obsidian_vault

RULES = (
    Rule(
        "dead-link",
        "A link whose target resolves to no page or file in the vault.",
        'Says "did you mean" for a title one typo away, and `[[Page|alias]]` when the target is an alias; '
        "template placeholders (`[[{{date}}]]`, `[[<% tp.file.title %>]]`) are no links; a docs site's link to "
        "`x.html`, where no such file is, finds the page `x.md` it is built from (mdBook, Jekyll, Sphinx; a "
        "folder's `index.html` its README), and a link to a page's own site address (`/tables/agency/`) the "
        "page whose `permalink:` it is (Jekyll, Hugo); a rename keeps such links as they are written. In a "
        "basic-memory vault (half its pages or more carry a `type:` and a `permalink:` that is no site "
        "address), `[[Title]]` names the page whose `title:` it is; a merge writes the kept page's title.",
    ),
    Rule("ambiguous-link", "A link that several pages could answer; the nearest wins."),
    Rule(
        "broken-anchor",
        "A link to a heading or block id that the target does not have.",
        "`[[page#heading]]`, `[[page#^block]]`, `[[#heading]]` or `[x](page.md#slug)`; a Markdown link may also "
        'name an anchor the page gives in HTML (`<a name="sources">`, `id="setup"`) or in a kramdown attribute '
        "list (`{: #setup}`), as a site serves it.",
    ),
    Rule("relation-dead", "A typed edge in the frontmatter (`broader: [[X]]`) whose target is no page."),
)
FIXABLE = ("dead-link", "relation-dead", "ambiguous-link", "broken-anchor")


def _placeholder(target: str) -> bool:
    """A template's placeholder ([[{{date}}]], [[<% tp.file.title %> Outline]]): a page only once filled in."""
    return any(opener in target and closer in target[target.index(opener) :] for opener, closer in _PLACEHOLDERS)


_PLACEHOLDERS = (("{{", "}}"), ("<%", "%>"))


def rule_dead_links(vault: Vault) -> Iterator[Hit]:
    dead = [rl for rl in vault.links if rl.resolution.kind == "dead" and not _placeholder(rl.link.target)]
    if dead and vault.left_out:  # a file the ignore globs leave out is there all the same
        named = _left_out_names(vault)
        dead = [rl for rl in dead if rl.resolution.outside or not _names_left_out(rl, named)]
    # A missing picture or file is not a page with a typo: `x.png` must never become `x.md` (a fix
    # would embed a whole page where the author meant an image).
    targets = {rl.link.target for rl in dead if not rl.resolution.alias_of and not _FILE.search(rl.link.target)}
    suggestions = _did_you_mean(vault, targets)
    if targets - suggestions.keys():  # not a typo: the same words in other forms ("Zertifikats-Erneuerung")?
        from curator.core.meaning.samewords import same_words

        suggestions.update(same_words(vault, targets - suggestions.keys()))
    # Obsidian writes [[target|label]] and its app keeps this vault: a label naming a page is no
    # sign the links were written in Dendron's order.
    obsidian = is_obsidian_vault(vault.root)
    for rl in dead:
        link, res = rl.link, rl.resolution
        shown = written(rl)
        data: dict[str, Any] = {"target": link.target}
        if res.outside:
            message = f"dead link {shown}: it points outside the vault"
        elif res.alias_of:
            owner = res.alias_of[0]
            title = vault.pages[owner].title
            fix = wikilink(title, link.target, vault.config.label_first)
            message = (
                f"dead link {shown}: {link.target!r} is an alias of {owner}, "
                f"and Obsidian does not follow aliases; write {fix}"
            )
            data.update(alias_of=list(res.alias_of), fix=fix)
        else:
            message = f"dead link {shown}: no page or file is named {link.target!r}"
            guess = suggestions.get(link.target)
            if guess:
                message += f"; did you mean [[{guess}]]?"
                data["did_you_mean"] = guess
            turned = _read_turned(vault, rl) if rl.link.syntax == DENDRON or not obsidian else None
            if turned is not None:
                writer = "Obsidian" if link.syntax == DENDRON else "Dendron"
                message += f"; read as {writer} writes links it names {turned} (`link_order` in {CONFIG_NAME})"
                data["read_turned"] = turned
        rule = "dead-link"
        if link.key:  # a typed edge of the frontmatter (`related: "[[X]]"`): its own rule
            data["key"] = link.key
            rule = "relation-dead"
            message = f"{link.key}: {message.removeprefix('dead link ')}"
        yield Hit(rule, rl.source, message, f"{link.syntax}:{link.target}", link.line, link.column, data)


def _left_out_names(vault: Vault) -> set[str]:
    """Each file the ignore globs leave out by its path and by each tail of it after a folder
    (`templates/daily.md`, `daily.md`), folded as links are compared."""
    files = left_out_files(vault.root, vault.left_out)
    return {fold(path[at:]) for path in files for at in (0, *(i + 1 for i, c in enumerate(path) if c == "/"))}


def _names_left_out(rl: ResolvedLink, named: set[str]) -> bool:
    """Whether the dead link names a file the ignore globs leave out: by its path from the page's
    folder or the vault's root, or by the end of a path (`[[2019/old]]`, `![[Drawing.excalidraw]]`,
    a `.md` understood); never a page, so no page's link is read otherwise."""
    target = rl.link.target.strip().replace("\\", "/")
    if not target:
        return False
    ways = [target]
    if target.startswith(("./", "../")) or (rl.link.syntax == "markdown" and not target.startswith("/")):
        ways.insert(0, posixpath.normpath(posixpath.join(posixpath.dirname(rl.source), target)))
    folded = [fold(way.lstrip("/")) for way in ways if not way.startswith("../")]
    return any(way in named or f"{way}.md" in named for way in folded)


def _read_turned(vault: Vault, rl: ResolvedLink) -> str | None:
    """The page a dead labelled link names read in the other order (Dendron's `[[label|target]]`
    or Obsidian's `[[target|label]]`), when it names one."""
    turned = other_reading(rl.link)
    if turned is None:
        return None
    found = vault.resolver.resolve(rl.source, turned.target)
    return found.path if found.kind == "page" else None


def _did_you_mean(vault: Vault, targets: set[str]) -> dict[str, str]:
    """The closest page title to each dead target, when one is close enough to be a typo.

    Only titles that can score `_NEAR` are compared: the same first character (a typo rarely hits
    the first letter) and a length near the target's (a ratio counts every character one string
    has more than the other). Ties between equally close titles go to the shortest, then the first
    in alphabetical order.
    """
    if not targets or not vault.pages:
        return {}
    from rapidfuzz import fuzz, process  # loaded only when there is a dead link to match

    by_initial: dict[str, list[tuple[str, list[str]]]] = defaultdict(list)  # initial -> (folded title, pages)
    for key, paths in vault.resolver.titles().items():  # titles the resolver has folded already
        if key:
            by_initial[key[0]].append((key, paths))
    keys: dict[str, list[str]] = {}
    lengths: dict[str, list[int]] = {}
    for initial, group in by_initial.items():
        group.sort()  # by title (each title once), then by length: a stable sort keeps titles in order
        group.sort(key=_title_length)
        keys[initial] = [key for key, _ in group]
        lengths[initial] = [len(key) for key in keys[initial]]
    # Queries of one initial and length compare with the same titles: (initial, length) -> (query, target).
    queries: dict[tuple[str, int], list[tuple[str, str]]] = defaultdict(list)
    for target in targets:
        query = fold(_name(target))
        if query[:1] in by_initial:
            queries[query[:1], len(query)].append((query, target))
    windows = {(initial, n): _length_window(lengths[initial], n) for initial, n in queries}
    found: dict[str, list[str]] = {}  # target -> the pages of the closest title
    # Few comparisons: one lookup each, with no numpy import (~35 ms); many: a parallel matrix.
    matrix = sum(len(queries[at]) * (hi - lo) for at, (lo, hi) in windows.items()) >= _MATRIX_MIN
    for (initial, n), asked in queries.items():
        lo, hi = windows[initial, n]
        titles, candidates = by_initial[initial], keys[initial][lo:hi]
        if not candidates:
            continue
        if not matrix:
            for query, target in asked:
                match = process.extractOne(query, candidates, scorer=fuzz.ratio, score_cutoff=_NEAR)
                if match is not None:
                    found[target] = titles[lo + match[2]][1]
            continue
        scores = process.cdist(
            [query for query, _ in asked], candidates, scorer=fuzz.ratio, score_cutoff=_NEAR, dtype="uint8", workers=-1
        )
        for (_, target), row in zip(asked, scores, strict=True):
            best = int(row.argmax())
            if row[best] >= _NEAR:
                found[target] = titles[lo + best][1]
    # A title as written (of the first page, by name, when several share it).
    guesses = {target: min(vault.pages[p].title for p in paths) for target, paths in found.items()}
    return {target: guess for target, guess in guesses.items() if _typo(fold(_name(target)), fold(guess))}


_FILE = re.compile(
    r"\.(?:png|jpe?g|gif|svg|webp|bmp|tiff?|avif|heic|pdf|mp3|wav|m4a|ogg|flac|mp4|webm|mov|mkv|zip|canvas)$",
    re.IGNORECASE,
)


def _name(target: str) -> str:
    return target.rsplit("/", 1)[-1].removesuffix(".md")


SURE_GUESS = 8  # characters a dead link's name needs for its did-you-mean to be fixed without asking


def _typo(written: str, title: str) -> bool:
    """Whether `title` is `written` with a typo in it: the same numbers (2022-W49 is not 2022-W34,
    CS2106 not CS2100) and at most one slip of a key per eight characters (Spark SQL is not Spark ML)."""
    from rapidfuzz.distance import DamerauLevenshtein

    if name_marks(written) != name_marks(title):  # the same numbers and signs ("CleanMgr+" is no cleanmgr)
        return False
    return DamerauLevenshtein.distance(written, title) <= max(1, len(written) // 8)


def _title_length(title: tuple[str, list[str]]) -> int:
    return len(title[0])


def _length_window(lengths: list[int], length: int) -> tuple[int, int]:
    """The slice of `lengths` (sorted) a string of `length` characters can score `_NEAR` with:
    a ratio is at most 100 * (1 - |n - m| / (n + m)) for lengths n and m (one more on each side
    for rounding)."""
    shortest = length * _NEAR // (200 - _NEAR) - 1
    longest = length * (200 - _NEAR) // _NEAR + 1
    return bisect_left(lengths, shortest), bisect_right(lengths, longest)


_NEAR = 80
_MATRIX_MIN = 1_000_000  # comparisons; measured: lookups cost ~0.04 µs each, a matrix ~6x less


def rule_ambiguous_links(vault: Vault) -> Iterator[Hit]:
    from curator.core.change.edits import explicit_target  # the name the fix writes

    for rl in vault.links:
        candidates = rl.resolution.candidates
        if len(candidates) < 2:
            continue
        chosen = rl.resolution.path or candidates[0]
        explicit = explicit_target(vault.resolver, rl.source, chosen, False) if chosen.endswith(".md") else chosen
        message = (
            f"{written(rl)} could mean {len(candidates)} pages ({', '.join(candidates[:4])}"
            f"{', …' if len(candidates) > 4 else ''}); the nearest, {chosen}, wins: write [[{explicit}]] to say so"
        )
        yield Hit(
            "ambiguous-link",
            rl.source,
            message,
            rl.link.target,
            rl.link.line,
            rl.link.column,
            {"target": rl.link.target, "candidates": list(candidates), "chosen": chosen},
        )


_EXPLICIT_ID = re.compile(r"\s*\{#([^\s{}]+)[^{}]*\}\s*$")  # Pandoc's and kramdown's "## Overview {#overview}"
_TRAILING_BLOCK_ID = re.compile(r"\s+\^[\w-]+\s*$")  # "### Use in Recommendation Systems ^recsys"
# A link in a heading shows its words, not its address: "## [Make it server-proof](https://...)".
_LINK_IN_HEADING = re.compile(r"\[\[(?:[^\]|]*\|)?([^\]]*)\]\]|\[([^\]]*)\]\([^)]*\)")


def _shown(heading: str) -> str:
    """A heading as a reader sees it: its links' words, no block id or explicit id after it."""
    bare = _EXPLICIT_ID.sub("", _TRAILING_BLOCK_ID.sub("", heading))
    return _LINK_IN_HEADING.sub(lambda m: m.group(1) or m.group(2) or "", bare)


def _heading_keys(text: str) -> set[str]:
    """What a link's anchor may name a heading by: its text as written or as shown, or the id
    written after it."""
    text = _TRAILING_BLOCK_ID.sub("", text)  # "## Setup {#sid} ^blk" is "## Setup {#sid}"
    found = _EXPLICIT_ID.search(text)
    if found is None:  # a clipped page's "## [Link to heading](#x)Making assets load": the words after the link
        return {anchor_key(text), anchor_key(_shown(text)), anchor_key(_LINK_IN_HEADING.sub("", text))}
    return {anchor_key(text[: found.start()]), anchor_key(found.group(1))}


def _repeat_keys(headings: Iterable[Heading]) -> set[str]:
    """The slugs GitHub and other docs sites give a heading's repeats: `description-1` for the
    second "Description" of a page, `description-2` for the third."""
    seen: Counter[str] = Counter()
    keys = set()
    for heading in headings:
        key = anchor_key(_shown(heading.text))
        if seen[key]:
            keys.add(f"{key}{seen[key]}")
        seen[key] += 1
    return keys


# An anchor HTML gives a place in a page (`<a name="sources">`, `<div id="setup">`), or kramdown's
# attribute list (Jekyll's: `{: #corrections}` under a heading, `## Setup {#setup}`): a site and a
# forge serve a Markdown link to it; Obsidian's wikilinks know only headings and blocks.
_HTML_ANCHOR = re.compile(
    r"""<[a-zA-Z][^>]*?\b(?:name|id)\s*=\s*["']?([^"'\s>]+)"""
    r"|(?<!\{)\{:?[ \t]*(?:[^{}\n#]*\s)?#(\w[\w:.-]*)[^{}\n]*\}(?!\})"
)


def rule_broken_anchors(vault: Vault) -> Iterator[Hit]:
    html_anchors: dict[str, set[str]] = {}  # a target's anchors in HTML, read when a link misses its headings

    def in_html(path: str, anchor: str) -> bool:
        if path not in html_anchors:
            try:
                text = vault.text_of(path)
            except OSError:
                text = ""
            found = _HTML_ANCHOR.findall(text) if "<" in text or "{" in text else []
            html_anchors[path] = {(tag or attribute).casefold() for tag, attribute in found}
        return anchor.casefold() in html_anchors[path]

    for rl in vault.links:
        anchor = rl.link.anchor
        if not anchor or rl.resolution.kind != "page" or rl.resolution.path is None:
            continue
        target = readable(vault, rl.resolution.path)
        if target is None:
            continue
        if anchor.startswith("^"):
            block = anchor[1:].casefold()
            if any(b.casefold() == block for b in target.block_ids):
                continue
            what = f"block ^{anchor[1:]}"
        else:
            heading = anchor.split("#")[-1]
            if any(h.text == heading for h in target.headings):  # as written: no need to compare loosely
                continue
            wanted = anchor_key(heading)
            if not wanted or any(wanted in _heading_keys(h.text) for h in target.headings):
                continue
            if rl.link.syntax == "markdown" and wanted in _repeat_keys(target.headings):  # GitHub's `#description-1`
                continue  # the second "Description" (Obsidian's wikilinks know no such numbers)
            if rl.link.syntax == "markdown" and in_html(target.path, heading):
                continue
            what = f"heading {anchor!r}"
        yield Hit(
            "broken-anchor",
            rl.source,
            f"{written(rl)}: {target.path} has no {what}",
            f"{rl.link.target}#{anchor}",
            rl.link.line,
            rl.link.column,
            {"target": rl.resolution.path, "anchor": anchor},
        )


def fix_link(vault: Vault, finding: Finding) -> Fix | None:
    """The link that names the page a dead, ambiguous or broken-anchor link means, or None when
    that takes a choice."""
    if finding.line is None:
        return None
    link = _link_at(vault, finding)
    if link is None:
        return None
    text = vault.text_of(finding.path)
    raw = text[link.offset : link.offset + link.length]
    if finding.rule == "broken-anchor":
        return _anchor_fix(vault, finding, link, raw)
    target = _target_page(vault, finding)
    if target is None:
        return None
    guessed = not finding.data.get("alias_of") and finding.rule == "dead-link"
    if guessed and finding.data.get("read_turned"):
        return None  # a typo, or a link written in the other order: a choice
    if guessed and len(_name(link.target)) < SURE_GUESS:
        return None  # one letter off a short name is often another word ([[Claude]], [[Clause]]): a choice
    markdown = link.syntax == "markdown"
    if markdown:
        start, end = markdown_dest_span(raw)
        if guessed and raw[start:end].startswith("/") and not raw[start:end].lower().endswith(".md"):
            return None  # a site's path in a clipped article ([docs](/blog/react-compiler)), not a page's name
        folder = posixpath.dirname(finding.path)
        if guessed and "/" in raw[start:end].strip("./"):  # `./Netzwerk/Hardware` is no typo of `Allgemein/Hardware.md`
            named = posixpath.normpath(posixpath.join(folder, unquote(raw[start:end].split("#")[0])))
            if fold(posixpath.dirname(named)) != fold(posixpath.dirname(target)):
                return None  # the folder it names holds no such page: a choice
        dest = posixpath.relpath(target, folder or ".") if finding.rule == "dead-link" else None
        name = dest or explicit_target(vault.resolver, finding.path, target, True) + ".md"
        new = raw[:start] + quote(name, safe="/") + raw[end:]
    else:
        dendron = link.syntax == DENDRON
        start, end = wiki_target_span(raw, dendron)
        name = explicit_target(vault.resolver, finding.path, target, False)
        new = raw[:start] + name + raw[end:]
        # An alias, or a title in another form of its words ("Lineare Gleichungssysteme"), stays
        # what the reader sees; a typo does not.
        kept = finding.data.get("alias_of") or (guessed and _inflected(link.target, vault.pages[target].title))
        if kept and link.label is None:
            bar = label_bar(text, link.offset)
            if dendron:
                new = new[:start] + f"{link.target}{bar}" + new[start:]
            else:
                new = new[: new.rindex("]]")] + f"{bar}{link.target}]]"
    back = _read_back(new, vault.config.label_first)
    if back is None or vault.resolver.resolve(finding.path, back.target, markdown).path != target:
        return None  # the new link, as read, would not name the page it means: no fix without a choice
    return Fix(finding, finding.path, link.offset, raw, new, target)


def _inflected(written: str, title: str) -> bool:
    """Whether a link's target is the title in another form of its words: the same stems in the
    title's language, not the same letters (a plural, a case ending)."""
    from curator.core.read.words import language_of, stem

    language = language_of(title) or language_of(written) or "en"
    words = [re.findall(r"\w+", fold(name)) for name in (_name(written), title)]
    return words[0] != words[1] and [stem(w, language) for w in words[0]] == [stem(w, language) for w in words[1]]


def _read_back(new: str, dendron: bool) -> Link | None:
    """The one link the text of a fixed link holds as a page's parser reads it; None when it holds
    none or several (a name with `]]` in it, a heading holding a link)."""
    links = links_of(new, dendron)
    return links[0] if len(links) == 1 else None


def _link_at(vault: Vault, finding: Finding) -> Link | None:
    page = vault.pages.get(finding.path)
    if page is None or page.unreadable is not None or page.bad_encoding:
        return None
    return next((k for k in page.links if k.line == finding.line and k.column == finding.column), None)


def _target_page(vault: Vault, finding: Finding) -> str | None:
    data = finding.data
    if finding.rule == "ambiguous-link":
        chosen = data.get("chosen")
        return chosen if isinstance(chosen, str) and chosen in vault.pages else None
    if data.get("alias_of"):
        owners = data["alias_of"]
        return owners[0] if len(owners) == 1 else None  # several pages claim the alias: a choice
    guess = data.get("did_you_mean")
    if not isinstance(guess, str):
        return None
    pages = vault.resolver.titles().get(fold(guess), [])
    return min(pages) if pages else None


def _anchor_fix(vault: Vault, finding: Finding, link: Link, raw: str) -> Fix | None:
    """The one heading (or block id) of the target that the anchor that is not there means."""
    target = vault.pages.get(str(finding.data.get("target")))
    anchor = link.anchor or ""
    if target is None or not anchor or f"#{anchor}" not in raw:
        return None
    block = anchor.startswith("^")
    names = [f"^{b}" for b in target.block_ids] if block else [_shown(h.text) for h in target.headings]
    meant = _meant(anchor if block else anchor.split("#")[-1], names, opaque=block)
    if meant is None:
        return None
    if not block and _LINK_IN_HEADING.search(target.headings[meant].text):
        return None  # which words of a heading that holds a link name it is a choice
    name = names[meant]
    if link.syntax in ("markdown", DENDRON) and not name.startswith("^"):
        name = _slug(name)  # Dendron, like a markdown link, names a heading by its slug
    at = raw.index(f"#{anchor}")
    new = raw[:at] + f"#{name}" + raw[at + 1 + len(anchor) :]
    back = _read_back(new, vault.config.label_first)
    if new == raw or back is None or back.target != link.target or back.anchor != name.strip():
        return None  # the heading does not fit in a link (it holds one): a choice
    return Fix(finding, finding.path, link.offset, raw, new, target.path)


def _meant(wanted: str, names: list[str], opaque: bool = False) -> int | None:
    """Which of the keys an anchor means: the one heading whose words hold the anchor's words (a
    heading that grew: "Short-Term Scheduling (dispatcher)"), else the one heading the anchor is a
    typo of (`_typo`: "Long-Term Scheduling" is not one, nor "Step 4" of "Step 3"); None when none
    is, or several are. `opaque`: block ids, made-up strings a typo changes by one character."""
    if not wanted:
        return None
    if opaque:
        from rapidfuzz.distance import DamerauLevenshtein

        key = wanted.casefold()
        holding = [i for i, name in enumerate(names) if DamerauLevenshtein.distance(key, name.casefold()) <= 1]
    else:
        words = [_words(name) for name in names]
        within = re.compile(rf"(?<!\w){re.escape(_words(wanted))}(?!\w)")
        holding = [i for i, heading in enumerate(words) if within.search(heading)]
        if not holding:
            key = anchor_key(wanted)
            holding = [i for i, name in enumerate(names) if _typo(key, anchor_key(name))]
    return holding[0] if len(holding) == 1 else None


def _words(text: str) -> str:
    """A heading's or an anchor's words, folded, one space apart (`setup-step` is `setup step`)."""
    return " ".join(WORD.findall(fold(text)))


def _slug(heading: str) -> str:
    """The anchor a markdown link uses for a heading (GitHub's rule: lower case, words joined by -)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
