"""A new page for a memory: its type, the folder it stands in, its file name and its text."""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections import Counter

from curator.core.change.edits import target_path
from curator.core.change.frontmatter_edit import yaml_scalar
from curator.core.check.index_page import in_folder, topics_folder
from curator.core.common.errors import EditError
from curator.core.curate.facts import PROBLEM
from curator.core.curate.handed import H1, new_header
from curator.core.curate.linking import linked
from curator.core.curate.observations import HEADING, keeps_observations, observation
from curator.core.read.page import INDEX_NAMES, REPOSITORY_FILES, has_aliases
from curator.core.read.parse import split_frontmatter
from curator.core.read.resolve import fold
from curator.core.read.titles import tells_occasion
from curator.core.read.vault import Vault
from curator.core.read.words import WORD, language_of

_TYPE_HINTS = {  # words that say which of the default types a new page is
    "problem": PROBLEM,
    "system": r"service|cluster|\bapi\b|database|server|gateway|queue|pipeline|container|\bproxy\b|\bvm\b|daemon",
    # a person's role said of them, not a program named for one ("Nginx Proxy Manager")
    "person": r"\b(?:he|she|they) (?:is|leads|owns)\b|\b(?:is|as) (?:a|an|our|the) (?:\w+ )?(?:engineer|manager|lead)",
    "customer": r"customer|client|kunde|contract",
    "project": r"project|rewrite|migration|roadmap|milestone|projekt",
}
_LANGUAGE_FOLDER = re.compile(r"[a-z]{2}(?:[-_][a-z]{2,4})?", re.IGNORECASE)  # en, de, pt-BR, zh_Hans


def _page_type(vault: Vault, text: str, page_type: str | None) -> str:
    if page_type:
        return page_type
    # A vault typing its pages by its own words alone ("note", as basic-memory writes): its most
    # used one, not a type none of its pages has.
    own = vault.types[len(vault.config.types) :] if not vault.config.types_configured else ()
    if own and not any(page.type in vault.config.types for page in vault.pages.values()):
        return own[0]
    folded = fold(text)
    for name, pattern in _TYPE_HINTS.items():
        if name in vault.types and re.search(rf"(?i){pattern}", folded):
            return name
    return "topic" if "topic" in vault.types else vault.types[0]


def new_page(
    vault: Vault,
    text: str,
    title: str,
    source: str,
    page_type: str | None,
    kept: str = "",
    near: str | None = None,
    successor: bool = False,
) -> tuple[str, str]:
    """A new page's path and text; `kept` holds frontmatter lines carried over (from a page it
    supersedes), `near` is the page it stands beside when no folder holds its type, or always when
    it is that page's `successor`."""
    kind = _page_type(vault, text, page_type)
    if successor and near in vault.pages:
        folder = vault.pages[near].folder
    else:
        folder = _folder_for(vault, kind, near, language_of(text))
    book = vault.book_contents
    if book is not None and not in_folder(f"{folder}/", posixpath.dirname(book)):
        folder = posixpath.dirname(book)  # an mdBook publishes its source folder alone
    # A book's file names are its pages' addresses: small letters joined by hyphens, unless its pages
    # say otherwise. A title beside a name no title can be (a NUL is refused in one): "x" is a title too.
    joined = hyphenated(vault, folder) or ("lower" if book is not None else "")
    path = target_path(vault, folder + "/\0.md" if folder else "\0.md", file_name(title, joined))
    if fold(path) in {fold(p) for p in vault.pages} or (vault.root / path).exists():
        raise EditError(f"{path} exists already: remember the text into it, or say in the text what is new")
    # A second page of a name takes the links to the first ([[Name]] goes to the nearest of two).
    named = (
        vault.resolver.titles().get(fold(title))
        or vault.resolver.titled(title)  # basic-memory's `title:`
        or [
            p
            for p, page in vault.pages.items()
            if has_aliases(page.frontmatter) and fold(title) in map(fold, page.aliases)
        ]
    )
    if named:
        raise EditError(
            f"{named[0]} is named {title!r} already, and a second page so named would take its links:"
            " remember the text into it, or give the new page another title"
        )
    alone = H1.fullmatch(text.strip())
    # A text that is its heading alone: the page's own heading says it.
    body = "" if alone is not None and fold(alone.group(1)) == fold(title) else linked(vault, text, path).strip()
    if body and "\n" not in body and keeps_observations(vault):  # one more page of basic-memory's observations
        body = f"## {HEADING}\n{observation(body, tells_occasion(body))}"
    # An mdBook prints a page's frontmatter as text: its pages have none, and a page of it none.
    # A basic-memory vault's links name a page's `title:`, and its pages carry a `permalink:`.
    own = f"title: {yaml_scalar(title)}\npermalink: {_permalink(vault, path)}\n" if vault.resolver.named_title else ""
    header = new_header(kind, kept, source, own) if book is None else ""
    return path, f"{header}# {title}\n\n{body}\n" if body else f"{header}# {title}\n"


