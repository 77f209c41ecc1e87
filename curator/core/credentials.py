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
from collections.abc import Iterable
from typing import NamedTuple

from curator.core.edits import FileChange
from curator.core.errors import EditError

# A line that could hold a credential: detect-secrets (about a millisecond a line) reads only these.
# What its plugins look for: a key word with a value, a key header, a URL with a password, a
# token-like run of letters and digits.
_MAYBE = re.compile(
    r"(?i:pass(?:word|wd)?|pwd|secret|token|api[_-]?key|apikey|credential|auth|private[_-]?key)[\"']?\s*[:=]"
    r"|BEGIN [A-Z ]*PRIVATE KEY|://[^\s/@:]+:[^\s/@]+@"
    r"|xox[abposr]-|sq0[a-z]{3}-|glpat-|SG\.|npm_|pypi-|eyJ"
    r"|\b(?=[A-Za-z_]*[0-9])[A-Za-z0-9_]{20,}"  # a long run of letters and digits (not a hyphenated id)
)


_NOT_SECRETS = {"Base64HighEntropyString", "HexHighEntropyString", "IPPublicDetector"}


class Credential(NamedTuple):
    kind: str  # detect-secrets' name for it: "Private Key", "AWS Access Key", ...
    line: int  # 1-based, in the text scanned


def find_credentials(text: str) -> list[Credential]:
    """Each credential in `text`, one report a line."""
    return find_in_texts({"": text}).get("", [])


def find_in_texts(texts: dict[str, str]) -> dict[str, list[Credential]]:
    """`find_credentials` for many texts at once (one scan of all their candidate lines)."""
    candidates: list[tuple[str, int, str]] = [
        (key, number, line)
        for key, text in texts.items()
        if _MAYBE.search(text)  # most pages: one search, no line split
        for number, line in enumerate(text.splitlines(), 1)
        if _MAYBE.search(line)
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
    fd, name = tempfile.mkstemp(suffix=".md", prefix="curator-scan-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write("".join(line + "\n" for _, _, line in candidates))
        with transient_settings({"plugins_used": plugins, "filters_used": defaults["filters_used"]}):
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
