"""curator's own detect-secrets plugins and filter: what its plugins miss in Markdown notes
(fine-grained GitHub tokens, unquoted `password = ...` and German key words) and checksums that
its random-string plugins would report.

detect-secrets loads the plugins from this file by its path (its way for plugins of one's own), so
the module imports detect-secrets and the key words only.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Generator

from detect_secrets.plugins.base import RegexBasedDetector

from curator.core.read.credentials import ASSIGNMENT_KEY_WORDS as KEY_WORDS
from curator.core.read.credentials import CREDENTIAL_PAIR, SAID_PAIR, SAID_TO_BE, SHORTEST_HEX_SECRET


class GitHubFineGrainedTokenDetector(RegexBasedDetector):
    """GitHub's fine-grained personal access tokens (`github_pat_` and 82 characters), which
    detect-secrets' GitHub plugin does not know."""

    secret_type = "GitHub Fine-Grained Token"
    denylist = (re.compile(r"github_pat_[A-Za-z0-9_]{22,}"),)


class GitHubTokenDetector(RegexBasedDetector):
    """GitHub's tokens as detect-secrets' plugin of this name finds them, but only where a token
    can begin: its pattern also matched `ghs_` in the middle of a long image URL's random path."""

    secret_type = "GitHub Token"
    denylist = (re.compile(r"(?<![A-Za-z0-9])(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9_]{36}"),)


class UrlPasswordDetector(RegexBasedDetector):
    """A password in a URL that holds one of the characters RFC 3986 allows there but
    detect-secrets' Basic Auth plugin takes for a delimiter (`postgres://app:Sup3r!@db`); the
    plugin reports the others."""

    secret_type = "Password in a URL"
    denylist = (re.compile(r"://[^\s/?#\[\]@{}:]+:([^\s/?#\[\]@{}]*[!$&'()*+,;=][^\s/?#\[\]@{}]*)@"),)


# A key word (in any identifier that ends with it or goes on after `_`/`-`: `db_password`,
# `GITHUB_TOKEN`, `token_ttl`, not `tokenizer` or `secretary`), Markdown emphasis or a closing
# quote, then `:` (up to `:::`), `=`, `:=`, `=>` or "is" (`SAID_TO_BE`), then one value, quoted or not; not `==`, which
# compares (`token_ids == eos_token_id`). ASCII classes on purpose: the prefilter (RE2, ASCII `\w`)
# must read the same characters.
ASSIGNED = re.compile(
    rf"(?:{KEY_WORDS})(?:[_-][A-Za-z0-9_-]*)?[\]'\"*]{{0,3}}(?:\s*(?::=|=>|:{{1,3}}|=(?!=))|{SAID_TO_BE})\**\s*"
    r"(?:\[[A-Za-z _-]{1,20}\]\s*)?"  # "password: [REDACTED] `the password`": a label is no value
    r"[\"'`]?([^\s\"'`<>]{6,})",
    re.IGNORECASE,
)
PAIR = re.compile(CREDENTIAL_PAIR)
PAIR_SAID = re.compile(SAID_PAIR, re.IGNORECASE)
_NO_VALUE = re.compile(r"[A-Za-z_][\w.]*\(\)?|[a-z]+[!?.,]?")
_TRAILING = ".,;:)]*"  # sentence punctuation or closing bold after a value is not part of it
_VERSION = re.compile(r"v?\d+(?:\.\d+)+")
_DOTTED_NAME = re.compile(r"[A-Za-z_]+(?:\.[A-Za-z_]+)+")  # process.env.TOKEN, settings.secret
# R's list member that holds the credential (`token = conf$token`, `creds$api_key`): small letters
# both sides and a key word after the `$`; "Admin$Secret" and "P$ssword" are passwords.
_R_MEMBER = re.compile(rf"[a-z_][a-z0-9_.]*\$[a-z_.]*(?:{KEY_WORDS})[a-z0-9_.]*")
_CARET_FIELD = re.compile(r"\^[A-Z_]+\^")
# A record's fields joined by colons, each in small letters or an acronym: `GID:user-list`, a URN's
# `urn:ietf:params`; not "admin:MyCompanyPassword", "Hunter:GreatPass" or "XkQvLmPz:JfGdSaQw".
_FIELD = r"(?:[a-z][a-z_ -]*|[A-Z]{2,5})"
_FIELDS = re.compile(rf"{_FIELD}(?::{_FIELD})+:?")
_QUERY_NEXT = re.compile(r"&(?=[\w.-]+=)")  # a URL query's next parameter


