"""What two pages' names say: one name spelt two ways, a copy's name ("X 1"), two members of a
numbered series ("v1.2" / "v1.3"), a series of derived pages ("X - Flashcards"), two things whose
near-copies each say their own name. The duplicate rule's identity evidence and its exceptions."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from curator.core.meaning.page_reads import CJK, NAME_CHARS

if TYPE_CHECKING:
    from curator.core.read.page import Page

SAVES_APART = 24  # later saves of one name and day a save is compared with (a log kept every minute)
SERIES_TITLES = 4  # titles ending in one part ("X - Flashcards") that make it a series of derived pages

_NAME_WORD = re.compile(r"\w+(?:[-.'’]\w+)*")  # a word of a name, with what joins it inside ("move-disk")
_COPY_SUFFIX = re.compile(r"(?:\s+(?:\d|copy|kopie)|\s*\(\d+\))$", re.IGNORECASE)  # "X 1", "X copy", "X (2)"
_SEPARATORS = re.compile(r"[\s\-_:./|\u2013\u2014]+")  # what two spellings of one name may differ in
_NUMBER = re.compile(r"\d+")
_NAME_PART = re.compile(rf"[^\W\d_{CJK}]{{3,}}")  # a word of a name that can tell two things apart
_CJK_RUN = re.compile(rf"[{CJK}]+")
_VERSUS = re.compile(r" (?:vs|versus) ")  # a comparison's two sides


@functools.cache
def _function_words() -> frozenset[str]:
    from curator.core.read.words import stop_words

    return stop_words("en") | stop_words("de")


@functools.lru_cache(maxsize=1 << 16)  # a page's name is keyed three times a run (title, name, name and work)
def title_key(title: str, copy_suffix: bool = True) -> str:
    """A title as two entries of one thing share it: case, punctuation, separators and a copy
    suffix folded away ("RedShift - OLED Blue Light Filter", "RedShift: OLED blue light filter").
    `copy_suffix=False` for a name as written, such as an alias ("WI-FI 5" is no copy of "WI-FI")."""
    if len(title) > NAME_CHARS:
        return ""  # prose, not a name (and a long run of spaces would cost the suffix search dearly)
    text = (
        "".join(c for c in unicodedata.normalize("NFKC", title) if unicodedata.category(c) != "Cf").casefold().strip()
    )
    if copy_suffix:
        text = _COPY_SUFFIX.sub("", text)
    return _SEPARATORS.sub(" ", text).strip()


def joined(key: str) -> str:
    """A title key with its separators folded away ("wi fi" and "wifi" one name), but not between
    two numbers: "v1.1.0" and "v1.10" are two releases."""
    return _DIGITS_APART.sub("|", key).replace(" ", "")


_DIGITS_APART = re.compile(r"(?<=\d) (?=\d)")


def reordered(name: str, other: str) -> bool:
    """Whether two names are one comparison read either way round ("Drizzle vs Prisma" /
    "Prisma_vs_Drizzle"): evidence only beside the same text ("Liverpool vs Barcelona" and
    "Barcelona vs Liverpool" are two matches), and only for "vs" ("Berlin to Munich", "Alice owes
    Bob", "House Boat" turned round are other things)."""
    key, other_key = title_key(name), title_key(other)
    sides, other_sides = _VERSUS.split(key), _VERSUS.split(other_key)
    return key != other_key and len(sides) == len(other_sides) == 2 and sides == other_sides[::-1]


def copy_named(title: str) -> bool:
    """A name with a copy suffix ("X 1", "X copy", "X (2)"), digits of any script ("Chapter ②") too."""
    return len(title) <= NAME_CHARS and _COPY_SUFFIX.search(unicodedata.normalize("NFKC", title)) is not None


def two_headings(heading: str, other: str) -> bool:
    """Whether two pages' own headings name two things: they differ as written in more than case
    and spaced punctuation. A letter or a joining character inside a word is part of a name
    ("go env" / "goenv", "qm move-disk" / "qm move_disk"), whatever the file names fold to."""
    return bool(heading and other) and _as_written(heading) != _as_written(other)


def two_titles(page: Page, other: Page) -> bool:
    """Whether two pages' frontmatter titles name two things: "Campus Information" and "Our
    Campus" are a folder's page and its index, whatever their file names; "Custom Header Path"
    and "customHeaderPath" are one name."""
    titles = [p.frontmatter.get("title") for p in (page, other)]
    keys = [joined(title_key(t, copy_suffix=False)) if isinstance(t, str) else "" for t in titles]
    return all(keys) and keys[0] != keys[1]


def _as_written(name: str) -> str:
    return " ".join(_NAME_WORD.findall(unicodedata.normalize("NFKC", name).casefold()))


def named_apart(names: tuple[str, str], counts: Counter[str], other_counts: Counter[str]) -> bool:
    """Whether each of two near-copies says its own name more than the other does, in a word the
    other's name lacks ("ellipse" / "hyperbola", "Skip-gram" / "Continuous Bag of Words", two
    companies' dossiers): one text filled in for two things, a template or a note copied and
    edited for its sibling, not one page kept twice. A Chinese or Japanese name is said by each two
    of its characters ("张伟" / "李娜"). A name and its initials ("ГиО", "Гормоны и онкомаркеры")
    are one thing's."""
    if _abbreviates(*names) or _abbreviates(*reversed(names)):
        return False
    own = [_name_parts(name) for name in names]
    said = (counts, other_counts)
    return all(any(said[i][w] > said[1 - i][w] for w in own[i] - own[1 - i]) for i in (0, 1))


def _name_parts(name: str) -> set[str]:
    """The words of a name that can tell it from another's, and each two characters of a Chinese
    or Japanese one."""
    folded = name.casefold()
    parts = set(_NAME_PART.findall(folded)) - _function_words()
    for run in _CJK_RUN.findall(folded):
        parts |= {run[i : i + 2] for i in range(len(run) - 1)} or {run}
    return parts


def _abbreviates(short: str, name: str) -> bool:
    """Whether `short` is `name`'s initials, one letter a word ("ГиО", "Гормоны и онкомаркеры";
    "SRP", "Single Responsibility Principle")."""
    letters = short.replace(".", "").casefold()
    words = _NAME_WORD.findall(name.casefold())
    return 2 <= len(letters) == len(words) and letters.isalpha() and "".join(w[0] for w in words) == letters


def series_suffixes(pages: list[Page]) -> frozenset[str]:
    """Last title parts ("X - Flashcards", "Y - Flashcards") that SERIES_TITLES or more titles
    end with: the name of a series of pages derived from others, or of a topic."""
    counts = Counter(_suffix(page.title) for page in pages)
    return frozenset(suffix for suffix, n in counts.items() if suffix and n >= SERIES_TITLES)


def _suffix(title: str) -> str:
    head, separator, tail = title.rpartition(" - ")
    return title_key(tail) if separator and head.strip() else ""


def derived(page: Page, other: Page, series: frozenset[str]) -> bool:
    """Whether one page is the other's entry in a series of derived pages ("X" and "X -
    Flashcards", "X - Topic" and "X - Flashcards"): kept apart on purpose, however alike."""
    ends = {_suffix(page.title), _suffix(other.title)}
    return len(ends) == 2 and bool(ends & series) and title_key(page.title) != title_key(other.title)


# Files every project holds, each its own however alike: LICENSE, CODE_OF_CONDUCT.
_BOILERPLATE = {"license", "licence", "copying", "notice", "changelog", "contributing", "code_of_conduct"}
_BOILERPLATE |= {"security", "support", "authors", "changes", "history"}


def one_boilerplate(page: Page, other: Page) -> bool:
    """Whether two pages are one file every project holds (LICENSE, CODE_OF_CONDUCT), each its own."""
    return bool(boilerplate(page)) and boilerplate(page) == boilerplate(other)


def boilerplate(page: Page) -> str:
    """A page's name when it names a file every project holds (LICENSE, CHANGELOG), else ""."""
    name = page.name.casefold().replace("-", "_")
    return name if name in _BOILERPLATE else ""


def numbered(name: str, other: str) -> bool:
    """Whether two names differ only in the value of their numbers ("4-2-0" / "4-2-1", "v1.2" /
    "v1.3", "Week 1" / "Week 2", "UTF-8" / "UTF-16"): two members of a numbered series, kept side
    by side on purpose like the pages of a dated series. "Week 1" / "Week 01" is one name."""
    key, other_key = title_key(name, copy_suffix=False), title_key(other, copy_suffix=False)
    numbers, other_numbers = _NUMBER.findall(key), _NUMBER.findall(other_key)
    return (
        bool(numbers)
        and _NUMBER.sub("#", key) == _NUMBER.sub("#", other_key)
        and [int(n) for n in numbers] != [int(n) for n in other_numbers]
    )


_LEADING_ID = re.compile(r"^[^\W\d_]{0,2}\d{2,}[\s_.-]+[^\W\d_]\w*[\s_.-]+\w")


def id_led(name: str, other: str) -> bool:
    """Whether both names open with an id before words ("s367-agent-tracing", "202301011200 Hash
    tables"): a note's id, not its place in a series; the same text under two ids is one note."""
    return bool(_LEADING_ID.match(name)) and bool(_LEADING_ID.match(other))


# A time of day to the second after a date in a name, as programs write it: `2026-03-11T04-20-00Z`,
# `20260219T033735Z`, `2026-03-11 22:03:32`. Not four digits after a date (`invoice-2026-03-11-0001`,
# an Obsidian note id `202603110930`), which number records as often as they time them.
_SAVED_AT = re.compile(
    r"(?<!\d)((?:19|20)\d\d-?[01]\d-?[0-3]\d)"
    r"(?:T([0-2]\d[-:_.]?[0-5]\d[-:_.]?[0-5]\d(?:[.,-]\d{1,3})?Z?)|[_\s-]([0-2]\d[-:_.][0-5]\d[-:_.][0-5]\d))(?!\d)"
)
_EPOCH = re.compile(r"(?<!\d)1[5-9]\d{11}(?!\d)")  # milliseconds since 1970 (ten digits may be an ISBN)


def saved_at(name: str) -> tuple[str, str] | None:
    """A name with a time of day, as the name of the day and the time (`report-2026-03-11T04-20-00Z`:
    `report-2026-03-11#`, `04-20-00Z`); None for a name with no time. A page written again and again
    under one name but its time (an agent's snapshot every half hour, a report run twice) is one page."""
    found = _SAVED_AT.search(name)
    if found:
        return name[: found.start()] + found[1] + "#" + name[found.end() :], found[2] or found[3]
    epoch = _EPOCH.search(name)
    if epoch:
        day = datetime.fromtimestamp(int(epoch[0][:10]), tz=UTC).date().isoformat()
        return name[: epoch.start()] + day + "#" + name[epoch.end() :], epoch[0]
    return None


def saved_again(
    paths: Iterable[str], name: Callable[[str], str], alike: Callable[[str, str], bool]
) -> list[tuple[str, str, str]]:
    """Pages of one folder whose names are one name but for the time of one day (`saved_at`) and
    whose texts are one text: each save with the latest of the next SAVES_APART saves it is `alike`
    (the earlier save, the later, the day's name). Days' notes differ in the day, not in the time."""
    by_day: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for path in paths:
        saved = saved_at(name(path))
        if saved:
            by_day[path.rpartition("/")[0], saved[0]].append((saved[1], path))
    pairs = []
    for (_, day), saves in by_day.items():
        saves.sort()
        for k, (_, path) in enumerate(saves[:-1]):
            later = saves[k + 1 : k + 1 + SAVES_APART]
            kept = next((other for _, other in reversed(later) if alike(path, other)), None)
            if kept:
                pairs.append((path, kept, day.replace("#", "")))
    return pairs
