"""Credentials in text: private keys, cloud and API tokens, passwords in URLs, secret assignments
(`password = ...`, `Passwort: ...`), random-looking quoted strings. The detection is Yelp's
detect-secrets (all its plugins but the public-IP one, with curator's own in secret_plugins.py for
what notes write that it misses); this module only feeds it text and says where it found what.

Every change curator writes is scanned for credentials in the lines it adds (changes.py refuses
it, nothing written); the lint rule `secret` reports what a vault already holds. A line the user
accepts carries detect-secrets' `pragma: allowlist secret` (in Markdown an HTML comment at its end,
`<!-- pragma: allowlist secret -->`), or the line before it `<!-- pragma: allowlist nextline secret -->`.
"""

from __future__ import annotations

import math
import os
import re
from bisect import bisect_right
from itertools import accumulate
from typing import Any, NamedTuple

import re2

# A line that could hold a credential: detect-secrets (about a millisecond a line) reads only these.
# The patterns match whatever its plugins in use could match (every one of their patterns, for
# the keyword plugin the forms it reads in a Markdown file), each family by what makes it a
# credential: a key header, a token's fixed prefix or shape, a key word followed by a quoted or
# assigned value. tests/test_credentials.py checks that every ASCII line a plugin's pattern matches
# passes here. A long run of letters and digits alone (a commit id, a checksum) does not: no
# plugin in use reports one. Every page is searched as it is read, so the patterns run on RE2 (no
# backtracking): with Python's re they took 40 % of reading a page. Where a plugin's pattern counts
# a long run (Mailchimp's 32 characters, SendGrid's 22), the prefilter asks for its start only:
# RE2's automaton grows with every count (0.048 s for 6,500 real-length pages with them, 0.030 s).
# `_SPACE` is what Python's `\s` matches within a line (RE2's `\s` is ASCII only; detect-secrets
# reads a line at a time), so the patterns read spaces as the plugins do, and none runs on to the
# next line.
_SPACE = r"[\t\x0b\x0c\x1c-\x1f\x85\p{Z}]"


def _on_re2(shapes: tuple[str, ...], caseless: tuple[str, ...]) -> Any:
    r"""One RE2 pattern of `shapes` and, in any case, `caseless`; they write Python's `\s` (in a
    class `[^\s...]` too)."""
    # Python's re matches `İ` and `ı` to `[a-z]` and to an `i` in any case (their upper or lower
    # case is an i); RE2 folds case by Unicode's simple folding, where they are no i's: so the
    # classes and the key words' i's name them.
    caseless = tuple(_any_i(pattern.replace("a-z", "a-z\u0130\u0131")) for pattern in caseless)
    joined = "|".join(shapes) + "|(?i:" + "|".join(caseless) + ")"
    # RE2 builds its automaton as it reads; with the quoted runs and key words of every plugin it
    # outgrows RE2's default 8 MiB and falls back to a slower engine (three times the time on
    # tldr-pages' 8,352 pages); 32 MiB holds it.
    options = re2.Options()
    options.max_mem = 32 << 20
    # A page that outgrows even that makes RE2 fall back for it, which it logs to stderr ("DFA out
    # of memory", seen on a 1,657-page vault): the answer is the same, so the user is not told.
    options.log_errors = False
    return re2.compile(joined.replace(r"[^\s", "[^" + _SPACE[1:-1]).replace(r"\s", _SPACE), options)


def _any_i(pattern: str) -> str:
    """The pattern with each literal `i` outside a class (not `(?i`, not escaped) as `[iİı]`."""
    out, in_class, escaped = [], False, False
    for at, char in enumerate(pattern):
        literal_i = char == "i" and not in_class and not escaped and pattern[max(0, at - 2) : at] != "(?"
        out.append("[i\u0130\u0131]" if literal_i else char)
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "[":
            in_class = True
        elif char == "]":
            in_class = False
    return "".join(out)


