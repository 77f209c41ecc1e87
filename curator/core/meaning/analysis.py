"""The search index's analyzer: whoosh tokens turned into `read.words` terms (stop words of the
vault's languages out, Snowball stems, German compounds' parts at the word's position, German
terms the glossary knows as the English ones), so a German query finds English pages and "der"
finds nothing. Imported only where whoosh is (the index pickles the analyzer by this name)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

from whoosh.analysis.acore import Token
from whoosh.analysis.filters import Filter
from whoosh.analysis.tokenizers import RegexTokenizer

from curator.core.meaning.page_reads import CJK
from curator.core.read.resolve import fold
from curator.core.read.words import LANGUAGES, Analyser, language_of, split_compound


@cache
def _analyser(languages: tuple[str, ...]) -> Analyser:
    """Every language's stems and compounds, the vault's own first; only its own stop words."""
    return Analyser(tuple(dict.fromkeys([*languages, *LANGUAGES])), stop_languages=languages)


@cache
def _keys(word: str, languages: tuple[str, ...]) -> tuple[str, ...]:
    """A folded word's terms for the index (each word is seen many times: worked out once). In a
    vault of one language a word is taken as of that language unless it looks German (its
    letters, its endings, or parts the glossary knows), so English pages keep English stems."""
    analyser = _analyser(languages)
    language = "" if len(languages) > 1 else languages[0]
    if language == "en" and (language_of(word) == "de" or len(split_compound(word, analyser.known)) > 1):
        language = ""
    return tuple(dict.fromkeys(k for group in analyser.word_keys(word, language, only=True) for k in group))


def search_analyzer(languages: tuple[str, ...]) -> Any:
    """The analyzer of the index's text fields and of its queries, for the vault's languages."""
    return WordsTokenizer() | WordsFilter(languages)  # whoosh's words: "3.14.2" and "a_b" stay whole


# Chinese, Japanese and Korean: Korean spaces its words but joins particles to them ("인덱스는"
# for "인덱스"), which pairs of syllables find again.
_LETTERS = rf"{CJK}\uac00-\ud7af"
_RUN = re.compile(rf"[{_LETTERS}]+")
_WIDE = re.compile(r"[\uff01-\uff5e]")  # full-width Latin letters, digits and signs: "ＡＰＩ" is "API"


class WordsTokenizer(RegexTokenizer):
    """whoosh's words, with Chinese, Japanese and Korean read two characters at a time,
    overlapping, as Lucene's CJK analyzer reads them ("枚举类型" is 枚举 举类 类型): they put no
    space between words, so a page titled "枚举类型enum" was one word no question of "枚举类型"
    met. A question of one character asks for the pairs it opens (`lone_characters_as_prefixes`)."""

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: Any,
    ) -> Iterator[Token]:
        if tokenize and _WIDE.search(value):
            value = _WIDE.sub(lambda wide: unicodedata.normalize("NFKC", wide.group(0)), value)
        if not tokenize or not _RUN.search(value):
            yield from super().__call__(
                value, positions, chars, keeporiginal, removestops, start_pos, start_char, tokenize, mode, **kwargs
            )
            return
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        pos = start_pos
        for match in self.expression.finditer(value):
            for start, end in _pieces(match.group(0), match.start()):
                token.text, token.boost, token.stopped = value[start:end], 1.0, False
                if keeporiginal:
                    token.original = token.text  # type: ignore[attr-defined]
                if positions:
                    token.pos = pos
                if chars:
                    token.startchar, token.endchar = start_char + start, start_char + end
                pos += 1
                yield token


def _pieces(word: str, at: int) -> Iterator[tuple[int, int]]:
    """The spans of a word's pieces: each run of Chinese, Japanese or Korean characters two at a
    time (one alone), and the letters and digits between runs whole."""
    done = 0
    for run in _RUN.finditer(word):
        if run.start() > done:
            yield at + done, at + run.start()
        first, last = run.start(), run.end()
        for i in range(first, max(first + 1, last - 1)):
            yield at + i, at + min(i + 2, last)
        done = last
    if done < len(word):
        yield at + done, at + len(word)


_LONE = re.compile(rf"(?<![{_LETTERS}])([{_LETTERS}])(?![{_LETTERS}*])")


def lone_characters_as_prefixes(question: str) -> str:
    """A question's Chinese, Japanese or Korean character standing alone ("鱼") as the prefix of
    the pairs it opens ("鱼*": 鱼 itself and 鱼肉, 鱼类 ...): the index holds pairs, not each
    character (which made a Japanese handbook's first search 36 s longer)."""
    return _LONE.sub(r"\1*", question)


class WordsFilter(Filter):
    """Each token's terms: the first in the token's place, the rest at the same position."""

    is_morph = True

    def __init__(self, languages: tuple[str, ...]) -> None:
        self.languages = tuple(languages)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WordsFilter) and other.languages == self.languages

    def __hash__(self) -> int:
        return hash(self.languages)

    def __call__(self, tokens: Iterable[Token]) -> Iterator[Token]:  # type: ignore[override]
        for token in tokens:
            text = fold(token.text)
            if _RUN.match(text):  # no stems, stop words or compounds of theirs
                token.text = text
                yield token
                continue
            for key in _keys(text, self.languages) if len(text) >= 2 else ():
                token.text = key
                yield token
