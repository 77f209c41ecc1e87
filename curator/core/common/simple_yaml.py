"""A fast reader for the frontmatter most pages have: `key: value` lines of plain values, and
block lists of them (`tags:` then `- x` lines).

It answers only when it is sure to agree with PyYAML (a property test holds it to that) and
returns None otherwise, so the caller falls back to the full YAML parser. Reading YAML costs more
than anything else in a page, and most headers are a type, a date and a short list.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any

_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?:[ ]+(\S(?:.*\S)?))?[ ]*")
_ITEM = re.compile(r"([ ]*)-[ ]+(\S(?:.*\S)?)[ ]*")
# A plain scalar that starts with a letter and holds no YAML indicator, tab or backslash.
_PLAIN = re.compile(r"[A-Za-z][^:#\[\]{},&*!|>'\"%@`\\\t]*")
_DOUBLE = re.compile(r'"([^"\\]*)"')
_SINGLE = re.compile(r"'([^']*)'")
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_FLOW = re.compile(r"\[([^\[\]{}\"'#&*!|>%@`\\\t]*)\]")
# PyYAML's implicit types that a word starting with a letter can be (its int, float and timestamp
# patterns start with a digit, a sign or a dot): YAML 1.1 booleans and null.
_NOT_STRINGS = frozenset(
    "yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF null Null NULL".split()
)


class _NotSimple(Exception):
    pass


def is_plain_string(text: str) -> bool:
    """True when PyYAML reads `text` as a plain string (not a bool, null or number)."""
    return text not in _NOT_STRINGS and _PLAIN.fullmatch(text) is not None


def _value(raw: str) -> Any:
    if is_plain_string(raw):
        return raw
    if raw[0] == '"':
        m = _DOUBLE.fullmatch(raw)
        if m:
            return m.group(1)
    elif raw[0] == "'":
        m = _SINGLE.fullmatch(raw)
        if m:
            return m.group(1)
    elif raw[0] == "[":
        m = _FLOW.fullmatch(raw)
        if m:
            inner = m.group(1).strip()
            if not inner:
                return []
            items = [item.strip() for item in inner.split(",")]
            if all(item and is_plain_string(item) for item in items):
                return items
    elif _INT.fullmatch(raw):
        return int(raw)
    elif _DATE.fullmatch(raw):
        try:
            _dt.date.fromisoformat(raw)  # a real date (not the 30th of February): its ISO text is `raw`
            return raw
        except ValueError:
            pass
    raise _NotSimple


def load_simple(text: str) -> dict[str, Any] | None:
    """The mapping PyYAML would build (dates as ISO strings), or None when `text` is not simple."""
    result: dict[str, Any] = {}
    items: list[Any] | None = None  # the block list being read, if any
    indent = ""  # its items' indentation: YAML wants one for all of them
    try:
        for line in text.split("\n"):
            if not line or line.isspace():
                continue
            if items is not None:
                item = _ITEM.fullmatch(line)
                if item is not None and (not items or item.group(1) == indent):
                    if not items:
                        indent = item.group(1)
                    items.append(_value(item.group(2)))
                    continue
                if not items:  # `key:` with nothing under it is null, and YAML's to judge
                    return None
                items = None
            m = _LINE.fullmatch(line)
            if m is None:
                return None
            key, raw = m.group(1, 2)
            if key in _NOT_STRINGS or key[0] == "_":  # `yes` is a bool to YAML; `_` is left to PyYAML
                return None
            if raw is None:
                items = result[key] = []
            else:
                result[key] = _value(raw)
    except _NotSimple:
        return None
    if items is not None and not items:
        return None
    return result