# detect-secrets reports a quoted run of a random-string plugin's characters whose Shannon entropy
# (bits a character) is above the plugin's limit. Real notes quote checksums, ids and keys alike;
# these limits and secret_plugins.is_named_checksum keep the ordinary ones quiet: on foam-docs,
# dendron-docs and tldr-pages the random-string plugins report nothing.
ENTROPY_LIMITS = {"Base64HighEntropyString": 4.5, "HexHighEntropyString": 3.0}
# Shorter hex is an id far more often than a key (a fingerprint, a short commit id, a trace id);
# hex keys run to 32 characters and more. secret_plugins.is_named_checksum drops the shorter.
SHORTEST_HEX_SECRET = 24
_BASE64 = r"A-Za-z0-9+/=_\\-"


def _shortest_above(limit: float) -> int:
    """The fewest characters a string needs for an entropy above `limit`: n characters, all
    different, have log2(n) bits a character, no more."""
    return math.floor(2**limit) + 1


CREDENTIAL_PAIR = r"`[^\s`]{1,40}`[ \t]*/[ \t]*`([^\s`]{8,64})`"  # `login` / `password`, as notes write them
SHAPES = (  # matched as written
    CREDENTIAL_PAIR.replace("(", "(?:"),
    r"BEGIN [A-Z0-9 ]*PRIVATE KEY|PuTTY-User-Key-File-2",  # private keys
    r"://[^\s\n\r/@:]+:[^\s\n\r/@]+@",  # a password in a URL
    r"(?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)[0-9A-Z]{16}",  # AWS access key
    r"(?i:aws.{0,20}(?:key|pw|pass|token))",  # AWS secret key (its key words; the plugin's come first)
    r"AKC[a-zA-Z0-9]{10}|AP[0-9A-F][a-zA-Z0-9]{8}",  # Artifactory
    r"AccountKey=",  # Azure storage
    r"[MNO][a-zA-Z0-9_-]{23,25}\.[a-zA-Z0-9_-]{6}\.",  # Discord
    r"gh[pousr]_|github_pat_",  # GitHub (and curator's fine-grained token plugin)
    r"gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas)-|GR1348941",  # GitLab
    r"eyJ",  # JSON web token
    r"[0-9a-z]-us[0-9]",  # Mailchimp
    r"/:_authToken=",  # npm
    r"T3BlbkFJ",  # OpenAI
    r"pypi-Ag",  # PyPI
    r"SG\.[a-zA-Z0-9_-]",  # SendGrid
    r"sq0csp-",  # Square
    r"[rs]k_live_",  # Stripe
    r"[0-9]{8}:[0-9A-Za-z_-]",  # Telegram
    r"AC[a-z0-9]{32}|SK[a-z0-9]{32}",  # Twilio
    # Random-looking quoted strings: a quote, as many of the plugin's characters as its limit
    # needs, a quote (hex characters are base64 ones too: only the shorter hex run is asked for)
    rf"[\"'][0-9A-Fa-f]{{{max(_shortest_above(ENTROPY_LIMITS['HexHighEntropyString']), SHORTEST_HEX_SECRET)},}}[\"']",
    rf"[\"'][{_BASE64}]{{{_shortest_above(ENTROPY_LIMITS['Base64HighEntropyString'])},}}[\"']",
)
# detect-secrets' keyword plugin's key words (plugins/keyword.py DENYLIST)
_KEY_WORDS = (
    "api_?key|auth_?key|service_?key|account_?key|db_?key|database_?key|priv_?key|private_?key|client_?key"
    "|db_?pass|database_?pass|key_?pass|password|passwd|pwd|secret|contraseña|contrasena"
)
# The key words of curator's assignment plugin (secret_plugins.ASSIGNED): the keyword plugin's,
# `token`, `passphrase`, German ones and the key words written in two ("The API key for Mailgun is ...").
ASSIGNMENT_KEY_WORDS = (
    _KEY_WORDS + "|token|passphrase|passwort|kennwort|zugangsdaten|zugangscode"
    "|api[ \u00a0-]key|access[ \u00a0-]key|secret[ \u00a0-]key|auth[ \u00a0-]key|api[ \u00a0-]?schlüssel"
)
# A login and its password after a word for both, unquoted: "Zugangsdaten für den Router: admin / Xk9#mPq2".
SAID_PAIR = (
    r"(?:zugangsdaten|anmeldedaten|logindaten|login|credentials|creds)\b[^:\n]{0,80}?"
    r"(?:[:—–]|[ \t]+(?:are|is|sind|ist|lauten|lautet))[ \t]*"
    r"(?:(?:user|benutzer|username|benutzername)[ \t]+)?`?[\w.@+-]{1,40}`?[ \t]*/[ \t]*"
    r"(?:(?:password|passwort|kennwort|pw)[ \t]+)?`?([^\s`'\",]{6,64})"
)
# A key word said to be its value in prose, as a memory says it: "Das Portainer-Admin-Passwort ist
# jetzt ...", "the admin password for Portainer is now ..." (a new user's, written to a new page).
SAID_TO_BE = (
    r"(?:\s*\([^()\n]{1,40}\))?"  # "The Mailgun API key (production) is ..."
    r"(?:\s+(?:for|of|on|für|des|der|vom|von|auf|zum|zur)(?:\s+[^\s:]+){1,8}?)?"
    r"(?:\s*:|\s+(?:is|ist|lautet|heißt|bleibt|remains|stays|was|war|wurde|becomes|will\s+be|has\s+been|had\s+been|wird))"
    r"(?:\s+(?:now|jetzt|nun|neu|still|noch|currently|aktuell|ab\s+sofort|ab\s+heute|seit\s+heute|auf|"
    r"set\s+to|changed\s+to|reset\s+to|updated\s+to|geändert\s+auf|gesetzt\s+auf)){0,3}\s*:?"
)
CASELESS_SHAPES = (  # matched in any case (as these plugins match them)
    r"xox[abposr]-|hooks\.slack\.com/services/",  # Slack
    r"api.softlayer.com/soap/",  # SoftLayer (its pattern's dots match any character)
    # Cloudant, IBM Cloud IAM, IBM COS, SoftLayer: a key word, an assignment, a value
    r"(?:key|pwd?|pass|password|token)[\"'\]]{0,2}[ :=>]+[\"']?[0-9a-z_-]{24}",
    # The keyword plugin (the forms it reads in a Markdown file): one of its key words, then a
    # quoted value after `:`, `=`, `!=` or `=>`, or before a `;`, or compared with `==`
    rf"(?:{_KEY_WORDS})[^\s\n\r]*\s*[!=]*[:=]>?\s*[\"'`]",
    rf"(?:{_KEY_WORDS})[^\s\n\r]*\s*[\"'`][^\"'\n\r]*[\"'`];",
    rf"[!=]{{2,3}}\s*[^\s\n\r]*(?:{_KEY_WORDS})",
    # curator's assignment plugin (secret_plugins.ASSIGNED up to its `:`, `=` or "is")
    rf"(?:{ASSIGNMENT_KEY_WORDS})(?:[_-][A-Za-z0-9_-]*)?[\]'\"*]{{0,3}}(?:\s*[:=]|{SAID_TO_BE})",
    SAID_PAIR.replace("([^", "(?:[^"),  # curator's pair plugin, unquoted
)
_PREFILTER = _on_re2(SHAPES, CASELESS_SHAPES)


