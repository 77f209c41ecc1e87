"""Duplicates a person would merge, each with the evidence that says so.

Two kinds of evidence, both read from the pages' words (no model, linear in the vault's words):

- text: one page's own text mostly contained in the other's (word_runs.py: runs of words that
  few pages hold, so pages built from one template are compared on what they fill in). Under CLOSE
  of it, only pages of one name: two names are siblings filled from one text ("do" / "done", two
  tables of mirrored columns), where the rest is what tells them apart.
- identity: one thing entered twice. Equal titles once case, punctuation, separators, a copy
  suffix ("X 1") and a place in the folder's order ("05_X") are folded away, in one folder or in a
  folder and its subfolder, unless the pages' own headings or frontmatter titles name two things
  ("go env" / "goenv"); one title or first heading (not an alias: colleagues are aliased "Jan") on
  two to SHARED_LINK pages of one folder that give one web address or e-mail no other page gives:
  one person under two or three accounts; or one name on such pages each pair of which links to a
  page at most SHARED_LINK pages link to (one person known by one plugin); or two pages that are
  nothing but one web address (an article bookmarked twice under two titles). A name alone is not
  enough, nor are plurals folded ("Current" / "Currents"); two spellings of one name whose pages
  link to each other are two things on purpose ("MaaS" the concept, "MAAS" the product). One
  thing an agent wrote up again in another day's folder is one thing too (day_folders.py).
- a backup: a page in a backup folder (`backup-20260207/`, `backups/`) and the page it copies, as it
  is or was, or kept byte for byte in an archive (`_archive/`) at its path (folders.backed_up).

Meaning alone is never evidence here: neighbouring concepts ("Monotonicity" and "Anti
Monotonicity") read alike to any model. That is the opt-in `similar` rule (similarity.py).

A page under PASSAGE of the size of the page holding its text is a passage copied into an
overview. A page saying more in code than in prose holds another's text only with its code (two
logs asking one question get other answers). Near-copies that each say their own name more than
the other ("ellipse" / "hyperbola") are one text filled in for two things, unless one name is
the other's initials ("ГиО", "Гормоны и онкомаркеры"); pages linking to each other are companions
kept apart on purpose, unless their texts are the same word for word or they share a name and an
address or a work; copies with two addresses of their own are a fork. Chinese and Japanese are
read a character a word (page_reads.py).

A dated series' pages (daily notes, a date as the title, the journal folders) are compared only
with a named page, for a word-for-word copy, and with the saves of one name on one day, byte for
byte (`report-2026-03-11T04-20-00Z`, `-T05-20-00Z`: an agent's snapshot saved every half hour, one
page saved again, not a day's entry of a series; page_names.saved_again). Never compared: names
that differ only in their numbers (releases "4-2-0" / "4-2-1", weeks, parts), drawings, template
files, and same-named pages of parallel folders (platform, language or version trees), unless one
folder was copied whole, copied beside itself or is a backup (folders.py).
"""

from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Container, Iterable
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from curator.core.common.vaultpath import same_file
from curator.core.meaning import page_reads
from curator.core.meaning.day_folders import visited, written_again
from curator.core.meaning.folders import (
    apart,
    archive,
    backed_up,
    backup_folder,
    copied_in,
    copied_whole,
    faces,
    file_name,
    folder_of,
    in_folders,
    one_place,
    parallel_folders,
    trees,
    versions,
)
from curator.core.meaning.page_names import (
    boilerplate,
    copy_named,
    derived,
    id_led,
    joined,
    named_apart,
    numbered,
    one_boilerplate,
    reordered,
    saved_again,
    series_suffixes,
    title_key,
    two_headings,
    two_titles,
)
from curator.core.meaning.page_reads import Read
from curator.core.meaning.word_runs import CONTAINED, OWN_RUNS, SHINGLE, near_copies, runs_of, text_evidence
from curator.core.read.titles import dated

if TYPE_CHECKING:
    from curator.core.read.page import Page
    from curator.core.read.vault import Vault