# A value that names how a secret is kept, not the secret: "The password is SHA256-hashed", "the
# session token is HS256-signed", "the secret is AES-256 encrypted", "Wi-Fi password is WPA2-Enterprise".
_HOW_KEPT = re.compile(
    r"(?i)^(?:sha-?\d+|hs\d+|rs\d+|es\d+|ps\d+|aes-?\d+|wpa\d?|wep|base-?64|md5|bcrypt|argon2\w*|pbkdf2\w*|"
    r"scrypt|rsa-?\d*|ed25519|x25519|tls-?[\d.]*|ssl\w*|utf-?8|hex|hmac\w*|ecdsa\w*|oauth\d*)(?:[-_].*)?$"
    r"|[-_](?:hashed|signed|encrypted|encoded|enterprise|personal|psk|protected|verschlüsselt|signiert|gehasht)$"
)
# A kind said with a hyphen after a number or a short name: "2048-bit", "OAuth2-based",
# "S3-compatible", "24h-valid", "32-stellig" (not "hunter2-blue", not "Winter2024-only").
_A_KIND = re.compile(
    r"(?:\d+[a-z]{0,2}|[A-Za-z]{1,6}\d{0,2}[a-z]?)-(?i:bits?|bytes?|chars?|characters?|digits?|based|managed|"
    r"compatible|valid|only|long|format|style|scoped|limited|bound|enabled|specific|wide|level|mounted|stored|"
    r"days?|hours?|months?|years?|basiert|verwaltet|kompatibel|gültig|stellig|geschützt|gespeichert)"
)
# A product or a version named as a way in, not a password: "SAML2.0", "GCP-2024", "LDAPv3".
_A_PRODUCT = re.compile(r"[A-Z]{2,}[-.]?v?\d+(?:\.\d+)*")


def looks_like_a_secret(value: str) -> bool:
    """Whether a value assigned to a key word looks like a password rather than prose, a
    placeholder or a reference: letters with digits or symbols; not a number, a version, a path,
    a dotted name, a template (`{{password}}`, `${TOKEN}`, `%PASS%`) or capitals alone (`^PASS^`,
    `YOUR_API_KEY`)."""
    value = value.rstrip(_TRAILING).lstrip("*_")  # "secret: **required option**": emphasis, no value
    if len(value) < 6 or value.isdigit() or "/" in value or "{" in value or "}" in value:
        return False
    if _FIELDS.fullmatch(value):
        return False  # a record's format, field by field: `username:password:UID:GID`
    if value[0] in "$%([" or _VERSION.fullmatch(value) or _DOTTED_NAME.fullmatch(value) or _R_MEMBER.fullmatch(value):
        return False  # a template, a version, a dotted name, or prose in brackets: "(blank or e-mail)"
    if _CARET_FIELD.search(value):
        return False  # hydra's and Burp's fields: `password=^PASS^:Invalid login`
    if _HOW_KEPT.search(value) or _A_KIND.fullmatch(value):
        return False
    letters = [c for c in value if c.isalpha()]
    has_digit = any(c.isdigit() for c in value)
    has_symbol = any(not c.isalnum() and c not in "_-." for c in value)
    if not letters or (not has_digit and all(c.isupper() for c in letters)):
        return False
    return has_digit or has_symbol


