"""The search index's analyzer: whoosh tokens turned into `read.words` terms (stop words of the
vault's languages out, Snowball stems, German compounds' parts at the word's position, German
terms the glossary knows as the English ones), so a German query finds English pages and "der"
finds nothing. Imported only where whoosh is (the index pickles the analyzer by this name)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

from whoosh.analysis.acore import Token
from whoosh.analysis.filters import Filter
from whoosh.analysis.tokenizers import RegexTokenizer

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
    return RegexTokenizer() | WordsFilter(languages)  # whoosh's words: "3.14.2" and "a_b" stay whole


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
            for key in _keys(text, self.languages) if len(text) >= 2 else ():
                token.text = key
                yield token