CLOSE = 0.9  # under this share, pages of two names are siblings filled from one text ("do" / "done")
PASSAGE = 1 / 3  # a page under this share of the page holding its text is a passage copied into it
SAME_FILE_CHARS = 200  # text a page needs for a byte-identical copy to be one page kept twice
# Text copies numbered by a file manager ("X 1", "X 2"; a folder "X 1" beside "X") need to be a page
# kept again rather than a template's unfilled pages of a series ("Chapter 1", a folder "Sprint 1").
COPIES_CHARS = 1000
SHARED_LINK = 4  # pages linking to a page at most, for two pages of one name that link to it to be one thing

_WORD = re.compile(r"\w+")
_NUMBERS = re.compile(r"\d+")
_NUMBERED = re.compile(r"[\W\d_]*\d[\W\d_]*(?:st|nd|rd|th)?")
_ORDER = re.compile(r"^\d{2,3}(?:[_.]|\s*-)\s*(?=[^\W\d_])")  # a place in a folder's order: "05_Testprotokoll"
_COPY_KINDS = frozenset({"backup", "identical", "contained"})  # a page in a backup-named folder so paired goes


# What identity evidence says, by its kind, in this order.
_EVIDENCE = {
    "title": "same title '{}'",
    "name": "same name '{}'",
    "heading": "same heading '{}'",
    "address": "same address {}",
    "bookmark": "each page is nothing but the web address {}",
    "link": "both link to {}, which few pages link to",
    "day": "{} written up again on a later day",
    "folder": "one page of a folder kept twice ({})",
}


class Duplicate(NamedTuple):
    """Two pages a person would merge: `page` is the one to merge into `other` (the smaller, or
    the copy), `evidence` the reasons in words, `fix` "merge", or "edit" where the same text stands
    under two names that each look meant (one of them was probably to say something else)."""

    page: str
    other: str
    evidence: tuple[str, ...]
    kinds: tuple[str, ...]  # "identical", "contained", "title", "name", "heading", "address", "bookmark", "link",
    # "day", "folder", "backup"
    contained: float  # share of `page`'s own text that `other` holds (0 without text evidence)
    fix: str


