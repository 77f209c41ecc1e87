"""The name of the thing a sentence is about: the noun phrase it opens with, in English or German,
without the verb, adverb or clause that follows ("The rate limiter now allows ..." -> "Rate
limiter", "Der CI-Build schlägt ... fehl" -> "CI-Build"), for a new page's title.

Cheap rules, no tagger: German nouns are capitalised, so a German phrase is its capitalised words
(with an adjective before them, and a genitive or "für"/"nach" with a noun after); an English
phrase ends at the first verb-like word (a modal or auxiliary, -ed after the first word, -s after
the second, an irregular past, a word after a plural noun), adverb (-ly, now, still ...), particle or
preposition. An adjective stays in the form a title takes (nominative, no article: "der
nächtliche Export" -> "Nächtlicher Export"), or goes where that form cannot be told or where it
says when the thing is ("mit dem neuen Rate-Limiter", "the new rate limiter" -> "Rate limiter").
"""

from __future__ import annotations

import re

from curator.core.read.words import language_of

_TOKEN = re.compile(r"\S+")
_EDGE = ".,:;!?()[]\"'«»„“”"
_DETERMINERS = frozenset(
    "the a an this that these those our my your their its his her "
    "der die das den dem des ein eine einen einem einer eines unser unsere unseren unserem unserer "
    "mein meine dein deine ihr ihre dieser diese dieses diesen".split()
)
# A sentence that opens with one of these opens with where or with what, not with its subject:
# the thing is the preposition's noun ("Bei JWT-Angriffen kann man ..." -> "JWT-Angriffen").
_PREPOSITIONS = frozenset(
    "in on at for with from by after during under via "
    "bei mit für nach von zu zum zur im am beim vom seit wegen über unter durch gegen ohne auf aus "
    "zwischen ab während".split()
)
_EN_QUANTIFIERS = frozenset("every each all no some any two three more less many much several few".split())
# A verb that agrees with a plural subject before it: "access points were installed", "alerts are routed".
_EN_AUXILIARIES = frozenset("are were have do".split())
_EN_VERB_ADVERBS = frozenset("now just also finally already still then again".split())
_EN_PARTICLES = frozenset("up out off down back".split())
# Verbs as an agent's notes have them after a plural noun, their subject: a word in -s before one
# of them is that noun ("runners need docker", "alerts route to", "jobs run nightly").
_EN_BASE_VERBS = frozenset(
    "need use run fail lag fire hang report crash break stop start fill go show get send sync bounce roam spin "
    "hit miss drop restart reboot expire leak retry wait stall block complain meet work happen seem appear "
    "return stay live sit die pile grow exceed overflow require contain include support read write point belong "
    "refuse ignore accept reject cover cause trigger call hold last take make keep come look route fetch pull "
    "push load save mount boot freeze time flap flood trip pause resume queue watch play back serve host store".split()
)
_EN_PLACE_WORDS = frozenset("behind across around between within without against along near beside beyond".split())
_THERE_IS = frozenset(["there's", "there’s", "there is", "there are", "es gibt", "es gab", "there was"])
_PRONOUNS = frozenset(
    "we i you they he she it someone somebody wir ich du sie er es man jemand "
    "we're i'm we've i've they're you're we’re i’m we’ve i’ve they’re you’re".split()  # "We're moving the ..."
)
_EN_STOP = frozenset(
    "is are was were be been being has have had will would can could should must may might does do did "
    "on in at for with from to by via into onto over under after before since during because when while "
    "but and or than as if that which who where of about through "
    "now then still already also always never often usually sometimes again just only soon today yesterday "
    "back off out up down away".split()
)
_EN_IRREGULAR = frozenset(
    "ran fell went broke got took gave lost made sent kept left came saw found held hit shut put set "
    "began brought built caught drew drove froze grew knew led let met paid quit read rose said sold "
    "stood stole struck swung threw told woke won wore wrote runs goes gets takes fails".split()
)
# Word sets the English phrase reading asks of each word, made once.
_PHRASE_ENDS = _EN_STOP | _EN_IRREGULAR | _DETERMINERS | _PRONOUNS
_ARTICLES = _DETERMINERS | _EN_QUANTIFIERS
_VERB_PLACES = _PREPOSITIONS | _DETERMINERS | _EN_PARTICLES | _EN_PLACE_WORDS
_NOT_CONTENT = _EN_STOP | _DETERMINERS | _PRONOUNS | _PREPOSITIONS | _EN_PLACE_WORDS | _EN_QUANTIFIERS
_DE_JOINERS = frozenset("der des für nach von".split())  # "Sicherung der Kundendatenbank", "Export nach SAP"
# Adjectives that say when a thing is (the "new" rate limiter is the rate limiter a month later),
# not what it is: a title never keeps them after an article, where they point at one thing now.
_EN_WHEN = frozenset("new old current latest recent previous former existing upcoming present".split())
_DE_WHEN = re.compile(
    r"(?:neu|alt|aktuell|bisherig|jetzig|derzeitig|heutig|vorig|letzt|ehemalig|künftig|zukünftig|kommend|"
    r"momentan|gegenwärtig)(?:e|en|er|es|em)?"
)
_DE_ENDING = re.compile(r"(.{2,}?)(e|en|er|es|em)")


