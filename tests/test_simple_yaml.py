"""The fast frontmatter reader must agree with PyYAML whenever it answers."""

from __future__ import annotations

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.core.parse import json_safe
from curator.core.simple_yaml import load_simple

TRICKY = [
    "topic",
    "Topic",
    "yes",
    "No",
    "on",
    "OFF",
    "true",
    "null",
    "Null",
    "~",
    "y",
    "n",
    "0",
    "012",
    "-3",
    "+3",
    "1_000",
    "0x1F",
    "1.5",
    ".inf",
    "1e3",
    "2026-01-02",
    "2026-02-30",
    "2026-1-2",
    "12:30",
    "a: b",
    "a #b",
    "a# b",
    "[a, b]",
    "[a, yes]",
    "[]",
    "[a, ]",
    "[[Page]]",
    '"[[Page]]"',
    "'it''s'",
    "'x'",
    '"a\\"b"',
    '"a: b"',
    "foo bar",
    "foo  bar",
    "x,y",
    "-dash",
    "?q",
    "café",
    "Zoë",
    "a\tb",
    "&anchor",
    "*alias",
    "!tag",
    "|",
    ">",
    "%x",
    "@x",
    "`x`",
    "a'b",
    'a"b',
    "[a, [b]]",
    "{a: 1}",
    "true story",
    "Yes please",
    "on call",
]
KEYS = [
    "type",
    "title",
    "aliases",
    "tags",
    "updated",
    "related",
    "x-y",
    "_k",
    "Key2",
    "<<",
    "a b",
    "1a",
    "yes",
    "on",
    "null",
    "True",
    "y",
]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(KEYS), st.sampled_from(TRICKY), st.sampled_from(["", " ", "  "])), max_size=6)
)
def test_agrees_with_pyyaml_whenever_it_answers(lines: list[tuple[str, str, str]]) -> None:
    text = "\n".join(f"{key}:{sep or ' '}{value}" for key, value, sep in lines)
    fast = load_simple(text)
    if fast is None:
        return
    expected = yaml.safe_load(text) or {}
    assert fast == json_safe(expected)


def test_answers_the_common_headers() -> None:
    text = 'type: topic\nupdated: 2026-03-04\naliases: [cert renewal, TLS renewal]\nrelated: "[[Payments API]]"\nn: 3'
    assert load_simple(text) == {
        "type": "topic",
        "updated": "2026-03-04",
        "aliases": ["cert renewal", "TLS renewal"],
        "related": "[[Payments API]]",
        "n": 3,
    }


def test_leaves_everything_else_to_yaml() -> None:
    for text in ["tags:\n  - a", "a: yes", "a: 1.5", "# comment\na: b", "a: [b", "a: 2026-02-30", "a: b # c"]:
        assert load_simple(text) is None, text
