"""A memory that says again, in other words or another language, what a page already says.

`remember` drops a memory whose sentences the page holds word for word, or whose names and
numbers it holds with most of its words (`facts`). Said in other words, or in German on an English
page, neither holds, and the memory was merged in a second time: on the tuning sets' English vaults
(`remember_cases2` to `11`) 2 of 41 repeats were dropped, 30 merged. Here the model compares the memory with
each sentence of the page and each two sentences in a row; the page says it again when one scores
REPEAT_MEANING or more (REPEAT_ACROSS for a German memory the English model reads through the
map) and the page holds every name and number of the memory. A memory that tells an event, a
change, a problem or a "not" is never a repeat: a value of now may be one the page gives
elsewhere, and a negation flips what a close sentence says.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np

from curator.core.curate.facts import STOP, is_news, names_in, negated, sentences
from curator.core.meaning.across import question_vector
from curator.core.meaning.embeddings import BUNDLED_MODEL
from curator.core.meaning.vectors import provider_for, rows_of
from curator.core.read.parse import split_frontmatter
from curator.core.read.resolve import fold
from curator.core.read.words import WORD, stem

if TYPE_CHECKING:
    from curator.core.read.vault import Vault

# Chosen on the tuning sets' memories merged into a page (150 on English vaults), sentences and
# pairs of them (60 a page at most), before the checks on words below: at 0.68-0.73 and 0.58-0.60, 12-13 memories a
# person would drop were dropped and none they would merge; at 0.75 and 0.65, 8. With those
# checks, 7 and none. On German vaults the multilingual model scores repeats 0.49-0.63 and a new
# fact 0.68: nothing is dropped there.
REPEAT_MEANING = 0.7
REPEAT_ACROSS = 0.6
MOST_SENTENCES = 30  # of a long page, those sharing most words with the memory (the model's time)


def restated(vault: Vault, path: str, text: str) -> str | None:
    """The page's sentence (or two) that says `text` again, or None."""
    if is_news(text):
        return None
    page_text = vault.text_of(path)
    if not names_in(text) <= names_in(page_text, every=True):
        return None
    provider, warning = provider_for(vault)
    # Only the English model: with no model there is no meaning to compare, and the multilingual
    # one drops nothing at these scores (above) at four times the time a sentence.
    if warning or not str(getattr(provider, "label", "")).startswith(BUNDLED_MODEL):
        return None
    said = _sentences(page_text, text)
    windows = said + [f"{a} {b}" for a, b in pairwise(said)]
    if not windows:
        return None
    across = question_vector(vault, provider, text)
    vector = rows_of(vault, provider).vector_of(text) if across is None else across
    scores = provider.embed_pieces(windows) @ vector
    best = int(np.argmax(scores))
    said_again = windows[best]
    if scores[best] < (REPEAT_MEANING if across is None else REPEAT_ACROSS) or negated(said_again):
        return None  # a "not" the text leaves out flips what it says
    if _put_in(text, said_again):
        return None
    if across is None and len(_stems(text) - _stems(page_text)) * 3 > len(_stems(text)):
        return None  # a third of its words the page never says: "sent to a Discord webhook" is news
    return said_again


def _put_in(text: str, sentence: str) -> bool:
    """Whether `text` is `sentence` with a word of its own put in ("The production database is
    backed up nightly" against "The staging database ..."): the sentence holds two thirds of its
    words or more, so the word it does not is what the text says. A reminder's opening word is no
    such word."""
    words, held = _stems(text), _stems(sentence)
    return len(words & held) * 3 >= len(words) * 2 and bool(words - held - _ASIDES)


_ASIDES = frozenset(
    stem(w, "en") for w in "reminder remember note fyi heads tip info hinweis erinnerung merke achtung".split()
)


def _stems(text: str) -> set[str]:
    return {stem(fold(w), "en") for w in WORD.findall(text) if len(w) >= 3 and fold(w) not in STOP}


def _sentences(page_text: str, text: str) -> list[str]:
    """The page's sentences of three words or more outside code, in page order; of a long page the
    MOST_SENTENCES sharing most words with `text`."""
    body = page_text[split_frontmatter(page_text)[2] :]
    prose = re.sub(r"```.*?```|~~~.*?~~~", " ", body, flags=re.DOTALL)
    found = [" ".join(s.split()) for line in prose.splitlines() for s in sentences(line) if len(s.split()) >= 3]
    if len(found) <= MOST_SENTENCES:
        return found
    words = _stems(text)
    shared = [len(words & _stems(s)) for s in found]
    kept = sorted(sorted(range(len(found)), key=lambda i: -shared[i])[:MOST_SENTENCES])
    return [found[i] for i in kept]
