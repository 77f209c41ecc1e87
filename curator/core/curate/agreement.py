"""The page a memory's words and its meaning both put first: evidence of where it belongs when
it names no title.

Two rankers that fail differently agree rarely by chance: BM25 (the search index) weighs the
memory's rarer words ("kokoro-tts", "PCIConfigurator", "Zonefiles"), the model its meaning across
languages. When both put one page first and that page holds a word of what the memory is about,
the memory belongs there; a new thing ("Vaultwarden on the docker VM") finds its neighbour first
in both as well, but that page does not name it.

Where neither names a title and their scores stay under the threshold, words only one to three
pages of the vault hold are evidence: a memory that shares such names ("Ookla", "69406",
"member02", "Zyxel NWA50AX") with the page BM25 ranks first, and with no other page as much, is
about what that page is about, when the page holds a word of what the memory is about
("Paperless-ngx runs on pve02" is no fact of the inventory that lists pve02). Plain words rare in a
small vault ("rack", "cameras", "push") count half: a new thing's memory shares one such word with
some page.

BM25 also breaks a tie of weak names: a one-word title said in the text or a title whose words it
holds (0.80-0.85) is often a word said on the way ("Backup-Key" for `Backups` in a YubiKey order,
"login" for `login` in a server's setup); the page BM25 ranks first wins over it when the meaning,
too, puts that page above it.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from whoosh.lang.stopwords import stoplists

from curator.core.curate.facts import EDGES, SPECIFIC, names_in
from curator.core.curate.replaced import replaced_names, replaced_numbers, states_replaced, whole_word
from curator.core.curate.titlecover import phrase, text_terms, titles_of
from curator.core.curate.titling import title_for
from curator.core.read.page import INDEX_NAMES, title_of
from curator.core.read.resolve import fold
from curator.core.read.titles import find_date, is_eventish, names_a_day
from curator.core.read.vault import Vault
from curator.core.read.words import LANGUAGES, WORD, language_of

AGREED = 0.86  # above a title's words said in the text (0.85) and one-word names (0.84), below a name of two words
QUERY_WORDS = 200  # of a memory's words, what BM25 is asked
WEAK_NAMES = (0.8, 0.85)  # a one-word name or a title's words in the text: the best evidence BM25 outranks
RARE = 3  # a word at most this many pages hold is rare (fewer in a vault under 150 pages)
RARE_NAMES = 0.81  # just above the default threshold (0.8): any other evidence above it wins
EVERYWHERE_AMONG = 20  # pages a vault needs before a name on most of them says little
# The page stating the value a change replaces is where the change goes, above a page whose title
# the text names (0.95) but that does not state it: "Ubuntu 22.04 statt 18.04" on the AWO server
# belongs beside "Ubuntu 18.04" on the page about its virtual machine.
REPLACED = 0.96
REPLACED_AMONG = 30  # the pages BM25 ranks first for a change that are read for the value it replaces
REPLACED_NAMED_ON = 5  # of those, the most that may hold an old value for it to name one thing
_STOP = frozenset(fold(w) for language in LANGUAGES for w in stoplists.get(language, ()))  # "werden", "which"
_YEAR_OR_SMALL = re.compile(r"\d{1,4}|(?:19|20)\d\d\W.*")  # "2026", "12", "2026-03-02": no thing's name


SEARCH_FIRST = 3  # the pages BM25 ranks first that the model reads for a memory, as it reads its own nearest


def search_first(vault: Vault, text: str) -> list[str]:
    """The pages BM25 ranks first for `text`, best first: none when no page has its words or the
    index cannot be written."""
    return _by_words(vault, text, SEARCH_FIRST)


def _by_words(vault: Vault, text: str, limit: int) -> list[str]:
    """The pages BM25 ranks first for `text`, at most `limit`; none when the index cannot be written."""
    from curator.core.meaning.across import without_foreign_stops
    from curator.core.meaning.search import indexed

    # Words only, lower case (the query parser reads "AND", "field:" and quotes as syntax), each
    # once and the first QUERY_WORDS of them: a memory of 100 KB took whoosh's parser seconds.
    # Without another language's stop words, which the vault's index keeps as words ("die" on
    # English pages is a verb, and a title's: `Disaster-Recovery-Reese-Dies`).
    said = without_foreign_stops(vault, text)
    query = " ".join(list(dict.fromkeys(w.lower() for w in WORD.findall(said)))[:QUERY_WORDS])
    try:
        found, _ = indexed(vault).bm25(query, limit=limit, pages=True)
    except OSError:  # a read-only `.curator/search/`: no evidence, no failure
        return []
    return [path for path, _, _ in found if path in vault.pages]


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
    held = _terms_of(vault, first_by_words)
    if not text_terms(vault, subject) & held:
        return None
    return first_by_words if own_thing is None or own_thing & held or is_eventish(text) else None


def _terms_of(vault: Vault, path: str) -> set[str]:
    return set(titles_of(vault).analyser.terms(f"{vault.pages[path].title}\n{vault.text_of(path)}"))


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


def rare_words_page(
    vault: Vault, text: str, subject: str, own_thing: frozenset[str] | None, first_by_words: str | None
) -> tuple[str, list[str]] | None:
    """The page BM25 ranks first (`first_by_words`), when it alone holds the most of the text's rare
    words, at least one name's worth (`RARE`: a name held by one page counts 1, by two a half; a
    plain word half that), with the rare words it holds; the page's own name is not counted (said
    on the way it makes a page to link, not the place); only when the page holds a word of the
    text's `subject` and the last word of a thing of its own (`own_thing`, as for agreed_page: the
    "Redis cache cluster" on `Caching strategy`). Three plain words stand for a name when no name
    is among them."""
    if first_by_words is None:
        return None
    names = _names_in(text)
    worth: dict[str, float] = {}
    said: dict[str, list[str]] = {}
    for word in dict.fromkeys(_words_of(text)):
        if _YEAR_OR_SMALL.fullmatch(word) or not (pages := _holders(vault, word)):
            continue
        for path in pages:
            if word in _name_words(vault, path):  # its name said on the way is a page to link, not the place
                continue
            worth[path] = worth.get(path, 0.0) + (1.0 if word in names else 0.5) / len(pages)
            said.setdefault(path, []).append(word)
    ranked = sorted(worth.items(), key=lambda item: -item[1])[:2]
    if not ranked or ranked[0][0] != first_by_words:
        return None
    # A name's worth, or three plain words' when no name is among them ("keeps", "home" is chance).
    if ranked[0][1] < (1.0 if names & set(said[first_by_words]) else 1.5):
        return None
    if len(ranked) > 1 and ranked[1][1] >= ranked[0][1]:
        return None
    # As for agreed_page, the page holds a word of what the text is about: a new thing said beside
    # a host only an inventory names ("Paperless-ngx runs on pve02") is no fact of the inventory;
    # and, events too, the last word of a name of several words ("Zigbee2MQTT" when the "Mosquitto
    # broker" crashed).
    held = _terms_of(vault, first_by_words)
    if not text_terms(vault, subject) & held or (own_thing is not None and not own_thing & held):
        return None
    return first_by_words, said[first_by_words]


def _name_words(vault: Vault, path: str) -> set[str]:
    page = vault.pages[path]
    return set(_words_of(f"{page.title} {page.name}"))


def _words_of(text: str) -> list[str]:
    """A text's words of four letters or more and its names of one thing (a digit, a hump or
    `. : = / @ _` inside: "ns2.example.net", "v2025.12.3"), folded."""
    words = [
        fold(w) for w in WORD.findall(text) if (len(w) >= 4 and fold(w) not in _STOP) or any(c.isdigit() for c in w)
    ]
    return words + [fold(w) for w in (t.strip(EDGES) for t in text.split()) if SPECIFIC.search(w) and len(w) <= 80]


def _names_in(text: str) -> set[str]:
    """The text's words that name a thing: a name of one thing (`SPECIFIC`), an acronym, a word
    with a hump, and, outside German (whose nouns are all capitalised), a capitalised word inside
    a sentence."""
    german = language_of(text) == "de"
    names = set()
    for position, token in enumerate(text.split()):
        token = token.strip(EDGES)
        if SPECIFIC.search(token) and len(token) <= 80:
            names.add(fold(token))  # "vault.home.arpa"; of its parts, "home" is a plain word
        for word in WORD.findall(token):
            upper = word.isupper() and len(word) >= 2
            if upper or SPECIFIC.search(word) or (not german and position and word[:1].isupper()):
                names.add(fold(word))
    return names


def _holders(vault: Vault, word: str) -> tuple[str, ...]:
    """The pages that hold `word` (folded) as a word, when a rare word: at most RARE of them, fewer
    in a small vault, where every word is rare (one page in fifty); () for a word more pages hold."""
    rare = min(RARE, max(1, len(vault.pages) // 50))
    whole = whole_word(word)
    found: list[str] = []
    for path, folded in _folded(vault):
        if word in folded and whole.search(folded):  # the substring test is the fast one: most fail it
            found.append(path)
            if len(found) > rare:
                return ()
    return tuple(found)


def named_everywhere(vault: Vault, name: str, subject: str) -> bool:
    """Whether the text names a page's one-word name that more than half the vault's pages (of
    twenty or more) hold as a word, on the way: the vault owner's ("Dave" on 90 of an agent's 103
    pages) tells no page, unless it is what the text is about ("Dave's favourite hiking area")."""
    said = phrase(subject).split()
    if said[:1] in ([phrase(name)], [f"{phrase(name)}s"]) or len(vault.pages) < EVERYWHERE_AMONG:
        return False
    word = fold(name)
    whole = whole_word(word)

    def held() -> int:
        return sum(1 for _, folded in _folded(vault) if word in folded and whole.search(folded))

    return vault.once(f"remember.held.{word}", held) * 2 > len(vault.pages)


def only_the_memory_states(vault: Vault, path: str, text: str, value: str) -> bool:
    """Whether `path` is the index page written as prose (an agent's MEMORY.md, which lists no
    pages) and no other page holds `value` (folded) as a word, in a link, code or a field too,
    naming the text's thing ("192.168.178.40" in the home server's URL does; a netmask
    255.255.255.0 for "GCP credits ... instead of 255" does not). A page titled with its day (a
    day's log, a session's transcript "2026-03-09-openclaw-cli") does not count: it tells what
    was so that day, the index what is so now."""
    from curator.core.check.index_page import lists_pages

    if path != vault.index_page or lists_pages(vault, path):
        return False
    thing = _thing(text)
    whole = whole_word(value)
    return not any(
        value in folded
        and whole.search(folded)
        and not any(find_date(name) for name in (vault.pages[other].title, vault.pages[other].name))
        and _names_thing(thing, folded)
        # a plain number said of it: not "the email bot answered 10 tickets"
        and (not value.isdigit() or states_replaced(text, vault.text_of(other)) >= 2)
        for other, folded in _folded(vault)
    )


class _Thing(NamedTuple):
    words: list[str]  # folded
    every: bool  # a name of capitalised words ("Anna Schmidt", "Home Assistant"): a page names each


def _thing(text: str) -> _Thing:
    """The words of what the text is about (its title) a page must hold, folded: a last word in
    small letters is the kind of thing the others name ("Postgres backup", "scrape interval"). A
    name of two capitalised words or more is named only whole: "Anna Schmidt" is not Anna Müller."""
    words = WORD.findall(title_for(text))
    # Capitalised as the text writes them, in English: German capitalises every noun, and a title
    # its first word ("Nächtlicher Duplicati-Lauf").
    every = len(words) > 1 and language_of(text) != "de" and all(_capitalised_in(word, text) for word in words)
    if len(words) > 1 and words[-1].islower():
        words = words[:-1]
    return _Thing([fold(word) for word in words if len(word) >= 3 and fold(word) not in _STOP], every)


def _capitalised_in(word: str, text: str) -> bool:
    return word[:1].isupper() and whole_word(word).search(text) is not None


def _folded_page(vault: Vault, path: str) -> str:
    """The page's title and text, folded: what a word's pages are looked up in."""
    return fold(f"{vault.pages[path].title}\n{vault.text_of(path)}")


def _folded(vault: Vault) -> list[tuple[str, str]]:
    """Each page (but the index page) with its title and text folded, made once a load: what a
    word's pages are looked up in, a plain scan (about a tenth of a second a memory at 13,000 pages)."""

    def make() -> list[tuple[str, str]]:
        return [(path, _folded_page(vault, path)) for path in vault.pages if path != vault.index_page]

    return vault.once("remember.folded", make)


