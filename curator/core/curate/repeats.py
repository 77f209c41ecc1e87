"""Whether a page says a memory already in other words, or in the other language: a person who
reads both drops the memory ("Die GPG-Passphrase für Aptly steht im 1Password" against "The GPG
passphrase is kept in 1Password").

Words alone do not tell it (`facts.new_sentences` needs the page's words in order), and meaning
alone does not either: a fact beside a page's sentence ("the nightly backup of the staging
database" against "... of the production database") scores as high as a repeat. So all must hold:
the text tells no event, change or failure and names nothing and no measure the page does not
(`restated`, `measured`: a number with its unit's family, as the page writes it, "64gb" too);
a German text has each of its nouns on the page in some form (the glossary carries some into
English: an unknown one may name another thing, "Microsoft" for "Google"); half its terms are on
the page, or the text is in the page's other language; one passage of the page (a line, or up to four lines
running: a memory may sum up a list or table rows; the four holding most of its words and the
two lines nearest its words are read) means what the text means to the multilingual
model (cosine 0.5; 0.45 for its words all said in the other language; 0.6 for a text in the other
language whose words the glossary does not carry over; 0.7 when it names, capitalised, a thing the
page has in no form); the slot words of the two agree (`_SLOTS`; a count in digits, which
`restated` finds on the page, may stand in another line), and below 0.7 the text says each of
the passage's; and a text in the passage's own words and language is left to the word check.
Even then a drop by meaning is one a person confirms (`remember`'s `review`): the merge waits in
the queue, so a fact taken for a repeat is not lost.

Its limit, measured on the labelled sets 2-18 against the page each repeat was written from: it
finds 35 of 146 repeats (and takes none of 139 new facts for one); many repeats name something the
page does not, or say a number otherwise (".98" for a host's address, "4 GB" beside "4096 MB" is
read, "26 Grad" beside "26C" is not), and of the rest the model's cosine to their passage overlaps
a new fact's beside a page's sentence, which the word checks and the slots keep out. Two values
of one page paired otherwise ("tagsüber 17C" where it says 21C by day and 17C at night) and a
unit the page does not write ("per pound" beside "pro Kilo") still read as said.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from curator.core.common.names import INVISIBLE
from curator.core.curate.capitals import inner_capitals, proper_names_held
from curator.core.curate.facts import (
    STOP,
    UNITS,
    in_order,
    is_name,
    negated,
    restated,
    sentences,
)
from curator.core.curate.update import bilingual
from curator.core.meaning.across import multilingual_model
from curator.core.read.credentials import find_credentials
from curator.core.read.parse import split_frontmatter
from curator.core.read.resolve import fold
from curator.core.read.titles import names_a_day, without_note_kind
from curator.core.read.words import WORD, Analyser, language_of

if TYPE_CHECKING:
    from curator.core.read.vault import Vault

# The multilingual model's centred cosine of the text and the page's nearest passage. On the
# labelled sets 2-18, each text against the page it was written from (the checks below as they
# stand): 0.7 / 0.6 / 0.5 found 18 / 22 / 29 of 146 repeats and took 1 / 2 / 2 of 139 new facts
# for one (status updates, where a drop is right too: 0 / 4 / 7).
SAID = 0.5
SAID_TRANSLATED = 0.45  # the cosine for a passage whose words the text says in the other language
SAID_NAMED = 0.7  # for a text that names, capitalised, a thing the page has in no form
# For a text in the page's other language holding under half its terms: the model alone. On sets
# 2-18 such new facts reach 0.58 at most, their repeats 0.60-0.77 (translations of one line score
# 0.42-0.58 to this model too: most are left to the merge a person reads).
SAID_ACROSS = 0.6
SAID_SURE = 0.7  # below it, the text says every slot word of the passage ("nightly", "staging") too
# What a translation may say that its passage says by a verb of its own ("steht im 1Password" for
# "is kept in 1Password"): every other term of it is the passage's; "nirgends", "außerhalb",
# "früher", "bald", "outside", "used to" are not.
LINKING_VERBS = (
    "steht stehen liegt liegen ist sind wird werden befindet befinden gibt hat haben is are lives sits stands has have"
)
TERMS_HELD = 0.5  # the share of the text's terms the page holds
PASSAGES = 4  # the passages sharing most words the model reads (6 found the same on sets 2-18, 12 as many)
NEAREST_LINES = 2  # and the lines whose terms are nearest the text's, besides
RUNNING = 4  # the lines running that make a passage, at most
SAME_WORDS = 0.75  # the share of the text's terms in the passage that makes it the passage's own words
LONGEST = 600  # a page's lines read, at most: the passages are ranked by words before the model reads any


@cache
def _linking_verbs(analyser: Analyser) -> frozenset[str]:
    return frozenset(analyser.terms(LINKING_VERBS, "de")) | frozenset(analyser.terms(LINKING_VERBS, "en"))


def saying_it(text: str, page_text: str) -> str | None:
    """The page's passage that says the text already, or None."""
    if not restated(text, page_text):
        return None
    analyser = bilingual()
    wanted = set(analyser.terms(without_note_kind(text)))  # "Reminder:" says nothing the page lacks
    on_page = set(analyser.terms(page_text))
    # A text in the page's other language shares few terms with it (the glossary carries some
    # over): the model alone judges it, from a nearer cosine.
    few_held = len(wanted & on_page) < TERMS_HELD * len(wanted)
    language = language_of(text)
    reworded = few_held and language == language_of(page_text)  # only a near passage says it
    if not wanted:
        return None
    if language == "de" and not _nouns_held(text, page_text, on_page, analyser):
        return None  # a German noun the page has in no form, in either language: another thing ("im Tresor")
    if not proper_names_held(text, page_text):
        return None  # a name the page lacks ("Redis" for "Postgres"), seen before the model reads a passage
    found = nearest_passage(text, page_text)
    if found is None:
        return None
    passage, score = found
    own = set(analyser.terms(passage))
    # The passage's words in the other language (the glossary pivots them onto one term): a
    # translation, which the word check cannot judge and the model scores lower than a text of
    # one language ("Die GPG-Passphrase für Aptly steht im 1Password" 0.68 against its English line).
    across = language != language_of(passage)
    translated = across and not wanted - own - _linking_verbs(analyser)
    # A capitalised word the page has in no form may name another thing ("im Bitwarden" for "in
    # 1Password", "im Ops-Vault" for "in the DevOps vault"): only a nearer passage says it again.
    # German capitalises its nouns, and joins them by hyphens: each part is a word of the page or
    # not ("Galaxy-Cluster" where the page says "Galaxy cluster").
    capitals = inner_capitals(text)
    if language == "de":
        capitals = [part for word in capitals for part in word.split("-") if part]
    named_anew = any(set(analyser.terms(word)) - on_page for word in capitals)
    if few_held:  # across languages; German capitalises its nouns, which an English page has in no form
        named_anew = named_anew and language != "de"
    need = SAID_NAMED if named_anew else SAID_ACROSS if few_held else SAID_TRANSLATED if translated else SAID
    if reworded:  # in the page's language, with few of its words: said otherwise, or another thing
        need = max(need, SAID_SURE)
    if score < need:
        return None
    if negated(text) != negated(passage) or not _slots_agree(text, passage):
        return None  # near in meaning, a slot filled otherwise: "weekly" for "daily", "staging" for "production"
    left_out = {
        slot for slot in _filled(passage, _SLOT_OF, digits=False) - _filled(text, _SLOT_OF) if slot[0] != "more"
    }
    if score < SAID_SURE and left_out:  # (a passage's "also" the text need not say)
        return None  # less near, and a slot of the passage the text leaves out: "before every deploy" for "nightly"
    # A text in the passage's own words is news by them (`facts.new_sentences` found a word changed,
    # added or moved, a "not" taken away), and it scores as high as the passage itself ("in
    # Berlin" for "in Frankfurt", "five replicas", "db-02 is the primary" for "db-01 ..."): meaning
    # judges only a text said in other words, or the passage's words in an order of its names.
    if (
        not across  # the glossary's words are no passage's own
        and len(wanted & own) >= SAME_WORDS * len(wanted)
        and not (wanted <= own and _names_in_order(text, passage))
    ):
        return None
    return passage


