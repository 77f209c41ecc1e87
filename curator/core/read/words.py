"""Words as a speaker of the text's language writes them: the language of a text, stop words,
stems (Snowball) and German compounds split, so that "Zertifikatserneuerung" shares terms with
"Zertifikat" and, through the glossary, with "certificate renewal".

`Analyser.terms` turns a text into terms: tokens folded, stop words of every language in play
left out, German compounds split into their known parts (the whole word kept too), each stemmed
in its language and German stems that the glossary knows replaced by the English stem, so that
both languages meet on one term.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from curator.core.read.glossary import GERMAN_ENGLISH
from curator.core.read.resolve import fold

if TYPE_CHECKING:
    from curator.core.read.vault import Vault

LANGUAGES = ("en", "de")
WORD = re.compile(r"[^\W_]+")  # a word: letters and digits, no underscore
_LINKS = ("s", "es", "n", "en", "")  # what may join two parts of a German compound (Zertifikat|s|erneuerung)
_MIN_PART = 3
_MIN_COMPOUND = 7
_MAX_COMPOUND = 64


@cache
def stop_words(language: str) -> frozenset[str]:
    """The language's stop words, folded: whoosh's short English list (which the search was
    tuned with: "how", "what", "no" still count), its Snowball list for the others."""
    if language == "en":
        from whoosh.analysis.filters import STOP_WORDS

        return frozenset(STOP_WORDS)
    from whoosh.lang.stopwords import stoplists

    return frozenset(fold(w) for w in stoplists.get(language, ()))


_SNOWBALL_NAMES = {"en": "english", "de": "german"}


@cache
def _stemmer(language: str) -> Callable[[str], str]:
    """Snowball in Rust (py-rust-stemmers, which fastembed brings): a fifteenth of the time of
    whoosh's Python Snowball, which every title and indexed word goes through."""
    from py_rust_stemmers import SnowballStemmer

    stem: Callable[[str], str] = SnowballStemmer(_SNOWBALL_NAMES[language]).stem_word
    return stem


def stem(word: str, language: str) -> str:
    """The Snowball stem of a folded word in `language` (the word itself for an unknown language)."""
    return _stemmer(language)(word) if language in LANGUAGES else word


def language_of(text: str) -> str:
    """The language of `text` among LANGUAGES, by which language's stop words it uses most; for a
    name without any, "de" by its letters or endings, else "" (unknown): cheap, and right for any
    sentence of a few words."""
    return _by_stop_words(text) or _by_letters(text)


def _by_letters(text: str) -> str:
    """ "de" for a text whose letters or endings are German (umlauts, -ung, -keit), else ""."""
    return "de" if _GERMANISH.search(fold(text)) else ""


def _by_stop_words(text: str) -> str:
    """The language whose stop words `text` uses most; "" when it uses none."""
    counts = dict.fromkeys(LANGUAGES, 0)
    for token in WORD.findall(text[:4000]):
        word = fold(token)
        for language in LANGUAGES:
            counts[language] += word in _MARKERS[language]
    if not any(counts.values()):
        return ""
    return max(LANGUAGES, key=lambda lang: (counts[lang], lang == "en"))


# A name without stop words (a title) that is German by its letters or endings.
_GERMANISH = re.compile(r"[äöüß]|(?:ung|keit|heit|schaft|lich|ierung|isch)(?:en|s)?\b")


# Words that tell a language apart: its stop words that the other language does not have.
_MARKERS = {
    # Not "was", "in" or "an": German says them too ("Was bekommt der Hund?", "Feiertage in der
    # Firma"), and a tie goes to English.
    "en": frozenset("the a is are were of to and with for on at by from this that it not no".split()),
    "de": frozenset(
        "der die das den dem des ein eine einen einem einer und ist sind war wurde wird nicht kein keine mit "
        "für auf bei nach vom zum zur im am auch noch nur schon wieder über wir ich sich hat haben hatte "
        "werden wurden seit unser unsere unserem unseren unserer heute gestern zu wie wo warum wann welche "
        "welcher welches kann muss dass oder wenn von ohne aus ins eines jetzt statt anstatt alle bis mehr immer "
        "dort hier".split()
    ),
}