def noun_phrase(sentence: str, limit: int = 6, language: str | None = None) -> str:
    """The noun phrase `sentence` opens with (its subject, or the object after a pronoun and its
    verb), at most `limit` words; "" when none is found. `language` is the whole text's, when
    `sentence` is a part of it."""
    words = [w.strip(_EDGE) for w in _TOKEN.findall(sentence)]
    words = [w for w in words if w]
    language = language or language_of(sentence)
    # Mostly capitalised words read as German where the language is not told English: "Started
    # Audiobookshelf" is English, its name capitalised.
    german = language == "de" or (
        language != "en" and bool(words) and sum(w[:1].isupper() for w in words[1:]) > len(words[1:]) / 2
    )
    phrase = _german(*_skip_opening(words, True)) if german else _english(*_skip_opening(words, False))
    return " ".join(phrase[:limit])


def past_opening(sentence: str, language: str | None = None) -> str:
    """The sentence from its main clause on, when it opens with when or where something is
    (`_main_clause`): read whole, before dates and names are taken out of it."""
    tokens = _TOKEN.findall(sentence)
    words = [t.strip(_EDGE) for t in tokens]
    language = language or language_of(sentence)
    german = language == "de" or (language != "en" and bool(words) and words[0].casefold() in _DE_OPENERS)
    clause = _main_clause(words, german)
    return " ".join(tokens[clause:]) if clause else sentence


