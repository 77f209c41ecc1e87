"""The page a memory's words and its meaning both put first: evidence of where it belongs when
it names no title.

Two rankers that fail differently agree rarely by chance: BM25 (the search index) weighs the
memory's rarer words ("kokoro-tts", "PCIConfigurator", "Zonefiles"), the model its meaning across
languages. When both put one page first and that page holds a word of what the memory is about,
the memory belongs there; a new thing ("Vaultwarden on the docker VM") finds its neighbour first
in both as well, but that page does not name it.

BM25 also breaks a tie of weak names: a one-word title said in the text or a title whose words it
holds (0.80-0.85) is often a word said on the way ("Backup-Key" for `Backups` in a YubiKey order,
"login" for `login` in a server's setup); the page BM25 ranks first wins over it when the meaning,
too, puts that page above it.
"""

from __future__ import annotations

from curator.core.curate.titlecover import text_terms, titles_of
from curator.core.read.page import INDEX_NAMES, title_of
from curator.core.read.titles import is_eventish
from curator.core.read.vault import Vault
from curator.core.read.words import WORD

AGREED = 0.86  # above a title's words said in the text (0.85) and one-word names (0.84), below a name of two words
QUERY_WORDS = 200  # of a memory's words, what BM25 is asked
WEAK_NAMES = (0.8, 0.85)  # a one-word name or a title's words in the text: the best evidence BM25 outranks


def search_first(vault: Vault, text: str) -> str | None:
    """The page BM25 ranks first for `text`, or None (no page, or an index it cannot write)."""
    from curator.core.meaning.search import indexed

    # Words only, lower case (the query parser reads "AND", "field:" and quotes as syntax), each
    # once and the first QUERY_WORDS of them: a memory of 100 KB took whoosh's parser seconds.
    query = " ".join(list(dict.fromkeys(w.lower() for w in WORD.findall(text)))[:QUERY_WORDS])
    try:
        found, _ = indexed(vault).bm25(query, limit=3)
    except OSError:  # a read-only `.curator/search/`: no evidence, no failure
        return None
    return found[0][0] if found and found[0][0] in vault.pages else None


def agreed_page(
    vault: Vault,
    text: str,
    subject: str,
    by_meaning: list[tuple[str, float]],
    own_thing: frozenset[str] | None,
    first_by_words: str | None,
) -> str | None:
    """The page BM25 (`first_by_words`) and the meaning both rank first for `text`, when it holds
    a term of `subject` and, when the text tells no event, the terms `own_thing` of the word that
    names a thing of its own (`subject_head`: "Redis cache cluster" is no fact of `Caching
    strategy`, which mentions Redis; "on 2026-03-09 kokoro-tts died" happened to the thing the page
    is about). An event whose first words the page lacks is not enough: both rankers put a new
    thing's neighbour first too ("2026-11-03: Mosquitto broker crashed" on `Home Assistant`)."""
    if not by_meaning or first_by_words is None or by_meaning[0][0] != first_by_words:
        return None
    held = set(titles_of(vault).analyser.terms(f"{vault.pages[first_by_words].title}\n{vault.text_of(first_by_words)}"))
    if not text_terms(vault, subject) & held:
        return None
    return first_by_words if own_thing is None or own_thing & held or is_eventish(text) else None


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


def outranking_weak_names(
    first_by_words: str | None, scores: dict[str, float], cosine: dict[str, float]
) -> float | None:
    """The score that puts BM25's first page above the best candidate, when that best is only a weak
    name (`WEAK_NAMES`) and the meaning (`cosine`, page -> similarity) also puts BM25's first above
    it. None when the best stands."""
    if first_by_words is None or not scores:
        return None
    best = max(scores, key=lambda path: scores[path])
    low, high = WEAK_NAMES
    if not low <= scores[best] <= high or best == first_by_words:
        return None
    if cosine.get(first_by_words, 0.0) > cosine.get(best, 0.0):
        return round(scores[best] + 0.01, 3)
    return None
