"""A title a dead link means in other forms of its words: "Zertifikats-Erneuerung" for the page
Zertifikatserneuerung, "Certificates renewal" for Certificate renewal (the same terms once stop
words are out, words stemmed and compounds split), for the dead-link rule's "did you mean"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from curator.core.common.names import name_marks
from curator.core.read.resolve import fold
from curator.core.read.words import WORD, Analyser, language_of, vocabulary_of

if TYPE_CHECKING:
    from curator.core.read.vault import Vault


def _key(analyser: Analyser, name: str) -> frozenset[str]:
    """A name's words as terms: each plain word by its first term (its stem in its own language),
    a compound by its parts'."""
    language = language_of(name)
    units: set[str] = set()
    for token in WORD.findall(name):
        keys = analyser.word_keys(fold(token), language)
        units.update(group[0] for group in (keys[1:] if len(keys) > 1 else keys))
    return frozenset(units)


def same_words(vault: Vault, targets: set[str]) -> dict[str, str]:
    """Each target whose words are those of exactly one title, in other forms: target -> title."""
    if not targets:
        return {}
    titles = {path: page.title for path, page in vault.pages.items()}
    analyser = Analyser(vocabulary=vocabulary_of(titles.values(), least=1))
    by_key: dict[frozenset[str], set[str]] = {}
    for title in titles.values():
        key = _key(analyser, title)
        if key:
            by_key.setdefault(key, set()).add(title)
    found = {}
    for target in targets:
        name = target.rsplit("/", 1)[-1].removesuffix(".md")
        matches = by_key.get(_key(analyser, name), set())
        if len(matches) == 1 and name_marks(name) == name_marks(title := next(iter(matches))):
            found[target] = title
    return found
