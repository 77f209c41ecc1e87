"""Credentials in text: private keys, cloud and API tokens, passwords in URLs, secret assignments
(`password = ...`). The detection is Yelp's detect-secrets (its default plugins and filters; a
random-looking string alone is not reported, as notes hold checksums and commit ids); this module
only feeds it text and says where it found what.

Every change curator writes is scanned for credentials in the lines it adds (changes.py refuses
it, nothing written); the lint rule `secret` reports what a vault already holds.
"""

from __future__ import annotations

import os
import re
import tempfile
from bisect import bisect_right
from collections.abc import Iterable
from itertools import accumulate
from typing import TYPE_CHECKING, NamedTuple

import re2

from curator.core.errors import EditError

if TYPE_CHECKING:  # reading pages imports this module: it stays light
    from curator.core.edits import FileChange

# A line that could hold a credential: detect-secrets (about a millisecond a line) reads only these.
# What its plugins look for: a key word with a value, a key header, a URL with a password, a
# token-like run of letters and digits. Every page is searched for them as it is read, so they
# run on RE2 (no backtracking): with Python's re they took 40 % of reading a page (0.60 s of CPU
# for 15.7M characters, against 0.20 s). `_SPACE` is what Python's `\s` matches in text (RE2's
# `\s` is ASCII only), so the patterns match what they matched under re.
_SPACE = r"[\t-\r\x1c-\x1f\x85\p{Z}]"
_KEY_WORD = re2.compile(  # matched on the lowered text
    r"(?:pass(?:word|wd)?|pwd|secret|token|api[_-]?key|apikey|credential|auth|private[_-]?key)[\"']?" + _SPACE + "*[:=]"
)
_SHAPE = re2.compile(
    r"BEGIN [A-Z ]*PRIVATE KEY|://[^/@:{s}]+:[^/@{s}]+@|xox[abposr]-|sq0[a-z]{{3}}-|glpat-|SG\.|npm_|pypi-|eyJ".format(
        s=_SPACE[1:-1]
    )
)
_RUN = re2.compile(r"[A-Za-z0-9_]{20,}")  # a token, when it holds a digit (not a long word)
_DIGIT = re.compile(r"[0-9]")


def may_hold_credential(text: str) -> bool:
    """Whether `text` could hold a credential (see _KEY_WORD, _SHAPE and _RUN). Worked out for
    each page as it is read (Page.maybe_secret), so the `secret` rule reads those pages only."""
    if _SHAPE.search(text) or _KEY_WORD.search(text.lower()):
        return True
    return any(_DIGIT.search(m.group()) for m in _RUN.finditer(text))


def _matched_spans(text: str) -> list[tuple[int, int]] | None:
    """Where in `text` the prefilter's patterns match; None when lowering `text` changes its
    length, so that the key words' offsets (found in the lowered text) are not the text's."""
    lowered = text.lower()
    if len(lowered) != len(text):
        return None
    spans = [m.span() for m in _SHAPE.finditer(text)]
    spans += [m.span() for m in _KEY_WORD.finditer(lowered)]
    spans += [m.span() for m in _RUN.finditer(text) if _DIGIT.search(m.group())]
    return spans


def candidate_lines(text: str) -> list[tuple[int, str]]:
    """(1-based number, line) of each line of `text` that `may_hold_credential`. Each pattern
    searches the whole text once and only the lines it hits are checked, not every line of a
    long page (on real-length pages that per-line loop cost a third of the `secret` rule)."""
    spans = _matched_spans(text)
    if spans is None:
        return [(n, line) for n, line in enumerate(text.splitlines(), 1) if may_hold_credential(line)]
    if not spans:
        return []
    starts = list(accumulate((len(line) for line in text.splitlines(keepends=True)), initial=0))
    lines = text.splitlines()
    numbers = sorted({bisect_right(starts, start) for start, _ in spans})
    return [(n, lines[n - 1]) for n in numbers if may_hold_credential(lines[n - 1])]


EXCERPT = 120  # characters kept on each side of what the prefilter matched in a long line