def nearest_passage(text: str, page_text: str) -> tuple[str, float] | None:
    """The passage of the page nearest the text in meaning to the multilingual model, and its
    cosine: of the passages (a line, or up to RUNNING lines running: a memory may sum up a
    paragraph, a list or table rows) holding most of the text's terms and the lines saying its few
    words most nearly; None without the model or a line of three words."""
    analyser = bilingual()
    wanted = set(analyser.terms(without_note_kind(text)))
    lines = [line for line in sentences(page_text)[:LONGEST] if len(WORD.findall(line)) >= 3]
    terms = [set(analyser.terms(line)) for line in lines]
    spans = [(start, end) for end in range(1, len(lines) + 1) for start in range(max(0, end - RUNNING), end)]
    held = {span: len(wanted & set().union(*terms[span[0] : span[1]])) for span in spans}
    # The spans holding most of its terms (a memory may sum up several lines), and the lines saying
    # its few words most nearly: the cosine of the two term sets picks "Grandma picks Anna and Ben
    # up from school on Wednesdays" out of a list of alike lines ("Anna goes to piano ... on
    # Wednesdays after school"), where spans holding one more of its terms come first.
    by_held = sorted(spans, key=lambda span: (-held[span] / (1 + 0.1 * (span[1] - span[0])), span))[:PASSAGES]
    single = [(i, i + 1) for i in range(len(lines))]
    by_cosine = sorted(single, key=lambda span: (-held[span] / max(len(terms[span[0]]), 1) ** 0.5, span))
    best_first = by_held + [span for span in by_cosine if span not in by_held][:NEAREST_LINES]
    ranked = [" ".join(lines[start:end]) for start, end in best_first]
    model = multilingual_model()
    if not ranked or model is None:
        return None
    scores = model.embed_queries(ranked) @ model.embed_query(text)
    best = int(np.argmax(scores))
    return ranked[best], float(scores[best])


