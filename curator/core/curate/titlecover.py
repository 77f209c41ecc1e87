"""Which pages' titles a text covers, word by word in either language, and which pages hold nothing
of their own to judge a match by (an empty tag page): the title evidence of `remember`."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import NamedTuple

import numpy as np

from curator.core.read.page import Page, has_aliases
from curator.core.read.resolve import fold
from curator.core.read.titles import without_dates
from curator.core.read.vault import Vault
from curator.core.read.words import WORD, Analyser, language_of, vocabulary_of

# An acronym's plural (JWTs, URLs, CVEs): neither stemmer takes its s away (English's wants a vowel before it).
_ACRONYM_PLURAL = re.compile(r"\b([A-Z][A-Z0-9]{1,9})s\b")


def singular(text: str) -> str:
    """`text` with each acronym's plural as the acronym (JWTs -> JWT)."""
    return _ACRONYM_PLURAL.sub(r"\1", text)


# The humps of a name written in camel case ("NodeRAIDDegraded" -> Node RAID Degraded): alert,
# class and service names are titles made of words a text says apart ("the RAID went degraded").
_HUMP = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_CAMEL = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]")


def humps(word: str) -> list[str]:
    """A camel-case word's humps of two letters or more; [] for any other word."""
    if not _CAMEL.search(word):
        return []
    return [h for h in _HUMP.findall(word) if len(h) >= 2]


def text_terms(vault: Vault, text: str) -> set[str]:
    """The terms of a text as the titles are compared with them, a camel-case word's humps among
    them; a date's numbers are no title's words ("21.09.2026" does not name the page `21-label`)."""
    text = singular(without_dates(unicodedata.normalize("NFC", text)))
    analyser = titles_of(vault).analyser
    camel = " ".join(h for w in WORD.findall(text) for h in humps(w))
    return set(analyser.terms(text)) | (set(analyser.terms(camel, language_of(text))) if camel else set())


# German names written without umlauts ("cnc_fraese", "Strasse") are the same names.
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


def phrase(text: str) -> str:
    """A name as the words it is made of, folded, umlauts spelt out: how mentions are compared."""
    # Composed first: a name stored decomposed ("Mu\u0308ller", as macOS writes file names) is one word.
    return " ".join(fold(w).translate(_UMLAUTS) for w in WORD.findall(unicodedata.normalize("NFC", text)))


class Titles(NamedTuple):
    """Every page's title as the units a text may cover (a compound's parts, each word's terms)."""

    analyser: Analyser
    units: dict[str, list[frozenset[str]]]  # page -> one set of terms per unit of its title
    weight: dict[frozenset[str], float]  # a unit's weight: rarer units among the titles say more


def titles_of(vault: Vault) -> Titles:
    """The vault's titles analysed, made once a load."""

    def make() -> Titles:
        names = [p.name for path, p in vault.pages.items() if path != vault.index_page]
        analyser = Analyser(vocabulary=vocabulary_of(names, least=1))
        units: dict[str, list[frozenset[str]]] = {}
        for path, page in vault.pages.items():
            if path == vault.index_page:
                continue
            language = language_of(page.name)
            mine: list[frozenset[str]] = []
            for token in WORD.findall(singular(unicodedata.normalize("NFC", page.name))):
                if camel := humps(token):  # each hump a unit, which the name written whole covers too (PgBouncer)
                    whole = frozenset(k for group in analyser.word_keys(fold(token), language)[:1] for k in group)
                    parts = [analyser.word_keys(fold(h), language)[:1] for h in camel]
                    mine.extend(frozenset(group[0]) | whole for group in parts if group)
                    continue
                keys = analyser.word_keys(fold(token), language)
                if not keys and len(token) == 1:
                    # One letter (the t of "t-Test", the p of "p-Value") tells the page from its
                    # neighbours: it is a unit no text's terms hold, so a text covers such a title
                    # only in part ("unit test" is no t-test).
                    mine.append(frozenset({fold(token)}))
                # a compound is its parts (keys[1:]); a plain word is itself
                mine.extend(frozenset(k) for k in (keys[1:] if len(keys) > 1 else keys))
            units[path] = mine
        counts: dict[frozenset[str], int] = {}
        for mine in units.values():
            for unit in set(mine):
                counts[unit] = counts.get(unit, 0) + 1
        total = max(len(units), 1)
        weight = {unit: float(np.log(1.0 + total / n)) for unit, n in counts.items()}
        return Titles(analyser, units, weight)

    return vault.once("remember.titles", make)


