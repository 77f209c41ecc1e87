"""The rules about pages themselves: `orphan`, `stub`, `diary-title`, `untyped`, `bad-frontmatter`,
`unreadable` and `bad-encoding`, `status-update` and `stale`, each with its catalogue entry and its
check; the fixes of `untyped` and `orphan` need a choice (curator/core/curate/choices.py asks it)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from curator.core.change.edits import FileChange, Plan, explicit_target
from curator.core.check.hits import Hit
from curator.core.check.index_page import index_line, named_by_path, written_paths
from curator.core.common.errors import EditError
from curator.core.common.rules import Rule
from curator.core.read.page import Page, found_by_name, key_of, tags_of, title_of
from curator.core.read.titles import DiaryTitle, diary_title, names_a_day, own_title
from curator.core.read.vault import Vault

RULES = (
    Rule(
        "orphan",
        "A page with no incoming link and no resolving outgoing link.",
        "Not a page found without one: a template, a page of a dated series (daily notes, dated minutes or "
        "session logs, a memoir's year files), a file an agent's harness loads by its name (`AGENTS.md`, "
        "`CLAUDE.md`, `SOUL.md`, `USER.md`, `TOOLS.md`, `*.prompt.md`) and what a skill's folder holds beside "
        "its `SKILL.md`, a folder's `README` (a forge shows it with the folder), a repository's `CHANGELOG` or "
        "the like at the top, and a page the index page names by its path in its text (`memory/food-log.md`, "
        "or an absolute path ending in its folder and name, as an agent's MEMORY.md writes it; not in its "
        "frontmatter, a comment, fenced code or a web address).",
    ),
    Rule("stub", "A page with too little body text to be worth its title.", "Under `stub_chars` (120)."),
    Rule(
        "diary-title",
        "A title that names an event (it holds a date, or is very long), not a thing.",
        "Dates as ISO, `dd.mm.yyyy`, `dd/mm/yyyy`, `29 Jul 2026`, `July 29, 2026` or with German month names, "
        "or 80+ characters. Daily notes (`[dream] journal_folders`, `.obsidian/`'s, or a folder of five or more "
        "pages 80% of which are titled with a date and at most two more words), drawings and templates are left "
        "alone; a folder of dated posts or incident pages (`2026-08-04-first-person-models`) is reported, but "
        "not a site's post whose frontmatter `title:` names it without a date (its file name is its address).",
    ),
    Rule(
        "untyped",
        "Frontmatter `type` missing or outside the vault's vocabulary.",
        "The vocabulary is the config's `types`, else the default ones and any type three or more pages carry; "
        "only in a vault that uses types (its config names `types`, or a fifth of its pages have a `type`).",
    ),
    Rule(
        "bad-frontmatter",
        "Frontmatter that does not parse as a YAML mapping.",
        "The page is still indexed by its body.",
    ),
    Rule(
        "unreadable",
        "A page or folder that cannot be read: binary, too large, unreadable, or a symlink leaving the vault.",
    ),
    Rule("bad-encoding", "A page that is not valid UTF-8.", "It is read with replacement characters."),
    Rule(
        "status-update",
        "A page that only logs events (merged, deployed, closed) that git holds.",
        "`curator remember` drops such texts; the dream merges them into the page they link to.",
    ),
    Rule(
        "stale",
        "A page many pages link to that nobody has edited for a long time.",
        "`stale_backlinks` (5) links and no edit for `stale_days` (180), by git's last commit; names the `owner`.",
    ),
)


def _between_pages(vault: Vault) -> tuple[dict[str, int], set[str]]:
    """Of the links from one page to another: how many reach each page, and the pages they leave
    (worked out once a load: two rules ask)."""

    def make() -> tuple[dict[str, int], set[str]]:
        incoming: dict[str, int] = {}
        links_out: set[str] = set()
        for source, _, resolution in vault.links:
            path = resolution.path
            if path is not None and path != source and resolution.kind == "page":
                incoming[path] = incoming.get(path, 0) + 1
                links_out.add(source)
        return incoming, links_out

    return vault.once("pages.between_pages", make)


def rule_orphans(vault: Vault) -> Iterator[Hit]:
    linked_to, links_out = _between_pages(vault)
    why = found_otherwise(vault)
    for path, page in vault.pages.items():
        # A page that could not be read may well link out; only its readers can tell.
        if path not in linked_to and path not in links_out and page.unreadable is None and why(path) is None:
            yield Hit("orphan", path, "orphan: no page links here and this page links to no page")


def found_otherwise(vault: Vault) -> Callable[[str], str | None]:
    """Why a page is found without a link, or None: a template (copied from), a page of a dated
    series (found by its date), a file found by its name (an agent's harness loads it, a forge
    shows a folder's README), a page of a skill's folder (its references and assets, read by the
    skill), a page the index names by its path (MEMORY.md's `memory/food-log.md`) or under a
    folder it names so (`memory/lessons/`), and the index naming them."""
    index = vault.index_page
    named = written_paths(vault, index) if index is not None else set()
    by_index = {index, *named} if named else set()
    folders = named_by_path(vault, index)[1] if index is not None else ()
    # A SKILL.md says the skill's name and what it does, in its frontmatter or its text: a stub of
    # that name is none; nor is the vault's top one skill.
    skills = tuple(path[: -len("SKILL.md")] for path, page in vault.pages.items() if _a_skill(vault, page))

    def why(path: str) -> str | None:
        if path in vault.templates:
            return "template"
        if path in vault.daily_notes:
            return "dated series"
        if found_by_name(path):
            return "found by name"
        if skills and path.startswith(skills):
            return "a skill's folder"
        if path in by_index or (folders and path.startswith(folders)):
            return "named by the index"
        return None

    return why


def _a_skill(vault: Vault, page: Page) -> bool:
    said = bool(page.frontmatter.get("name") or page.frontmatter.get("description"))
    return page.path.endswith("/SKILL.md") and (said or page.body_chars >= vault.config.stub_chars)


def rule_stubs(vault: Vault) -> Iterator[Hit]:
    limit = vault.config.stub_chars
    templates = vault.templates  # short by design: the page written from it says the rest
    for page in vault.pages.values():
        if page.unreadable is None and page.body_chars < limit and page.path not in templates:
            yield Hit(
                "stub",
                page.path,
                f"stub: {page.body_chars} characters of body text (fewer than {limit})",
                data={"chars": page.body_chars},
            )


def diary_titled(vault: Vault) -> dict[str, DiaryTitle]:
    """The pages whose title reads as a diary entry's or a sentence, and how: what `diary-title`
    reports and the dream proposes to rename."""
    config = vault.config
    limit = config.title_chars
    daily = vault.daily_notes
    titled: dict[str, DiaryTitle] = {}
    for path, page in vault.pages.items():
        if path in daily or page.drawing or path in vault.templates:
            continue  # a daily note's dated title is meant; a drawing's name is the plugin's
        title = _title(vault, path)
        found = diary_title(own_title(title, config.hierarchy), limit)
        days_log = names_a_day(title) and _tagged_daily(page)  # a day's log outside the daily folder
        if found is None or (found.date and (_a_post(title, page.frontmatter, limit) or days_log)):
            continue
        if not found.date and _names_a_work(vault, page, title):
            continue
        titled[path] = found
    return titled


def _tagged_daily(page: Page) -> bool:
    """Whether the page is tagged a daily note (`daily`, `Type/Daily`, `journal/daily`): its date is its name."""
    return any(
        str(tag).lstrip("#").casefold().rsplit("/", 1)[-1] in ("daily", "daily-note")
        for tag in tags_of(page.frontmatter)
    )


_WORK_KEYS = ("url", "source", "source_url", "link")  # where Readwise, web clippers and templates keep it
# A line that gives a link and little else: "> - *[Title (youtube.com)](https://...)*", "URL: [...](...)".
_LINK_LINE = re.compile(r"[\s>*_+-]*(?:[\w ]{0,12}:\s*)?[*_]*\[([^\]\n]{8,})\]\(https?://[^)\s]+\)[*_.\s]*")


def _names_a_work(vault: Vault, page: Page, title: str) -> bool:
    """Whether the page is named after a work it saves (an article, a video, a paper: Readwise's,
    a web clipper's): its frontmatter gives the work's address, or a line of its first ones gives
    a link and little else, labelled with the title's words. Such a title is the work's, long or not."""
    for name in _WORK_KEYS:
        key = key_of(page.frontmatter, (name,))
        if key is not None and str(page.frontmatter[key]).startswith(("http://", "https://")):
            return True
    words = set(re.findall(r"\w+", title.casefold()))
    for line in vault.text_of(page.path).splitlines()[:20]:
        found = _LINK_LINE.fullmatch(line)
        if found and len(words & set(re.findall(r"\w+", found.group(1).casefold()))) >= 0.8 * len(words):
            return True
    return False


def _title(vault: Vault, path: str) -> str:
    """The name a page goes by: its `title:` where links name pages by it (basic-memory), else its file's."""
    return vault.resolver.named_title.get(path) or title_of(path)


def rule_diary_titles(vault: Vault) -> Iterator[Hit]:
    for path, found in diary_titled(vault).items():
        title = _title(vault, path)
        yield Hit(
            "diary-title",
            path,
            f"{'title names an event, not a thing' if found.date else 'title reads as a sentence, not a name'}: "
            f"{' and '.join(found.reasons)}",
            title,
            data={"title": title, "date": found.date, "length": found.length},
        )


# A site's post (Jekyll's `_posts/2021-01-11-council-of-mentors.md`): its date is its address.
_POST_NAME = re.compile(r"(?:19|20)\d\d-[01]\d-[0-3]\d-[^/]+")


def _a_post(title: str, frontmatter: dict[str, object], limit: int) -> bool:
    """Whether the page is a site's post named by its date, whose frontmatter `title:` names it
    without one ("Council of Mentors"): the name a reader sees is no diary title."""
    shown = frontmatter.get("title")
    return bool(
        _POST_NAME.fullmatch(title) and isinstance(shown, str) and shown.strip() and not diary_title(shown, limit)
    )


TYPED_SHARE = 0.2  # a vault whose config names no types uses them when this share of its pages have one


def rule_untyped(vault: Vault) -> Iterator[Hit]:
    vocabulary = vault.types
    allowed = {t.casefold() for t in vocabulary}
    listed = ", ".join(vocabulary)
    index = vault.index_page
    pages = [
        page
        for page in vault.pages.values()
        if page.unreadable is None
        and page.frontmatter_error is None
        and page.path != index
        and page.path not in vault.templates  # its `type` is the placeholder its pages fill in
    ]
    if not vault.config.types_configured:  # a wiki or a docs vault has no types: nothing to report
        typed = sum(1 for page in pages if page.frontmatter.get("type") not in (None, ""))
        if typed < TYPED_SHARE * len(pages):
            return
    for page in pages:
        value = page.frontmatter.get("type")
        if value is None or (isinstance(value, str) and not value.strip()):
            yield Hit("untyped", page.path, f"untyped: no `type` in the frontmatter (one of {listed})")
        elif not isinstance(value, str) or value.strip().casefold() not in allowed:
            yield Hit(
                "untyped",
                page.path,
                f"untyped: type {value!r} is not in the vocabulary ({listed}); what fits nothing is `topic`",
                data={"type": value},
            )


def rule_bad_frontmatter(vault: Vault) -> Iterator[Hit]:
    for page in vault.pages.values():
        # A template's placeholders (`created: {{date}}`, `<% tp.date.now() %>`) are filled in before it is YAML.
        if page.frontmatter_error and page.path not in vault.templates:
            yield Hit(
                "bad-frontmatter",
                page.path,
                f"{page.frontmatter_error}; the page is indexed by its body only",
                line=page.frontmatter_error_line,
                column=1 if page.frontmatter_error_line else None,
            )


def rule_unreadable(vault: Vault) -> Iterator[Hit]:
    for problem in vault.problems:
        yield Hit("unreadable", problem.path, problem.reason)
    for page in vault.pages.values():
        if page.unreadable:
            yield Hit("unreadable", page.path, page.unreadable)
        elif page.bad_encoding:
            yield Hit("bad-encoding", page.path, "not valid UTF-8: read with replacement characters (save it as UTF-8)")


def rule_status_updates(vault: Vault) -> Iterator[Hit]:
    """Pages that only log events (merged, deployed, closed ... with a ticket, version or date)."""
    for page in vault.pages.values():
        if page.status_update and page.path != vault.index_page:
            yield Hit(
                "status-update",
                page.path,
                "status update: it only logs an event (git or the tracker holds it); "
                "merge what lasts into the page of its thing, or drop it",
            )


def rule_stale(vault: Vault) -> Iterator[Hit]:
    """Pages many links lead to that nobody has edited for `stale_days` (git's last commit, else
    the file's time), with their `owner` named when the frontmatter has one."""
    config = vault.config
    if config.severity("stale") is None:
        return
    incoming, _ = _between_pages(vault)
    linked = sorted(p for p, count in incoming.items() if count >= config.stale_backlinks and p in vault.pages)
    if not linked:
        return
    from curator.core.read.age import age_days

    ages = age_days(vault, paths=linked)
    for path in linked:
        days = int(ages[path])
        if days < config.stale_days:
            continue
        owner = vault.pages[path].frontmatter.get("owner")
        owners = ", ".join(str(o) for o in owner) if isinstance(owner, list) else str(owner or "")
        ask = f"ask its owner {owners} to review it" if owners else "review it (it names no owner)"
        message = f"stale: {incoming[path]} links lead here and it was last edited {days} days ago; {ask}"
        data = {"backlinks": incoming[path], "days": days, "owner": owners or None}
        yield Hit("stale", path, message, data=data)


# Fixes that need a choice (the TUI asks, then plans with the answer).


def plan_type(vault: Vault, path: str, value: str) -> Plan:
    """Set the page's frontmatter `type` to `value` (one of the vault's types)."""
    from curator.core.change.frontmatter_edit import set_scalar

    if value not in vault.types:
        raise EditError(f"{value!r} is not one of the vault's types ({', '.join(vault.types)})")
    before = (vault.root / path).read_bytes()
    after = set_scalar(before.decode("utf-8"), "type", value, path).encode("utf-8")
    return Plan("fix", f"Type {path} as {value}", (FileChange(path, before, after),), {}, 0, (), {"path": path})


def link_from_choices(vault: Vault, orphan: str, limit: int = 5) -> list[str]:
    """The pages an orphan could be linked from: the index page, then those search finds most
    like it (by its title and first words)."""
    from curator.core.meaning.search import search

    page = vault.pages[orphan]
    query = " ".join([page.title, *vault.text_of(orphan).split()[:30]])
    index = vault.index_page
    hits = [h.path for h in search(vault, query, limit=limit * 3).hits if h.path not in (orphan, index)]
    # never another orphan, nor an empty page (a note not written yet: no reader passes through it)
    linked = [p for p in hits if vault.pages[p].body_chars and any(rl.source != p for rl in vault.backlinks(p))]
    return ([index] if index and index != orphan else []) + linked[:limit]


def plan_link_from(vault: Vault, orphan: str, source: str) -> Plan:
    """Link `orphan` from `source`: a line in the index page's best section, or a "See also" line
    at the end of any other page."""
    if source == vault.index_page:
        found = index_line(vault, orphan, vault.pages[orphan].title)
        if found is None:
            raise EditError(f"{orphan} cannot be listed in {source}")
        _, offset, entry = found
    else:
        text = vault.text_of(source)
        newline = "\r\n" if "\r\n" in text else "\n"
        offset = len(text)
        name = explicit_target(vault.resolver, source, orphan, False)
        entry = ("" if not text or text.endswith("\n") else newline) + f"{newline}See also [[{name}]].{newline}"
    before = (vault.root / source).read_bytes()
    text = before.decode("utf-8")
    after = (text[:offset] + entry + text[offset:]).encode("utf-8")
    reason = f"Link {orphan} from {source}"
    return Plan("fix", reason, (FileChange(source, before, after),), {}, 1, (), {"path": source})