# A passage this near in meaning to the multilingual model puts a text on its page though the
# page's evidence is under the bar (the page is about more than this text), when the page names
# the text's subject. On sets 2-25, the nearest page of each text proposed as a new page: at 0.5
# alone, the page a person chose for 41 texts (13 of them repeats, merged, not dropped), another
# page for 9, and 5 of 174 new things taken ("Tischtennisplatte" onto a page of an anniversary
# party); with the page naming the subject and the names an English text gives, 20 and none.
PASSAGE_NEAR = 0.5


def passage_near(text: str, subject: str, path: str, vault: Vault) -> str | None:
    """The passage of the page at `path` about what the text says, when the page names the text's
    subject (its first word and half its words; a German text's every word) and every name an
    English text gives; else None, and for a day's log or a page not read as UTF-8 text (a merge
    writes it back whole)."""
    page = vault.pages[path]
    if page.bad_encoding or page.unreadable is not None or names_a_day(page.title):
        return None  # a day's log is never the place for a memory
    page_text = vault.text_of(path)
    said = {fold(word) for word in WORD.findall(page_text)}
    parts = {word for word in said if len(word) >= 5 and word.isalpha()}

    def on_page(word: str) -> bool:  # or a word of the page opens it ("Presse" of "Presseanfragen")
        return word in said or any(word.startswith(part) for part in parts)

    words = [fold(word) for word in WORD.findall(subject) if len(word) > 2 and fold(word) not in STOP]
    # A German text's names are capitalised as its nouns are, which the name check below cannot
    # tell apart: every word of its subject ("Die Vorgesetzte von Jonas" beside "Meine Vorgesetzte").
    needed = len(words) if language_of(text) == "de" else (len(words) + 1) // 2
    if not words or not on_page(words[0]) or sum(map(on_page, words)) < needed:
        return None  # "the campervan's winter tyres" beside the car's, "Omas Katze Mohrle" beside Minka's
    if not proper_names_held(text, page_text):
        return None  # "Anna Schmidt ... in Hamburg" beside "Anna Müller ... in Berlin": another thing
    found = nearest_passage(text, page_text[split_frontmatter(page_text)[2] :])
    return found[0] if found is not None and found[1] >= PASSAGE_NEAR else None


# An escape sequence would colour or hide the reason; a format character (U+202E) turns it around.
_CONTROL = re.compile(rf"\x1b\[[0-?]*[ -/]*[@-~]|[\x00-\x1f\x7f-\x9f\u00ad{INVISIBLE}]")


def quoted(passage: str, most: int = 120) -> str:
    """A page's passage as a reason quotes it: on one line, without control characters, cut to
    `most` characters; not a line that holds a credential."""
    said = " ".join(_CONTROL.sub(" ", passage).split())
    if find_credentials(said):
        return "(a line holding a credential)"
    return said if len(said) <= most else said[: most - 3] + "..."


