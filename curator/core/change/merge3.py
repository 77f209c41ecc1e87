"""Three-way merge of text by lines, then words: apply the edits base→theirs onto ours, or report a conflict.

Written here rather than taken from a package because the one on PyPI is GPL, and because undo
needs non-overlapping edits to merge (adjacent edits included) so that undos commute.
"""

from __future__ import annotations

import re
from collections import Counter
from difflib import SequenceMatcher
from itertools import takewhile, zip_longest

Hunk = tuple[int, int, list[str]]  # base lines [start, end) are replaced by these lines


class MergeConflict(Exception):
    pass


def _hunks(base: list[str], other: list[str]) -> list[Hunk]:
    matcher = SequenceMatcher(None, base, other, autojunk=False)
    return [(i1, i2, other[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _overlap(a: Hunk, b: Hunk) -> bool:
    (s1, e1, _r1), (s2, e2, _r2) = a, b
    if s1 == e1 and s2 == e2:  # two insertions at one place: only the same text agrees
        return s1 == s2
    if s1 == e1:
        return s2 < s1 < e2
    if s2 == e2:
        return s1 < s2 < e1
    return s1 < e2 and s2 < e1


def merge3(base: str, ours: str, theirs: str) -> str:
    """`ours` with the changes from `base` to `theirs` applied; MergeConflict when they touch the
    same text. Lines first; where line hunks overlap, the same at the grain of words, so that edits
    to different links on one line (two renames) still merge, in either order."""
    if ours == base:
        return theirs
    if theirs == base or ours == theirs:
        return ours
    try:
        return "".join(_merge(*(s.splitlines(keepends=True) for s in (base, ours, theirs))))
    except MergeConflict:
        return "".join(_merge(*(_TOKEN.findall(s) for s in (base, ours, theirs))))


# Words, runs of white space and single marks cover every character; a wikilink and a markdown
# link's destination are one token each, so that two changes to one link conflict instead of
# merging into a target neither wrote ("[[a/b/X]]" -> "[[Y]]" and -> "[[a/b/Z]]" is no "[[a/Z]]").
_TOKEN = re.compile(r"\[\[[^\[\]\n]*\]\]|\]\([^()\n]*\)|\w+|\s+|[^\w\s]")


def _clashes(hunk: Hunk, others: list[Hunk]) -> bool:
    return any(_overlap(hunk, other) and hunk != other for other in others)


def _slid(b: list[str], hunk: Hunk) -> list[Hunk]:
    """The same insertion or deletion placed elsewhere with the same result, nearest first: in
    repeated lines (blank ones between sections) a diff may take either copy."""
    start, end, lines = hunk
    up: list[Hunk] = []
    down: list[Hunk] = []
    if start == end:  # an insertion rolls over the lines it repeats
        s, r = start, lines
        while s > 0 and r[-1] == b[s - 1]:
            s, r = s - 1, [b[s - 1], *r[:-1]]
            up.append((s, s, r))
        s, r = start, lines
        while s < len(b) and r[0] == b[s]:
            s, r = s + 1, [*r[1:], b[s]]
            down.append((s, s, r))
    elif not lines:  # a deletion of lines a neighbour repeats
        s, e = start, end
        while s > 0 and b[s - 1] == b[e - 1]:
            s, e = s - 1, e - 1
            up.append((s, e, []))
        s, e = start, end
        while e < len(b) and b[s] == b[e]:
            s, e = s + 1, e + 1
            down.append((s, e, []))
    return [h for pair in zip_longest(up, down) for h in pair if h is not None]


def _settled(b: list[str], moving: list[Hunk], fixed: list[Hunk]) -> list[Hunk]:
    """`moving` with each hunk that clashes with `fixed` slid to a place where it clashes with
    nothing, where there is one."""
    result = list(moving)
    for i, hunk in enumerate(result):
        if not _clashes(hunk, fixed):
            continue
        rest = result[:i] + result[i + 1 :]
        for place in _slid(b, hunk):
            if place not in fixed and not _clashes(place, fixed) and not any(_overlap(place, h) for h in rest):
                result[i] = place
                break
    return result


def _merge(b: list[str], o: list[str], t: list[str]) -> list[str]:
    mine, wanted = _hunks(b, o), _hunks(b, t)
    if any(_clashes(hunk, mine) for hunk in wanted):  # each diff chose one alignment of its own
        wanted = _settled(b, wanted, mine)
        mine = _settled(b, mine, wanted)
    if any(_clashes(hunk, mine) for hunk in wanted):
        raise MergeConflict
    # Walk the base once, taking each hunk from whichever side made it (identical ones once).
    events = sorted({(s, e, tuple(r)) for s, e, r in mine + wanted}, key=lambda h: (h[0], h[1]))
    out: list[str] = []
    pos = 0
    for start, end, pieces in events:
        out.extend(b[pos:start])
        out.extend(pieces)
        pos = max(pos, end)
    out.extend(b[pos:])
    return out


_HEADING = re.compile(r"(#{1,6})[ \t]")


def added_headings(changes: list[tuple[bytes | None, bytes | None]]) -> tuple[str, ...]:
    """The heading lines each change (before, after) added to a file, once a change."""
    lines = [[(data or b"").decode("utf-8", "replace").splitlines(keepends=True) for data in pair] for pair in changes]
    return tuple(line for before, after in lines for line in set(after) - set(before) if _HEADING.match(line))


def headings_kept(ours: str, merged: str, made: tuple[str, ...] = ()) -> str:
    """`merged` (ours with a change taken back) with each heading of ours it lost put back before
    the text of ours under it that stays: taking back the change that made a section ("## History")
    leaves the later entries under it in their section, not at the end of the one before. A heading
    of `made` (one a change taken back before made) goes once its section is empty: the first
    such, once for each change that made it (a person's own heading of that name stays)."""
    lines, result = ours.splitlines(keepends=True), merged.splitlines(keepends=True)
    # Where each line of ours stands in the result (the same words may stand elsewhere too); from
    # the last heading up, so that a heading put back moves none of the places still to be used.
    matched = SequenceMatcher(None, lines, result, autojunk=False).get_matching_blocks()
    kept = {a + k: b + k for a, b, size in matched for k in range(size)}
    for at, line in reversed(list(enumerate(lines))):
        if not _level(line) or at in kept:  # not a heading, or one the result keeps
            continue
        section = _section(lines[at + 1 :], _level(line))
        staying = next(
            (kept[at + 1 + k] for k, below in enumerate(section) if below.strip() and at + 1 + k in kept), None
        )
        if staying is None:
            continue
        where, blank = staying, line[len(line.rstrip("\r\n")) :] or "\n"
        put = ([blank] if where and result[where - 1].strip() else []) + [line]
        result[where:where] = put + ([blank] if section and not section[0].strip() else [])
    empty = [at for at, line in enumerate(result) if line in made and _empty_section(result, at)]
    going = [at for at in empty if [result[e] for e in empty if e <= at].count(result[at]) <= made.count(result[at])]
    for at in going[::-1]:
        end = at + 1
        while end < len(result) and not result[end].strip():
            end += 1
        start = at
        while start and not result[start - 1].strip():
            start -= 1
        del result[start if end == len(result) else at : end]
    return "".join(result)


def _empty_section(lines: list[str], at: int) -> bool:
    """Whether the heading at `at` has nothing but blank lines under it, to the next heading of its level or above."""
    return not any(line.strip() for line in _section(lines[at + 1 :], _level(lines[at])))


def _section(below: list[str], level: int) -> list[str]:
    """The lines under a heading of `level`, up to the next heading of that level or above."""
    return list(takewhile(lambda line: not 0 < _level(line) <= level, below))


def _level(line: str) -> int:
    """A heading line's level (1-6); 0 for any other line."""
    heading = _HEADING.match(line)
    return len(heading.group(1)) if heading else 0


def left_behind(base: str, ours: str, theirs: str, merged: str) -> bool:
    """Whether taking back base -> theirs from ours left a line base added (no heading, no blank
    line) in the merge as often as ours holds it: the lines moved since (a section dragged above
    another), and the merge took back nothing of them."""
    added = Counter(base.splitlines()) - Counter(theirs.splitlines())
    now, after = Counter(ours.splitlines()), Counter(merged.splitlines())
    return any(line.strip() and not _level(line) and after[line] > max(0, now[line] - n) for line, n in added.items())
