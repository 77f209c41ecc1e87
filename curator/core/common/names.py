"""The names a page or folder may be given: those Windows, macOS and Linux can all hold as a file
name (vaults are synced between them) and a `[[link]]` can spell."""

from __future__ import annotations

import re
import unicodedata

MAX_NAME_BYTES = 255  # a file name's limit on Linux and macOS (Windows counts 255 UTF-16 units: never fewer)

# The invisible characters that make a text look like another or turn it around (zero-width
# spaces and joiners, direction marks and overrides, the other format characters, the byte-order
# mark), as a regular expression's character class holds them: no name, no quoted line shows them.
INVISIBLE = r"\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff"

# Characters Windows or macOS refuse in a file name (control characters too), those that break a
# [[link]] (`#` heading, `^` block, `|` label, brackets), and the invisible ones.
FORBIDDEN = re.compile(rf'[\\/:*?"<>|#^\[\]\x00-\x1f\x7f-\x9f{INVISIBLE}]')

# Windows' device names: a file named so, with or without an extension, opens the device.
_DEVICES = frozenset(
    ["CON", "PRN", "AUX", "NUL"] + [f"{port}{n}" for port in ("COM", "LPT") for n in (*"123456789", "¹", "²", "³")]
)


def name_problem(name: str, suffix: str = "") -> str | None:
    """Why `name` cannot name a folder (or, with `suffix` ".md", a page titled so) on every system,
    or None when it can. The answer completes "new name ...: " in a message."""
    if not is_utf8(name):
        return f"'{escaped(name)}' is not valid UTF-8 text"
    if name in ("", ".", "..") or name != name.strip() or name.startswith("."):
        return f"{name!r} is not a usable file or folder name inside the vault"
    bad = FORBIDDEN.search(name)
    if bad:
        return f"the character {bad.group(0)!r} is not allowed in a page name"
    file_name = name + suffix
    if file_name.split(".", 1)[0].rstrip(" ").upper() in _DEVICES:
        return f"{file_name!r} is a device name on Windows, which no file there can have"
    if file_name.endswith((".", " ")):
        return f"{file_name!r} ends with {file_name[-1]!r}, which Windows drops from a file name"
    # macOS may store a name decomposed (é as e and an accent), which can make it longer.
    size = max(len(file_name.encode()), len(unicodedata.normalize("NFD", file_name).encode()))
    if size > MAX_NAME_BYTES:
        return f"the file name {file_name[:20]!r}… is {size} bytes long; at most {MAX_NAME_BYTES} fit in a file name"
    return None


def is_utf8(text: str) -> bool:
    """Whether `text` is text, not bytes that were not UTF-8 (which Python holds as lone surrogates
    in a file name or an argument; no page, JSON document or commit message can hold them)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def escaped(text: str) -> str:
    """`text` with what is not valid UTF-8 in it (the undecodable bytes of a file name or of an
    argument, which Python holds as lone surrogates) written as `\\xff` escapes, printable anywhere."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate that stands for no byte
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


_UNSEEN = re.compile(r"[\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]")


def visible(text: str) -> str:
    """`text` with each character that shows as a space or as nothing but is neither (a no-break
    space, a zero-width joiner, a byte-order mark) written as its escape (`\\xa0`), so that two
    spellings a fix tells apart look apart."""
    return _UNSEEN.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


_MARKS = re.compile(r"\d+(?:[-./_:]\d+)*|(?<=\w)[+#]+")


def name_marks(name: str) -> list[str]:
    """What another spelling of a name must keep, in any order of its words: its numbers, a date or a
    version whole ("2023-08-11" is not "2023-11-08", 2022-W49 not 2022-W34, but "2024 Q1 Budget" is
    "Budget Q1 2024"), and the signs after a word that name another thing ("CleanMgr+" is not
    cleanmgr, "C#" not C; a leading "+" that sorts "+Technology" first is none)."""
    return sorted(_MARKS.findall(name))