def find(vault: Vault) -> list[Duplicate]:
    """Every pair of pages with text or identity evidence, in path order."""
    # A dated page is read too: one text kept whole under a date and under a name is one page kept twice.
    read_in = [page for page in vault.pages.values() if _readable(vault, page)]
    dated_pages = {page.path for page in read_in if _in_series(vault, page)}
    compared = [page for page in read_in if page.path not in dated_pages]
    reads = page_reads.reads(vault, read_in)
    paths = [page.path for page in read_in]
    pairs: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)  # (a, b) -> kind -> evidence
    runs = {p: runs_of(reads[p].words) for p in paths}  # once: the text evidence and the folders read them
    contained, identical, own = text_evidence(paths, [reads[p].words for p in paths], [runs[p] for p in paths])
    code_runs: dict[str, np.ndarray] = {}  # each page's code read once: a page of code may be in hundreds of pairs
    said: dict[str, Counter[str]] = {}  # each page's words counted once, for the same reason
    for key in contained:
        if _code_apart(vault, reads, code_runs, *key):
            continue
        if (key in identical and not set(key) <= dated_pages) or not dated_pages.intersection(key):
            pairs[key]["contained"] = min(key, key=own.__getitem__)  # the page held
    same_files = _same_files(compared)
    identical |= same_files
    for a, b in same_files:
        if vault.pages[a].body_chars < SAME_FILE_CHARS:  # one name in two orders says it (`_same_files`)
            pairs[a, b]["title"] = f"{vault.pages[a].name}' read as '{vault.pages[b].name}"
    for key in identical:
        if not set(key) <= dated_pages and not _code_apart(vault, reads, code_runs, *key):
            pairs[key]["identical"] = ""  # two entries of one series are alike by design, even word for word
    for kind, a, b, value in _identity_evidence(vault, compared, reads, contained.keys() | identical):
        pairs[tuple(sorted((a, b)))][kind] = value  # type: ignore[index]
    parallel = parallel_folders(paths)
    in_parallel = {folder for pair in parallel for folder in pair}
    kept_twice = copied_whole(
        [page.path for page in compared],  # a dated page is one of its series, wherever it stands
        parallel,
        lambda a, b: (a, b) in same_files or (reads[a].words == reads[b].words and len(reads[a].words) >= SHINGLE),
        functools.partial(near_copies, same_files, runs),
        functools.partial(_kept_again, vault),
    )
    for a, b in kept_twice - pairs.keys():
        pairs[a, b]["folder"] = (folder_of(a) or "the vault's top folder") + " and " + folder_of(b)
    held_shares: dict[tuple[str, str], float] = {}  # a backup's pair is judged, then its share reported

    def held(copy: str, page: str) -> float:
        if (copy, page) not in held_shares:
            held_shares[copy, page] = _held(vault, reads, runs, code_runs, copy, page)
        return held_shares[copy, page]

    alike = functools.partial(_backed_up, vault, reads, held)
    sha, says = (lambda path: vault.pages[path].sha), (lambda path: len(runs[path]) > 0)
    backups = backed_up(paths, alike, sha, says)  # a backup's page -> its page, folder
    originals = {copy: page for copy, (page, _) in backups.items()}
    for copy, (page, backup) in backups.items():
        pairs[min(copy, page), max(copy, page)]["backup"] = backup
    series = series_suffixes(compared)
    found: list[Duplicate] = []
    for (a, b), kinds in sorted(pairs.items()):
        if kinds.keys() & {"identical", "backup", "day"} and same_file(vault.root / a, vault.root / b):
            continue  # a symbolic link and the page it points to (a day folder linked to another)
        if originals.get(a, a) == originals.get(b, b):  # a backup and its page, or two backups of one page
            if "backup" in kinds:  # a page kept as it was, whatever else the two share: how much of it the page holds
                kept = _duplicate(vault, a, b, kinds, contained, dated_pages)
                found.append(kept._replace(contained=held(kept.page, kept.other)))
            continue
        if "day" in kinds:  # one thing's page kept once per visit: the day folders are one place
            found.append(_duplicate(vault, a, b, kinds, contained, dated_pages))
            continue
        copied = copied_in(a, b, "" if "identical" in kinds else kinds.get("contained"), parallel)
        if folder_of(a) != folder_of(b) and (a, b) not in kept_twice and not copied:
            if (folder_of(a), folder_of(b)) in parallel:
                continue
            if file_name(a) == file_name(b) and trees(folder_of(a), folder_of(b), in_parallel):
                continue  # one command or page per platform, language or version tree
        if derived(vault.pages[a], vault.pages[b], series) or one_boilerplate(vault.pages[a], vault.pages[b]):
            continue  # a derived series' page; each project's own LICENSE or CONTRIBUTING
        names = vault.pages[a].name, vault.pages[b].name
        if numbered(*names) and not (kinds.keys() & {"contained", "identical"} and id_led(*names)):
            continue  # two releases, versions or weeks of one series, alike by design
        if kinds.keys() == {"contained"} and _passage(own[a], own[b]) and not _opens(*names):
            continue
        if kinds.keys() == {"contained"} and contained[a, b] < CLOSE and not _one_name(vault.pages[a], vault.pages[b]):
            continue
        if (
            kinds.keys() == {"contained"}
            and not _calls(vault.pages[a], names[1])
            and not _calls(vault.pages[b], names[0])
            and named_apart(names, *(_said(said, reads, p) for p in (a, b)))
        ):
            continue
        linked = (_links(vault, a, b), _links(vault, b, a))
        if kinds.keys() == {"title"} and any(linked) and names[0] != names[1]:
            continue  # one name spelt two ways, one page linking to the other: two things (MaaS, MAAS)
        if all(linked) and "identical" not in kinds and not ("name" in kinds and folder_of(a) == folder_of(b)):
            # Companions that point at each other: a lecture's notes and its material, a person and
            # their team. One name with one address or work in one folder is one thing whose entries
            # say so ("a duplicate entry of [[X]]").
            continue
        if not kinds.keys() & {"contained", "identical"} and apart(folder_of(a), folder_of(b)):
            continue  # one name in two years' or two languages' folders: FOSDEM 2024 and 2025, a translation
        if (
            not kinds.keys() & {"address", "link"}
            and reads[a].addresses
            and reads[b].addresses
            and not reads[a].addresses & reads[b].addresses
        ):
            continue  # two repositories or websites: a fork or a sibling that copied the text
        found.append(_duplicate(vault, a, b, kinds, contained, dated_pages))
    reported = {(min(d.page, d.other), max(d.page, d.other)) for d in found}
    saved = functools.partial(_saved, vault, reported)  # the earlier save is merged into the later
    for a, b, day in saved_again(paths, lambda path: vault.pages[path].name, saved):
        found.append(Duplicate(a, b, ("the same text", f"saved again {day}"), ("saved",), 1.0, "merge"))
    return sorted(found, key=lambda d: (min(d.page, d.other), max(d.page, d.other)))