def may_hold_credential(text: str | bytes) -> bool:
    """Whether `text` (or its UTF-8 bytes: RE2 reads those either way, and a page's bytes are at
    hand as it is read) could hold a credential (see SHAPES and CASELESS_SHAPES). Worked out for
    each page as it is read, so the `secret` rule reads those pages only."""
    return _PREFILTER.search(text) is not None


def _matched_spans(text: str) -> list[tuple[int, int]]:
    """Where in `text` the prefilter's patterns match."""
    return [m.span() for m in _PREFILTER.finditer(text)]


def candidate_lines(text: str) -> list[tuple[int, str]]:
    """(1-based number, line) of each line of `text` that `may_hold_credential`. The prefilter
    searches the whole text once and only the lines it hits are checked, not every line of a
    long page (on real-length pages that per-line loop cost a third of the `secret` rule)."""
    spans = _matched_spans(text)
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
    if len(line) <= 3 * EXCERPT:
        return line
    spans = _matched_spans(line)
    kept: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        start, end = max(start - EXCERPT, 0), end + EXCERPT
        if kept and start <= kept[-1][1]:
            kept[-1] = (kept[-1][0], max(kept[-1][1], end))
        else:
            kept.append((start, end))
    return " ".join(line[start:end] for start, end in kept)


