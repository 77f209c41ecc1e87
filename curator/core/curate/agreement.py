"""The page a memory's words and its meaning both put first: evidence of where it belongs when
it names no title.

Two rankers that fail differently agree rarely by chance: BM25 (the search index) weighs the
memory's rarer words ("kokoro-tts", "PCIConfigurator", "Zonefiles"), the model its meaning across
languages. When both put one page first and that page holds a word of what the memory is about,
the memory belongs there; a new thing ("Vaultwarden on the docker VM") finds its neighbour first
in both as well, but that page does not name it.
"""

from __future__ import annotations

from curator.core.curate.titlecover import text_terms, titles_of
from curator.core.read.page import INDEX_NAMES, title_of
from curator.core.read.titles import is_eventish
from curator.core.read.vault import Vault
from curator.core.read.words import WORD

AGREED = 0.86  # above a title's words said in the text (0.85) and one-word names (0.84), below a name of two words
QUERY_WORDS = 200  # of a memory's words, what BM25 is asked


def agreed_page(
    vault: Vault, text: str, subject: str, by_meaning: list[tuple[str, float]], own_thing: frozenset[str] | None
) -> str | None:
    """The page BM25 and the meaning both rank first for `text`, when it holds a term of `subject`
    and, when the text tells no event, the terms `own_thing` of the word that names a thing of its
    own (`subject_head`: "Redis cache cluster" is no fact of `Caching strategy`, which mentions
    Redis; "on 2026-03-09 kokoro-tts died" happened to the thing the page is about)."""
    if not by_meaning:
        return None
    from curator.core.meaning.search import indexed

    # Words only, lower case (the query parser reads "AND", "field:" and quotes as syntax), each
    # once and the first QUERY_WORDS of them: a memory of 100 KB took whoosh's parser seconds.
    query = " ".join(list(dict.fromkeys(w.lower() for w in WORD.findall(text)))[:QUERY_WORDS])
    try:
        found, _ = indexed(vault).bm25(query, limit=3)
    except OSError:  # an index it cannot write (a read-only `.curator/search/`): no evidence, no failure
        return None
    first = by_meaning[0][0]
    if not found or found[0][0] != first or first not in vault.pages:
        return None
    page = vault.pages[first]
    held = set(titles_of(vault).analyser.terms(f"{page.title}\n{vault.text_of(first)}"))
    if not text_terms(vault, subject) & held:
        return None
    return first if own_thing is None or own_thing & held or is_eventish(text) else None


def agreed_score(agreed: str, scores: dict[str, float]) -> float:
    """AGREED; above a folder's overview page (its README or index) the text names when the agreed
    page lies in that folder: "the Odoo backup failed" names the project `becker-odoo`, whose
    README lists its pages, and belongs on the page on backups inside it."""
    overviews = [
        score
        for path, score in scores.items()
        if path != agreed
        and "/" in path
        and title_of(path).lower() in INDEX_NAMES
        and agreed.startswith(path.rsplit("/", 1)[0] + "/")
    ]
    return max([AGREED, *(score + 0.01 for score in overviews)])