def share_held(vault: Vault, path: str, text: str) -> float:
    """The share of a text's runs of words that the page holds: the rule's text evidence, for a
    text that is not a page yet (remember's "already there")."""
    wanted = runs_of(page_reads.words(text))
    if not len(wanted):
        return 0.0
    runs = runs_of(page_reads.read(vault, vault.pages[path]).words)
    return float(np.count_nonzero(np.isin(wanted, runs, assume_unique=True))) / len(wanted)


def comparable(vault: Vault, page: Page) -> bool:
    """Whether a page can be a duplicate at all: readable, not a drawing, not part of a dated
    series, not a template."""
    return _readable(vault, page) and not _in_series(vault, page)


def _readable(vault: Vault, page: Page) -> bool:
    """Whether a page's text can be compared: readable, not a drawing, not a template."""
    return page.unreadable is None and bool(page.sha) and not page.drawing and page.path not in vault.templates


def _in_series(vault: Vault, page: Page) -> bool:
    """Whether a page is an entry of a dated series: a date as its title, or in a journal folder."""
    return vault.config.in_journal_folder(page.path) or dated(page.title)


def _code_apart(vault: Vault, reads: dict[str, Read], code_runs: dict[str, np.ndarray], a: str, b: str) -> bool:
    """Whether two pages' prose is alike but what they say is their code, and one's code is not
    in the other's: two search logs that ask the same questions and get other answers ("Q: ..."
    above each result), not a checklist copied and extended."""
    first, second = reads[a], reads[b]
    if not (first.mostly_code() or second.mostly_code()) or first.code == second.code:
        return False
    smaller, larger = sorted((_code_runs(vault, code_runs, a), _code_runs(vault, code_runs, b)), key=len)
    if not len(smaller):
        return True
    return bool(np.count_nonzero(np.isin(smaller, larger, assume_unique=True)) / len(smaller) < CONTAINED)


def _code_runs(vault: Vault, code_runs: dict[str, np.ndarray], path: str) -> np.ndarray:
    """A page's runs of code words, read once a run (a page of code may be in hundreds of pairs)."""
    if path not in code_runs:
        code_runs[path] = runs_of(page_reads.code_words(vault, vault.pages[path]))
    return code_runs[path]