class AssignedSecretDetector(RegexBasedDetector):
    """A password-like value after a key word, quoted or not, as notes write it (`Passwort:
    Sommer2026!`); detect-secrets' keyword plugin asks a Markdown file for quotes."""

    secret_type = "Secret Assignment"
    denylist = (ASSIGNED,)

    def analyze_string(self, string: str) -> Generator[str, None, None]:
        for match in ASSIGNED.finditer(string):
            value = _QUERY_NEXT.split(match.group(1))[0]  # `?token=TOKEN&zone=x`: the value ends at `&`
            if string[: match.start()].endswith("redir_") and _PUBLIC_LINK.search(string, 0, match.start()):
                continue  # a video description's link: YouTube's `redir_token` opens nothing
            if _NO_VALUE.fullmatch(value):
                continue  # code that makes it (`api_key_res = requests.post(`), a word said of it ("is great!")
            if value.rstrip(",;:)]*").endswith(("...", "\u2026")):
                continue  # a value cut short is an example's ("eyJhbGciOiJIUzI1NiJ9..."), not a key
            if looks_like_a_secret(value):
                yield value.rstrip(_TRAILING)


# A link as a public page gives it out, its token in it (YouTube's description links): the key word
# stands inside it.
_PUBLIC_LINK = re.compile(
    r"(?:^|[\s(\[<\"'])https?://(?:www\.|m\.)?youtube\.com/redirect\?[^\s()\[\]<>\"',;]*[?&]redir_$"
)


class CredentialPairDetector(RegexBasedDetector):
    """A login and its password as notes write them, two code spans joined by a slash (`**Admin:**
    `wazuh` / `15jMA*JM6vcr...``): the password has letters, digits and a sign; or unquoted after
    a word for both ("Zugangsdaten: admin / Sommer2026!"): the password looks like one."""

    secret_type = "Credential Pair"
    denylist = (PAIR, PAIR_SAID)

    def analyze_string(self, string: str) -> Generator[str, None, None]:
        for match in PAIR.finditer(string):
            value = match.group(1)
            if _SETTING.match(value):
                continue  # a setting and its value (`false_interruption_timeout=1.0`), not a password
            signs = any(not c.isalnum() and c not in "_-." for c in value)
            if signs and any(c.isdigit() for c in value) and looks_like_a_secret(value):
                yield value
        for match in PAIR_SAID.finditer(string):  # not a product or a version: "Login: SSO / SAML2.0"
            value = match.group(1).rstrip(_TRAILING)
            if not _A_PRODUCT.fullmatch(value) and looks_like_a_secret(value):
                yield value


_SETTING = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+=")
# A line that names a checksum or a commit: its random-looking string is that, not a key.
_NAMES_A_CHECKSUM = re.compile(
    # An app's hash (Telegram's `api_hash`) is its secret, not a checksum.
    r"\bsha\b|sha-?(?:1|224|256|384|512)|md5|checksum|digest|integrity|(?<!api_)(?<!app_)(?<!api-)(?<!app-)hash"
    r"|commit|fingerprint|\brev\b|etag",
    re.IGNORECASE,
)
# The key a value is given to, as it stands right before it: `notionId: "`, `"page_id": "`.
_KEY_BEFORE = re.compile(r"([\w.-]+)[\"']?[ \t]*[:=][ \t]*[\"'`]?$")
# A key that names an identifier (`notionId` of a Notion export, `page_id`, `uuid`, MongoDB's `$oid`): what it holds
# finds a record and opens nothing; unless it is a token's, a session's or a key's id.
_AN_ID = re.compile(r"(?:^|[_.-])(?i:id|uuid|guid|oid)$|[a-z](?:Id|ID|Uuid|UUID)$|^(?i:id|uuid|guid|oid)$")
_OPENS_SOMETHING = re.compile(r"(?i)token|session|secret|key|auth|pass|cred|sign|cookie|bearer")
_RANDOM_STRING_PLUGINS = {"Base64HighEntropyString", "HexHighEntropyString"}
# SHA-1 (a git commit), SHA-256 and SHA-512 in hex: logs and JSON quote them without a name.
_DIGEST_LENGTHS = {40, 64, 128}


