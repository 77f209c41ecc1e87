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

PARALLEL_NAMES = 3  # same-named pages that make two folders parallel trees
COPIES = 0.85  # share of two folders of other names' same-named pages that are near copies when one was copied

_NUMBER = re.compile(r"\d")
_VENDORED = {"vendor", "vendored", "third_party", "third-party", "external", "node_modules"}  # copies kept on purpose
_LANGUAGE = re.compile(r"^[a-z]{2}(?:[-_][a-z]{2,4})?$", re.IGNORECASE)  # a language tree's folder: en, de, pt-BR


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


def copied_whole(
    paths: list[str],
    parallel: dict[tuple[str, str], int],
    same_file: Callable[[str, str], bool],
    near_copies: Callable[[str, str], bool],
) -> set[tuple[str, str]]:
    """Same-named pages of a folder kept twice. A folder and its copy inside another
    (`internal-api`, `references/internal-api`): when COPIES of their same-named pages are near
    copies, all are kept twice (also pages generated again in one place since); when half are, those
    half. Two folders elsewhere (`monitoring/x`, `observability/x`: a folder renamed, its old copy
    left behind), sharing 2 * PARALLEL_NAMES pages or more: when COPIES of them are the same files
    byte for byte, or, for folders of two names under two parents, near copies (a note's
    frontmatter may differ). Never versions or languages (`1.0/x`, `2.0/x`; `en`, `de`:
    an untranslated page is a copy), nor a vendored copy kept on purpose; not one template's
    folders per client or platform, whose pages differ in what each fills in."""
    by_folder: dict[str, dict[str, str]] = defaultdict(dict)
    for path in paths:
        by_folder[folder_of(path)][file_name(path)] = path
    kept: set[tuple[str, str]] = set()
    for (folder, other), count in parallel.items():
        if folder > other or apart(folder, other) or _VENDORED & (set(folder.split("/")) ^ set(other.split("/"))):
            continue
        here, there = by_folder[folder], by_folder[other]
        same_named = [(min(path, there[name]), max(path, there[name])) for name, path in here.items() if name in there]
        if other.endswith("/" + folder) or folder.endswith("/" + other):  # `x`, `references/x`
            near = [pair for pair in same_named if near_copies(*pair)]
            kept.update(same_named if len(near) >= COPIES * count else near if 2 * len(near) >= count else [])
            continue
        if count < 2 * PARALLEL_NAMES:
            continue  # too few to tell a copy from trees that share their pages now and then
        renamed = leaf(folder) != leaf(other) and folder_of(folder) != folder_of(other)
        copies = sum((same_file if not renamed else near_copies)(*pair) for pair in same_named)
        if copies >= COPIES * count:
            kept.update(same_named)
    return kept


def apart(folder: str, other: str) -> bool:
    """Whether two folders are two versions or languages of one tree: where their paths differ, a
    number or a language code stands (`1.0/guide`, `2.0/guide`; `docs/guide`,
    `versioned_docs/version-1.0/guide`; `events/2024`, `events/2025`; `content/en`, `content/fr`)."""
    return any(_NUMBER.search(part) or _LANGUAGE.match(part) for part in set(folder.split("/")) ^ set(other.split("/")))


def trees(folder: str, other: str, in_parallel: set[str]) -> bool:
    """Whether two folders are trees kept side by side: both parallel to others, or siblings of
    which one is ("sunos" beside "osx" holds few pages, each a platform's own)."""
    both = {folder, other}
    return both <= in_parallel or (bool(both & in_parallel) and folder_of(folder) == folder_of(other))


def leaf(folder: str) -> str:
    return folder.rsplit("/", 1)[-1]


def file_name(path: str) -> str:
    return path.rsplit("/", 1)[-1].casefold()


def folder_of(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""