def _same_files(pages: list[Page]) -> set[tuple[str, str]]:
    """Pairs of pages whose files are byte for byte the same: two of SAME_FILE_CHARS or more, one
    page kept twice however much is code (which word runs leave out); shorter, when their names are
    one name in two orders ("Drizzle vs Prisma", "Prisma_vs_Drizzle"; not "Liverpool vs Barcelona"
    beside "Barcelona vs Liverpool" alone). Of three or more copies of COPIES_CHARS (one rules file
    in each agent's folder, a snapshot saved again and again), each is paired with the one highest
    up, but for a generator's or a template's (a project's README, a template file) and copies in
    versions' or languages' folders (`docs/en`, `docs/de`; `version-1.0`)."""
    by_sha: dict[str, list[Page]] = defaultdict(list)
    for page in pages:
        if page.body_chars and not boilerplate(page):
            by_sha[page.sha].append(page)
    pairs = {
        (min(a.path, b.path), max(a.path, b.path))
        for group in by_sha.values()
        if len(group) == 2
        for a, b in [group]
        if a.body_chars >= SAME_FILE_CHARS or reordered(a.name, b.name)
    }
    for group in by_sha.values():
        copies = [p.path for p in group if not (faces(p.path, p.path) or "template" in p.path.casefold())]
        if len(group) > 2 and len(copies) > 1 and group[0].body_chars >= COPIES_CHARS:
            first = min(copies, key=lambda path: (path.count("/"), path))
            if not any(versions(folder_of(first), folder_of(path)) for path in copies):
                pairs.update((min(first, path), max(first, path)) for path in copies if path != first)
    return pairs


def _backed_up(vault: Vault, reads: dict[str, Read], held: Callable[[str, str], float], copy: str, page: str) -> bool:
    """Whether a backup's page copies the page as it is or was: one heading (two projects' pages of one
    template have two), and half of what the copy says in the page (`held`: `_held`)."""
    if not (_one_heading(reads, copy, page) and vault.pages[page].body_chars > 0):
        return False
    return held(copy, page) >= 0.5


def _one_heading(reads: dict[str, Read], page: str, other: str) -> bool:
    """Whether two pages' first headings, where both have one, name one thing."""
    heading, other_heading = reads[page].heading, reads[other].heading
    return not (heading and other_heading) or title_key(heading) == title_key(other_heading)


def _held(
    vault: Vault,
    reads: dict[str, Read],
    runs: dict[str, np.ndarray],
    code_runs: dict[str, np.ndarray],
    copy: str,
    page: str,
) -> float:
    """How much of what a copy says the page holds: the shares of its runs of words, of its code's
    runs and of its web addresses the page holds, multiplied (a backup holding the only copy of the
    restore commands holds little of what it says), 1 when the files are the same. Half makes a
    backup's page a copy (a note of one's own that quotes a short page is none)."""
    if vault.pages[copy].sha == vault.pages[page].sha:
        return 1.0
    if not len(runs[copy]):
        return 0.0
    share = 1.0
    for said, holds in (
        (runs[copy], runs[page]),
        (_code_runs(vault, code_runs, copy), _code_runs(vault, code_runs, page)),
        (list(reads[copy].addresses), list(reads[page].addresses)),
    ):
        share *= float(np.isin(said, holds).mean()) if len(said) else 1.0
    return round(share, 3)


def _saved(vault: Vault, paired: Container[tuple[str, str]], a: str, b: str) -> bool:
    """Whether two saves of one page (`saved_again`), not reported on other evidence, are one file
    that says something (two sessions' logs of one boilerplate differ in their ids)."""
    return (min(a, b), max(a, b)) not in paired and _kept_again(vault, a, b, SAME_FILE_CHARS)


