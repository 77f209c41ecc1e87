"""Findings: what is wrong with a vault, each with a place, a message and a stable fingerprint.

Findings only read. Each rule is a generator of `Hit`s; `check_vault` gives them severities from
the config and fingerprints that survive unrelated edits (no line numbers in them).
"""

from __future__ import annotations

import contextlib
import re
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from curator.core.common.fast import sha1
from curator.core.common.rules import Finding
from curator.core.read.page import Page, title_of
from curator.core.read.resolve import anchor_key, fold
from curator.core.read.titles import diary_title
from curator.core.read.vault import ResolvedLink, Vault

if TYPE_CHECKING:
    from curator.core.meaning.similarity import SimilarReport


class Hit(NamedTuple):
    """A rule's raw result; `key` tells it apart from other hits of the rule on the same page."""

    rule: str
    path: str
    message: str
    key: str = ""
    line: int | None = None
    column: int | None = None
    data: dict[str, Any] | None = None


def fingerprint(rule: str, path: str, key: str) -> str:
    return sha1(f"{rule}\0{path}\0{key}".encode()).hexdigest()[:16]


def check_vault(vault: Vault, similar: SimilarReport | None = None) -> list[Finding]:
    """Every finding of every enabled rule, sorted by page, line and rule.

    `similar` is the embedding model's report for the opt-in `similar` rule; without it, it is
    computed when that rule is on.
    """
    if similar is None and vault.config.severity("similar") is not None:
        from curator.core.meaning.similarity import find_similar

        similar = find_similar(vault)
    hits = [hit for rule_check in RULES for hit in rule_check(vault)]
    if similar is not None:
        hits.extend(rule_similar(similar))
    return findings_of(vault, hits)


def with_similar(vault: Vault, findings: list[Finding], similar: SimilarReport) -> list[Finding]:
    """`findings` (checked without the model's report) plus the `similar` findings, in order."""
    return sorted([*findings, *findings_of(vault, list(rule_similar(similar)))], key=_order)


def _order(f: Finding) -> tuple[str, int, int, str]:
    return (f.path, f.line or 0, f.column or 0, f.rule)


def findings_of(vault: Vault, hits: list[Hit]) -> list[Finding]:
    """Hits as findings: severity from the config (off rules dropped), fingerprints, sorted."""
    config = vault.config
    findings: list[Finding] = []
    seen: Counter[tuple[str, str, str]] = Counter()
    for hit in hits:
        severity = config.severity(hit.rule)
        if severity is None:
            continue
        # The same rule, page and key twice (the same dead link written twice) stays distinct.
        nth = seen[(hit.rule, hit.path, hit.key)]
        seen[(hit.rule, hit.path, hit.key)] += 1
        key = hit.key if nth == 0 else f"{hit.key}\0{nth}"
        findings.append(
            Finding(
                hit.rule,
                severity,
                hit.path,
                hit.line,
                hit.column,
                hit.message,
                fingerprint(hit.rule, hit.path, key),
                hit.data or {},
            )
        )
    findings.sort(key=_order)
    return findings


def _written(rl: ResolvedLink) -> str:
    link = rl.link
    anchor = f"#{link.anchor}" if link.anchor is not None else ""
    if link.syntax == "markdown":
        return f"[{link.label or ''}]({link.target}{anchor})"
    label = f"|{link.label}" if link.label is not None else ""
    return f"{'!' if link.embed else ''}[[{link.target}{anchor}{label}]]"


def _readable(vault: Vault, path: str) -> Page | None:
    page = vault.pages.get(path)
    return page if page is not None and page.unreadable is None else None


def _placeholder(target: str) -> bool:
    """A template's placeholder ([[{{date}}]], [[<% tp.file.title %> Outline]]): a page only once filled in."""
    return any(opener in target and closer in target[target.index(opener) :] for opener, closer in _PLACEHOLDERS)


_PLACEHOLDERS = (("{{", "}}"), ("<%", "%>"))