def title_cover(vault: Vault, have: set[str]) -> list[tuple[float, str]]:
    """(share of the title the text covers, page), best first: the share of each page's title
    units (words, a compound's parts, weighted by rarity) whose terms, in either language, are in
    the text's terms `have` (`text_terms`)."""
    titles = titles_of(vault)
    found = []
    for path, units in titles.units.items():
        if not units:
            continue
        total = sum(titles.weight[u] for u in units)
        covered = sum(titles.weight[u] for u in units if u & have)
        if covered:
            found.append((covered / total, path))
    return sorted(found, key=lambda item: (-item[0], item[1]))


# What a page holds besides words of its own: tags, links, template labels ("Source:"), dates and times.
_NOT_WORDS = re.compile(r"(?m)#[^\s#]+|!?\[\[[^\]]*\]\]|^\s*[\w -]{1,24}:|\d[\d:.\-/]*")


def empty(vault: Vault, path: str) -> bool:
    """Whether the page says nothing of its own: only a title, frontmatter, headings, tags, links or
    a template's empty fields (a tag's index page, a note never written)."""
    from curator.core.read.boilerplate import body_sentences

    if vault.pages[path].body_chars > 400:
        return False
    rest = _NOT_WORDS.sub(" ", "\n".join(body_sentences(vault.text_of(path))))
    return len(WORD.findall(rest)) < 2


def whole_word_of(vault: Vault, name: str, subject: str) -> bool:
    """Whether a one-word name is a whole word of `subject` in either language (its stem), not a
    part of one of its compounds: "Satz" is no word of "Chinesischer Restsatz"."""
    return _whole_word_in(vault, name, _whole_words(vault, subject))


def _whole_words(vault: Vault, subject: str) -> set[str]:
    """The terms of each whole word of `subject` (its compounds' parts left out)."""
    analyser, language = titles_of(vault).analyser, language_of(subject)
    return {k for w in WORD.findall(singular(subject)) for k in (analyser.word_keys(fold(w), language)[:1] or [()])[0]}


def _whole_word_in(vault: Vault, name: str, said: set[str]) -> bool:
    words = WORD.findall(singular(name))
    if len(words) != 1:
        return False
    mine = titles_of(vault).analyser.word_keys(fold(words[0]), language_of(name))
    return bool(mine) and bool(set(mine[0]) & said)


def names_subject(vault: Vault, path: str, subject: str) -> bool:
    """Whether the page's title (or an alias) is what the text is about, word for word in either
    language: each unit of the title is a word of the subject and each word of it a unit."""
    page = vault.pages[path]
    if phrase(subject) in {phrase(n) for n in (page.name, *page.aliases)}:
        return True
    titles = titles_of(vault)
    language = language_of(subject)
    mine = [
        frozenset(k for g in titles.analyser.word_keys(fold(w), language) for k in g)
        for w in WORD.findall(singular(subject))
    ]
    mine = [m for m in mine if m]
    units = titles.units.get(path, [])
    return (
        bool(units and mine)
        and all(any(u & m for m in mine) for u in units)
        and all(any(u & m for u in units) for m in mine)
    )


def subject_head(vault: Vault, subject: str, text: str) -> frozenset[str] | None:
    """The terms of the last word of `subject`, the name the text would get, when that name has
    two words or more ("Redis cache cluster" -> cluster): then the text is about a thing of its own."""
    words = subject.split()
    if len(words) < 2:
        return None
    keys = titles_of(vault).analyser.word_keys(fold(singular(words[-1])), language_of(text))
    return frozenset(k for group in keys for k in group) if keys else None


def bearing_subject_words(vault: Vault, subject: str, covered: list[tuple[float, str]]) -> set[str]:
    """The pages the text covers a title of in part or whole that bear a whole word of its
    subject in their title ("PackageCloud" bears on `packagecloud-infrastructure`, not on
    `database`); when none does, every page is: the subject has no page, and a word said on the way
    may be the place."""
    pages = {path for _, path in covered}
    said = _whole_words(vault, subject)  # once, for every covered title
    bearing = {
        path
        for path in pages
        if any(_whole_word_in(vault, word, said) for word in WORD.findall(vault.pages[path].name))
    }
    return bearing or pages