# An IP address is no credential (notes name servers, DNS resolvers, examples).
NOT_SECRETS = {"IPPublicDetector"}
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


def find_credentials(text: str, allowlist: bool = True) -> list[Credential]:
    """Each credential in `text`, one report a line; without `allowlist`, a line its pragma
    accepts too (text an agent wrote: its pragma is no person's acceptance)."""
    return find_in_texts({"": text}, allowlist).get("", [])


def allowlisted_lines(text: str) -> set[str]:
    """The lines of `text` a pragma in it accepts (on the line, or its next-line form before it)."""
    if "pragma" not in text:
        return set()
    lines = text.splitlines()
    return {line for n, line in enumerate(lines) if _allowlisted(line, lines[n - 1] if n else "")}


# Kinds that say least about what was found, the least telling last: a line where a provider's
# token is also a keyword's value or a random string is reported as the token.
_GENERIC = ("Secret Keyword", "Secret Assignment", "Hex High Entropy String", "Base64 High Entropy String")
_ALLOWLIST_FILTER = "detect_secrets.filters.allowlist.is_line_allowlisted"


def _allowlisted(line: str, previous: str) -> bool:
    """Whether the user accepted `line`: detect-secrets' allowlist comment on it, or its
    next-line form on the line before (`previous`, the page's own, not the previous candidate)."""
    if "pragma" not in line and "pragma" not in previous:
        return False
    from detect_secrets.filters.allowlist import is_line_allowlisted
    from detect_secrets.util.code_snippet import get_code_snippet

    return bool(is_line_allowlisted("page.md", line, get_code_snippet([previous, line], 2)))


# curator's own plugins, in secret_plugins.py (one of detect-secrets' names replaces its plugin).
OWN_PLUGINS = (
    "AssignedSecretDetector",
    "CredentialPairDetector",
    "GitHubFineGrainedTokenDetector",
    "GitHubTokenDetector",
    "UrlPasswordDetector",
)


def _settings() -> dict[str, Any]:
    """detect-secrets' settings for a scan: its plugins (with curator's limits) but NOT_SECRETS,
    curator's own plugins, its filters with the linear-time indirect-reference filter and the
    checksum filter; the allowlist is read here (find_in_texts), with each line's real neighbour."""
    from detect_secrets.settings import default_settings, get_settings

    with default_settings():
        defaults = get_settings().json()
    own = OWN_PLUGINS
    plugins: list[dict[str, Any]] = [
        {**p, "limit": ENTROPY_LIMITS[p["name"]]} if p["name"] in ENTROPY_LIMITS else p
        for p in defaults["plugins_used"]
        if p["name"] not in NOT_SECRETS and p["name"] not in own
    ]
    path = "file://" + os.path.join(os.path.dirname(os.path.abspath(__file__)), "secret_plugins.py")
    plugins += [{"name": name, "path": path} for name in own]
    filters: list[dict[str, Any]] = [
        {"path": f"{__name__}.is_indirect_reference"} if f["path"] == _INDIRECT_REFERENCE else f
        for f in defaults["filters_used"]
        if f["path"] != _ALLOWLIST_FILTER
    ]
    filters.append({"path": "curator.core.read.secret_plugins.is_named_checksum"})
    filters.append({"path": "curator.core.read.secret_plugins.is_placeholder"})
    filters.append({"path": "curator.core.read.secret_plugins.is_windows_path"})
    filters.append({"path": "curator.core.read.secret_plugins.is_signed_link_key"})
    return {"plugins_used": plugins, "filters_used": filters}