def _skip_opening(words: list[str], german: bool) -> tuple[list[str], str | None]:
    """The words from where the phrase starts: past a pronoun subject and its verbs, a bare verb
    opening a log line ("Renewed the ..."), a German verb before its subject ("gilt der ..."), and
    determiners; with the last determiner or preposition passed (None when none was)."""
    i = 0
    if len(words) > 1 and words[0].casefold() in _PREPOSITIONS:
        i = 1
        while i < len(words) and words[i].casefold() in _DETERMINERS:
            i += 1
        while german and i + 1 < len(words) and words[i].islower():  # "mit dem neuen Rate-Limiter"
            i += 1
        return words[i:], words[0].casefold()
    if german and len(words) > 1 and words[0].islower() and words[1].casefold() in _DETERMINERS:
        i = 1  # "gilt der neue Rate-Limiter": the verb came first, an adverb before it was taken away
    elif words and words[0].casefold() in _PRONOUNS:
        i = 1
        while not german and i + 1 < len(words) and words[i].casefold() in _EN_VERB_ADVERBS:
            i += 1  # "it now has": the adverb before the verb
        while i < len(words) and words[i].casefold() not in _DETERMINERS and not (german and words[i][:1].isupper()):
            i += 1
            if not german:
                break  # "We moved the ...": one verb
        if not german and i + 1 < len(words) and words[i].casefold() in _EN_PARTICLES:
            i += 1  # "I set up Immich": the verb's particle
        if not german and i + 1 < len(words) and words[i].casefold() in _PREPOSITIONS:
            i += 1  # "We switched from npm ...": the thing is the preposition's noun
    elif german and len(words) > 1 and words[0].islower() and not name_like(words[0]) and name_like(words[1]):
        i = 1  # "(Am 04.10.) bootete pihole-01 nicht mehr": the verb before its subject's name
    elif german and len(words) > 2 and words[0].islower() and words[1].casefold() in _PRONOUNS:
        i = 2  # "(Seit Dezember) nutzen wir Loom": the verb and its subject after a time said first
        while i + 1 < len(words) and words[i].islower() and words[i].casefold() not in _DETERMINERS:
            i += 1  # "haben wir jetzt eine Vereinshaftpflicht"
    elif not german and len(words) > 1 and _GERUND.fullmatch(words[0]) and _names_next(words[1]):
        i = 1  # "Copying a VM image to ...", "Running the nightly export ...": what is done to a thing
    elif not german and len(words) > 2 and words[1].casefold() in _EN_PARTICLES and _verb_first(words):
        i = 2  # "Set up Immich ...", "Spun up a Minecraft server", "Gave up on Jellyfin": a verb and its particle
        if i + 1 < len(words) and words[i].casefold() in _PREPOSITIONS | {"of"}:
            i += 1
    elif not german and words and words[0].casefold().endswith("ed") and len(words) > 1 and words[0].isalpha():
        i = 1
    elif not german and len(words) > 1 and words[0].casefold() in _EN_IRREGULAR and _names_next(words[1]):
        i = 1  # "Built a ...", "Got Zammad ..."
    elif len(words) > 2 and " ".join(words[:2]).casefold() in _THERE_IS:
        i = 2  # "There's an AED on the wall": what there is
    elif words and words[0].casefold() in _THERE_IS:
        i = 1
    article = None
    while i < len(words) and words[i].casefold() in _DETERMINERS:
        article = words[i].casefold()
        i += 1
    while i + 2 < len(words) and _QUANTITY.fullmatch(f"{words[i]} {words[i + 1]}"):
        i += 2  # "a 6 GB VM image": the thing, not its size
    return words[i:], article


# Words an English sentence opens with that say when or where, before its subject ("Since the
# upgrade | the NAS fans spin ...", "Every Monday | the trash ...", "Behind the fridge | is the
# valve"); adverbs of their own ("Apparently | the garage door opener needs ...").
_EN_WHEN_OPENERS = frozenset(
    "since after before during until once back every each last next according behind without beside".split()
)
_EN_ADVERB_OPENERS = frozenset(
    "apparently usually normally tomorrow today tonight upstairs downstairs luckily unfortunately meanwhile "
    "currently".split()
)
# German words a sentence opens with before its verb and subject ("Jeden Montag | wird der Müll
# ...", "Laut Hausverwaltung | wird die Heizung ..."), besides prepositions.
_DE_OPENERS = frozenset(
    "jeden jede jedes morgen heute gestern letzte letzten letztes oben unten hinten vorne normalerweise laut "
    "hinter vor neben einmal meistens übrigens leider außerdem danach vorher inzwischen mittlerweile "
    "neuerdings tagsüber nachts dank zum".split()
)