def is_named_checksum(secret: str, plugin: object, line: str) -> bool:
    """detect-secrets filter: a random-looking string on a line that says it is a checksum
    (`"integrity": "sha512-..."`, `commit: 3f2a...`) or hex an identifier's key names
    (`notionId: c29b...`), hex of a digest's length, or hex too short for a key
    (credentials.SHORTEST_HEX_SECRET), is not reported."""
    if type(plugin).__name__ not in _RANDOM_STRING_PLUGINS:
        return False
    if type(plugin).__name__ == "HexHighEntropyString" and (
        len(secret) in _DIGEST_LENGTHS or len(secret) < SHORTEST_HEX_SECRET
    ):
        return True
    if type(plugin).__name__ == "HexHighEntropyString" and _given_to(secret, line, _an_id):
        return True
    if _CURVE25519.fullmatch(secret) and _given_to(secret, line, _a_public_key):
        return True
    if _given_to(secret, line, _a_public_address):  # a wallet's, a mint's or a transaction's: public
        return True
    if _given_to(secret, line, _a_name):  # `name = "SecurityCenter-JITRule-...-8C18BF89..."`: a resource's name
        return True
    if _in_alphabet_order(secret):
        return True  # "a1b2c3d4e5f6...", "ABC123def456GHI789...": an example's, typed in order
    return _NAMES_A_CHECKSUM.search(line) is not None


# What a guide writes where the reader's own value goes: "your-key-here", "<token>", "${API_KEY}",
# "changeme", "xxxx", "****", "sk-...", "user:pass@host". A value a key word or a URL's password
# names that reads as one of these holds no secret.
_PLACEHOLDER = re.compile(
    r"(?i)^(?:your|insert|enter|put|add|paste|my|dein|deine|deinen|ihr|ihre|euer|eure|mein|meine)[\W_]"
    r"|[\W_](?:here|goes[\W_]here)$"
    r"|<[^<>]*>|^\$\{[^}]*\}$|^\{\{[^}]*\}\}$"
    r"|^(?:change[\W_]?me|placeholder|example|dummy|redacted|none|null|todo|tbd)$"
    r"|^(?:x+|\*+|\.+|-+|_+)$"
    r"|(?:\.\.\.|\u2026)$"  # a value cut short: "sk-...", "llx-…"
    # "user:pass@host", "secret456", "Passwort123"
    r"|^(?:pass(?:word|wd)?|passwort|kennwort|pwd|pw|secret|token|key|test)[\W_]?\d{0,4}$"
    # "mypassword123", "yoursecret"; "xxx-yyy-xxx"
    r"|^(?:my|your|mein|dein)(?:pass(?:word|wd)?|passwort|kennwort|secret|token|key)[\W_]?\d{0,4}$"
    r"|^[xyzXYZ]+(?:[-_.][xyzXYZ]+)*$"
    r"|^(?:abc|abcdef|qwerty|asdf)(?:123|1234|123456)?$|^(?:123|1234|123456)(?:abc|abcdef|qwerty|asdf)$"
    # a phrase of small words that says what it stands for: "supersecret difficult to guess string",
    # "the root password" (not "passwordless cactus jumping", nor "SuperSecretPasswordForProd")
    r"|^(?-i:(?=[A-Za-z][a-z]*(?: [a-z]+)+$)"
    r"(?=(?:.* )?(?:[Ss]uper|[Tt]op|[Mm]y)?(?:[Ss]ecret|[Pp]assw(?:ord|ort))s?(?: |$)).*)$"
    # what goes there, in words: "base58-encoded-secret-key", "test-webhook-secret-123"
    r"|^(?=(?:[a-z0-9]+-)*(?:secret|key|token|password|passwort)(?:-|$))"
    r"(?=(?:[a-z0-9]+-)*(?:test|example|sample|dummy|fake|demo|encoded|base58|base64|hex|random|generated)-)"
    r"(?:(?:[a-z]+|\d+|base58|base64)-){2,}(?:[a-z]+|\d+)$"
)
# A key word's value that names where the secret is instead of holding it, or an example's: a
# YAML tag's reference (Home Assistant's `!secret db_password`, `!env_var X`), an environment
# variable's name ending in a word (`DB_ROOT_PASSWORD`, `N8N_BASIC_AUTH_PASSWORD`; not
# `P4SS_W0RD_2025`), a lower-case word and "password" ("rootpassword", "myuserpassword",
# "event-passwort", "neuesPasswort"; not "Summer2024password").
_NAMED_ELSEWHERE = re.compile(
    r"^[A-Z][A-Z0-9]*(?:_[A-Z][A-Z0-9]*)*_[A-Z]{2,}$|^[a-z]{0,16}[-_]?[pP]ass(?:word|wort|wd)$"
)
_TAG = re.compile(r"![a-z_]+")  # with a value after it on its line
# A password manager named as the key: its value names the entry that holds the secret
# (`| Synology NAS | 1Password: "Synology Admin" |`), the key word inside the product's name.
_PASSWORD_MANAGER = re.compile(
    r"(?i)(?:^|[^\w])(?:1password|bitwarden|vaultwarden|keepass(?:xc)?|lastpass)[\s:=\"'`]*$"
)