def _permalink(vault: Vault, path: str) -> str:
    """A new page's basic-memory permalink: its path as the vault's pages give theirs, in small
    letters joined by hyphens, after the prefix most of them carry (`malus/`)."""
    prefixes = Counter(
        permalink[: -len(stem)]
        for page in vault.pages.values()
        if (permalink := page.permalink) and (stem := _slug(page.path[:-3])) and permalink.endswith(stem)
    )
    prefix = prefixes.most_common(1)[0][0] if prefixes else ""
    return prefix + _slug(path[:-3])


def _slug(path: str) -> str:
    return "/".join("-".join(re.findall(r"[^\W_]+", part.lower())) for part in path.split("/"))


def hyphenated(vault: Vault, folder: str) -> str:
    """How the folder's pages join a name's words, by hyphens or underscores, three or more and all
    but one in ten of them (`name.com` besides), or, in an empty folder, nine in ten of the
    vault's: "lower" in lower case (`pi-hole`, `home-assistant`, or words alone in small letters:
    `strom`, `zugang`), "kept" with their case
    (`Wazuh-SIEM`, `NAS-Synology`), "lower_" and "kept_" by underscores (`vm102_docker_host`);
    "" when they do not."""
    # MEMORY.md and an mdBook's SUMMARY.md are no names of theirs
    pages = [page for page in vault.pages.values() if page.path not in (vault.index_page, vault.book_contents)]
    in_folder = [page.name for page in pages if page.folder == folder and page.name == page.title]
    own = [name for name in in_folder if fold(name) not in INDEX_NAMES]  # a README's name tells no way
    if 0 < len(own) < 3:  # a page or two: the vault's way, when they are named so too
        style = _joined([page.name for page in pages], 5, 0.9)
        return style if all(file_name(name, style) == name for name in own) else ""
    return _joined(
        in_folder or [page.name for page in pages], *((3, 1.0) if in_folder and len(in_folder) < 10 else (5, 0.9))
    )


def _joined(names: list[str], least: int, share: float) -> str:
    """`hyphenated` of these names: `least` of them or more, `share` of them joined alike."""
    if len(names) < least:
        return ""
    for joiner in "-_":
        joined = [n for n in names if re.fullmatch(rf"[^\W_]+(?:{joiner}[^\W_]+)*", n)]
        # Words of small letters alone (`strom`, `zugang`, `feuerlöscher`) are joined by hyphens when joined.
        lower_words = joiner == "-" and all(n == n.lower() for n in joined)
        if len(joined) < share * len(names) or not (lower_words or any(joiner in n for n in joined)):
            continue
        style = "_" if joiner == "_" else ""
        if len([n for n in joined if n == n.lower()]) >= share * len(names):
            return f"lower{style}"
        # `Wazuh-SIEM`, not `Notes` alone
        return f"kept{style}" if any(joiner in n and n != n.lower() for n in joined) else ""
    return ""