@cache
def glossary() -> dict[str, str]:
    """German stem -> the English stem it means (the first English word of its line)."""
    table: dict[str, str] = {}
    for line in GERMAN_ENGLISH.splitlines():
        german, _, english = line.partition("=")
        target = stem(fold(english.split()[0]).split("-")[-1], "en")  # "on-call" is written "on call" too
        for word in german.split():
            table.setdefault(stem(fold(word), "de"), target)
    return table


@cache
def words_key() -> str:
    """What an index of terms was analysed with, as a short key: the glossary's text (a changed
    glossary makes other terms of the same words)."""
    import hashlib

    return hashlib.sha256(GERMAN_ENGLISH.encode("utf-8")).hexdigest()[:16]


@cache
def _glossary_words() -> frozenset[str]:
    return frozenset(fold(w) for line in GERMAN_ENGLISH.splitlines() for w in line.partition("=")[0].split())


def split_compound(word: str, known: Callable[[str], bool]) -> list[str]:
    """A folded German word as the known words it is made of, left to right (Zertifikatserneuerung
    -> zertifikat, erneuerung), or [word] when it is not such a compound. The split with the
    fewest parts wins, then the one with the longest last part (the head)."""
    if not _MIN_COMPOUND <= len(word) <= _MAX_COMPOUND:  # longer is no word but data (a hash, a blob)
        return [word]
    best: list[str] | None = None

    def walk(rest: str, parts: list[str]) -> None:
        nonlocal best
        if best is not None and len(parts) >= len(best):
            return
        if known(rest) and parts:
            candidate = [*parts, rest]
            if best is None or _better(candidate, best):
                best = candidate
            return
        for end in range(len(rest) - _MIN_PART, _MIN_PART - 1, -1):
            head = rest[:end]
            if not known(head):
                continue
            for link in _LINKS:
                if rest[end:].startswith(link) and len(rest) - end - len(link) >= _MIN_PART:
                    walk(rest[end + len(link) :], [*parts, head])

    walk(word, [])
    return best or [word]


def _better(split: list[str], other: list[str]) -> bool:
    """Fewer parts, then the longer head, then the shorter parts before it (the joining s left out)."""
    return (len(split), -len(split[-1]), sum(map(len, split))) < (len(other), -len(other[-1]), sum(map(len, other)))


@dataclass(frozen=True)
class Analyser:
    """Terms of a text for the vault's languages; `vocabulary` holds the words compounds are
    split against (the glossary's German words always). A vault of one language still stems
    and splits a word of the other (a German question on English pages), but keeps its stop
    words ("man" is an English page's word)."""

    languages: tuple[str, ...] = LANGUAGES
    vocabulary: frozenset[str] = frozenset()
    stop_languages: tuple[str, ...] | None = None  # whose stop words are left out (default: `languages`)
    _stops: frozenset[str] = field(init=False, repr=False, compare=False)
    _memo: dict[tuple[str, str, bool], list[tuple[str, ...]]] = field(init=False, repr=False, compare=False)
    _known: dict[str, bool] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_memo", {})  # a word's keys: a vault's words repeat
        object.__setattr__(self, "_known", {})
        stops: set[str] = set()
        for language in self.languages if self.stop_languages is None else self.stop_languages:
            stops |= stop_words(language)
        object.__setattr__(self, "_stops", frozenset(stops))

    def known(self, word: str) -> bool:
        """A word compounds are split against: in the vocabulary or the glossary, or its stem is."""
        found = self._known.get(word)
        if found is None:
            found = word in self.vocabulary or word in _glossary_words()
            found = found or (len(word) >= 5 and stem(word, "de") in glossary())
            self._known[word] = found
        return found

    def is_stop(self, word: str) -> bool:
        return fold(word) in self._stops

    def terms(self, text: str, language: str | None = None) -> list[str]:
        """The text's terms, in order (a compound gives its parts after the whole word; a word of
        a text of unknown language its stem in each language)."""
        language = language_of(text) if language is None else language
        out: list[str] = []
        for token in WORD.findall(text):
            for keys in self.word_keys(fold(token), language):
                out.extend(keys)
        return out

    def word_keys(self, word: str, language: str, only: bool = False) -> list[tuple[str, ...]]:
        """One folded word's terms, one tuple per word it stands for (itself, then a compound's
        parts), each tuple the terms of that word (its stem in each language, its own language's
        first; with `only`, in `language` alone); [] for a stop word."""
        key = (word, language, only)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._word_keys(word, language, only)
        return found

    def _word_keys(self, word: str, language: str, only: bool) -> list[tuple[str, ...]]:
        if word in self._stops or len(word) < 2:
            return []
        words = [word]
        if language in ("de", "") and "de" in self.languages:
            parts = split_compound(word, self.known)
            if len(parts) > 1:
                words.extend(parts)
                language = "de"
        # Its stem in every language in play: agents mix them ("Die Backups", "Zahlungs-API").
        languages = (language,) if only and language else (language, *self.languages) if language else self.languages
        return [tuple(dict.fromkeys(_pivot(w, lang) for lang in languages)) for w in words]


