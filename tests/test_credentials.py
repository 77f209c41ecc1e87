"""Credentials: no change curator writes may add one, and lint reports those already there."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from edit_helpers import tree
from helpers import make_vault
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from curator.cli.main import main
from curator.core.change.changes import apply, refuse_credentials
from curator.core.change.edits import FileChange, Plan
from curator.core.common.errors import EditError
from curator.core.read import credentials, secret_plugins
from curator.core.read.credentials import (
    CASELESS_SHAPES,
    ENTROPY_LIMITS,
    NOT_SECRETS,
    SHAPES,
    SHORTEST_HEX_SECRET,
    find_credentials,
    find_in_texts,
    may_hold_credential,
)

KEY = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
    "-----END OPENSSH PRIVATE KEY-----\n"
)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (KEY, "Private Key"),
        ("aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n", "AWS Access Key"),
        ("Connect with postgres://admin:hunter2secret@db.internal:5432/app\n", "Basic Auth Credentials"),
        ("Connect with postgres://app:Sup3rS3cret!@db.internal:5432/app\n", "Password in a URL"),
        ("password = 'S3cr3t!passw0rd'\n", "Secret Keyword"),
        ("token ghp_abcdefghijklmnopqrstuvwxyz0123456789\n", "GitHub Token"),
    ],
)
def test_credentials_are_found(text: str, kind: str) -> None:
    assert [c.kind for c in find_credentials(f"Some notes.\n{text}")] == [kind]


@pytest.mark.parametrize(
    ("secret", "kind"),
    [
        ("aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "AWS Access Key"),
        ("postgres://admin:hunter2secret@db.internal:5432/app", "Basic Auth Credentials"),
        ("password = 'S3cr3t!passw0rd'", "Secret Keyword"),
        ("ghp_abcdefghijklmnopqrstuvwxyz0123456789", "GitHub Token"),
    ],
)
def test_credentials_inside_long_paragraphs_are_found(secret: str, kind: str) -> None:
    """A long line is read only around what could be a credential: far into a paragraph, at its
    start and at its end, it is still found."""
    prose = "We talked about the rollout plan and the dashboards for a long while. " * 12
    for line in (f"{prose}{secret} {prose}", f"{secret} {prose}", f"{prose}{secret}"):
        assert [c.kind for c in find_credentials(f"Notes.\n{line}\n")] == [kind]


def test_notes_with_hashes_ids_and_addresses_are_not_credentials() -> None:
    text = (
        "integrity: sha384-AfEj0r4/OFrOo5t7NnNe46zW/tFgW6x/bCJG8FqQCEo3+Aro6EYUG4+cU+KJWu/X\n"
        "The fix is commit 3f2a9b7c1d4e5f60718293a4b5c6d7e8f9a0b1c2, deployed to 10.0.0.12 and 8.8.8.8.\n"
        "id: 1FEEo_0aNiNfOwdc2pd9kHz\n"
    )
    assert find_credentials(text) == []


def test_a_public_key_is_no_credential_but_a_private_or_preshared_one_is() -> None:
    """A WireGuard peer's `public:` key is given out by design (a new user's Claude memory of a
    netplan config); its private and preshared keys, and a key of a word that merely ends so, are not."""
    value = "mohrVW5iptcR0gt3Y/R8dcgmonn9ZAlsVwvxf60OdCM="
    for key in ("public", "public_key", "peerPublicKey", "PUBKEY", "keys.public"):
        assert find_credentials(f'        {key}: "{value}"\n') == [], key
    for key in ("private", "preshared_key", "republic", "privateKey"):
        assert find_credentials(f'        {key}: "{value}"\n') != [], key
    assert find_credentials(f'public: "{value}" private: "{value}"\n') != []  # the same value given to both
    # an attacker's: not a public key's shape, or not a public key's name
    for line in (
        'public: "sk-proj-4fG7hJ2kL9mN3pQ6rS8tU1vW5xY0zA2bC4dE6fG8hJ0kL"',
        f'not_public: "{value}"',
        f'client_secret.public: "{value}"',
        'token_pub: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEYq"',
    ):
        assert find_credentials(f"{line}\n") != [], line


def test_an_identifier_a_key_names_is_no_credential_but_the_same_hex_as_a_secret_is() -> None:
    """A Notion export's `notionId` (a UUID without dashes) finds a record; under a secret's key the
    same hex is still reported."""
    hex_id = "c29b1bac41c34357aea59926226077e8"
    for line in (f'notionId: "{hex_id}"', f'"pageId": "{hex_id}"', f'page_id = "{hex_id}"'):
        assert find_credentials(f"---\n{line}\n---\n# Olympia\n") == [], line
    for line in (
        f'api_secret: "{hex_id}"',
        f'tokenId: "{hex_id}"',
        f'sessionId: "{hex_id}"',
        f'staging projectId: 12, Bearer "{hex_id}"',
        f'mailgun "{hex_id}" for domain_id: 9',
        f'api_hash: "{hex_id}"',  # Telegram's app secret, not a checksum
    ):
        assert find_credentials(f"---\n{line}\n---\n") != [], line
    assert find_credentials(f'file_hash: "{hex_id}"\n') == []


@pytest.mark.parametrize(
    "line",
    [
        'export ANTHROPIC_API_KEY="your-key-here"',
        'password = "changeme"',
        "Passwort: <dein Passwort>",
        "api_token: ${API_TOKEN}",
        "password: your_password_here",
        "Connect with `postgresql://user:pass@host:5432/db`.",
        'OPENAI_API_KEY="sk-..."',
        "App Secret: secret456",
        'account = "token:default:<email>"',
        "# password: (blank or email address)",
        "# A PEM-formatted RSA private key will begin like this:\n#    -----BEGIN RSA PRIVATE KEY-----\n# Then",
        '"localhost:3000/login:user=^USER^&password=^PASS^:Invalid username or password"',  # hydra's fields
        'reg query "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System" /v Timeout',
        # a homelab wiki's examples: a word and "password", a YAML tag's reference, a variable's name
        '      password: "rootpassword"',
        "  my_secret_var: !env_var MY_SECRET_VAR",
        "  db_password: DB_ROOT_PASSWORD",
        # a new user's homelab docs: a variable's name with a digit, a password manager's entry, a query's field
        "- Password: `N8N_BASIC_AUTH_PASSWORD`",
        '| Cloudflare | cloudflare.com | 1Password: "Cloudflare" |',
        '| Synology NAS | 192.168.1.4 | 1Password: "Synology Admin" |',
        "    token=TOKEN&zone=example.org&type=CNAME&\\",
        # a new user's zk notes: an example's value, a secret's ARN, an example password, two settings
        '    "API_KEY": "xxx-yyy-xxx",',
        '        SECRET_ARN: "arn:aws:secretsmanager:eu-west-2:885135949562:secret:wakatime-api-key-X9oF3v",',
        "export APP_PASSWORD='mypassword123'",
        "**`resume_false_interruption=True` / `false_interruption_timeout=1.0`**",
        # a second new user's agent workspace (Solana tools): what a chain publishes, examples, code, prose
        '"walletAddress": "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",',
        '"tokenMint": "Dfh5DzRgSvvCFDoYc2ciTkMrbDfRKybA4SoFbPmApump",',
        '"publicKey": "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",',
        '"apiKey": "a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8s9t0u1v2w3x4y5z6a7b8c9d0e1f2",',
        "SOLANA_PRIVATE_KEY=base58-encoded-secret-key",
        'export TEST_SECRET="test-webhook-secret-123"',
        'Send message to token chat for ABC123: "This token is great!"',
        "api_key_res = requests.post(",
    ],
)
def test_a_placeholder_where_the_readers_own_value_goes_is_no_credential(line: str) -> None:
    assert find_credentials(f"Set it up:\n{line}\n") == []


def test_a_real_value_beside_a_placeholder_is_still_one() -> None:
    text = 'export OPENAI_API_KEY="your-key-here"\nexport OPENAI_API_KEY="sk-proj-4fQx9TzLw2Rb8NcVm1KpHs7D"\n'
    assert [c.line for c in find_credentials(text)] == [2]
    assert find_credentials('cloudflareddns:\n  token: "Na9E7VEY58COhA03l1ytm1r70u7jBsf8bNqh5AlZ"\n') != []
    for real in (
        'password: "Kq7#rootpassword"',
        'password: "Summer2024password"',
        "api_key: K7Q2ZP_M4RTX9_B8VN3W",
        "MYSQL_ROOT_PASSWORD=P4SS_W0RD_2025",
        "secret: !letmein",
        "curl 'https://dns.example/update?token=Xk93mZq7Lp2w&zone=example.org'",
        'password: "Cloudflare9!x" # in 1Password too',
        "N8N_BASIC_AUTH_PASSWORD=N8N_2025_AUTH",
        "APP_PASSWORD='mypassword-Xq81!'",
        'walletSecret: "Dfh5DzRgSvvCFDoYc2ciTkMrbDfRKybA4SoFbPmApump"',
        '"accessToken": "Dfh5DzRgSvvCFDoYc2ciTkMrbDfRKybA4SoFbPmApump"',
        "DB_PASSWORD=hunter-secret-2024",
        # an attacker's: a wallet's or a signature's may be a private key or a signing secret
        'WALLET="4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T5Kb8kLf9W3pXqR7sTuVw2yZ1aB3cD4eF5gH6iJ7kL8mN9oP"',
        'STRIPE_WEBHOOK_SIGNATURE="whsec_5Kb8kLf9W3pXqR7sTuVw2yZ1aB3cD4eF"',
        "password = Tr0ub4dor(x9Q&3",
        "password: k9-secret-random-x7q-2vb",
        'awsAccount: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"',
        '"API_KEY": "xk9-yq2-xz7"',
    ):
        assert find_credentials(f"db:\n  {real}\n") != [], real  # more than a word and "password", a name


def test_a_change_that_adds_a_credential_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "# A\n"})
    start = tree(root)
    plan = Plan("fix", "add a key", (FileChange("a.md", b"# A\n", ("# A\n" + KEY).encode()),), {}, 0)
    with pytest.raises(EditError, match=r"a\.md:2 would hold a credential \(Private Key\); nothing was written"):
        apply(root, plan)
    assert tree(root) == start and not (root / ".curator" / "journal").exists()


def test_a_change_next_to_an_old_credential_is_not_refused(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "password = 'S3cr3t!passw0rd'\nSee [[b]].\n", "b.md": "b"})
    plan = Plan(
        "fix",
        "relink",
        (FileChange("a.md", (root / "a.md").read_bytes(), b"password = 'S3cr3t!passw0rd'\nSee [[c]].\n"),),
        {},
        1,
    )
    apply(root, plan)  # the credential was there before: lint reports it, the edit is not blocked
    assert (root / "a.md").read_text().endswith("[[c]].\n")


def test_lint_reports_credentials_as_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_vault(tmp_path / "v", {"ops.md": f"# Ops\n\n{KEY}", "fine.md": "nothing here"})
    assert main(["lint", str(root), "--no-cache", "--select", "secret", "--format", "json"]) == 1
    (finding,) = json.loads(capsys.readouterr().out)["findings"]
    assert (finding["path"], finding["line"], finding["severity"]) == ("ops.md", 3, "error")
    assert finding["data"] == {"kind": "Private Key"}


# The prefilter's patterns as Python's re reads them (its `\s` within a line): RE2 runs them, and
# must match the same.
_RE_PREFILTER = re.compile(
    ("|".join(SHAPES) + "|(?i:" + "|".join(CASELESS_SHAPES) + ")")
    .replace(r"\s*", r"[^\S\n\r]*")
    .replace(r"\s+", r"[^\S\n\r]+")
)
PIECES = [
    *"aP:=/@_07 \t\n'\"`;",
    *"\u00a0\u3000\u2028\x0b\x1c\x85\u200b",  # spaces to Python's \s (and one that is not)
    *("password", "Secret", "api-key", "://u:p@", "xoxb-", "AKIA", "BEGIN RSA PRIVATE KEY", "eyJ", "İ", "ſ"),
    *("abcdefghijklmnopqrst", "0123456789"),
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
@example("password\u00a0= 'x'")
@example("secret\u3000: 'x'")
@example("pwd\x1c\x85= `1`")
@example("see ://user\u00a0x:pass@host")
@example("password =\n'x'")
@example("api-key:aaapi-keyapi-keyapi-keyİ")  # Python's re reads İ as an i in [a-z]; RE2 must too
@example("password İSecret")  # and as the i of a key word's "is"
def test_the_prefilter_matches_what_pythons_re_matches(text: str) -> None:
    expected = bool(_RE_PREFILTER.search(text))
    assert may_hold_credential(text) == expected
    assert may_hold_credential(text.encode()) == expected  # as a page's bytes are searched


def _patterns_in_use() -> list[tuple[str, re.Pattern[str]]]:
    """Every pattern of the detect-secrets plugins curator runs (curator's own too); the keyword
    plugin's as it reads a Markdown file. The random-string plugins have no pattern of their own:
    test_the_prefilter_passes_every_random_string_a_plugin_reports covers them."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.keyword import QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP

    own = credentials.OWN_PLUGINS  # one of detect-secrets' names: curator's plugin replaces its
    plugins = [p for p in get_mapping_from_secret_type_to_class().values() if p.__name__ not in NOT_SECRETS | set(own)]
    plugins += [getattr(secret_plugins, name) for name in credentials.OWN_PLUGINS]
    patterned = [p for p in plugins if hasattr(p, "denylist") and p.__name__ != "KeywordDetector"]
    found = [(p.__name__, rx) for p in patterned for rx in p.denylist]
    assert len(plugins) == 30 and len(found) == 50  # a new detect-secrets: see that the prefilter keeps up
    return found + [("KeywordDetector", rx) for rx in QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP]


# A line of printable ASCII: detect-secrets reads a line at a time.
_LINE = st.characters(min_codepoint=32, max_codepoint=126) | st.just("\t")


@pytest.mark.parametrize(("plugin", "pattern"), _patterns_in_use(), ids=lambda v: getattr(v, "pattern", v)[:40])
def test_the_prefilter_passes_every_line_a_plugin_could_report(plugin: str, pattern: re.Pattern[str]) -> None:
    """The prefilter decides which lines detect-secrets reads: it must pass every line that one of
    the plugins' patterns matches, or that credential is never reported."""

    @settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(st.from_regex(pattern, alphabet=_LINE))
    def passes(line: str) -> None:
        assert may_hold_credential(f"Notes.\n{line}\n"), (plugin, line)

    passes()


def test_a_commit_id_or_checksum_alone_is_not_read_by_the_scanner() -> None:
    """What the prefilter leaves out: long runs of letters and digits that no plugin reports (the
    ids and hashes real notes are full of), and key words in prose."""
    for line in (
        "The fix is commit 3f2a9b7c1d4e5f60718293a4b5c6d7e8f9a0b1c2.",
        "Watch https://www.loom.com/embed/3eba0f8523ac4d1ab150e8d3af9f1b0b for the demo.",
        "id: 7tlxi5ejnnb8idhc1943zmp0aNiNfOwdc2pd9kHz",
        "Open your `keybindings.json` and run('secret', retries=4), the key: `config`.",
    ):
        assert not may_hold_credential(line), line


def _random(alphabet: str, length: int, seed: int) -> str:
    """A fixed random-looking string (never sequential, never a word)."""
    import random

    pick = random.Random(seed)
    return "".join(pick.choice(alphabet) for _ in range(length))


_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_LOWER = "abcdefghijklmnopqrstuvwxyz0123456789"
_HEX = "0123456789abcdef"
FINE_GRAINED = "github_pat_11" + _random(_ALNUM + "_", 82, 1)
# One line each plugin curator runs reports, as a note would hold it.
EXAMPLES = {
    "ArtifactoryDetector": "artifactory = AKCp8jQ8u1sYgGU3FVmm",
    "AWSKeyDetector": "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
    "AzureStorageKeyDetector": "DefaultEndpointsProtocol=https;AccountName=x;AccountKey="
    + _random(_ALNUM, 86, 2)
    + "==",
    "Base64HighEntropyString": 'blob = "' + _random(_ALNUM + "+/", 40, 3) + '"',
    "BasicAuthDetector": "Connect with postgres://admin:hunter2secret@db.internal:5432/app",
    "CloudantDetector": "cloudant_password = '" + _random(_HEX, 64, 4) + "'",
    "DiscordBotTokenDetector": "bot: MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs",
    "GitHubTokenDetector": "token ghp_" + _random(_ALNUM, 36, 5),
    "GitLabTokenDetector": "use glpat-" + _random(_ALNUM, 20, 6),
    "HexHighEntropyString": 'key = "' + _random(_HEX, 32, 7) + '"',
    "IbmCloudIamDetector": "ibm_cloud_iam_api_key = '" + _random(_ALNUM, 44, 8) + "'",
    "IbmCosHmacDetector": "ibm_cos_hmac_secret_access_key = '" + _random(_HEX, 48, 9) + "'",
    "JwtTokenDetector": "Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
    "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "KeywordDetector": "password = 'S3cr3t!passw0rd'",
    "MailchimpDetector": "mailchimp " + _random(_LOWER, 32, 10) + "-us12",
    "NpmDetector": "//registry.npmjs.org/:_authToken=npm_" + _random(_ALNUM, 36, 11),
    "OpenAIDetector": "sk-" + _random(_ALNUM, 20, 12) + "T3BlbkFJ" + _random(_ALNUM, 20, 13),
    "PrivateKeyDetector": "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0t",
    "PypiTokenDetector": "pypi-AgEIcHlwaS5vcmc" + _random(_ALNUM, 70, 14),
    "SendGridDetector": "SG." + _random(_ALNUM, 22, 15) + "." + _random(_ALNUM, 43, 16),
    "SlackDetector": "xoxb-2345678901-" + _random("abcdefghijklmnopqrstuvwxyz", 12, 17),
    "SoftlayerDetector": "softlayer_api_key = '" + _random(_LOWER, 64, 18) + "'",
    "SquareOAuthDetector": "sq0csp-" + _random(_ALNUM, 43, 19),
    "StripeDetector": "sk_live_" + _random(_ALNUM, 24, 20),
    "TelegramBotTokenDetector": "bot 123456789:" + _random(_ALNUM, 35, 21),
    "TwilioKeyDetector": "AC" + _random(_LOWER, 32, 22),
    "AssignedSecretDetector": "Passwort: Sommer2026!",
    "CredentialPairDetector": "**Admin:** `wazuh` / `15jMA*JM6vcrzAdLLL825GRFrDLBiTJ1`",
    "GitHubFineGrainedTokenDetector": f"token {FINE_GRAINED}",
    "UrlPasswordDetector": "db: postgres://app:Sup3rS3cret!@db.example.com:5432/app",
}


def test_every_plugin_curator_runs_has_an_example() -> None:
    assert sorted(p["name"] for p in credentials._settings()["plugins_used"]) == sorted(EXAMPLES)


@pytest.mark.parametrize("plugin", sorted(EXAMPLES))
def test_each_plugin_s_example_passes_the_prefilter_and_is_found(plugin: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The prefilter must not hide what the detector finds: with only this plugin running, its
    example passes the prefilter (as a page's text and bytes) and the plugin reports it."""
    line = EXAMPLES[plugin]
    assert may_hold_credential(f"Notes.\n{line}\n") and may_hold_credential(f"Notes.\n{line}\n".encode())
    settings = credentials._settings()
    only = {**settings, "plugins_used": [p for p in settings["plugins_used"] if p["name"] == plugin]}
    monkeypatch.setattr(credentials, "_settings", lambda: only)
    assert [c.line for c in find_credentials(f"Notes.\n{line}\n")] == [2]


_BASE64_CHARS = _ALNUM + "+/-_=\\"


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(ENTROPY_LIMITS)), st.text(alphabet=_BASE64_CHARS, min_size=9, max_size=80))
def test_the_prefilter_passes_every_random_string_a_plugin_reports(plugin: str, text: str) -> None:
    """The random-string plugins report a quoted run of their characters above their entropy
    limit: each such string passes the prefilter."""
    from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString, HexHighEntropyString

    detector = {"Base64HighEntropyString": Base64HighEntropyString, "HexHighEntropyString": HexHighEntropyString}
    engine = detector[plugin](limit=ENTROPY_LIMITS[plugin])
    if plugin == "HexHighEntropyString":
        text = "".join(c for c in text if c in "0123456789abcdefABCDEF")
        if len(text) < SHORTEST_HEX_SECRET:
            return  # not reported (secret_plugins.is_named_checksum)
    if text and engine.calculate_shannon_entropy(text) > engine.entropy_limit:
        assert may_hold_credential(f'x = "{text}"'), text


# The forms found missed on the old code: each is found, refused on every write, and reported.
FORMS = [
    (f"Merged from the deploy page: {FINE_GRAINED}", "GitHub Fine-Grained Token"),
    ("password = hunter2hunter2XYZ", "Secret Assignment"),
    ("Passwort: Sommer2026!", "Secret Assignment"),
    ("**Kennwort:** Winter2025#", "Secret Assignment"),
    ("DB_PASSWORD=Tr0ub4dor&3", "Secret Assignment"),
    ("api_token: `x8Kd02mZpq`", "Secret Assignment"),
    # a new user's wiki: a password behind a label, and a login and its password as two code spans
    ("- **password: [REDACTED] `ddZtfWVFD+7IV64.6DJzKRBPa6wYvSbA`", "Secret Assignment"),
    ("- **Admin:** `wazuh` / `15jMA*JM6vcrzAdLLL825GRFrDLBiTJ1`", "Credential Pair"),
    # a new user's memories: a password said in prose
    ("Das Portainer-Admin-Passwort ist jetzt Tr0ub4dor&3xQz9!", "Secret Assignment"),
    ("The admin password for the NAS is now hunter2-blue.", "Secret Assignment"),
    # an attacker's other ways of saying it
    ("The NAS admin password was set to Tr0ub4dor&3 yesterday.", "Secret Assignment"),
    ("The password for the Portainer admin account is now Tr0ub4dor&3x", "Secret Assignment"),
    ("Das Passwort wurde auf Tr0ub4dor&3x geändert.", "Secret Assignment"),
    # a new user's and an attacker's: an API key in prose, a login and its password unquoted
    ("The Brave API key is BSAqln4aMrhvq36RukW6RT2kNksxDu2 now.", "Secret Assignment"),
    ("The Mailgun API key (production) is Qw7rT2yU9iO4", "Secret Assignment"),
    ("Der API-Schlüssel für Mailgun ist Xk9mPq2zLw8r", "Secret Assignment"),
    ("Zugangsdaten für den Router: admin / Xk9#mPq2", "Credential Pair"),
    ("Creds: `root` / toor123!", "Credential Pair"),
    # a second attacker's: a pair without a sign, a key word "for" a thing and a colon, other verbs
    ("Zugangsdaten für den Router: admin / SommerRegen2024", "Credential Pair"),
    ("Password for Portainer: Tr0ub4dor&3", "Secret Assignment"),
    ("Kennwort des Routers: Tr0ub4dor&3", "Secret Assignment"),
    ("Das WLAN-Passwort heißt Gartenzwerg42", "Secret Assignment"),
    ("The password is Winter2024-only.", "Secret Assignment"),
    ("Credentials for Portainer are admin / Tr0ub4dor3x", "Credential Pair"),
]


@pytest.mark.parametrize(("line", "kind"), FORMS)
def test_lint_reports_each_form(line: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_vault(tmp_path / "v", {"ops.md": f"# Ops\n\nSome notes.\n{line}\n"})
    assert main(["lint", str(root), "--no-cache", "--select", "secret", "--format", "json"]) == 1
    (finding,) = json.loads(capsys.readouterr().out)["findings"]
    assert (finding["path"], finding["line"], finding["data"]) == ("ops.md", 4, {"kind": kind})


@pytest.mark.parametrize(("line", "kind"), FORMS)
def test_a_merge_that_would_carry_each_form_is_refused(
    line: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_vault(
        tmp_path / "v",
        {"Deploy.md": f"# Deploy\n\nHow we deploy.\n\n{line}\n", "Ops.md": "# Ops\n\nThe runbook.\n"},
    )
    start = tree(root)
    assert main(["merge", str(root), "Deploy", "Ops"]) == 2
    err = capsys.readouterr().err
    assert f"would hold a credential ({kind}); nothing was written" in err and "Traceback" not in err
    assert tree(root) == start


@pytest.mark.parametrize(("line", "kind"), FORMS)
def test_remember_refuses_each_form(line: str, kind: str, tmp_path: Path) -> None:
    from curator.core.curate.remember import remember
    from curator.core.read.loading import load_vault

    root = make_vault(tmp_path / "v", {"Ops.md": "# Ops\n\nThe runbook.\n"})
    with pytest.raises(EditError, match=re.escape(f"holds a credential ({kind})")):
        remember(load_vault(root), f"The staging login.\n{line}")


def test_an_allowlisted_line_is_not_reported_nor_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """detect-secrets' allowlist comment, as an HTML comment at the end of the line or alone on
    the line before it: the user accepts that line (a test fixture's fake password)."""
    accepted = (
        "# Fixtures\n\n"
        "password = hunter2hunter2XYZ <!-- pragma: allowlist secret -->\n"
        "<!-- pragma: allowlist nextline secret -->\n"
        "Passwort: Sommer2026!\n"
    )
    assert find_credentials(accepted) == []
    root = make_vault(tmp_path / "v", {"fixtures.md": accepted, "a.md": "# A\n"})
    assert main(["lint", str(root), "--no-cache", "--select", "secret", "--format", "json"]) == 0
    plan = Plan("fix", "add fixtures", (FileChange("a.md", b"# A\n", ("# A\n" + accepted).encode()),), {}, 0)
    apply(root, plan)
    assert (root / "a.md").read_text().endswith("Sommer2026!\n")
    # the comment counts on its own line only: one line further down, the line is reported
    assert [c.line for c in find_credentials(accepted + "Kennwort: Winter2025#\n")] == [6]


def test_ordinary_docs_text_is_not_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A git sha, a sha256 in a code block (quoted too), a long URL, placeholders and prose about
    passwords are what real docs hold; none is a credential."""
    digest = _random(_HEX, 64, 30)
    docs = (
        "# Release\n\n"
        "Fixed in commit 3f2a9b7c1d4e5f60718293a4b5c6d7e8f9a0b1c2.\n\n"
        "```json\n"
        f'{{"file": "curator.whl", "sha256": "{digest}"}}\n'
        f'{{"level": 30, "repo": "vault", "head": "{_random(_HEX, 40, 31)}"}}\n'
        "```\n\n"
        f"sha256sum: {digest}\n"
        "See https://example.com/docs/reference/configuration/advanced/options?section=tokens&lang=en#top.\n"
        "`mysql --user={{user}} --password={{password}}`, `TOKEN=${GITHUB_TOKEN}`, password: ^PASS^\n"
        "The password: pick a long one. tokenizer: spacy2, token_ttl: 3600, secret: YOUR_API_KEY\n"
        "The token: see settings.api.token for details.\n"
        "The password is kept in 1Password; it is changed every 90 days. The secret is **encrypted** at rest.\n"
        "Das Passwort steht im Tresor, der Bot-Token ist **ungültig**. The default password is raspberry.\n"
        "The password is SHA256-hashed. The session token is HS256-signed. The backup secret is AES-256 encrypted.\n"
        "Wi-Fi password is WPA2-Enterprise. A Secret is base64-encoded, not encrypted.\n"
        # a German club's API docs: placeholders and an example token cut short
        '  "password": "dein-mailcow-passwort"\n  "password": "event-passwort"\n  "password": "neuesPasswort"\n'
        '  "token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...",\n'
        # an attacker's: what a key is, and logins that name a way in, not a password
        "The API key is OAuth2-based and S3-compatible. The secret key is 2048-bit RSA. The auth key is HMAC-SHA256.\n"
        "The API key is stored in Vault and rotated every 90 days.\n"
        "Login: SSO / SAML2.0\nCredentials: AWS / GCP-2024\nLogin: Keycloak / LDAPv3\nLogin: Benutzer / Passwort123\n"
        "Der API-Key ist 32-stellig. The API key is K8s-mounted. Password for Portainer: stored in Bitwarden.\n"
        "The credentials are in 1Password / Bitwarden. Login is done via SSO / Keycloak.\n"
    )
    assert find_credentials(docs) == []
    root = make_vault(tmp_path / "v", {"release.md": docs})
    assert main(["lint", str(root), "--no-cache", "--select", "secret", "--format", "json"]) == 0


def test_short_hex_ids_and_fingerprints_are_not_reported() -> None:
    """curator's own baseline file quotes 16-hex fingerprints; JSON quotes short ids."""
    text = '{"fingerprint": "f85e9574ca507d0c"}\n{"id": "9c1e4b7a2f6d"}\n{"span": "4bf92f3577b34da6a3ce"}\n'
    assert find_credentials(text) == []


def test_find_in_texts_reads_the_allowlist_with_each_page_s_own_lines() -> None:
    """A next-line comment above one page's line does not reach a candidate of another page."""
    found = find_in_texts({"a.md": "<!-- pragma: allowlist nextline secret -->\n", "b.md": "Passwort: Sommer2026!\n"})
    assert found == {"b.md": [credentials.Credential("Secret Assignment", 1)]}


def test_a_drawing_is_scanned_for_credentials_in_its_text_not_its_data(tmp_path: Path) -> None:
    from curator.core.check.findings import check_vault
    from curator.core.read.loading import load_vault

    data = "APAJIAeAJIA6MlAA28MQAM8ouhEjBzD2A5hiYaOsApdRS9rYNSyNjd5wurnSklZc\n" * 3 + "AKIAIOSFODNN7EXAMPLE\n"
    drawing = "---\nexcalidraw-plugin: parsed\n---\n# Text Elements\n{text}\n%%\n# Drawing\n" + data + "%%\n"
    root = make_vault(
        tmp_path / "v",
        {
            "Excalidraw/Plain.excalidraw.md": drawing.format(text="a box"),
            "Excalidraw/Login.excalidraw.md": drawing.format(text="aws_access_key_id = AKIAIOSFODNN7EXAMPLE"),
        },
    )
    found = [(f.path, f.line) for f in check_vault(load_vault(root, use_cache=False)) if f.rule == "secret"]
    assert found == [("Excalidraw/Login.excalidraw.md", 5)]


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ("Alpha", "Alpha AKIAQ3EGRZLKJ4TXW7NP", None),  # a key as the new name
        ("Alpha", "Alpha two", "see postgres://orders_app:Tr0ub4dor-2026@db.internal:5432/orders"),
        ("Alpha", "Alpha two", "password=Tr0ub4dor-2026"),
    ],
)
def test_a_credential_in_a_new_name_or_a_reason_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, reason: str | None
) -> None:
    """A reason becomes the commit message, which git keeps for good; a name becomes a file name."""
    root = make_vault(tmp_path / "v", {"Alpha.md": "# Alpha\n\nText.\n", "b.md": "[[Alpha]]\n"})
    original = tree(root)
    args = ["rename", str(root), old, new, *(["--reason", reason] if reason else [])]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "would hold a credential" in err and err.count("\n") == 1
    assert tree(root) == original