def _in_alphabet_order(value: str) -> bool:
    """Whether the value's letters (six or more) run through the alphabet, most of them."""
    letters = [c.lower() for c in value if c.isascii() and c.isalpha()]
    steps = sum(ord(b) - ord(a) == 1 for a, b in itertools.pairwise(letters))
    return len(letters) >= 6 and steps >= 0.8 * (len(letters) - 1)


def _given_to(secret: str, line: str, names: Callable[[str], object]) -> bool:
    """Whether each time the value stands on the line, `names` says yes of the key it is given to."""
    at = line.find(secret)
    if at < 0:
        return False
    while at >= 0:
        key = _KEY_BEFORE.search(line, 0, at)
        if key is None or not names(key.group(1)):
            return False
        at = line.find(secret, at + 1)
    return True


def _a_public_key(key: str) -> bool:
    """Whether a key (its last dotted part: `keys.public`) names a public key, under a name of no
    secret (`client_secret.public` is one)."""
    *under, last = key.split(".")
    return _PUBLIC_KEY.fullmatch(last) is not None and not any(map(_SECRET_NAMED.search, under))


_SECRET_NAMED = re.compile(r"(?i)secret|private|token|pass|auth|cred")


def _a_public_address(key: str) -> bool:
    """Whether a key (its last dotted part) names what a blockchain publishes (`walletAddress`,
    `tokenMint`, `creator`, `publicKey`), under a name of no secret; not a wallet, an account or a
    signature, whose value may be a private key or a signing secret (`WALLET=`, `whsec_`)."""
    *under, last = key.split(".")
    found = _PUBLIC_ADDRESS.fullmatch(last)
    # a token's mint or address is the coin's, no access token's
    named = [*under, re.sub(r"(?i)token[_-]?$", "", found.group(1))] if found else []
    return found is not None and not any(map(_SECRET_NAMED.search, named))


_PUBLIC_ADDRESS = re.compile(
    r"(?i)((?:[a-z0-9]+[_-]?)*?)"
    r"(?:address|addr|mint|creator|pub(?:lic)?[_-]?key|program[_-]?id)"
)


def _a_name(key: str) -> bool:
    """Whether a key (its last dotted part) names what a thing is called (`name`, `display_name`,
    `ruleName`): a name is shown to everyone."""
    return _NAME_KEY.fullmatch(key.split(".")[-1]) is not None


_NAME_KEY = re.compile(r"(?:[a-z]+[_-]?)?(?:name|Name|NAME)")