def _kept_names(text: str, old: set[str]) -> set[str]:
    """The text's names with a letter (a host, an e-mail) that are no old value of it."""
    return {name for name in names_in(text) - old if any(char.isalpha() for char in name)}


def _names_thing(thing: _Thing, folded: str) -> bool:
    """Whether a page (folded) holds a word of the thing ("Postgres" of "Postgres backup", not the
    Nextcloud backup's page), or each of a name's; a long one perhaps by the word of five letters
    or more it opens with (a German compound by what it is of: "Verein" of "Vereinsanschrift"; not
    "Beitrag" of "Mitgliedsbeitrag"); any page, for a text that names no thing ("It now listens on ...")."""
    if not thing.words:
        return True
    if thing.every:  # each word whole: "Anna" is no word of "Johanna"
        return all(whole_word(word).search(folded) for word in thing.words)
    if any(word in folded for word in thing.words):
        return True
    long = [word for word in thing.words if len(word) >= 8]
    parts = {part for part in WORD.findall(folded) if len(part) >= 5} if long else set()
    return any(word.startswith(part) for part in parts for word in long)


_CAPITALISED_RUN = re.compile(r"\b[A-Z][^\W\d_]+(?:[ \t]+[A-Z][^\W\d_]+)+")


def names_whole_name(vault: Vault, path: str, text: str) -> bool:
    """Whether the page names each name of capitalised words the English text names ("Anna Schmidt",
    "the desk of Anna Schmidt") whole where it names a part of it: Anna Müller's page names "Anna"
    and is another person's; True for a German text, which capitalises every noun."""
    if language_of(text) == "de":
        return True
    folded = _folded_page(vault, path)
    for run in _CAPITALISED_RUN.finditer(text):
        words = [fold(word) for word in run.group(0).split()]
        held = [bool(whole_word(word).search(folded)) for word in words]
        if any(held) and not all(held):
            return False
    return True