def rule_dead_links(vault: Vault) -> Iterator[Hit]:
    dead = [rl for rl in vault.links if rl.resolution.kind == "dead" and not _placeholder(rl.link.target)]
    targets = {rl.link.target for rl in dead if not rl.resolution.alias_of}
    suggestions = _did_you_mean(vault, targets)
    if targets - suggestions.keys():  # not a typo: the same words in other forms ("Zertifikats-Erneuerung")?
        from curator.core.meaning.samewords import same_words

        suggestions.update(same_words(vault, targets - suggestions.keys()))
    for rl in dead:
        link, res = rl.link, rl.resolution
        shown = _written(rl)
        data: dict[str, Any] = {"target": link.target}
        if res.outside:
            message = f"dead link {shown}: it points outside the vault"
        elif res.alias_of:
            owner = res.alias_of[0]
            title = vault.pages[owner].title
            fix = f"[[{title}|{link.target}]]"
            message = (
                f"dead link {shown}: {link.target!r} is an alias of {owner}, "
                f"and Obsidian does not follow aliases; write {fix}"
            )
            data.update(alias_of=list(res.alias_of), fix=fix)
        else:
            message = f"dead link {shown}: no page or file is named {link.target!r}"
            guess = suggestions.get(link.target)
            if guess:
                message += f"; did you mean [[{guess}]]?"
                data["did_you_mean"] = guess
        rule = "dead-link"
        if link.key:  # a typed edge of the frontmatter (`related: "[[X]]"`): its own rule
            data["key"] = link.key
            rule = "relation-dead"
            message = f"{link.key}: {message.removeprefix('dead link ')}"
        yield Hit(rule, rl.source, message, f"{link.syntax}:{link.target}", link.line, link.column, data)


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


def rule_relation_cycles(vault: Vault) -> Iterator[Hit]:
    """A page broader than itself (or part of itself) through a chain of typed edges."""
    from curator.core.read.relations import Relations

    if vault.config.severity("relation-cycle") is None or not any(rl.link.key for rl in vault.links):
        return
    for kind, cycle in Relations.of(vault).cycles():
        chain = " → ".join(vault.pages[p].title for p in [*cycle, cycle[0]])
        message = f"{kind} cycle: {chain} (a page {kind.replace('_', ' ')} itself through {len(cycle)} pages)"
        key = f"{kind}:{'|'.join(sorted(cycle))}"
        yield Hit("relation-cycle", cycle[0], message, key, data={"kind": kind, "pages": cycle})


def _did_you_mean(vault: Vault, targets: set[str]) -> dict[str, str]:
    """The closest page title to each dead target, when one is close enough to be a typo.

    Only titles that can score `_NEAR` are compared: the same first character (a typo rarely hits
    the first letter) and a length near the target's (a ratio counts every character one string
    has more than the other). Ties between equally close titles go to the shortest, then the first
    in alphabetical order.
    """
    if not targets or not vault.pages:
        return {}
    from rapidfuzz import fuzz, process  # loaded only when there is a dead link to match

    by_initial: dict[str, list[tuple[str, list[str]]]] = defaultdict(list)  # initial -> (folded title, pages)
    for key, paths in vault.resolver.titles().items():  # titles the resolver has folded already
        if key:
            by_initial[key[0]].append((key, paths))
    keys: dict[str, list[str]] = {}
    lengths: dict[str, list[int]] = {}
    for initial, group in by_initial.items():
        group.sort()  # by title (each title once), then by length: a stable sort keeps titles in order
        group.sort(key=_title_length)
        keys[initial] = [key for key, _ in group]
        lengths[initial] = [len(key) for key in keys[initial]]
    # Queries of one initial and length compare with the same titles: (initial, length) -> (query, target).
    queries: dict[tuple[str, int], list[tuple[str, str]]] = defaultdict(list)
    for target in targets:
        query = fold(_name(target))
        if query[:1] in by_initial:
            queries[query[:1], len(query)].append((query, target))
    windows = {(initial, n): _length_window(lengths[initial], n) for initial, n in queries}
    found: dict[str, list[str]] = {}  # target -> the pages of the closest title
    # Few comparisons: one lookup each, with no numpy import (~35 ms); many: a parallel matrix.
    matrix = sum(len(queries[at]) * (hi - lo) for at, (lo, hi) in windows.items()) >= _MATRIX_MIN
    for (initial, n), asked in queries.items():
        lo, hi = windows[initial, n]
        titles, candidates = by_initial[initial], keys[initial][lo:hi]
        if not candidates:
            continue
        if not matrix:
            for query, target in asked:
                match = process.extractOne(query, candidates, scorer=fuzz.ratio, score_cutoff=_NEAR)
                if match is not None:
                    found[target] = titles[lo + match[2]][1]
            continue
        scores = process.cdist(
            [query for query, _ in asked], candidates, scorer=fuzz.ratio, score_cutoff=_NEAR, dtype="uint8", workers=-1
        )
        for (_, target), row in zip(asked, scores, strict=True):
            best = int(row.argmax())
            if row[best] >= _NEAR:
                found[target] = titles[lo + best][1]
    # A title as written (of the first page, by name, when several share it).
    guesses = {target: min(vault.pages[p].title for p in paths) for target, paths in found.items()}
    return {target: guess for target, guess in guesses.items() if _typo(fold(_name(target)), fold(guess))}