def _main_clause(words: list[str], german: bool) -> int | None:
    """Where the main clause starts in a sentence that opens with when or where something is, its
    subject after it: past the time phrase in English ("Since the upgrade | the NAS fans ...",
    "After the reboot | Grafana lost ..."), past an adverb ("Usually | the door code ..."); at
    the verb after the phrase in German, when an article follows it ("Seit dem Update auf 7.2 |
    startet der Container ..."; not "Bei JWT-Angriffen kann man ...", whose thing is the phrase's)."""
    if len(words) < 3:
        return None
    first = words[0].casefold()
    if not german and first in _EN_ADVERB_OPENERS:
        return 1
    if not german and (first in _EN_WHEN_OPENERS or (first == "as" and words[1].casefold() == "of")):  # "As of May"
        if first in ("since", "after", "before", "until") and words[1][:1].isupper():
            return 1  # its time said in digits, taken away: "Since (2025) Backblaze B2 holds ..."
        seen_noun = False
        for k in range(1, min(len(words), 8)):
            bare = words[k].casefold()
            if seen_noun and (bare in _DETERMINERS or words[k][:1].isupper()):
                # a clause of its thing and verb at least; a subject cut short ("... the basement") is no clause
                return k if len(words) - k >= 3 else None
            seen_noun = seen_noun or (bare not in _DETERMINERS and bare not in _PREPOSITIONS | {"to", "of"})
        return None
    if german and (first in _PREPOSITIONS or first in _DE_OPENERS):
        for k in range(1, min(len(words) - 1, 8)):
            word = words[k]
            if word.islower() and word.isalpha() and word.casefold() not in _DETERMINERS | _PREPOSITIONS | _DE_AND:
                # an article after the verb, or a name: its subject ("Laut Doku braucht | Immich ...");
                # past a time or place said after the verb ("hängt seit 12.03.2026 | ein Verbandskasten")
                at = k + 1
                while first in _DE_PLACES and at + 1 < len(words) and at <= k + 3 and _said_when(words[at]):
                    at += 1
                if words[at].casefold() in _DETERMINERS:
                    return k if at == k + 1 else at
                described = (  # an inflected adjective, not an adverb, a preposition or a name in small letters
                    words[at].isalpha()
                    and words[at].islower()
                    and words[at].casefold() not in _DE_TIMES | _DE_QUANTIFIERS | _PREPOSITIONS | _DETERMINERS
                    and _DE_ENDING.fullmatch(words[at]) is not None
                    and words[at + 1][:1].isupper()
                )
                if words[at][:1].isupper() or described:
                    return at  # a name, or an adjective and its noun ("brauchen | minderjährige Teilnehmende")
                return None
    return None


_DE_AND = frozenset("und oder bis".split())  # inside the opening phrase: "Zwischen dem 27. und 31. Dezember"
# Where or when, not for what ("Für den Login-Dienst gilt jetzt ...": the thing is the phrase's).
_DE_PLACES = frozenset("neben hinter vor zwischen während seit ab an in im auf unter über".split())


def _said_when(word: str) -> bool:
    """A word of a time said after a German verb: "seit", "12.03.2026", "jetzt"."""
    return word.casefold() in _DE_TIMES or not any(c.isalpha() for c in word)


_DE_TIMES = frozenset("seit ab bis jetzt nun schon noch immer wieder heute morgen gestern bereits".split())
_DE_QUANTIFIERS = frozenset("jede jeder jedes jeden alle viele einige mehrere keine kein".split())


_GERUND = re.compile(r"[A-Za-z]{2,}[a-z]ing")
_QUANTITY = re.compile(r"\d+(?:[.,]\d+)?\s(?:[KMGT]i?B|bytes?|kb|mb|gb|tb|%|x)", re.IGNORECASE)
_ABBREVIATION = re.compile(r"(?:\w\.)+\w?\.?")  # "z.B.", "u.a."


def name_like(word: str) -> bool:
    """Whether a word is a name as written: a digit, a hump or a sign inside ("vpn03", "vHost",
    "nginx-base", "restic-backup.sh"), no abbreviation and no number alone."""
    if _ABBREVIATION.fullmatch(word) or not any(ch.isalpha() for ch in word):
        return False
    return re.search(r"\d|[a-z][A-Z]|[^\W_][-_./][^\W_]", word) is not None


def _verb_first(words: list[str]) -> bool:
    """Whether an English sentence opens with a verb before its particle ("Signed up for", "Ran
    out of", "Shut down plex-01", "Set up Immich"), not a noun ("Back up jobs run nightly")."""
    first, after = words[0].casefold(), words[2]
    return first.endswith("ed") or first in _EN_IRREGULAR or _names_next(after) or name_like(after)


def _names_next(word: str) -> bool:
    """Whether a word opens a thing's name: an article or a capitalised word ("a Minecraft server", "Immich")."""
    return word.casefold() in _DETERMINERS or word[:1].isupper()


