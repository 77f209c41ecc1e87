"""Runs of words: the duplicate rule's text evidence. A page's text is the set of its runs of
SHINGLE words; a run that TEMPLATE_PAGES pages or more hold is a template's or the vault's
boilerplate, and the rest is the page's own text. One page holds another when it holds CONTAINED
of the other's own runs. Linear in the vault's words: every run is hashed once and sorted once."""

from __future__ import annotations

import numpy as np

SHINGLE = 5  # words in a run
TEMPLATE_PAGES = 4  # a run on this many pages is template text
OWN_RUNS = 24  # runs of its own a page needs before its text is evidence
CONTAINED = 0.85  # share of a page's own runs the other page must hold
_MIX = np.uint64(0x100000001B3)


def near_copies(same_files: set[tuple[str, str]], runs: dict[str, np.ndarray], a: str, b: str) -> bool:
    """Whether each of two pages' runs of words holds most of the other's, template text included
    (a page may be too small for text of its own to tell)."""
    if (a, b) in same_files:
        return True
    if not (len(runs[a]) and len(runs[b])):
        return False  # two empty pages or two of a few words are placeholders, not copies
    shared = np.count_nonzero(np.isin(runs[a], runs[b], assume_unique=True))
    return bool(shared >= CONTAINED * max(len(runs[a]), len(runs[b])))


def text_evidence(
    paths: list[str], words: list[list[str]], runs: list[np.ndarray]
) -> tuple[dict[tuple[str, str], float], set[tuple[str, str]], dict[str, int]]:
    """Pairs where one page's own runs are CONTAINED in the other's (the share, by sorted pair),
    pairs whose prose is word for word the same, and each page's count of runs of its own (its
    size without the template text it shares with TEMPLATE_PAGES pages or more)."""
    sizes = np.array([len(r) for r in runs], dtype=np.int64)
    if not sizes.sum():
        return {}, set(), dict.fromkeys(paths, 0)
    flat = np.concatenate(runs)
    owner = np.repeat(np.arange(len(runs), dtype=np.int64), sizes)
    order = np.lexsort((owner, flat))
    flat, owner = flat[order], owner[order]
    starts = np.flatnonzero(np.r_[True, flat[1:] != flat[:-1]])
    counts = np.diff(np.r_[starts, len(flat)])
    own = np.zeros(len(runs), dtype=np.int64)
    common = counts < TEMPLATE_PAGES
    np.add.at(own, owner[np.repeat(common, counts)], 1)
    keys: list[np.ndarray] = []
    for size in range(2, TEMPLATE_PAGES):
        first = starts[counts == size]
        for x in range(size):
            for y in range(x + 1, size):
                keys.append(owner[first + x] * len(runs) + owner[first + y])
    own_of = dict(zip(paths, own.tolist(), strict=True))
    if not keys:
        return {}, set(), own_of
    pair_keys, shared = np.unique(np.concatenate(keys), return_counts=True)
    left, right = pair_keys // len(runs), pair_keys % len(runs)
    smaller = np.minimum(own[left], own[right])
    share = shared / np.maximum(smaller, 1)
    keep = (smaller >= OWN_RUNS) & (share >= CONTAINED)
    contained: dict[tuple[str, str], float] = {}
    same: set[tuple[str, str]] = set()
    for i, j, s in zip(left[keep].tolist(), right[keep].tolist(), share[keep].tolist(), strict=True):
        a, b = sorted((paths[i], paths[j]))
        contained[a, b] = min(s, 1.0)
        if words[i] == words[j]:
            same.add((a, b))
    return contained, same, own_of


def runs_of(words: list[str]) -> np.ndarray:
    """The distinct hashes of a page's runs of SHINGLE words."""
    if len(words) < SHINGLE:
        return np.zeros(0, dtype=np.uint64)
    hashes = np.fromiter((hash(w) for w in words), dtype=np.int64, count=len(words)).view(np.uint64)
    count = len(words) - SHINGLE + 1
    run = hashes[:count].copy()
    for offset in range(1, SHINGLE):
        run = run * _MIX ^ hashes[offset : offset + count]
    return np.unique(run)