def names_its_thing(vault: Vault, path: str, text: str) -> bool:
    """Whether the page is the place for a changed value of the text's thing: it names the thing
    ("Anna Schmidt" is not Anna Müller; `_names_thing`) and is no day's log."""
    if names_a_day(vault.pages[path].title):
        return False
    return _names_thing(_thing(text), _folded_page(vault, path))


def replacing_pages(vault: Vault, text: str) -> list[tuple[str, str]]:
    """The pages whose sentence about the text's thing gives a value the text says it replaces
    ("Prometheus scrapt jetzt alle 15 Sekunden statt alle 30": the page on monitoring that says 30
    seconds; "nicht mehr Karlstraße 43": the imprint), with that value: the page whose sentence
    giving it shares most words with the text first, then the page sharing most. A change is to a
    fact some page states: a new page for it is never what a person makes."""
    names = replaced_names(text)
    old = replaced_numbers(text) | names
    if not old:
        return []
    words = set(_words_of(text)) - old
    found: list[tuple[int, int, str, str]] = []
    pages = _by_words(vault, text, REPLACED_AMONG)  # a number such as "1" is on most pages
    folded_pages = {path: _folded_page(vault, path) for path in pages}
    # A word many of them hold is no thing's old name but a plain one ("nicht mehr alle drei Monate").
    common = {name for name in names if sum(name in folded for folded in folded_pages.values()) > REPLACED_NAMED_ON}
    # A page states the text's thing when it names it or a name the text keeps ("Sophia now only CCs
    # josh@example.com ..."): "Grafana now runs on port 3000 instead of 8080" changes no port of
    # the page on Jenkins that gives 8080 (an attacker's).
    thing = _thing(text)
    kept = _kept_names(text, old)
    for path, folded in folded_pages.items():
        if (
            (said := [n for n in sorted(old - common) if n in folded])
            and (shared := states_replaced(text, vault.text_of(path)))
            and (_names_thing(thing, folded) or any(name in folded for name in kept))
        ):
            # The sentence saying most of the text first ("the scheduler runs every 30s", not a
            # long page's "30 leads a day"), then the page.
            found.append((-shared, -len(words & set(_words_of(folded))), path, said[0]))
    return [(path, value) for _, _, path, value in sorted(found)]