def names_its_modifier(vault: Vault, path: str, have: set[str], subject_head: frozenset[str] | None) -> bool:
    """Whether the text (its terms `have`) covers a unit of the page's title other than its last
    (the word that tells it from its neighbours: "Zertifikat" of Zertifikatserneuerung, not "API"
    of Payments API), and its own subject, when it has one of two words or more, ends in a unit of
    the title."""
    titles = titles_of(vault)
    units = titles.units[path]
    if not any(unit & have for unit in units[:-1] if not all(term.isdigit() for term in unit)):
        return False  # a number tells no page from its neighbours ("12 Minuten" is no `12-col`)
    return subject_head is None or any(unit & subject_head for unit in units)


def named(vault: Vault, name: str, but: str | None = None) -> list[str]:
    """The pages whose title or an alias is `name`, word for word (`but` left out: the index page)."""
    wanted = phrase(name)
    return sorted(
        p for p, page in vault.pages.items() if p != but and wanted in {phrase(n) for n in (page.name, *page.aliases)}
    )


# A title filed under a shelf name several titles share ("Service - prowlarr", "VM - dev-node-01",
# "Netzwerk – TLS"): the part after the shelf names the thing too.
_FILED = re.compile(r"^([^\W\d_][\w .]{0,30}?)\s+[-–—:]\s+(\S.*)$")


class Names(NamedTuple):
    """Every page's title, aliases and own heading as the words they are made of (see `phrase`)."""

    phrases: dict[str, list[tuple[str, str, str]]]  # phrase -> (page, name, "title", "alias" or "heading")


_LETTER = re.compile(r"[^\W\d_]")


def _names(vault: Vault) -> Names:
    """The vault's names, made once a load."""

    def make() -> Names:
        phrases: dict[str, list[tuple[str, str, str]]] = {}
        things: dict[str, list[tuple[str, str, str]]] = {}
        headings: dict[str, list[tuple[str, str, str]]] = {}
        filed = {path: m for path, page in vault.pages.items() if (m := _FILED.match(page.name))}
        shelves = Counter(fold(m.group(1)) for m in filed.values())
        for path, page in vault.pages.items():
            if path == vault.index_page:
                continue  # never the place for a memory: it lists pages
            key = phrase(page.name)
            if len(key) >= 4 and _LETTER.search(key):  # a year or a number alone ("2026") names nothing
                phrases.setdefault(key, []).append((path, page.name, "title"))
            thing = filed[path].group(2) if path in filed and shelves[fold(filed[path].group(1))] >= 2 else None
            if thing and len(phrase(thing)) >= 4:  # "Service - prowlarr" is the page of Prowlarr
                things.setdefault(phrase(thing), []).append((path, thing, "title"))
            if has_aliases(page.frontmatter):
                for alias in page.aliases:
                    if len(phrase(alias)) >= 4 and _LETTER.search(phrase(alias)):
                        phrases.setdefault(phrase(alias), []).append((path, alias, "alias"))
            heading = _heading_name(page)
            if heading and phrase(heading) != key and len(phrase(heading)) >= 4 and _spells(page.name, heading):
                headings.setdefault(phrase(heading), []).append((path, heading, "heading"))
        # A name no page goes by whole, of one page alone: a shelf's thing, or a heading naming the
        # page otherwise than its file (`mzf.md`, "# Mehrzweckfahrzeug", as a site shows it).
        for key, found in [*things.items(), *headings.items()]:
            if key not in phrases and len(found) == 1:
                phrases[key] = found
        return Names(phrases)

    return vault.once("remember.names", make)


def _heading_name(page: Page) -> str | None:
    """The page's own heading: its first, when of level one."""
    return page.headings[0].text.strip() if page.headings and page.headings[0].level == 1 else None


def _spells(name: str, heading: str) -> bool:
    """Whether a file's name spells its heading: written together ("steffenwoerner", "Steffen
    Wörner"), or a short name of its letters in order from its first ("mzf", "Mehrzweckfahrzeug").
    "# Overview" over `README.md`, "# Instructions" over `AGENTS.md` name no page."""
    short, long = _letters(name), _letters(heading)
    if not short or not long:
        return False
    if short == long:
        return True
    rest = iter(long[1:])
    return len(short) <= 6 and short[0] == long[0] and all(letter in rest for letter in short[1:])