# Words that fill a fact's slot, by family and what they say: a text and a passage near in meaning
# say different things where such a word differs ("weekly" for "daily", "staging" for
# "production", "two approvals" for "one", "minutes" for "seconds", "must ask" for "may ... without
# asking", "including" for "except"). Of an attacker's 83 new facts beside a page's sentence, 22
# were taken for repeats without these.
_SLOTS = {
    "often": {
        "hourly": "hourly stündlich",
        "daily": "daily täglich tägliche täglichen",
        "nightly": "nightly nächtlich nächtliche nächtlichen nachts",
        "weekly": "weekly wöchentlich wöchentliche wöchentlichen",
        "monthly": "monthly monatlich monatliche monatlichen",
        "yearly": "yearly annually jährlich jährliche jährlichen",
    },
    "day": {
        "mon": "monday mondays montag montags",
        "tue": "tuesday tuesdays dienstag dienstags",
        "wed": "wednesday wednesdays mittwoch mittwochs",
        "thu": "thursday thursdays donnerstag donnerstags",
        "fri": "friday fridays freitag freitags",
        "sat": "saturday saturdays samstag samstags",
        "sun": "sunday sundays sonntag sonntags",
    },
    "stage": {
        "prod": "production prod produktion produktiv",
        "staging": "staging",
        "test": "test testing tests",
        "dev": "development dev entwicklung",
    },
    "count": {
        str(n): words
        for n, words in enumerate(
            "two zwei,three drei,four vier,five fünf,six sechs,seven sieben,eight acht,nine neun,ten zehn,"
            "eleven elf,twelve zwölf".split(","),  # not "one": "not only the one you meant"
            start=2,
        )
    },
    "scope": {
        "except": "except außer ausser ausgenommen excluding unless sofern",
        "including": "including inklusive einschließlich",
    },
    "more": {"also": "also additionally auch ebenfalls zusätzlich"},  # a second place, way or thing
    "mode": {
        "must": "must muss musst müssen müsst required requires",
        "may": "may darf darfst dürfen dürft allowed erlaubt",
        "auto": "automatically automatic automatisch",
        "hand": "manually manual manuell",
    },
    "unit": {
        "s": "second seconds sekunde sekunden",
        "min": "minute minutes minuten",
        "h": "hour hours stunde stunden",
        "d": "day days tag tage tagen",
        "w": "week weeks woche wochen",
        "mo": "month months monat monate",
        "y": "year years jahr jahre",
    },
    "colour": {  # an attacker's "the red school bag" for the page's "blue school bag"
        "red": "red rot rote roten roter rotes",
        "blue": "blue blau blaue blauen blauer blaues",
        "green": "green grün grüne grünen grüner grünes",
        "yellow": "yellow gelb gelbe gelben gelber gelbes",
        "black": "black schwarz schwarze schwarzen schwarzer schwarzes",
        "white": "white weiß weiße weißen weißer weißes",
        "grey": "grey gray grau graue grauen grauer graues",
    },
}
# "only" counts both ways: a passage's "only" that the text leaves out says less than the text
# ("alerts are only sent during the day" against "alerts are sent day and night").
# So do the words that move a statement out of here and now: where it is not, when it was or will
# be, that it is gone (an attacker's "wird nirgends / außerhalb / früher / bald im 1Password
# aufbewahrt" and "used to be kept on the NAS" were taken for the page's line).
_BOTH_WAYS = {
    "scope": {"only": "only just solely nur lediglich ausschließlich"},
    "where": {"nowhere": "nowhere nirgends nirgendwo", "outside": "outside außerhalb ausserhalb"},
    "when": {
        "past": "formerly previously früher ehemals einst damals",
        "future": "soon later bald demnächst künftig zukünftig später",
    },
    "gone": {"gone": "deleted removed gelöscht entfernt"},
}


def _table(families: dict[str, dict[str, str]]) -> dict[str, tuple[str, str]]:
    return {
        word: (family, value)
        for family, values in families.items()
        for value, words in values.items()
        for word in words.split()
    }


_SLOT_OF, _BOTH_OF = _table(_SLOTS), _table(_BOTH_WAYS)
_ONLY = ("scope", "only")
_BOUNDED = re.compile(r"(?i)\b(?:not|no|never|nicht|kein\w*|nie)\b|n't\b")
_STAGE_HEADS = ("test", "produktion", "staging", "entwicklung")
_COUNT = re.compile(r"(?<![\w:./-])\d{1,6}(?![\w:/-]|[.,]\d)")  # no time, date, version or address
# What counts a unit: a number, a count word of the "count" slot, or one, a few, half.
_COUNT_WORDS = [word for words in _SLOTS["count"].values() for word in words.split()]
_COUNTED = re.compile(
    "|".join(
        [
            r"\d+(?:[.,]\d+)?",
            *_COUNT_WORDS,
            *"one few several many ein eine einen einer wenige einige mehrere half halbe".split(),
        ]
    )
)