def _an_id(key: str) -> bool:
    """Whether a key names an identifier, not a token's, a session's or a key's."""
    return _AN_ID.search(key) is not None and _OPENS_SOMETHING.search(key) is None


# A WireGuard public key (`public: "mohr...="`, `PublicKey = ...`, `peer_public_key`): 32 bytes in
# base64, given out by design. Only that shape under only such a key: an API key named `public:` or
# `not_public`, or a `client_secret.public`, is still reported.
_PUBLIC_KEY = re.compile(r"(?:peer[_-]?)?pub(?:lic)?(?:[_-]?key)?", re.IGNORECASE)
_CURVE25519 = re.compile(r"[A-Za-z0-9+/]{43}=")


def _names_an_entry(value: str, line: str) -> bool:
    """Whether the value stands on the line right after a password manager's name (the key word
    the plugin read it after; the entry may be named elsewhere on the line too: `| Cloudflare |`)."""
    return any(_PASSWORD_MANAGER.search(line, 0, m.start()) for m in re.finditer(re.escape(value), line))


def is_signed_link_key(secret: str, plugin: object, line: str) -> bool:
    """detect-secrets filter: an AWS access key's id in a link signed with it
    (`X-Amz-Credential=AKIA...%2F20230510%2F...`), which the link gives to whoever holds it; the
    signature, not the id, is what opens it, and it expires."""
    return type(plugin).__name__ == "AWSKeyDetector" and f"x-amz-credential={secret.casefold()}" in line.casefold()


def is_windows_path(secret: str, plugin: object) -> bool:
    """detect-secrets filter: a random-looking string with backslashes between its words is a
    Windows or registry path (`HKLM\\SOFTWARE\\Microsoft\\...`), not a key: base64 and hex hold none."""
    return type(plugin).__name__ in _RANDOM_STRING_PLUGINS and "\\" in secret


def _named_for_its_user(password: str, line: str) -> bool:
    """Whether a URL's password is its user's name and "password" (`joe:joespasswd`,
    `appUser:appPassword`, `actual_user:actual_password`): an example's, made up from the user it
    shows; not `app:masterpassword`."""
    said = re.fullmatch(r"([a-z]*?)[-_]?pass(?:word|wd)?\d{0,4}", password.casefold())
    if said is None:
        return False
    for user in re.findall(rf"([\w.-]+):{re.escape(password)}@", line):
        name = re.sub(r"[-_]?user(?:name)?$", "", user.casefold())
        if name and said.group(1).startswith(name):
            return True
    return False


def is_placeholder(secret: str, plugin: object, line: str) -> bool:
    """detect-secrets filter: a key word's value that is a placeholder for the reader's own
    ("your-key-here", "<token>", "changeme", "rootpassword", "!env_var X") is not reported; in a
    URL's password only the placeholders proper ("user:pass@host") and one made of its user's name
    (`_named_for_its_user`)."""
    kind = type(plugin).__name__
    value = secret.strip("'\"` ")
    keyed = kind in ("KeywordDetector", "AssignedSecretDetector", "CredentialPairDetector")
    tag = _TAG.fullmatch(value) and re.search(rf"{re.escape(value)}[ \t]+\S", line)
    if keyed and _in_alphabet_order(value):
        return True  # "a1b2c3d4e5f6...", "ABC123def456GHI789...": an example's, typed in order
    if keyed and (_NAMED_ELSEWHERE.match(value) or tag or _names_an_entry(value, line) or value.startswith("arn:")):
        return True  # (an ARN names the secret's store: `SECRET_ARN: "arn:aws:secretsmanager:..."`)
    if kind == "BasicAuthDetector" and _named_for_its_user(value, line):
        return True  # a textbook's URL: `http://joe:joespasswd@www.joes-hardware.com`
    return (keyed or kind == "BasicAuthDetector") and _PLACEHOLDER.search(value) is not None