def _identity_evidence(
    vault: Vault, pages: list[Page], reads: dict[str, Read], alike: set[tuple[str, str]]
) -> Iterable[tuple[str, str, str, str]]:
    """(kind, page, page, value) for the identity a few pages share: one file name up to separators
    and order in one place ("title"), one name and one web address ("name", "address"), or one
    web address and nothing else ("bookmark")."""
    titles: dict[str, set[str]] = defaultdict(set)
    names: dict[str, set[str]] = defaultdict(set)
    addresses: dict[str, set[str]] = defaultdict(set)
    bookmarks: dict[str, list[str]] = defaultdict(list)  # one web address saved two or three times
    for page in pages:
        titles[joined(title_key(_ORDER.sub("", page.name)))].add(page.path)
        read = reads[page.path]
        for name in {title_key(page.name), title_key(read.heading)}:
            if name and not name.isdigit():  # a page "3" names nothing
                names[name].add(page.path)
        for address in read.addresses:
            addresses[address].add(page.path)
        if read.bookmark:
            bookmarks[read.bookmark].append(page.path)
    for key, paths in titles.items():
        if key and not _NUMBERED.fullmatch(key):  # a page "3", "#1", "1st" names nothing
            for a, b in one_place(paths):
                if copy_named(vault.pages[a].title) or copy_named(vault.pages[b].title):
                    # "X 1" is a copy when its text says so, word for word too beside a third copy
                    copied = len(reads[a].words) >= OWN_RUNS and reads[a].words == reads[b].words
                    if copied and (min(a, b), max(a, b)) not in alike:
                        yield "title", a, b, title_key(vault.pages[a].name)
                    continue
                if two_headings(reads[a].heading, reads[b].heading) or two_titles(vault.pages[a], vault.pages[b]):
                    continue
                if faces(a, b):  # `X/README.md`, `X/X/README.md`: a project's card and the unpacked project's own
                    continue  # are one page by their text, not by their folders' one name
                ordered = _ORDER.match(vault.pages[a].name) or _ORDER.match(vault.pages[b].name)
                if ordered and not joined(title_key(reads[a].heading)) == joined(title_key(reads[b].heading)) == key:
                    continue  # "404-Not-Found" is no place in an order of "Not Found": both headings name it so
                yield "title", a, b, title_key(_ORDER.sub("", vault.pages[a].name))
            for a, b in _copies_in_a_folder(vault, paths):  # "X", "X 1", "X 2" byte for byte: X kept three times
                yield "title", a, b, title_key(vault.pages[a].name)
    for name, paths in names.items():  # one name on a few pages that all give one address no other page gives
        held = frozenset.intersection(*(reads[p].addresses for p in paths)) if len(paths) <= SHARED_LINK else ()
        address = min((a for a in held if addresses[a] == paths), default="") if len(paths) > 1 else ""
        for a, b in _entries(paths) if address else ():
            yield "name", a, b, name
            yield "address", a, b, address
    for bookmark, saved in bookmarks.items():
        for a, b in combinations(sorted(saved), 2) if len(saved) <= 3 else ():
            yield "bookmark", a, b, bookmark
    yield from _name_and_work(vault, pages, reads)
    for visit, latest, heading, thing in written_again(pages, reads, addresses):  # one thing looked at again
        yield "heading", visit, latest, heading
        yield "day", visit, latest, thing


def _kept_again(vault: Vault, a: str, b: str, chars: int = COPIES_CHARS) -> bool:
    """Whether two pages are one file kept again: byte for byte, and `chars` long (COPIES_CHARS for
    pages numbered by a file manager, "X 1" beside X or in a folder "X 1" beside "X")."""
    return vault.pages[a].sha == vault.pages[b].sha and vault.pages[a].body_chars >= chars


def _copies_in_a_folder(vault: Vault, paths: set[str]) -> list[tuple[str, str]]:
    """Each copy ("X 1", "X 2") kept again (`_kept_again`) and its page X, of three or more pages of
    one title in a folder (`one_place` pairs two)."""
    pairs = []
    for group in in_folders(paths).values():
        originals = [p for p in group if not copy_named(vault.pages[p].title)]
        if len(group) > 2 and len(originals) == 1:
            pairs += [(min(p, originals[0]), max(p, originals[0])) for p in group if p != originals[0]]
    return [(a, b) for a, b in pairs if _kept_again(vault, a, b)]


