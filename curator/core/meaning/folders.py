"""The shapes of a vault's folders that say whether two same-named pages are one page kept twice.

Two folders holding PARALLEL_NAMES or more pages of the same file names are parallel trees:
platforms (`linux`, `osx`), languages (`en`, `de`), versions (`1.0`, `2.0`), kept side by side on
purpose; their same-named pages are two pages. A folder copied whole is the exception: its
same-named pages are near copies, one page kept twice.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable

from curator.core.meaning.page_names import copy_named, title_key

PARALLEL_NAMES = 3  # same-named pages that make two folders parallel trees
COPIES = 0.85  # share of two folders' same-named pages that are near copies when one folder is a copy of the other

_NUMBER = re.compile(r"\d")
# A folder named for a version or a year (`1.0`, `v2`, `version-1.0`, `2024`, `ATOM_SG_v6_2`), not one
# that only holds a number (`Master 1`, `S1`, `01 - Networking Concepts`: a course's place in an order).
_VERSION = re.compile(r"^v?\d+(?:[._-]\d+)*[a-z]?$|(?<!\d)(?:19|20)\d\d(?!\d)|version|(?<![a-z])v\d", re.IGNORECASE)
# Where a copy of another project's files is kept on purpose: `vendor/`, `third-party-libs/`, `deps/`.
_VENDORED = re.compile(r"vendor|third.?party|3rd.?party|extern|submodule|node_modules|^deps?$|^lib$", re.IGNORECASE)
# A word of a folder's name that says it holds copies of the vault's own pages as they were:
# `backup-20260207-082400/`, `backups/`, `memory-backup/`, `COMPLETE_SUCCESS_BACKUP_20260204/`,
# `notes.bak/`, `bkp/`, `Sicherung/`, `Sicherungskopie/` (not `Versicherungen/`, insurance; nor "copy" or
# "old", which name topics: `Marketing/Copy/`, `Old English/`, `docs/api_old/`), or ends in `.old`.
_BACKUP_WORDS = frozenset({"backup", "backups", "bak", "bkp", "sicherung", "sicherungen", "sicherungskopie"})
# An archive keeps what is done with on purpose: old versions (`docs/archive/1.0/`), last year's letters
# from one template (`Archiv/2019/Briefe/`), notes moved out of the way. Only a page kept there byte for
# byte at its live page's path (`_archive/tool/README.md`, `tool/README.md`) is a copy.
_ARCHIVE_WORDS = frozenset({"archive", "archived", "archives", "archiv"})
_OLD = re.compile(r"\.old$", re.IGNORECASE)
_PART_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")  # `COMPLETE_SUCCESS_BACKUP`, `memoryBackup`
_FOLDER_NAME = re.compile(r"[^\W\d_]+(?:[-_ ][^\W\d_]+)*")  # `memory`, `my-notes`: letters, no date or number
_DATED = re.compile(r"[\d\W_]+")  # a backup's own folder of its date or number: `backups/2026-02-01/`
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_LETTERS = re.compile(r"[a-z]+")
# A language tree's folder: en, de, pt-BR, es-419, zh-Hans-CN.
_LANGUAGE = re.compile(r"^[a-z]{2}(?:[-_](?:[a-z]{2,4}|\d{3})){0,2}$", re.IGNORECASE)
_FACES = frozenset({"readme.md", "index.md", "_index.md"})  # the page a folder shows first
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)?")  # the number in a series' entry: `Week 2`, `2nd edition`


def parallel_folders(paths: list[str]) -> dict[tuple[str, str], int]:
    """Pairs of folders (both ways) that hold PARALLEL_NAMES or more pages of the same file name,
    with how many."""
    by_name: dict[str, set[str]] = defaultdict(set)
    for path in paths:
        by_name[file_name(path)].add(folder_of(path))
    shared: Counter[tuple[str, str]] = Counter()
    for folders in by_name.values():
        if 1 < len(folders) <= 12:
            ordered = sorted(folders)
            for i, a in enumerate(ordered):
                for b in ordered[i + 1 :]:
                    shared[a, b] += 1
    parallel = {pair: n for pair, n in shared.items() if n >= PARALLEL_NAMES}
    return parallel | {(b, a): n for (a, b), n in parallel.items()}


def faces(page: str, other: str) -> bool:
    """Whether both pages are their folders' faces (README.md, index.md), each named by its folder."""
    return file_name(page) in _FACES and file_name(other) in _FACES