# "every day" is "daily", "jede Nacht" "nightly": how often, said in two words.
_PERIODS = "day night week month year hour tag nacht woche monat jahr stunde".split()
_EVERY = re.compile(rf"(?i)\b(?:every|each|jede[nrs]?)\s+({'|'.join(_PERIODS)})\b")
_OFTEN = dict(zip(_PERIODS, 2 * ["daily", "nightly", "weekly", "monthly", "yearly", "hourly"], strict=True))


def _filled(text: str, table: dict[str, tuple[str, str]], digits: bool = True) -> set[tuple[str, str]]:
    text = _EVERY.sub(lambda m: _OFTEN[m.group(1).casefold()], text)
    text = re.sub(r"(?i)\bused to\b", "formerly", text)
    words = [fold(w) for w in WORD.findall(text)]
    # A unit is one after a count ("26-hour", "five minutes"): "its second NIC", "a day off" measure nothing.
    found = {
        table[w]
        for at, w in enumerate(words)
        if w in table and (table[w][0] != "unit" or (at and _COUNTED.fullmatch(words[at - 1])))
    }
    if table is _SLOT_OF:  # a number standing alone fills the count ("2 approvals", not "02:00"); a
        # German compound its stage ("Testdatenbank", "Produktionsserver")
        found |= {("count", str(int(n))) for n in _COUNT.findall(text) if digits}
        found |= {table[s] for w in words for s in _STAGE_HEADS if w.startswith(s) and len(w) > len(s) + 3}
    return found


def _slots_agree(text: str, passage: str) -> bool:
    """Whether every slot word of the text is the passage's, and the passage's "only" the text's; a
    count in digits the page holds (`restated`) may stand in another of its lines. An "only" one of
    them says, the other may say by a "not" ("only guide dogs are allowed": "pets are not allowed,
    except for guide dogs"; both say "not" or neither, as `saying_it` asks); an "except" or "instead"
    may bound another thing ("in the browser instead of the app" is no "only members edit")."""
    one_way = _filled(text, _SLOT_OF, digits=False) <= _filled(passage, _SLOT_OF)
    said, its = _filled(text, _BOTH_OF), _filled(passage, _BOTH_OF)
    if (_ONLY in said) != (_ONLY in its) and _BOUNDED.search(passage if _ONLY in said else text):
        said, its = said - {_ONLY}, its - {_ONLY}
    return one_way and said == its


def _nouns_held(text: str, page_text: str, on_page: set[str], analyser: Analyser) -> bool:
    """Whether the page has each noun of a German text (its capitalised words, each part of one
    joined by hyphens) in some form: one of its terms (a translation the glossary knows), or
    inside a compound of the page ("Sitz" in "Vereinssitz"); a unit or a letter or two ("GB",
    "P+R") names nothing of its own."""
    folded = fold(page_text)
    parts = [part for noun in inner_capitals(text) for part in noun.split("-")]
    return all(
        set(analyser.terms(part)) & on_page or fold(part) in folded
        for part in parts
        if len(part) >= 3 and part.lower() not in UNITS and fold(part) not in STOP  # "Stand heute: Das ..."
    )


def _names_in_order(text: str, passage: str) -> bool:
    """Whether the names the text shares with the passage (capitalised or named words) come in the
    passage's order: the passage's words put in another order may say another thing ("db-02 is the
    primary and db-01 the standby", "from the DMZ to the VPN") or the same ("backs up only its
    database, once a day")."""
    said = [fold(w) for w in WORD.findall(passage)]
    names = [fold(w) for w in WORD.findall(text) if w[:1].isupper() or is_name(w)]
    shared = [n for n in names if n in said]
    return in_order(shared, said)


def seems_said(text: str, page_text: str, path: str) -> str | None:
    """Why a drop of `text` is proposed, when `path` seems to say it already; a person confirms it:
    meaning misses a word changed in other words ("staging" for "production", "Redis" for
    "Postgres"), so the merge waits for them in the queue and no fact is lost."""
    passage = saying_it(text, page_text)
    if passage is None:
        return None
    return f'Drop: {path} seems to say it already: "{quoted(passage)}"; accepting it merges the text anyway'