def _letters(text: str) -> str:
    """The text's letters and digits, "ä" as "ae" and "é" as "e"."""
    plain = unicodedata.normalize("NFKD", fold(text).translate(_UMLAUTS))
    return "".join(re.findall(r"[a-z0-9]", plain))


def mentions(vault: Vault, text: str) -> list[tuple[str, str, str]]:
    """(page, name, "title", "alias" or "heading") for each page whose name (`_names`) the text names, as
    whole words of four letters or more. A name written as code (`free()`, `Vec<T>`) is named only
    as written: "the next free slot" names no function. Of a name inside a longer one the text
    names ("Hash" in "hash table"), only the longer counts. An e-mail address names no page: the
    owner's page is not what "the token for Dave@DRS-Engineering.net expired" is about."""
    text = _EMAIL.sub(" ", text)
    words = phrase(text).split()
    phrases = _names(vault).phrases
    grams = {" ".join(words[i : i + n]) for n in range(1, 7) for i in range(len(words) - n + 1)}
    folded = fold(text)
    found = [
        (gram, mention)
        for gram in sorted(grams)
        for mention in phrases.get(gram, ())
        if (not _CODE_NAME.search(mention[1]) or fold(mention[1]) in folded) and _as_written(mention[1], text)
    ]
    named = {gram for gram, _ in found}
    inside = {gram for gram in named if any(gram != other and f" {gram} " in f" {other} " for other in named)}
    return [mention for gram, mention in found if gram not in inside]


_CODE_NAME = re.compile(r"[()\[\]{}<>]")  # brackets: a function's, a type's or a tag's name
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def _as_written(name: str, text: str) -> bool:
    """Whether the text names the page `name` somewhere as `named_at` takes a mention."""
    if " " in name or not name.isupper():
        return True
    return any(
        named_at(name, text, m.start(), m.end()) for m in re.finditer(rf"(?i)(?<!\w){re.escape(name)}(?!\w)", text)
    )


def named_at(name: str, text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]`, the page name `name` in other case or not, names that page: a name
    of one word in capitals does only with a capital or inside a name (an agent's `MEMORY.md`,
    `PROJECT.md` or `HEARTBEAT.md` is no mention of "out of memory" or "the project", its
    `RAILWAY.md` one of "a Railway deploy", `HASS.md` one of "hass-VM"); not with a capital beside
    another capitalised word, a part of another name ("a System User" is no `USER.md`), nor opening a
    sentence, nor in German, which capitalises every noun, unless in capitals."""
    if " " in name or not name.isupper():
        return True
    said = text[start:end]
    # Joined to a name by "-" or "_" ("hass-VM"), not to a word ("user-facing").
    joined = re.match(r"[-_][A-Z0-9]", text[end : end + 2]) or re.search(
        r"[A-Z0-9][-_]\Z", text[max(start - 2, 0) : start]
    )
    if said.isupper() or joined:
        return True
    # A capital opening a sentence says nothing ("User accounts were ...", "Tools: restic").
    opening = not text[:start].strip() or text[:start].rstrip()[-1:] in ".!?:"
    if not said[:1].isupper() or opening or language_of(text) == "de":
        return False
    before = re.search(r"([^\W\d_][\w-]*)\s+\Z", text[:start])
    after = re.match(r"\s+([^\W\d_][\w-]*)", text[end:])
    beside = [w.group(1) for w in (before, after) if w is not None and (w is after or w.start() > 0)]
    return not any(word[:1].isupper() for word in beside)


def inside_a_longer_name(name: str, text: str) -> bool:
    """Whether a title written in small letters ("home") is named in the text only with a capital,
    beside another capitalised word: a part of another thing's name ("Home Assistant", "Google
    Drive"), not the page."""
    if not name.islower() or " " in name:
        return False
    found = list(re.finditer(rf"(?i)(?<![\w-]){re.escape(name)}(?![\w-])", text))
    for match in found:
        if not text[match.start()].isupper():
            return False
        before = re.search(r"([^\W\d_][\w-]*)\s+\Z", text[: match.start()])
        after = re.match(r"\s+([^\W\d_][\w-]*)", text[match.end() :])
        beside = [w.group(1) for w in (before, after) if w is not None and (w is after or w.start() > 0)]
        if not any(word[:1].isupper() for word in beside):
            return False
    return bool(found)