def copied_in(page: str, other: str, held: str | None, parallel: dict[tuple[str, str], int]) -> bool:
    """Whether two pages are a file and its copy down a level: one's folder holds the other's (the top
    folder holds every folder), the inner folder stands alone, and the text is the same (`held` "")
    or the inner page's is held in the outer (`held` the page held; None: no text evidence). A file
    copied down (`SOUL.md`, `workspace/SOUL.md`) is one page kept twice; one extended down there is
    the inner folder's own, as is a file in one of several folders side by side (`agents/pixel`,
    `agents/scout`) and a folder's README (a package's, published with it)."""
    inner, outer = sorted((folder_of(page), folder_of(other)), key=len, reverse=True)
    if held is None or (held and folder_of(held) != inner) or (outer and not inner.startswith(outer + "/")):
        return False
    if faces(page, other):
        return False  # a folder's own face: a package's README, published with it, says what the top one does
    return not any(f and folder_of(f) == folder_of(inner) for f, g in parallel if g == inner)


def copied_whole(
    paths: list[str],
    parallel: dict[tuple[str, str], int],
    same_text: Callable[[str, str], bool],
    near_copies: Callable[[str, str], bool],
    one_file: Callable[[str, str], bool],
) -> set[tuple[str, str]]:
    """Same-named pages of a folder kept twice. A folder and its copy inside another
    (`internal-api`, `references/internal-api`): when COPIES of their same-named pages are near
    copies, all are kept twice (also pages generated again in one place since); when half are, those
    half. Two trees under two parents (`monitoring/grafana`, `observability/grafana`; `agents/v2`,
    `projects/lead-gen/v2`: a folder renamed, moved or copied, subfolders and all) sharing 2 *
    PARALLEL_NAMES pages at one path or more, half of which hold the same text word for word (one
    template filled in for two clients holds other names): when COPIES of them are near copies all
    are kept twice, else the near copies; between cousins (`install/linux/steps`,
    `install/macos/steps`: one platform's steps beside another's; two clients' handbooks) only the
    near copies, and only when COPIES of them are. Never versions or languages
    (`1.0/x`, `2.0/x`; `en`, `de`: an untranslated page is a copy), a vendored copy, or siblings
    (`packages/a`, `packages/b`)."""
    by_folder: dict[str, dict[str, str]] = defaultdict(dict)
    for path in paths:
        by_folder[folder_of(path)][file_name(path)] = path
    kept: set[tuple[str, str]] = set()
    trees: set[tuple[str, str]] = set()
    for (folder, other), count in parallel.items():
        if folder > other or versions(folder, other) or _vendored(folder, other):
            continue
        here, there = by_folder[folder], by_folder[other]
        same_named = [(min(path, there[name]), max(path, there[name])) for name, path in here.items() if name in there]
        near = [pair for pair in same_named if near_copies(*pair)]
        if _copied_beside(folder, other):  # `Payload encryption 1/` beside `Payload encryption/`: its files kept
            kept.update(pair for pair in same_named if one_file(*pair))  # as they are (`Python 3/` may be a version)
            continue
        if not folder:  # the vault's own files copied into a folder (`SOUL.md`, `shared/SOUL.md`): those copied
            kept.update(near if 2 * len(near) >= count else [])
            continue
        if other.endswith("/" + folder) or folder.endswith("/" + other):  # `x`, `references/x`
            kept.update(same_named if len(near) >= COPIES * count else near if 2 * len(near) >= count else [])
            continue
        trees.add(_climbed(folder, other))
    children: dict[str, set[str]] = defaultdict(set)
    for folder in list(by_folder) if trees else []:
        while folder:
            children[folder_of(folder)].add(folder)
            folder = folder_of(folder)
    for root, other_root in trees:  # moved whole, subfolders and all: `agents/v2` and `projects/lead-gen/v2`
        if not root or folder_of(root) == folder_of(other_root) or versions(root, other_root):
            continue
        here, there = _below(root, by_folder, children), _below(other_root, by_folder, children)
        placed = [(min(path, there[below]), max(path, there[below])) for below, path in here.items() if below in there]
        near = [pair for pair in placed if near_copies(*pair)]
        cousins = root.split("/")[0] == other_root.split("/")[0]  # under one folder: `install/linux`, `install/macos`
        whole = len(near) >= COPIES * len(placed)
        if cousins and not whole:
            continue  # one platform's or one client's pages beside another's, some alike
        if len(placed) >= 2 * PARALLEL_NAMES and 2 * sum(same_text(*pair) for pair in near) >= len(placed):
            kept.update(placed if whole and not cousins else near)  # a moved folder's pages regenerated since too
    return kept


def _below(root: str, by_folder: dict[str, dict[str, str]], children: dict[str, set[str]]) -> dict[str, str]:
    """A folder's pages at any depth, by their path below it (case folded)."""
    below: dict[str, str] = {}
    todo = [root]
    while todo:
        folder = todo.pop()
        todo.extend(children.get(folder, ()))
        for path in by_folder.get(folder, {}).values():
            below[path[len(root) + 1 :].casefold()] = path
    return below