def _name_and_work(vault: Vault, pages: list[Page], reads: dict[str, Read]) -> Iterable[tuple[str, str, str, str]]:
    """("name", "link") for two pages of one name (a file name, or an alias as written) and one first
    heading that both link to a page at most SHARED_LINK pages link to: one thing entered twice,
    known by one work. Without the heading the name may be a folder's ("ci": a team's index beside
    its playbook). "X 1" or "Calculus 2" is left out: numbered pages are a series more often."""
    called: dict[str, set[str]] = defaultdict(set)
    for page in pages:
        if copy_named(page.title):
            continue
        for name in {title_key(page.name), *(title_key(a, copy_suffix=False) for a in page.aliases)}:
            if name and not name.isdigit():
                called[name].add(page.path)
    for name, paths in called.items():
        if not 2 <= len(paths) <= SHARED_LINK:
            continue
        for a, b in _entries(paths):
            heading = title_key(reads[a].heading)
            if not heading or heading != title_key(reads[b].heading):
                continue
            shared = _links_to(vault, a) & _links_to(vault, b)
            rare = sorted(t for t in shared if len(_linked_from(vault, t)) <= SHARED_LINK)
            if rare:
                yield "name", a, b, name
                yield "link", a, b, rare[0]


def _entries(paths: set[str]) -> list[tuple[str, str]]:
    """The pairs of a few pages of one name that can be one thing entered twice: two pages, or of
    three or four the pairs in one folder (`People/javalent`, `People/valentine195`; not three
    projects' `standup` pages)."""
    return [(a, b) for a, b in combinations(sorted(paths), 2) if folder_of(a) == folder_of(b)]


def _links_to(vault: Vault, path: str) -> set[str]:
    return {t for rl in vault.outlinks(path) if (t := rl.target_path) is not None and t != path and t in vault.pages}


def _linked_from(vault: Vault, path: str) -> set[str]:
    return {rl.source for rl in vault.backlinks(path)}


def _passage(words: int, other: int) -> bool:
    """Whether the smaller of two pages' own texts is under a PASSAGE share of the larger: a note
    copied into an overview or a cheat sheet is linked from it, not merged into it."""
    return min(words, other) < PASSAGE * max(words, other)


def _one_name(page: Page, other: Page) -> bool:
    """Whether two pages bear one name: one title, or one file name but for a place in the folder's
    order, a copy's number or a hierarchy's parents ("001-ACID" / "ACID", "customer-support1" /
    "customer-support", "tutorial.main.linking-notes" / "dendron.tutorial.linking-notes"). A stock
    file's name in two sibling folders (`skills/gstack/SKILL.md`, `skills/gstack-browse/SKILL.md`;
    README.md) names each folder's own file: the folders name the two."""
    folder, other_folder = folder_of(page.path), folder_of(other.path)
    siblings = folder and other_folder and folder != other_folder and folder_of(folder) == folder_of(other_folder)
    stock = page.name.isupper() or faces(page.path, other.path)
    if siblings and stock and file_name(page.path) == file_name(other.path):
        return False
    keys = [
        {title_key(p.title), joined(title_key(_ORDER.sub("", name))).rstrip("0123456789")}
        for p in (page, other)
        for name in (p.name, p.name.rpartition(".")[2])
    ]
    return bool((keys[0] | keys[1]) & (keys[2] | keys[3]))


def _calls(page: Page, name: str) -> bool:
    """Whether a page gives `name` as one of its aliases ("PostgreSQL" called "Postgres")."""
    return title_key(name, copy_suffix=False) in {title_key(a, copy_suffix=False) for a in page.aliases}


def _said(said: dict[str, Counter[str]], reads: dict[str, Read], path: str) -> Counter[str]:
    if path not in said:
        words = reads[path].words
        said[path] = Counter(w.casefold() for w in words) + Counter(page_reads.character_pairs(words))
    return said[path]


def _opens(name: str, other: str) -> bool:
    """Whether one name opens the other as written ("customer-support" / "customer-support1",
    "Funktionen" / "Funktionen und ihre Eigenschaften"): a page held in a larger one of its own
    name is its start kept apart, not a passage copied into an overview. A name going on after a
    dot is a child in a hierarchy ("config" / "config.github"), which its parent lists; one name
    in two folders opens itself."""
    shorter, longer = sorted((name.casefold(), other.casefold()), key=len)
    return bool(shorter) and longer.startswith(shorter) and longer[len(shorter) : len(shorter) + 1] != "."


def _links(vault: Vault, page: str, other: str) -> bool:
    return any(link.target_path == other for link in vault.outlinks(page))


