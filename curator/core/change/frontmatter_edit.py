"""Surgical frontmatter edits: add items to a list key, or set one key, and change nothing else, byte for byte.

Re-serialising YAML would reorder keys and drop comments and quoting, so edits touch only the
lines of the one key, and the result is parsed again to prove every other key is unchanged.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

from curator.core.common.errors import FrontmatterEditError
from curator.core.common.simple_yaml import is_plain_string
from curator.core.read.parse import split_frontmatter

_ITEM = re.compile(r"([ \t]*)-([ \t]+)")


def yaml_scalar(value: str) -> str:
    """`value` written so YAML reads it back as the same string."""
    if is_plain_string(value) and value == value.strip() and "," not in value:
        return value
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def add_list_items(text: str, key: str, items: list[str], path: str = "") -> str:
    """Append `items` (those not already there) to the list under `key`, creating what is missing."""
    newline = "\r\n" if "\r\n" in text else "\n"
    fm_text, fm_start, _ = split_frontmatter(text)
    if fm_text is None:
        if not items:
            return text
        bom = "\ufeff" if text.startswith("\ufeff") else ""
        header = f"---{newline}{key}:{newline}" + "".join(f"  - {yaml_scalar(i)}{newline}" for i in items)
        return bom + header + f"---{newline}" + text[len(bom) :]
    before = _load(fm_text, path)
    current = before.get(key)
    if current is not None and not isinstance(current, (list, str)):
        raise FrontmatterEditError(f"{path}: frontmatter `{key}` is neither a list nor a text; not changed")
    existing = [current] if isinstance(current, str) else [str(v) for v in (current or [])]
    folded = {e.casefold() for e in existing}
    new_items = []
    for item in items:
        if item.casefold() not in folded:
            new_items.append(item)
            folded.add(item.casefold())
    if not new_items:
        return text
    new_fm = _edit(fm_text, key, new_items, newline)
    after = _load(new_fm, path)
    expected = dict(before)
    expected[key] = existing + new_items
    if after != expected:
        raise FrontmatterEditError(f"{path}: the frontmatter is too unusual to edit `{key}` safely; not changed")
    return text[:fm_start] + new_fm + text[fm_start + len(fm_text) :]


def set_scalar(text: str, key: str, value: str, path: str = "") -> str:
    """`key: value` in the frontmatter (made when missing), replacing a one-line value of `key`;
    every other line stays as it is. Refused for a key that holds a list or a mapping."""
    newline = "\r\n" if "\r\n" in text else "\n"
    fm_text, fm_start, _ = split_frontmatter(text)
    line = f"{key}: {yaml_scalar(value)}{newline}"
    if fm_text is None:
        bom = "\ufeff" if text.startswith("\ufeff") else ""
        return bom + f"---{newline}{line}---{newline}" + text[len(bom) :]
    before = _load(fm_text, path)
    if isinstance(before.get(key), (list, dict)):
        raise FrontmatterEditError(f"{path}: frontmatter `{key}` is a list or a mapping; not changed")
    lines = fm_text.splitlines(keepends=True)
    key_line = re.compile(rf"{re.escape(key)}[ \t]*:")
    found = next((i for i, text_line in enumerate(lines) if key_line.match(text_line)), None)
    if found is None:
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += newline
        lines.append(line)
    else:
        lines[found] = line
    new_fm = "".join(lines)
    expected = {**before, key: value}
    if _load(new_fm, path) != expected:
        raise FrontmatterEditError(f"{path}: the frontmatter is too unusual to edit `{key}` safely; not changed")
    return text[:fm_start] + new_fm + text[fm_start + len(fm_text) :]


def copy_key(text: str, from_text: str, key: str, path: str = "") -> str:
    """`key` of `from_text`'s frontmatter, its lines as written there (quoting, nested lines),
    added at the end of `text`'s frontmatter, which must not have it; every other line stays."""
    newline = "\r\n" if "\r\n" in text else "\n"
    from_fm, _, _ = split_frontmatter(from_text)
    wanted = _load(from_fm or "", path).get(key)
    lines = (from_fm or "").splitlines()
    key_line = re.compile(rf"{re.escape(key)}[ \t]*:")
    start = next((i for i, line in enumerate(lines) if key_line.match(line)), None)
    if start is None:
        raise FrontmatterEditError(f"{path}: `{key}` is written in a way curator cannot copy; not changed")
    end = start + 1
    while end < len(lines) and (lines[end][:1] in (" ", "\t") or lines[end].startswith("-") or not lines[end]):
        end += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1  # blank lines after the key's own belong to what follows
    block = "".join(line + newline for line in lines[start:end])
    fm_text, fm_start, _ = split_frontmatter(text)
    if fm_text is None:
        bom = "\ufeff" if text.startswith("\ufeff") else ""
        return bom + f"---{newline}{block}---{newline}" + text[len(bom) :]
    before = _load(fm_text, path)
    if key in before:
        raise FrontmatterEditError(f"{path}: frontmatter `{key}` is there already; not changed")
    gap = "" if not fm_text or fm_text.endswith(("\n", "\r")) else newline
    new_fm = fm_text + gap + block
    if _load(new_fm, path) != {**before, key: wanted}:
        raise FrontmatterEditError(f"{path}: the frontmatter is too unusual to add `{key}` safely; not changed")
    return text[:fm_start] + new_fm + text[fm_start + len(fm_text) :]