def _pivot(word: str, language: str) -> str:
    """The term a word stands for: its stem, and a German stem the glossary knows as the English one."""
    if language == "de":
        stemmed = stem(word, "de")
        return glossary().get(stemmed, stemmed)
    return stem(word, language)


def vocabulary_of(texts: Iterable[str], least: int = 2) -> frozenset[str]:
    """The folded words of at least four letters that occur `least` times or more in `texts`: what
    a vault's own compounds are split against."""
    counts: dict[str, int] = {}
    for text in texts:
        for token in WORD.findall(text):
            if len(token) >= 4:
                word = fold(token)
                counts[word] = counts.get(word, 0) + 1
    return frozenset(w for w, n in counts.items() if n >= least)


LANGUAGE_SAMPLE = 200  # pages read to tell a vault's languages, about


def languages_of(vault: Vault) -> tuple[str, ...]:
    """The vault's languages, told from about LANGUAGE_SAMPLE of its pages, once a load. Each page
    is in the sample by a draw of its own (a hash of its path), so a page added or removed changes
    the sample by that page: every n-th page by name, as it was, changed half the sample with one
    new page, and the vault's model and words index with it."""

    def make() -> tuple[str, ...]:
        share = LANGUAGE_SAMPLE / max(len(vault.pages), 1)
        paths = sorted(p for p in vault.pages if _draw(p) < share)
        return vault_languages(vault.text_of(p)[:2000] for p in paths)

    return vault.once("languages", make)


def _draw(path: str) -> float:
    """A number in [0, 1) that is the path's own, the same on every run and machine."""
    digest = hashlib.blake2b(path.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64


def vault_languages(texts: Iterable[str]) -> tuple[str, ...]:
    """The languages of a vault, by the language of each of (a sample of) its pages: each that
    a tenth of them are written in, most written first, and English always. A page without stop
    words (a list of links, a name: "- [[Gödel]]") has a say, by its letters, only when none has."""
    counts = dict.fromkeys(LANGUAGES, 0)
    by_letters = dict.fromkeys(LANGUAGES, 0)
    for text in texts:
        language = _by_stop_words(text)
        if language:
            counts[language] += 1
        elif guessed := _by_letters(text):
            by_letters[guessed] += 1
    counts = counts if any(counts.values()) else by_letters
    total = sum(counts.values())
    found = [lang for lang in sorted(LANGUAGES, key=lambda lang: -counts[lang]) if total and counts[lang] >= total / 10]
    # English as well, after the vault's own: technical notes in any language are full of it.
    return tuple(dict.fromkeys([*found, "en"]))