def _duplicate(
    vault: Vault,
    a: str,
    b: str,
    kinds: dict[str, str],
    contained: dict[tuple[str, str], float],
    dated_pages: set[str],
) -> Duplicate:
    page_a, page_b = vault.pages[a], vault.pages[b]
    same_name = title_key(page_a.name) == title_key(page_b.name)
    # The page to merge away: a dated entry's copy of a named page, a copy's name ("X 1") over the
    # original's, else the smaller page.
    dated_copies = [p for p in (page_a, page_b) if p.path in dated_pages]
    backups = [p for p in (page_a, page_b) if backup_folder(p.path) and kinds.keys() & _COPY_KINDS]
    copies = backups or dated_copies or [p for p in (page_a, page_b) if copy_named(p.name) and same_name]
    if "day" in kinds:  # each visit merged into the latest
        page, other = sorted((a, b), key=visited)
    elif len(copies) == 1:
        page, other = copies[0].path, (b if copies[0].path == a else a)
    else:  # of two alike, the copy is the one whose path bears a date or number (`memory_2026-02-07/`)
        page, other = sorted((a, b), key=lambda p: (vault.pages[p].body_chars, -len(_NUMBERS.findall(p)), p))
    share = contained.get((a, b), 0.0)
    evidence: list[str] = []
    if "identical" in kinds or page_a.sha == page_b.sha:  # byte for byte also where three copies make it a template
        evidence.append("the same text")
    elif "contained" in kinds:  # the page held is the smaller one, not always the one merged away
        held = kinds["contained"]
        evidence.append(f"{b if held == a else a} holds {share:.0%} of the text of {held}")
    evidence += [said.format(kinds[kind]) for kind, said in _EVIDENCE.items() if kind in kinds]
    if "backup" in kinds:
        kept_in = "archive" if archive(kinds["backup"]) else "backup"
        evidence.append(f"{page} is a copy kept in the {kept_in} folder {kinds['backup']}/")
    named_twice = "identical" in kinds and kinds.keys() <= {"identical", "contained"} and not same_name
    fix = "edit" if named_twice and not dated_copies else "merge"
    return Duplicate(page, other, tuple(evidence), tuple(sorted(kinds)), round(share, 3), fix)


_KEPT_BECAUSE = ("the two are the same size", "it is the larger", "the other is its copy")  # by the sizes' sign


def kept_of(vault: Vault, found: Duplicate, links: int, other_links: int) -> tuple[str, str]:
    """The page of a pair that stays when the two are merged, and why: a backup's original; the later
    write-up of one thing; the page holding the other's text (the other way round pastes it in
    again); of one size, the one higher up (links follow); the page more link to; the larger; else
    `found.other`, a copy's original ("X 1")."""
    a, b = found.page, found.other
    if "backup" in found.kinds:
        kept_in = "an archive" if archive(backup_folder(a)) else "a backup"
        return b, (
            f"the other is its copy in {kept_in} folder (what only the copy says is carried, under a heading"
            " naming its path: delete what the page dropped on purpose)"
        )
    if backup_folder(a) and not backup_folder(b) and _COPY_KINDS.intersection(found.kinds):
        return b, "the other, a copy of its text, stands in a folder named for backups or an archive"
    if "day" in found.kinds:
        return b, "it is the later write-up (what only the earlier says is carried)"
    if "contained" in found.kinds and "identical" not in found.kinds:
        return b, "it holds the other's text"
    kept, gone = vault.pages[b].body_chars, vault.pages[a].body_chars
    if kept == gone and a.count("/") != b.count("/"):  # the same text: the copy is the one further down
        return min(a, b, key=lambda p: p.count("/")), "the other, the same text, lies deeper in the folders"
    if links != other_links:
        more, fewer = max(links, other_links), min(links, other_links)
        return (a if links > other_links else b), f"it has more incoming links ({more} against {fewer})"
    return b, _KEPT_BECAUSE[(kept > gone) - (kept < gone)]