def find_in_texts(texts: dict[str, str], allowlist: bool = True) -> dict[str, list[Credential]]:
    """`find_credentials` for many texts at once (one scan of all their candidate lines)."""
    candidates: list[tuple[str, int, str]] = []
    for key, text in texts.items():
        hits = candidate_lines(text)
        if hits:
            lines = text.splitlines()
            candidates += [
                (key, number, line)
                for number, line in hits
                if not (allowlist and _allowlisted(line, lines[number - 2] if number > 1 else ""))
            ]
    if not candidates:
        return {}
    import tempfile  # here, not at the top: every page read imports this module

    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.core.scan import scan_file
    from detect_secrets.settings import transient_settings

    # Named as Python, which detect-secrets reads as it reads Markdown (its keyword plugin asks for
    # quotes either way) but never parses as an INI file when nothing is found, a pass that made
    # prose (`The password: pick a long one`) a secret; secret_plugins reads unquoted values.
    fd, name = tempfile.mkstemp(suffix=".py", prefix="curator-scan-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write("".join(_excerpt(line) + "\n" for _, _, line in candidates))
        with transient_settings(_settings()):
            get_mapping_from_secret_type_to_class.cache_clear()  # it keeps the plugins it read last
            found = list(scan_file(name))
    finally:
        get_mapping_from_secret_type_to_class.cache_clear()  # detect-secrets' own again, for others
        os.unlink(name)
    by_line: dict[int, str] = {}
    for secret in sorted(found, key=lambda s: _GENERIC.index(s.type) if s.type in _GENERIC else -1):
        by_line.setdefault(secret.line_number, secret.type)  # the most telling kind of a line's
    result: dict[str, list[Credential]] = {}
    for scanned_line, kind in sorted(by_line.items()):
        key, number, line = candidates[scanned_line - 1]
        if kind == "Private Key" and not _key_follows(line, texts[key].splitlines()[number : number + KEY_LINES]):
            continue  # a key's first line named in a guide ("will begin like this: -----BEGIN ..."), no key
        result.setdefault(key, []).append(Credential(kind, number))
    return result


KEY_LINES = 200  # lines after a private key's BEGIN line that may hold its key
_KEY_BODY = re.compile(r"[A-Za-z0-9+/=]{20,}")
_KEY_RUN = re.compile(r"[A-Za-z0-9+/=]{4,}")


def _key_material(line: str) -> bool:
    """Whether a line is a piece of a key: base64 in runs of four or more characters, 16 or more in
    all, with a digit or a `+` or `/` (a word is none), quoted, listed, numbered or indented."""
    runs = line.strip(" \t>#*\"'|,-").split()
    if runs and runs[0].isdigit():
        runs = runs[1:]  # a line number in a listing
    return (
        sum(map(len, runs)) >= 16
        and all(_KEY_RUN.fullmatch(run) for run in runs)
        and any(c.isdigit() or c in "+/" for c in line)
    )


def _key_follows(line: str, after: list[str]) -> bool:
    """Whether a private key's BEGIN line has a key after it: on the line (a JSON string's
    `\\n`-joined key) or on a line below it before its END line (headers such as `Proc-Type:` and
    blank lines may come first). A guide that says how a key begins, or a placeholder body (`...`,
    `YOUR_KEY_HERE`), has none; PuTTY's key files have no BEGIN line and are reported as found."""
    if "BEGIN" not in line or _KEY_BODY.search(line.split("KEY-----", 1)[-1]):
        return True
    for below in after:
        if "-----END" in below:
            return False
        if _key_material(below):
            return True
    return False
