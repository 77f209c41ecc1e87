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
from curator.core.changes import apply
from curator.core.credentials import CASELESS_SHAPES, NOT_SECRETS, SHAPES, find_credentials, may_hold_credential
from curator.core.edits import FileChange, Plan
from curator.core.errors import EditError

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
    ("|".join(SHAPES) + "|(?i:" + "|".join(CASELESS_SHAPES) + ")").replace(r"\s*", r"[^\S\n\r]*")
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
def test_the_prefilter_matches_what_pythons_re_matches(text: str) -> None:
    expected = bool(_RE_PREFILTER.search(text))
    assert may_hold_credential(text) == expected
    assert may_hold_credential(text.encode()) == expected  # as a page's bytes are searched


def _patterns_in_use() -> list[tuple[str, re.Pattern[str]]]:
    """Every pattern of the detect-secrets plugins curator runs; the keyword plugin's as it reads
    a Markdown file."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.keyword import QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP

    plugins = [p for p in get_mapping_from_secret_type_to_class().values() if p.__name__ not in NOT_SECRETS]
    found = [(p.__name__, rx) for p in plugins if p.__name__ != "KeywordDetector" for rx in p.denylist]
    assert len(plugins) == 24 and len(found) == 45  # a new detect-secrets: see that the prefilter keeps up
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
