"""What a new page is named: the thing a memory is about, as a title (a noun phrase from its
first sentence: no date, ticket, status word, trailing verb or cut word)."""

from __future__ import annotations

import re
import time

from curator.core.common.names import FORBIDDEN, name_problem
from curator.core.curate.facts import STOP, sentences
from curator.core.curate.handed import handed_page
from curator.core.read.naming import as_written, name_like, noun_phrase, past_opening
from curator.core.read.resolve import fold
from curator.core.read.titles import label_of, subject_of, without_event, without_note_kind
from curator.core.read.words import WORD, language_of

_EVENT_NOUNS = frozenset("ticket issue incident störung vorfall".split())  # the event's, never the thing's name

# A sentence opening with a condition or a purpose names its thing after it ("If the backup job
# fails, ...": `Backup job`; "Damit Wake on LAN ... funktioniert": not `Damit`).
_CONDITION = re.compile(
    r"(?i)^(?:if|when|whenever|unless|because|although|as(?!\s+of\b)|wenn|falls|sobald|damit|weil|obwohl|"
    r"da(?=\s+(?:der|die|das|den|dem|ein|eine|wir|ich|es|man)\b)|for(?=\s+(?:a|an|the)\s+\S+(?:\s+\S+)?\s+to\s))\s+"
)


# Words a sentence opens with that say how it is said, not what it is about (an attacker's titles
# "Now", "Moment", "Way", "Per", "Übrigens", "Fall", "Hin"), each up to its comma or colon where
# it has one ("As discussed with Priya, ...", "Je nach Wetter läuft ...": to its verb).
_ASIDE = re.compile(
    r"(?i)^(?:for now|right now|at the moment|by the way|in the end|on top of that|as far as (?:i|we) know|"
    r"as it turns out|it turns out(?: that)?|to be honest|up to now|so far|as usual|as always|in general|"
    r"note that|it is important (?:that|to)|as per [^,:]{1,40}|as discussed(?: with [^,:]{1,40})?|of all [^,:]{1,40}|"
    r"wie besprochen(?: mit [^,:]{1,40})?|wie immer|wie üblich|als faustregel gilt|auf jeden fall|bis jetzt|"
    r"übrigens|nach langem hin und her|als erstes|zum schluss|im moment|momentan|derzeit|je nach \w+|"
    r"from now on|sometimes|manchmal|ab sofort|ab jetzt|only|just|nur|lediglich|"
    r"(?:for(?!\s+(?:a|an|the)\s+\S+(?:\s+\S+)?\s+to\s)|für|instead of|(?:an)?statt) [^,:]{1,40}(?=,))"
    r"\s*[,:]?\s+"
)
# A bidding names its thing after its verb ("Use the B2 bucket ...", "Restart the pvestatd service
# first", "Nimm den Ersatzschlüssel"); and a name ends before what is said of it ("Restic no longer
# backs up", "Ping Carlos Diaz instead of PagerDuty").
_BIDDING = re.compile(
    r"(?i)^(?:please\s+|bitte\s+)?(?:use|restart|reboot|ping|ask|prefer|avoid|(?:fix|repair)(?=\s+(?:the|a|an)\s)|"
    r"(?:run|load|keep|check|install)(?=\s+(?:the|a|an|[A-Z]\S*)\s)|"
    r"nimm|nutze|verwende|benutze|starte|prüfe|frag|schick)\s+(?:(?:the|a|an|den|die|das|dem|einen|eine)\s+)?"
)
# A repair names its thing after it ("Fix für die Take-Away-Bons im Kassensystem": not `Fix`).
_REPAIR = re.compile(
    r"(?i)^(?:(?:a|an|the|ein|einen|der)\s+)?(?:bug|hot)?(?:fix|fixes|patch|workaround)\s+"
    r"(?:for|to|of|für|zum|zur|gegen)\s+(?:(?:the|a|an|den|die|das|dem|der|einen|eine)\s+)?"
)
# A rule an agent keeps names its thing after its bidding ("Do not push to the remote unless ...":
# `Remote`; "Never run migrations on Fridays": `Migrations`; "Nie direkt auf main pushen": `main`):
# the opening, the verb and the words of manner or direction before the thing are left out, and
# the thing ends where the rule's condition, time or place begins, or, in German, its verb.
_RULE = re.compile(
    r"(?i)^(?:please\s+|bitte\s+)?(?:"
    r"(?:do\s+not|don[’']t|never(?!\s+again)|always|make\s+sure(?:\s+that)?|be\s+sure\s+to|remember\s+to)\s+"
    r"(?=(?-i:[a-z`]))"  # a bidding's verb or thing follows, not a name ("Don't Starve", "Always Sunny")
    r"(?:(?!(?:the|a|an|any|all|every|no|your|our|this|that|these|those)\b)(?-i:[a-z][\w-]*)\s+(?=\S))?"
    r"(?:(?:directly|only|first|again|manually|by\s+hand)\s+)?(?:(?:to|on|in|into|from|at|for|with)\s+)?"
    r"|(?:nie|niemals|immer|stets|keine?[nrms]?|nicht)\s+(?:(?:zuerst|erst|direkt|sofort|selbst|mehr|von\s+hand)\s+)?"
    r"(?:(?:auf|an|in|im|ins|zu|zum|zur|mit)\s+)?)"
)
_RULE_ENDS = re.compile(
    r"(?i)[;,:]|\s(?:unless|before|after|when|whenever|if|during|while|until|because|since|except|"
    r"bevor|wenn|falls|während|weil|nachdem|außer|ohne|von|vom|mit|auf|in|im|ins|an|am|zu|zum|zur|für)\s"
)