def _load(fm_text: str, path: str) -> dict[str, Any]:
    try:
        data = yaml.safe_load(fm_text) if fm_text.strip() else {}
    except (yaml.YAMLError, ValueError) as exc:
        raise FrontmatterEditError(f"{path}: frontmatter is not valid YAML; fix it first") from exc
    except RecursionError as exc:  # a vault may nest brackets a thousand deep
        raise FrontmatterEditError(f"{path}: frontmatter is nested too deeply to edit; fix it first") from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise FrontmatterEditError(f"{path}: frontmatter is not a mapping; fix it first")
    return data


def _edit(fm_text: str, key: str, items: list[str], newline: str) -> str:
    lines = fm_text.splitlines(keepends=True)
    key_line = re.compile(rf"{re.escape(key)}[ \t]*:(.*?)(\r?\n)?$")
    for index, line in enumerate(lines):
        m = key_line.match(line)
        if not m:
            continue
        value = m.group(1)
        bare = value.split(" #", 1)[0].strip()
        if bare.startswith("["):  # flow list: insert before the closing bracket
            close = value.rfind("]")
            inner = value[value.find("[") + 1 : close]
            added = ", ".join(yaml_scalar(i) for i in items)
            joined = added if not inner.strip() else f"{inner.rstrip()}, {added}"
            start = line.index(":") + 1 + value.find("[") + 1
            lines[index] = line[:start] + joined + line[start + len(inner) :]
            return "".join(lines)
        if bare:  # a single text value becomes a flow list that keeps it as written
            raw = bare if not re.search(r"[,\[\]{}]", bare) or bare[0] in "\"'" else json.dumps(bare)
            start = line.index(":") + 1
            end = start + len(value)
            listed = ", ".join([raw, *(yaml_scalar(i) for i in items)])
            lines[index] = line[:start] + f" [{listed}]" + line[end:]
            return "".join(lines)
        # Block list (or nothing yet): add items after the last one, in the same style.
        last = index
        indent, gap = "  ", " "
        for follow in range(index + 1, len(lines)):
            item = _ITEM.match(lines[follow])
            if item:
                last = follow
                indent, gap = item.group(1), item.group(2)
            elif lines[follow].strip() and lines[follow][:1] in " \t" and last != index:
                last = follow  # a continuation of the previous item
            else:
                break
        ending = lines[last][len(lines[last].rstrip("\r\n")) :] or newline
        if not lines[last].endswith(("\n", "\r")):
            lines[last] += newline
        lines[last + 1 : last + 1] = [f"{indent}-{gap}{yaml_scalar(i)}{ending}" for i in items]
        return "".join(lines)
    # No such key yet: append it at the end of the header.
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += newline
    lines.append(f"{key}:{newline}")
    lines.extend(f"  - {yaml_scalar(i)}{newline}" for i in items)
    return "".join(lines)