def _name(target: str) -> str:
    return target.rsplit("/", 1)[-1].removesuffix(".md")


_DIGITS = re.compile(r"\d+")


def _typo(written: str, title: str) -> bool:
    """Whether `title` is `written` with a typo in it: the same numbers (2022-W49 is not 2022-W34,
    CS2106 not CS2100) and at most one slip of a key per eight characters (Spark SQL is not Spark ML)."""
    from rapidfuzz.distance import DamerauLevenshtein

    if _DIGITS.findall(written) != _DIGITS.findall(title):
        return False
    return DamerauLevenshtein.distance(written, title) <= max(1, len(written) // 8)


def _title_length(title: tuple[str, list[str]]) -> int:
    return len(title[0])


def _length_window(lengths: list[int], length: int) -> tuple[int, int]:
    """The slice of `lengths` (sorted) a string of `length` characters can score `_NEAR` with:
    a ratio is at most 100 * (1 - |n - m| / (n + m)) for lengths n and m (one more on each side
    for rounding)."""
    shortest = length * _NEAR // (200 - _NEAR) - 1
    longest = length * (200 - _NEAR) // _NEAR + 1
    return bisect_left(lengths, shortest), bisect_right(lengths, longest)


_NEAR = 80
_MATRIX_MIN = 1_000_000  # comparisons; measured: lookups cost ~0.04 µs each, a matrix ~6x less


def rule_ambiguous_links(vault: Vault) -> Iterator[Hit]:
    from curator.core.change.edits import explicit_target  # the name the fix writes

    for rl in vault.links:
        candidates = rl.resolution.candidates
        if len(candidates) < 2:
            continue
        chosen = rl.resolution.path or candidates[0]
        explicit = explicit_target(vault.resolver, rl.source, chosen, False) if chosen.endswith(".md") else chosen
        message = (
            f"{_written(rl)} could mean {len(candidates)} pages ({', '.join(candidates[:4])}"
            f"{', …' if len(candidates) > 4 else ''}); the nearest, {chosen}, wins: write [[{explicit}]] to say so"
        )
        yield Hit(
            "ambiguous-link",
            rl.source,
            message,
            rl.link.target,
            rl.link.line,
            rl.link.column,
            {"target": rl.link.target, "candidates": list(candidates), "chosen": chosen},
        )


def rule_broken_anchors(vault: Vault) -> Iterator[Hit]:
    for rl in vault.links:
        anchor = rl.link.anchor
        if not anchor or rl.resolution.kind != "page" or rl.resolution.path is None:
            continue
        target = _readable(vault, rl.resolution.path)
        if target is None:
            continue
        if anchor.startswith("^"):
            block = anchor[1:].casefold()
            if any(b.casefold() == block for b in target.block_ids):
                continue
            what = f"block ^{anchor[1:]}"
        else:
            heading = anchor.split("#")[-1]
            if any(h.text == heading for h in target.headings):  # as written: no need to compare loosely
                continue
            wanted = anchor_key(heading)
            if not wanted or any(anchor_key(h.text) == wanted for h in target.headings):
                continue
            what = f"heading {anchor!r}"
        yield Hit(
            "broken-anchor",
            rl.source,
            f"{_written(rl)}: {target.path} has no {what}",
            f"{rl.link.target}#{anchor}",
            rl.link.line,
            rl.link.column,
            {"target": rl.resolution.path, "anchor": anchor},
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

    return vault.once("findings.between_pages", make)


def rule_orphans(vault: Vault) -> Iterator[Hit]:
    linked_to, links_out = _between_pages(vault)
    templates = vault.templates  # a template is copied from, never linked to
    for path, page in vault.pages.items():
        # A page that could not be read may well link out; only its readers can tell.
        if path not in linked_to and path not in links_out and page.unreadable is None and path not in templates:
            yield Hit("orphan", path, "orphan: no page links here and this page links to no page")


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


def rule_diary_titles(vault: Vault) -> Iterator[Hit]:
    config = vault.config
    limit = config.title_chars
    daily = vault.daily_notes
    for path, page in vault.pages.items():
        if path in daily or page.drawing or path in vault.templates:
            continue  # a daily note's dated title is meant; a drawing's name is the plugin's
        title = title_of(path)
        found = diary_title(title, limit)
        if found is not None:
            yield Hit(
                "diary-title",
                path,
                f"title names an event, not a thing: {' and '.join(found.reasons)}",
                title,
                data={"title": title, "date": found.date, "length": found.length},
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


def rule_index(vault: Vault) -> Iterator[Hit]:
    index = vault.index_page
    if index is None:
        return
    deep = vault.config.index_deep_page  # entries tiered out of the index are listed there
    listed = {
        rl.resolution.path for page in (index, deep) for rl in vault.outlinks(page) if rl.resolution.kind == "page"
    }
    for path in vault.pages:
        if path not in (index, deep) and path not in listed:
            yield Hit("index-drift", path, f"not listed in the index page {index}", data={"index": index})
    size = vault.pages[index].size
    budget = vault.config.index_budget
    if size > 0.8 * budget:
        yield Hit(
            "index-pressure",
            index,
            f"index page is {size / 1024:.1f} KiB, {100 * size / budget:.0f}% of its {budget / 1024:.0f} KiB load "
            "budget; an agent harness cuts it off at the budget",
            data={"bytes": size, "budget": budget},
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


_DRAWING_DATA = re.compile(r"^#{1,2} Drawing[ \t]*$", re.MULTILINE)  # Excalidraw's heading over its data


def rule_secrets(vault: Vault) -> Iterator[Hit]:
    from curator.core.read.credentials import find_in_texts

    if vault.config.severity("secret") is None:
        return  # it reads pages again: not when it is off
    texts: dict[str, str] = {}
    for page in vault.pages.values():
        if page.unreadable is None and page.maybe_secret:  # the others cannot hold one (checked as read)
            with contextlib.suppress(OSError):
                text = vault.text_of(page.path)
                # A drawing's data (under `# Drawing`) is noise to an entropy test; its text elements are not.
                data = _DRAWING_DATA.search(text) if page.drawing else None
                texts[page.path] = text[: data.start()] if data else text
    for path, found in sorted(find_in_texts(texts).items()):
        for credential in found:
            yield Hit(
                "secret",
                path,
                f"a credential ({credential.kind}) is written here: remove it, and rotate it if it was ever shared",
                credential.kind,
                credential.line,
                1,
                {"kind": credential.kind},
            )


def rule_duplicates(vault: Vault) -> Iterator[Hit]:
    if vault.config.severity("duplicate") is None:
        return
    from curator.core.meaning.duplicates import find

    for found in find(vault):
        yield Hit(
            "duplicate",
            found.page,
            f"duplicate of {found.other}: {'; '.join(found.evidence)}"
            + ("; the same text under two names: edit one to say what its name means" if found.fix == "edit" else ""),
            found.other,
            data={
                "other": found.other,
                "evidence": list(found.evidence),
                "kinds": list(found.kinds),
                "contained": found.contained,
                "fix": found.fix,
            },
        )


def rule_similar(report: SimilarReport) -> Iterator[Hit]:
    for pair in report.pairs:
        evidence = []
        if pair.shared_title_words:
            evidence.append(f"shared title words: {', '.join(pair.shared_title_words)}")
        if pair.shared_neighbours:
            shown = ", ".join(pair.shared_neighbours[:3]) + (", …" if len(pair.shared_neighbours) > 3 else "")
            evidence.append(f"both linked with {shown}")
        message = f"close in meaning to {pair.b} (similarity {pair.score:.2f}): read both before merging"
        if pair.reworded:  # below the threshold, but each page says best what the other says
            message = (
                f"close in meaning to {pair.b}, in other words (similarity {pair.score:.2f}; "
                "every part of each page is closest to the other)"
            )
        if evidence:
            message += "; " + "; ".join(evidence)
        yield Hit(
            "similar",
            pair.a,
            message,
            pair.b,
            data={
                "other": pair.b,
                "score": pair.score,
                "merge_worthy": pair.merge_worthy,
                "reworded": pair.reworded,
                "shared_title_words": list(pair.shared_title_words),
                "shared_neighbours": list(pair.shared_neighbours),
                "provider": report.provider,
            },
        )


RULES: tuple[Callable[[Vault], Iterator[Hit]], ...] = (
    rule_unreadable,
    rule_bad_frontmatter,
    rule_dead_links,
    rule_relation_cycles,
    rule_ambiguous_links,
    rule_broken_anchors,
    rule_orphans,
    rule_stubs,
    rule_diary_titles,
    rule_untyped,
    rule_index,
    rule_status_updates,
    rule_secrets,
    rule_stale,
    rule_duplicates,
)