def test_a_pragma_counts_in_an_agents_change_only_where_a_page_held_it(tmp_path: Path) -> None:
    """An agent that writes the allowlist comment beside its own credential accepts nothing; a
    line a person accepted on disk may still be carried into another page."""
    accepted = "password = hunter2hunter2XYZ <!-- pragma: allowlist secret -->\n"
    written = FileChange("a.md", b"# A\n", ("# A\n" + accepted).encode())
    refuse_credentials([written])  # a person's change: the comment is the person's acceptance
    with pytest.raises(EditError, match=re.escape("a.md:2 would hold a credential")):
        refuse_credentials([written], by_agent=True)
    carried = FileChange("b.md", ("# B\n" + accepted).encode(), None)
    refuse_credentials([written, carried], by_agent=True)
    with pytest.raises(EditError, match="reason"):
        refuse_credentials([], reason=accepted)


def test_a_github_token_prefix_inside_a_longer_word_is_no_token() -> None:
    """A new user's vault: `ghs_` in the middle of an image URL's random path was a GitHub token."""
    body = "J" + "ptNZa" * 7 + "b"
    assert find_credentials(f"![cut](https://images.openai.com/thumb/UejhlGighs_{body}.png)") == []
    assert [c.kind for c in find_credentials(f"the bot's token is ghs_{body}")] == ["GitHub Token"]