def _rule_thing(first: str, language: str | None) -> str:
    """What a rule's sentence is about, past its bidding; the sentence itself when it is no rule,
    or when what follows its bidding names no thing ("Don't panic when ...", "Never ssh as root",
    "Nie mehr als 3 Retries", "Nicht vergessen, ...")."""
    found = _RULE.match(first)
    if found is None or found.end() == len(first):
        return first
    thing = _RULE_ENDS.split(first[found.end() :], maxsplit=1)[0].strip(" .!").replace("`", "")
    if language == "de":  # its verb at its end ("... pushen", "... aktualisieren")
        thing = re.sub(r"\s+[a-zäöüß]+(?:en|ern|eln)$", "", thing)
    words = thing.split()
    while words and fold(words[0]) in _ARTICLES:  # "the remote", "das Produktions-Backup"
        words = words[1:]
    if not words or not words[0][0].isalnum() or fold(words[0]) in STOP | _NO_THING:
        return first
    if language == "de" and len(words) == 1 and words[0].islower() and re.fullmatch(r"\w+(?:en|ern|eln)", words[0]):
        return first  # a verb alone: "Nicht vergessen"
    return thing


# Words that open what follows a bidding's verb without naming a thing ("log out of", "reply
# within 24 hours", "push --force").
_NO_THING = frozenset(
    "out up down off away back within about around over under through when why how what where who which "
    "als wann warum wie was wo wer welche mehr weniger".split()
)
_ARTICLES = frozenset("the a an der die das den dem des ein eine einen einem einer".split())


_SAID_OF_IT = frozenset("no not never instead rather first again nicht kein keine nie statt anstatt zuerst".split())


def title_for(text: str) -> str:
    """What the text is about, as a title: the noun phrase its first sentence opens with, once
    dates, tickets and status words are gone, at most six words (the first content words when no
    phrase is found); a page handed whole is named by its frontmatter's title or its heading."""
    handed = handed_page(text.strip())
    if handed.title:
        return handed.title
    first = without_note_kind((sentences(handed.body) or [""])[0])  # "Neues Tool: Seit Mai nutzen wir Loom"
    first = _ASIDE.sub("", first, count=1)  # "For now, the old Mac mini ...", "Übrigens: ..."
    first = _CONDITION.sub("", first, count=1)  # "Wenn man die Git-History ..."
    first = _rule_thing(first, language_of(first))  # "Never push directly to main; ...": `Main`
    first = _BIDDING.sub("", first, count=1)
    language = language_of(first)
    first = past_opening(first, language)  # "Every Monday | the trash goes out"
    subject = _repaired(label_of(first) or as_written(first, subject_of(first)), language)
    words = noun_phrase(subject, language=language).split() if subject else []
    if _names_nothing(words):  # "Wir haben beschlossen, Velero ... einzusetzen": the thing is past the first clause
        words = noun_phrase(without_event(first), language=language).split()
    if _names_nothing(words):  # "To" of "You have to be 14 to join ...": no phrase found
        words = [w for w in WORD.findall(first) if fold(w) not in STOP | _EVENT_NOUNS and not w.isdigit()][:3]
    words = next((words[:at] for at, word in enumerate(words) if at and fold(word) in _SAID_OF_IT), words)
    title = " ".join(FORBIDDEN.sub(" ", " ".join(words[:6])).split()).strip(" .,:;-")
    title = re.sub(r"['’]s\Z", "", title)  # "MusicGen's generated audio": the phrase ends at its owner
    if not name_like(title.split()[0] if title else ""):  # "vpn03" and "restic-backup.sh" keep their case
        title = title[:1].upper() + title[1:]
    return title if title and name_problem(title, ".md") is None else "Note " + time.strftime("%Y-%m-%d")


def _repaired(phrase: str, language: str | None) -> str:
    """The phrase past a repair's words ("Fix für die Take-Away-Bons"), when a noun phrase follows
    them ("Patch for CVE-2026-1234 applied on all hosts" keeps its "Patch" once the ticket is gone)."""
    rest = _REPAIR.sub("", phrase, count=1)
    words = noun_phrase(rest, language=language).split() if rest != phrase else []
    return rest if words and fold(words[0]) not in STOP else phrase


def _names_nothing(words: list[str]) -> bool:
    """Whether a title's words are none but small words ("To", "As"), or there are none."""
    return all(fold(w) in STOP for w in words)