def file_name(title: str, hyphenated: str) -> str:
    """The title, or its words joined by hyphens or underscores in a folder so named (`uptime-kuma`,
    `APC-Back-UPS`, `docker_host`: `hyphenated`); never a name a folder's own page has, nor for a
    title of signs ("C++")."""
    if not hyphenated or re.search(r"[^\w\s.'’()-]", title):  # "C++" stays
        return title
    cased = title.lower() if hyphenated.startswith("lower") else title
    composed = unicodedata.normalize("NFC", cased)  # "İ" lower is "i" and a dot above
    joiner = "_" if hyphenated.endswith("_") else "-"
    slug = joiner.join(WORD.findall("".join(ch for ch in composed if not unicodedata.combining(ch))))
    return slug if slug and fold(slug) not in INDEX_NAMES else title


def _folder_for(vault: Vault, page_type: str, near: str | None, language: str) -> str:
    """The folder most pages of this type live in; in a vault without types, the folder of the
    page nearest in subject (a note on hash tables beside the other data-structure notes); else
    the folder nine in ten pages or more lie in when none lies at the root, or the root."""
    counts: dict[str, int] = {}
    for page in vault.pages.values():
        if page.frontmatter.get("type") == page_type:
            counts[page.folder] = counts.get(page.folder, 0) + 1
    if counts:
        return max(counts, key=lambda f: (counts[f], f))
    if near in vault.pages:
        return vault.pages[untranslated(vault, near, language)].folder
    # The folder an agent's index keeps its topic files in ("Search topic files under `memory/`").
    if (topics := topics_folder(vault)) is not None:
        return topics
    # A docs site keeps its pages in one folder (`docs/`): a page at the root would not be published.
    # The repository's own README, LICENSE or CHANGELOG beside it are no pages of the site.
    at_root = [p for p in vault.pages if "/" not in p and not p.lower().startswith(REPOSITORY_FILES)]
    tops = Counter(p.split("/", 1)[0] for p in vault.pages if "/" in p)
    top, held = tops.most_common(1)[0] if tops else ("", 0)
    return top if not at_root and held * 10 >= 9 * (tops.total() + len(at_root)) else ""


def untranslated(vault: Vault, path: str, language: str) -> str:
    """The page `path` translates when it stands in a language's folder (`en/x/page.md`) beside its
    original (`x/page.md`) and the text is in another language: a German memory belongs on the
    German original, not on its English copy; else `path`. A folder of translations holds copies
    of the pages outside it, word for word or in its language ("db/", "it/" of other pages do not)."""
    top, _, rest = path.partition("/")
    code = top.lower()[:2]
    if rest not in vault.pages or not _LANGUAGE_FOLDER.fullmatch(top) or code == language:
        return path
    inside = [p for p in vault.pages if p.startswith(f"{top}/")]
    twins = sorted(p for p in inside if p.partition("/")[2] in vault.pages)
    copies = sum(_copy_of(vault, p, p.partition("/")[2], code) for p in twins[:_SAMPLED])
    translations = len(twins) * 2 >= len(inside) and copies >= 2 and copies * 2 >= min(len(twins), _SAMPLED)
    return rest if translations and _copy_of(vault, path, rest, code) else path


# Languages whose folder names are no department's or program's too ("it", "hr", "go" are).
_UNTOLD = frozenset("fr es pt nl pl ru ja zh ko sv da nb fi cs tr uk ar el hu ro".split())
_SAMPLED = 12  # twins read to tell a folder of translations: enough, and cheap in a folder of thousands


def _copy_of(vault: Vault, copy: str, original: str, code: str) -> bool:
    """Whether `copy` says what `original` says: the same text under its header, or a text in the
    folder's language where the original's is in another."""
    mine, theirs = (_body(vault.text_of(p)) for p in (copy, original))
    if mine == theirs:
        return True
    said, original_said = language_of(mine), language_of(theirs)
    # A language curator does not tell (pt, fr) reads as none: a folder named for one, its pages in
    # none of curator's, beside originals in one of them.
    return said == code != original_said or (code in _UNTOLD and not said and original_said != "")


def _body(text: str) -> str:
    return text[split_frontmatter(text)[2] :].strip()