def _german(words: list[str], article: str | None) -> list[str]:
    phrase: list[str] = []
    for i, word in enumerate(words):
        following = words[i + 1] if i + 1 < len(words) else ""
        # An adjective before its noun: written small after an article ("der nächtliche Export" ->
        # "nächtlicher Export"), capital only where it opens the sentence ("Neue Mitarbeiter").
        before_noun = not phrase and word.isalpha() and _capitalised(following)
        if before_noun and ((article and word.islower()) or _DE_WHEN.fullmatch(word.casefold())):
            adjective = _nominative(word, article)
            if adjective:
                phrase.append(adjective)
        elif _capitalised(word) or name_like(word):  # "vpn03", "restic-backup.sh": a name as written
            phrase.append(word)
        elif not phrase and word.isalpha() and _capitalised(following):
            phrase.append(word)  # an adjective before its noun: "nächtliche Sicherung"
        elif phrase and word.casefold() in _DE_JOINERS and _capitalised(following):
            phrase.append(word)
        else:
            break
    return phrase


def _nominative(adjective: str, article: str | None) -> str | None:
    """A German adjective before its noun as a title has it (nominative, no article: "der
    nächtliche" -> "nächtlicher", "das tägliche" -> "tägliches"), or None when it says when the
    thing is ("neue", "alten") or its case or gender cannot be told ("dem nächtlichen")."""
    bare = adjective.casefold()
    found = _DE_ENDING.fullmatch(bare)
    if found is None:
        return None
    ending = found.group(2)
    if _DE_WHEN.fullmatch(bare):
        # Only a plural or feminine one opening the sentence names a kind of thing ("Neue Mitarbeiter").
        return adjective if article is None and ending == "e" else None
    if (
        article is None
        or (article in ("ein", "eine") and ending in ("er", "es", "e"))
        or (article, ending) == ("die", "e")
    ):
        return adjective
    if ending == "e" and article in ("der", "das"):
        return adjective + ("r" if article == "der" else "s")
    return None


def _capitalised(word: str) -> bool:
    return word[:1].isupper() or (word[:1].isdigit() and "-" in word)


def _english(words: list[str], article: str | None) -> list[str]:
    if article is not None and len(words) > 1 and words[0].casefold() in _EN_WHEN:
        words = words[1:]  # "the new rate limiter": the rate limiter
    phrase: list[str] = []
    for i, word in enumerate(words):
        bare = word.casefold()
        if i == 0:
            phrase.append(word)
            continue
        if bare in _PHRASE_ENDS or bare.rstrip("./") in _PHRASE_ENDS or _adverb(bare):
            break  # "with", and "with../" as a path cut from it leaves it
        lower = word.islower()
        verb_like = lower and len(bare) > 3 and bare.endswith(("s", "ed")) and not bare.endswith("ss")
        following = words[i + 1].casefold() if i + 1 < len(words) else ""
        object_words = words[i + 1 : i + 4]  # as written: a capital says a name
        if verb_like and following in _EN_AUXILIARIES | _EN_BASE_VERBS:
            pass  # a plural noun, its verb after it: "Wi-Fi 6 access points were installed", "cron jobs hang"
        elif verb_like and (i >= 2 or following in _ARTICLES):
            break  # "Mealie keeps its data", "The Nutzendenbeirat meets every semester"; not "Grafana alerts route"
        elif verb_like and _verb_after(words[i + 2 : i + 3]):
            pass  # a noun of a compound, its verb after the next word: "The bug reports board is on Trello"
        elif verb_like and bare.endswith("s") and bare.isalpha() and _object_next(object_words):
            break  # a verb before its object: "Jellyseerr handles media requests", "Loki keeps logs"
        elif verb_like and _third_person(bare) and not _plural(phrase[-1]):
            break  # a thing and its verb: "The printer needs new toner", "Tiago plays padel", "The NAS backs up"
        if lower and len(bare) > 4 and bare.endswith("ed") and not bare.endswith(("eed", "bed")):
            break  # an event's verb right after its thing ("GIMP crashed"); a noun so ending is rare (speed, embed)
        plural = phrase[-1].endswith("s") and not phrase[-1].endswith("ss")
        if not phrase[-1].islower():  # "Dashboards run on", not a name so ending ("Kubernetes service is")
            plural = plural and not name_like(phrase[-1]) and _verb_place(words[i + 1 : i + 2])
        if len(phrase) == 1 and bare in _EN_BASE_VERBS and _plural(phrase[0]):
            break  # "Backups run nightly", "Teams meet on Tuesdays", "The logs show errors"
        if lower and plural and len(phrase) >= 2 and not bare.endswith("s") and "-" not in bare:
            break  # "Grafana alerts route to ...", "Grafana Dashboards run on ...": a plural noun's verb
        if any(ch.isdigit() for ch in word) and not phrase[-1][:1].isupper():
            break
        phrase.append(word)
    return phrase


