"""The fast frontmatter reader must agree with PyYAML whenever it answers."""

from __future__ import annotations

from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.core.common.simple_yaml import is_plain_string, load_simple
from curator.core.read.parse import json_safe

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


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(KEYS),
            st.one_of(
                st.sampled_from(TRICKY),
                st.lists(st.tuples(st.sampled_from(["", " ", "  ", "    "]), st.sampled_from(TRICKY)), max_size=4),
            ),
        ),
        max_size=5,
    )
)
def test_block_lists_agree_with_pyyaml_whenever_it_answers(entries: list[tuple[str, Any]]) -> None:
    lines = []
    for key, value in entries:
        if isinstance(value, str):
            lines.append(f"{key}: {value}")
        else:
            lines += [f"{key}:", *(f"{indent}- {item}" for indent, item in value)]
    text = "\n".join(lines)
    fast = load_simple(text)
    if fast is None:
        return
    expected = yaml.safe_load(text) or {}
    assert fast == json_safe(expected)


def test_answers_block_lists() -> None:
    text = "type: topic\ntags:\n  - infra\n  - tls\naliases:\n- cert renewal\nupdated: 2026-03-04"
    assert load_simple(text) == {
        "type": "topic",
        "tags": ["infra", "tls"],
        "aliases": ["cert renewal"],
        "updated": "2026-03-04",
    }


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
    declined = ["tags:", "tags:\n  - a\n - b", "tags:\n  - a\n    b", "tags:\n  - yes"]
    for text in [*declined, "a: yes", "a: 1.5", "# comment\na: b", "a: [b", "a: 2026-02-30", "a: b # c"]:
        assert load_simple(text) is None, text


@given(st.text(alphabet="aefilnorstuyAEFILNORSTUY01._-", min_size=1, max_size=8))
@settings(max_examples=300)
def test_plain_strings_are_what_the_yaml_resolver_calls_strings(text: str) -> None:
    """The reader knows YAML's implicit booleans and null itself; PyYAML's resolver is the judge."""
    resolver = yaml.resolver.Resolver()  # type: ignore[no-untyped-call]
    is_string = resolver.resolve(yaml.ScalarNode, text, (True, False)) == "tag:yaml.org,2002:str"  # type: ignore[no-untyped-call]
    if text[0].isalpha():  # the words the reader may take as plain strings
        assert is_plain_string(text) == is_string
    else:
        assert not is_plain_string(text)


def test_every_yaml_boolean_and_null_word_is_not_a_plain_string() -> None:
    for word in ("yes", "No", "TRUE", "false", "On", "OFF", "null", "Null", "NULL", "y", "n", "Yes", "oN"):
        tag = yaml.resolver.Resolver().resolve(yaml.ScalarNode, word, (True, False))  # type: ignore[no-untyped-call]
        assert is_plain_string(word) == (tag == "tag:yaml.org,2002:str"), word
