"""One thing an agent wrote up again on another day: one name in sibling day folders.

An agent filing its work by day (`research/github/2026-02-08/deep-dive-heretic.md`, then
`research/github/2026-02-20/deep-dive-heretic.md`) looks at one thing again and writes it up again,
in other words: the thing's page kept once per visit, each to be merged into the latest. Two such
pages are one thing when both open with one heading that names it: a repository
(`# Deep Dive: p-e-w/heretic`), or beside the web address of a page both give and no other page
gives (the bookmarked post); and when the file name names it too (`deep-dive-heretic.md`,
`2019320073970737162.md`). A heading naming only the kind of a day's output ("GitHub Trending —
2026-01-29", "Niche Growth Post Pack"), a source each day's output cites (`github.com/trending`,
a dashboard), or a repository a day's log is about (`worklog.md`: "Work log: acme/api") says
nothing of one thing: each day's output is its own.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from curator.core.meaning.folders import file_name
from curator.core.meaning.page_names import title_key
from curator.core.read.titles import dated

if TYPE_CHECKING:
    from curator.core.meaning.page_reads import Read
    from curator.core.read.page import Page

# A folder that is a day: 2026-02-08, 20260208 (not 2026-19-39, nor an id 20261931).
_DAY = re.compile(r"((?:19|20)\d\d)([-_.]?)(0[1-9]|1[0-2])\2(0[1-9]|[12]\d|3[01])")
# A repository as a heading names it, the whole heading or all of it after its kind ("Deep Dive:
# p-e-w/heretic", "NevaMind-AI/memU"); not words with a slash inside a heading ("Read/write latency
# report", "Wind speed in km/h").
_REPOSITORY = re.compile(r"(?:^|:\s+)([A-Za-z0-9][\w.-]*)/([\w.-]*\w)\s*$", re.ASCII)
_WORD = re.compile(r"[A-Z][a-z]*")
_LETTER = re.compile(r"[^\W\d_]")


def written_again(
    pages: Iterable[Page], reads: Mapping[str, Read], given_by: Mapping[str, set[str]]
) -> list[tuple[str, str, str, str]]:
    """(visit, latest visit, heading, what it names) for each earlier page of one thing in day
    folders: one file name naming the thing, and one heading naming a repository or beside an
    address only the pages of that name give (`given_by`: an address -> the pages giving it)."""
    visits: dict[tuple[str, ...], list[tuple[str, str]]] = defaultdict(list)
    for page in pages:
        *folders, name = page.path.split("/")
        days = [_day(folder) for folder in folders]
        if any(days):
            place = tuple("" if day else folder for folder, day in zip(folders, days, strict=True))
            visits[(*place, file_name(name))].append((visited(page.path), page.path))
    found = []
    for group in visits.values():
        paths = {path for _, path in group}
        by_heading: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for day, path in group:
            heading = reads[path].heading
            if title_key(heading) and not dated(heading):
                by_heading[title_key(heading)].append((day, path))
        for seen in by_heading.values():
            seen.sort()
            latest = seen[-1][1]
            for _, path in seen[:-1]:
                thing = _thing(reads[path], reads[latest], paths, given_by)
                if thing and _names(path, thing):
                    found.append((path, latest, reads[latest].heading, thing))
    return found


def _thing(read: Read, other: Read, paths: set[str], given_by: Mapping[str, set[str]]) -> str:
    """What two visits' one heading names: the repository it ends in after its kind ("Deep Dive:
    p-e-w/heretic"), written alike in both, where the two give no two addresses; or a web address
    of a page (a path of two parts or more: not a site, not a mail) the two give and no page but
    the visits of that name gives; "" if neither."""
    repository = _REPOSITORY.search(read.heading)
    named = "/".join(repository.groups()) if repository and _repository(*repository.groups()) else ""
    forked = read.addresses and other.addresses and not read.addresses & other.addresses  # two repositories
    if named and named in other.heading and not forked:
        return named
    shared = (a for a in read.addresses & other.addresses if given_by[a] <= paths)
    return min((a for a in shared if a.count("/") >= 2 and "@" not in a), default="")


def _names(path: str, thing: str) -> bool:
    """Whether a page's file name names the thing (`deep-dive-heretic.md` names `p-e-w/heretic`,
    `2019320073970737162.md` the post `x.com/user/status/2019320073970737162`): its last words
    are the thing's last part, separators and case folded."""
    stem = _folded(path.rsplit("/", 1)[-1].rsplit(".", 1)[0])
    last = _folded(thing.rstrip("/").rsplit("/", 1)[-1])
    return bool(last) and stem.endswith(last)


def _folded(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.casefold())


def _repository(owner: str, name: str) -> bool:
    """Whether an owner and a name written with a slash between are a repository's: letters in
    both, and not two words or capitals ("Input/Output", "CI/CD")."""
    if not (_LETTER.search(owner) and _LETTER.search(name)):
        return False  # "1.0/2.0"
    return not all(_WORD.fullmatch(part) or part.isupper() for part in (owner, name))


def visited(path: str) -> str:
    """The days of a page's folders as yyyymmdd, joined: later visits sort after earlier ones."""
    return "/".join(_day(folder) for folder in path.split("/")[:-1])


def _day(folder: str) -> str:
    """The day a folder is named for, as yyyymmdd; "" if it is no day."""
    day = _DAY.fullmatch(folder)
    return day.group(1) + day.group(3) + day.group(4) if day else ""