@pytest.mark.parametrize(
    "key",
    [
        "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: DES-EDE3-CBC,3E55036B4C084FB6\n\n"
        "MIICdgIBADANBgkqhkiG9w0BAQEFAASCAmAwggJcAgEAAoGBAMamAhcoo3o0uzeC\n-----END RSA PRIVATE KEY-----",
        "> -----BEGIN PRIVATE KEY-----\n>\n> MIICdgIBADANBgkq\n> hkiG9w0BAQEFAASC\n> -----END PRIVATE KEY-----",
        "-----BEGIN RSA PRIVATE KEY-----\nMIICdgIB ADANBgkq hkiG9w0B AQEFAASC AmAwggJc\n-----END RSA PRIVATE KEY-----",
    ],
)
def test_a_private_key_behind_headers_blank_lines_quotes_or_spaces_is_found(key: str) -> None:
    assert [c.kind for c in find_credentials(f"# Old box\n\n```\n{key}\n```\n")] == ["Private Key"]


def test_a_key_with_a_placeholder_body_is_none() -> None:
    for body in ("...", "YOUR_PRIVATE_KEY_CONTENT_GOES_HERE_XXXXXXXX"):
        assert find_credentials(f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----\n") == []


def test_a_key_word_compared_in_code_is_no_assignment() -> None:
    """A new user's notes on decoding: `token_ids == eos_token_id` compares; `token = ...` assigns."""
    from curator.core.read.credentials import find_credentials

    assert find_credentials("    eos_positions = (token_ids == eos_token_id).nonzero()", allowlist=False) == []
    assert [f.kind for f in find_credentials("token_id = eos7Token!x", allowlist=False)] == ["Secret Assignment"]


def test_what_a_public_page_or_code_gives_out_is_no_credential() -> None:
    """A new user's Obsidian vault: 8 of 11 `secret` findings were R's `conf$token`, YouTube's
    description links, an Azure rule's name and a signed link's AWS key id."""
    public = [
        "  token = conf$token,",
        "* [REST Book](https://www.youtube.com/redirect?event=video_description&redir_token=QUFFLUhqbmxMMy1uR2Q5VjBfTnJvVi1ya2h5RWlGNXY3QXxBQ3Jtc0tuTXlpa2)",
        '  name                        = "SecurityCenter-JITRule-1170687618-8C18BF8921F041989344B4F1E3A0C370"',
        'fileurl="https://objects.githubusercontent.com/x/3d55?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIWNJYAX4CSVEH53A%2F20230510%2Fus-east-1%2Fs3%2Faws4_request"',
    ]
    kept = [
        "- Passwort: P$ssword",
        "- password: Admin$Secret",
        "`DB_PASSWORD=Sommer$Regen`",
        "https://notyoutube.com/redirect?event=x&api_token=Sommer2026!Geheim",
        "https://www.youtube.com/redirect?q=x,password=Sommer2026!Geheim",
        '  admin_password = "Password0134!"',
        "  token = conf$token7!x",
        "https://example.com/callback?redir_token=QUFFLUhqbmxMMy1uR2Q5VjBfTnJvVi1ya2h5RWlGNXY3QXxBQ3Jtc0tuTXlp",
        'aws_key = "AKIAIWNJYAX4CSVEH53A"',
        '  api_key = "SecurityCenter-1170687618-8C18BF8921F041989344B4F1E3A0C370"',
    ]
    _only_reported(kept, public)


def test_what_a_textbook_writes_to_show_a_format_is_no_credential() -> None:
    """A new user's Chinese study notes: 11 of 12 `secret` findings were a MongoDB id, the
    /etc/passwd format, a textbook's URL, `API_KEY=abc123` and express-session's documentation."""
    taught = [
        '    "$oid": "63f58348dd7588f0f61691f6"',
        "- `username:password:UID:GID:comment:home directory:shell`",
        '"groupname:password:GID:user-list"',
        "http://joe:joespasswd@www.joes-hardware.com/sales",
        "API_KEY=abc123",
        '    secret: "supersecret difficult to guess string",',
        "secret: **required option**",
        'PASSWORD="the root password"',
        '"subject_token_type": "urn:ietf:params:oauth:token-type:jwt"',
        "newErrors.password = 'Password is required';",
        '"MusicGen": "postgres://actual_user:actual_password@actual_host:5432/actual_db"',
        "MONGODB_URI=mongodb://appUser:appPassword@localhost:27017/mydb",
    ]
    kept = [
        '    "$token": "63f58348dd7588f0f61691f6a1b2c3d4"',
        "- `password:Sommer2026:UID`",
        "http://joe:Joes2026!@www.joes-hardware.com/sales",
        "API_KEY=abc123xyz789Q",
        '    secret: "supersecret 2026 difficult!"',
        "token: **Xk9f2LmQ8z**",
        # an attacker's real-looking ones in the examples' shapes
        'password: "SuperSecretPasswordForProd"',
        'password: "passwordless cactus jumping"',
        "amqp://svc:RabbitSecretProdCluster@mq.acme-prod.internal:5672/",
        'auth_token: "XkQvLmPzRtYwNbHc:JfGdSaQwErTyUiOp"',
        "password: admin:MyCompanyPassword",
        "DB_PASSWORD=Kx:vQ:Pz:mTr-wL",
        "postgres://app:masterpassword@db.prod.example.com:5432/app",
        "https://deploy:companypasswd@ci.acme-corp.io/hooks",
    ]
    _only_reported(kept, taught)


def _only_reported(kept: list[str], examples: list[str]) -> None:
    """Each line of `kept` holds a credential and no line of `examples` does."""
    from curator.core.read.credentials import find_credentials

    for line in examples:
        assert find_credentials(line, allowlist=False) == [], line
    for line in kept:
        assert find_credentials(line, allowlist=False), line