def _climbed(folder: str, other: str) -> tuple[str, str]:
    """The two folders up to where their names part (`agents/v2/agents`, `projects/lead-gen/v2/agents`:
    `agents/v2` and `projects/lead-gen/v2`), the two roots of one tree kept twice."""
    parts, other_parts = folder.split("/"), other.split("/")
    while len(parts) > 1 and len(other_parts) > 1 and parts[-2].casefold() == other_parts[-2].casefold():
        parts, other_parts = parts[:-1], other_parts[:-1]
    return "/".join(parts), "/".join(other_parts)


def backed_up(
    paths: list[str], alike: Callable[[str, str], bool], content: Callable[[str], str], says: Callable[[str], bool]
) -> dict[str, tuple[str, str]]:
    """Each page kept in a backup folder: the page it is a copy of, and the backup folder. Its page
    is the page of its file name outside backups of the same `content` (a hash of the file), else
    the page at its path without the backup folders (`backup-0207/memory/x.md`, `memory/x.md`),
    where a backup folder named for the folder it copies stands for it (`memory.bak/x.md`,
    `memory/x.md`), when `alike` says their texts are one page's. A folder is a backup when half
    its pages or more are such copies: a `Backup/` folder of notes about backing up is a topic. A
    backup's date or number does not make it a version kept on purpose. An archive's page is a copy
    only byte for byte at its live page's path, and when it `says` something in words of its own
    (a folder note's query, an image's page, an empty section page mean their own folder's)."""
    held: dict[str, list[str]] = defaultdict(list)
    live: dict[str, str] = {}  # a live page by its path, case folded
    same: dict[tuple[str, str], str] = {}  # (file name, content) -> a live page
    for path in paths:
        backup = backup_folder(path)
        if backup:
            held[backup].append(path)
        else:
            live[path.casefold()] = path
    for path in live.values() if held else []:
        same.setdefault((file_name(path), content(path)), path)
    copies: dict[str, tuple[str, str]] = {}
    for backup, pages in held.items():
        if archive(backup):
            found = {page: _archived(page, live, content) if says(page) else None for page in pages}
        else:
            found = {page: _original(page, same.get((file_name(page), content(page))), live, alike) for page in pages}
        if 2 * sum(1 for original in found.values() if original) >= len(pages):
            copies |= {page: (original, backup) for page, original in found.items() if original}
    return copies


def _original(copy: str, same: str | None, live: dict[str, str], alike: Callable[[str, str], bool]) -> str | None:
    """The live page a backup's page copies: the `same` file, else the page at the copy's path
    without its backup folders and the date folders right under them (`backups/2026-02-01/notes/x.md`
    and `notes/x.md`; `docs/backup/s3.md` would back up `docs/s3.md`, never `docs/restore/s3.md`), a
    backup folder named for a folder standing for it (`memory.bak`, `memory-backup`: `memory`)."""
    if same and alike(copy, same):
        return same
    *folders, name = copy.split("/")
    paths: list[list[str]] = [[]]
    in_backup = False
    for part in folders:
        if _backup_word(part):
            paths = [[*path, stands] if stands else path for path in paths for stands in _stands_for(part)]
            in_backup = True
        elif not (in_backup and _DATED.fullmatch(part)):
            paths = [[*path, part] for path in paths]
            in_backup = False
    for path in paths:
        page = live.get("/".join([*path, name]).casefold())
        if page and alike(copy, page):
            return page
    return None


def _stands_for(part: str) -> list[str]:
    """The folder names a backup folder may stand for, nearest first: its name without the backup
    word and dates (`memory.bak`, `memory-backup-0207`: `memory`), the words before the backup word
    (`chapters-backup-pre-kuerzen`: `chapters`, the folder as it was before shortening; `my-notes-backup`),
    then none (`backup-20260207/`, `COMPLETE_SUCCESS_BACKUP_2026/`: copies of the top folder)."""
    word = next((w for w in _PART_WORD.finditer(part) if w[0].casefold() in _BACKUP_WORDS), None)
    without = part[: word.start()] + " " + part[word.end() :] if word else _OLD.sub("", part)
    whole = _DATED.sub(" ", without).strip(" ._-")
    before = part[: word.start()].strip(" ._-") if word else ""
    names = [whole] if whole.isalpha() else []
    names += [before] if _FOLDER_NAME.fullmatch(before) and before not in names else []
    return [*names, ""]


def _archived(copy: str, live: dict[str, str], content: Callable[[str], str]) -> str | None:
    """The live page an archive's page is a byte-for-byte copy of, at the copy's path without its
    archive folders; None for any other."""
    page = live.get("/".join(part for part in copy.split("/") if not _archive_word(part)).casefold())
    return page if page and content(page) == content(copy) else None