def _verb_after(words: list[str]) -> bool:
    """Whether the word after the next one is a verb: the word before was a noun of a compound
    ("The customer needs list lives ...", "The bug reports board is on Trello")."""
    bare = words[0].strip(_EDGE).casefold() if words else ""
    return bare in _EN_AUXILIARIES or bare in _EN_BASE_VERBS or _third_person(bare)


def _third_person(bare: str) -> bool:
    """Whether a folded word is a common verb's third person ("needs", "plays", "pushes")."""
    return bare.endswith("s") and (bare[:-1] in _EN_BASE_VERBS or (bare.endswith("es") and bare[:-2] in _EN_BASE_VERBS))


def _object_next(words: list[str]) -> bool:
    """Whether `words` open an object with a plural in it: not an adjective compared ("uploads
    larger than 10 MB") nor a verb before its own object ("teams watch the alerts", "rules files
    mangle a wordlist": the word before them was a noun)."""
    if not words or not _content_word(words[0]) or words[0].casefold() in _EN_IRREGULAR | _EN_AUXILIARIES:
        return False
    after = [w.casefold() for w in words[1:3]]
    if after[:1] == ["than"] or (after and after[0] in _ARTICLES):
        return False
    if len(after) == 2 and _content_word(words[1]) and after[1] in _ARTICLES:
        return False
    # A plural says a noun ("keeps logs", "handles media requests"); a word alone may be the
    # verb of a plural before it ("members pay 60 EUR"), which no list of verbs holds whole.
    return _plural(words[0]) or (len(words) >= 2 and _content_word(words[1]) and _plural(words[1]))


def _plural(word: str) -> bool:
    """Whether a word reads as a plural noun: in -s, not -ss, and no name as written ("vpn03s")."""
    return len(word) >= 3 and word.endswith("s") and not word.endswith("ss") and not name_like(word)


def _verb_place(after: list[str]) -> bool:
    """Whether the word before `after` stands where a verb does: the text ends, or a preposition,
    an article or an adverb follows ("run on the host", "fail nightly")."""
    if not after:
        return True
    bare = after[0].strip(_EDGE).casefold()
    return bare in _VERB_PLACES or _adverb(bare)


def _content_word(word: str) -> bool:
    """Whether an English word is one a noun phrase may hold: no stop word, article, pronoun or
    adverb in -ly ("from", "the", "nightly")."""
    bare = word.strip(_EDGE)
    if not bare.islower():
        return False  # a name: "handles Sonarr" is no object of two words
    return bool(bare) and bare.isalpha() and bare not in _NOT_CONTENT and not bare.endswith("ly")


def _adverb(bare: str) -> bool:
    """Whether a folded English word reads as an adverb in -ly ("nightly", "badly")."""
    return len(bare) > 4 and bare.endswith("ly")


def as_written(sentence: str, subject: str) -> str:
    """`subject` (a part of `sentence`, tidied: its first letter made capital, the article or
    preposition before it taken away) as the sentence has it: with that article or preposition
    and its first word's case, which tell a German noun from an adjective and the adjective's case."""
    first = subject.split(maxsplit=1)[0] if subject.split() else ""
    found = re.search(rf"(?<![\w-]){re.escape(first)}(?![\w-])", sentence, re.IGNORECASE) if first else None
    if found is None:
        return subject
    before = sentence[: found.start()].split()
    kept: list[str] = []
    while before and len(kept) < 2 and before[-1].casefold() in _DETERMINERS | _PREPOSITIONS:
        kept.insert(0, before.pop())
    return " ".join([*kept, found.group(0) + subject[len(first) :]])