def _excerpt(line: str) -> str:
    """What detect-secrets reads of a candidate line: a long line (a paragraph) only around what
    `may_hold_credential` matched, as its filters cost time by the character (measured: half the scan's time
    on real-length pages)."""
    spans = _matched_spans(line) if len(line) > 3 * EXCERPT else None
    if spans is None:
        return line
    kept: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        start, end = max(start - EXCERPT, 0), end + EXCERPT
        if kept and start <= kept[-1][1]:
            kept[-1] = (kept[-1][0], max(kept[-1][1], end))
        else:
            kept.append((start, end))
    return " ".join(line[start:end] for start, end in kept)


_NOT_SECRETS = {"Base64HighEntropyString", "HexHighEntropyString", "IPPublicDetector"}
_INDIRECT_REFERENCE = "detect_secrets.filters.heuristic.is_indirect_reference"
# That filter's pattern without its leading `([^\v=!:]*)`, which may match nothing and so changes no
# answer, but made the engine rescan the line from every position (a millisecond a line: 40 % of
# the scan on real-length pages). This one takes its place in the scan.
_ASSIGNED_FROM_A_CALL = re.compile(r"(:=?|[!=]{1,3})\s*([\w.-]+[\[\(][^\v]*[\]\)])")


def is_indirect_reference(line: str) -> bool:
    """detect-secrets' `is_indirect_reference` filter (`secret = get_secret_key()` is no secret),
    with the same answers, in linear time."""
    if len(line) > 1000:  # as the original: its target is a line that looks like a call
        return False
    return bool(_ASSIGNED_FROM_A_CALL.search(line))


class Credential(NamedTuple):
    kind: str  # detect-secrets' name for it: "Private Key", "AWS Access Key", ...
    line: int  # 1-based, in the text scanned


def find_credentials(text: str) -> list[Credential]:
    """Each credential in `text`, one report a line."""
    return find_in_texts({"": text}).get("", [])


def find_in_texts(texts: dict[str, str]) -> dict[str, list[Credential]]:
    """`find_credentials` for many texts at once (one scan of all their candidate lines)."""
    candidates: list[tuple[str, int, str]] = [
        (key, number, line) for key, text in texts.items() for number, line in candidate_lines(text)
    ]
    if not candidates:
        return {}
    from detect_secrets.core.scan import scan_file
    from detect_secrets.settings import default_settings, get_settings, transient_settings

    with default_settings():
        defaults = get_settings().json()
    # A random-looking string alone is a checksum as often as a key in notes (an integrity hash, a
    # commit id), and an IP address is no secret: those plugins stay off; a secret assigned to a
    # key word is still found by the keyword plugin.
    plugins = [p for p in defaults["plugins_used"] if p["name"] not in _NOT_SECRETS]
    filters = [
        {"path": f"{__name__}.is_indirect_reference"} if f["path"] == _INDIRECT_REFERENCE else f
        for f in defaults["filters_used"]
    ]
    fd, name = tempfile.mkstemp(suffix=".md", prefix="curator-scan-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write("".join(_excerpt(line) + "\n" for _, _, line in candidates))
        with transient_settings({"plugins_used": plugins, "filters_used": filters}):
            found = list(scan_file(name))
    finally:
        os.unlink(name)
    by_line: dict[int, str] = {}
    for secret in found:
        by_line.setdefault(secret.line_number, secret.type)
    result: dict[str, list[Credential]] = {}
    for scanned_line, kind in sorted(by_line.items()):
        key, number, _ = candidates[scanned_line - 1]
        result.setdefault(key, []).append(Credential(kind, number))
    return result


def refuse_credentials(changes: Iterable[FileChange]) -> None:
    """EditError naming the file, line and kind when a change adds a line that holds a credential."""
    for change in changes:
        if change.after is None:
            continue
        before = set((change.before or b"").decode("utf-8", "replace").splitlines())
        after = change.after.decode("utf-8", "replace").splitlines()
        added = [(number, line) for number, line in enumerate(after, 1) if line not in before]
        if not added:
            continue
        found = find_credentials("\n".join(line for _, line in added) + "\n")
        if found:
            first = found[0]
            line = added[first.line - 1][0]
            raise EditError(
                f"{change.path}:{line} would hold a credential ({first.kind}); nothing was written. "
                "Keep secrets out of the vault (a password manager, an environment variable)."
            )