def backup_folder(path: str) -> str:
    """The folder of a path that holds backups or an archive ("" when none does)."""
    parts = path.split("/")[:-1]
    for end, part in enumerate(parts):
        if _backup_word(part) or _archive_word(part):
            return "/".join(parts[: end + 1])
    return ""


def archive(folder: str) -> bool:
    """Whether a backup folder (`backup_folder`) is an archive: kept on purpose, not for safety."""
    name = folder.rsplit("/", 1)[-1]
    return _archive_word(name) and not _backup_word(name)


def _archive_word(part: str) -> bool:
    return not _ARCHIVE_WORDS.isdisjoint(_name_words(part))


def _backup_word(part: str) -> bool:
    return not _BACKUP_WORDS.isdisjoint(_name_words(part)) or bool(_OLD.search(part))


def _name_words(part: str) -> list[str]:
    """The words of a folder's name: `COMPLETE_SUCCESS_BACKUP_2026` and `memoryBackup` say "backup"."""
    return _LETTERS.findall(_CAMEL.sub(" ", part).casefold())


def _copied_beside(folder: str, other: str) -> bool:
    """Whether one of two sibling folders is the other copied by a file manager (`X 1`, `X copy`,
    `X - Kopie` beside `X`)."""
    if folder_of(folder) != folder_of(other):
        return False
    name, other_name = folder.rpartition("/")[2], other.rpartition("/")[2]
    return (copy_named(name) or copy_named(other_name)) and title_key(name) == title_key(other_name) != ""


def _vendored(folder: str, other: str) -> bool:
    return any(_VENDORED.search(part) for part in _differing(folder, other))


def _differing(folder: str, other: str) -> set[str]:
    """The folder names where two paths differ."""
    return set(folder.split("/")) ^ set(other.split("/"))


def apart(folder: str, other: str) -> bool:
    """Whether two pages of one name in these folders may be two things: where the folders' paths
    differ, a number or a language code stands (`events/2024`, `events/2025`; `Clients/FY24`;
    `content/en`, `content/fr`)."""
    return any(_NUMBER.search(part) or _LANGUAGE.match(part) for part in _differing(folder, other))


def versions(folder: str, other: str) -> bool:
    """Whether two folders are two versions, years or languages of one tree, or two entries of one
    numbered series, whose pages are alike by design: where their paths differ, a version, a year or
    a language code stands (`1.0/guide`, `2.0/guide`; `versioned_docs/version-1.0/guide`;
    `content/en`), or one name numbered two ways (`Week 1`, `Week 2`; `Sprint 12`; `FY24`). Not a
    place in an order on each side (`Master 1/S1`, `SWE/01 - Networking`: one course copied)."""
    mine, theirs = (set(folder.split("/")) - set(other.split("/"))), (set(other.split("/")) - set(folder.split("/")))
    if any(_VERSION.search(part) or _LANGUAGE.match(part) for part in mine | theirs):
        return True
    series = {_ORDINAL.sub("#", part.casefold()) for part in mine if _NUMBER.search(part)}
    return any(_ORDINAL.sub("#", part.casefold()) in series for part in theirs if _NUMBER.search(part))


def trees(folder: str, other: str, in_parallel: set[str]) -> bool:
    """Whether two folders are trees kept side by side: both parallel to others, or siblings of
    which one is ("sunos" beside "osx" holds few pages, each a platform's own)."""
    both = {folder, other}
    return both <= in_parallel or (bool(both & in_parallel) and folder_of(folder) == folder_of(other))


def file_name(path: str) -> str:
    return path.rsplit("/", 1)[-1].casefold()


def folder_of(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


def in_folders(paths: set[str]) -> dict[str, list[str]]:
    """The paths by their folder, in path order."""
    by_folder: dict[str, list[str]] = defaultdict(list)
    for path in sorted(paths):
        by_folder[folder_of(path)].append(path)
    return by_folder


def one_place(paths: set[str]) -> list[tuple[str, str]]:
    """The pairs of one title that stand in one place: the only two of a folder, or the only two
    of the vault in a folder and a folder directly inside it (a note filed twice as it moved into
    a subfolder). The same title in two subjects' folders is two things ("Math/Kernel",
    "OS/Kernel"), and so is a page and one deeper down ("Formeln", "Chemie/Formeln/Formeln")."""
    by_folder = in_folders(paths)
    pairs = [(group[0], group[1]) for group in by_folder.values() if len(group) == 2]
    if len(paths) == 2 and len(by_folder) == 2:
        a, b = sorted(paths)
        outer, inner = sorted((folder_of(a), folder_of(b)), key=len)
        if inner.startswith(outer + "/" if outer else "") and "/" not in inner[len(outer) :].strip("/"):
            pairs.append((a, b))
    return pairs
