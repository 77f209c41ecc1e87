"""The dream pass: propose renames for event-style titles and merges for near-duplicates.

It only proposes. Suggestions live in `VAULT/.curator/suggestions.json` with stable ids and a
status; accepting one goes through the edit engine (journaled, undoable), and a rejected one is
not proposed again while its pages stay as they are.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shlex
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from curator.core.change.changes import own_repository, plan_and_apply
from curator.core.change.edits import Plan, plan_diff, plan_rename, target_path
from curator.core.change.journal import Entry, by_id_prefix
from curator.core.change.merging import plan_merge
from curator.core.check.pages import diary_titled
from curator.core.common.errors import EditError
from curator.core.common.names import name_problem
from curator.core.curate.handed import written_by_person
from curator.core.curate.suggestions import Suggestion, load_suggestions, save_suggestions, suggestion_id
from curator.core.meaning.distinct import STOPWORDS
from curator.core.meaning.duplicates import Duplicate, kept_of
from curator.core.meaning.duplicates import find as find_duplicates
from curator.core.read.parse import split_frontmatter
from curator.core.read.resolve import fold
from curator.core.read.titles import diary_title, in_place_of, is_eventish, only_kinds, own_title, subject_of
from curator.core.read.vault import Vault
from curator.core.state.lock import vault_lock

if TYPE_CHECKING:
    from curator.core.curate.remember import Proposal
    from curator.core.state.config import Config

PROPOSER_SCHEMA = "curator.proposer/1"
_TERM = re.compile(r"[^\W\d_][\w-]{3,}", re.UNICODE)


@dataclass
class DreamResult:
    suggestions: list[Suggestion]  # every stored suggestion, this run's first
    proposed: list[Suggestion]  # new or renewed this run
    looked_at: int
    notes: list[str] = field(default_factory=list)


def _incoming(vault: Vault, path: str) -> int:
    return len(vault.backlinks(path))


def _why_event(vault: Vault, title: str) -> str:
    found = diary_title(own_title(title, vault.config.hierarchy), vault.config.title_chars)
    if found is not None and found.date:
        return f"the title holds a date ({found.date}) and names one event"
    if found is not None:
        return f"the title is {found.length} characters long, a sentence rather than a name"
    return "the title names an event"


def signals(vault: Vault, path: str) -> dict[str, Any]:
    """Everything that hints at what a page is about: H1, inbound labels, aliases, key terms."""
    page = vault.pages[path]
    h1 = next((h.text for h in page.headings if h.level == 1), "")  # a section heading names a part, not the page
    labels = Counter(
        rl.link.label.strip()
        for rl in vault.backlinks(path)
        if rl.link.label and rl.link.label.strip() and fold(rl.link.label) != fold(page.title)
    )
    text = vault.text_of(path)
    _, _, body_at = split_frontmatter(text)
    words = [w for w in _TERM.findall(text[body_at:]) if fold(w) not in STOPWORDS]
    terms = Counter(fold(w) for w in words)
    return {
        "h1": h1,
        "labels": [label for label, _ in labels.most_common()],
        "aliases": list(page.aliases),
        "key_terms": [term for term, count in terms.most_common(5) if count > 1],
    }


def derive_title(vault: Vault, path: str) -> tuple[str, str, dict[str, Any]]:
    """(proposed title, which signal it came from, the signals); title "" when none names a thing."""
    page = vault.pages[path]
    found = signals(vault, path)
    h1 = found["h1"]
    ordered: list[tuple[str, str]] = []
    if h1 and subject_of(h1) == h1.strip() and not is_eventish(h1):
        ordered.append(("the page's heading", h1.strip()))  # a heading that names a thing as it is
    ordered += [("how links to it are labelled", subject_of(label)) for label in found["labels"]]
    ordered += [("its alias", subject_of(alias)) for alias in found["aliases"]]
    if h1:  # written by the author as words, where a file name is often a slug
        ordered.append(("its heading without the event", subject_of(h1)))
    ordered.append(("its title without the event", subject_of(page.title)))
    for source, candidate in ordered:  # a heading or a label may hold what no file name can
        usable = len(candidate) >= 3 and name_problem(candidate, ".md") is None and not only_kinds(candidate)
        if usable and not is_eventish(candidate) and fold(candidate) != fold(page.title):
            return candidate, source, found
    return "", "", found


def written_by_hand(vault: Vault, path: str) -> str:
    """What a reason says of a page a person wrote (`source: manual`), which curator only changes
    when someone accepts it knowing that."""
    return f" ({path} was written by hand: source manual)" if written_by_person(vault, path) else ""


def _rename_suggestion(vault: Vault, path: str, duplicates: dict[str, Duplicate]) -> Suggestion | None:
    page = vault.pages[path]
    title, source, found = derive_title(vault, path)
    title = in_place_of(page.title, title, vault.config.hierarchy) if title else title
    why = _why_event(vault, page.title)
    links = _incoming(vault, path)
    partner = duplicates.get(path)
    existing = vault.resolver.titles().get(fold(title), []) if title else []
    existing = [p for p in existing if p != path]
    evidence: dict[str, Any] = {"signals": found, "chosen_from": source, "links_to_rewrite": links}
    shas = {path: page.sha}
    if existing:  # the thing already has a page: fold this one into it, unless it says more than that page
        into = existing[0]
        if page.body_chars > max(2 * vault.pages[into].body_chars, 2000):
            return None  # a day's log of 70 KB is no news for a MEMORY.md of 4 KB: a person decides
        reason = f"Merge because {why}; {into} already covers {title}{written_by_hand(vault, path)}"
        shas[into] = vault.pages[into].sha
        return Suggestion(
            suggestion_id("merge", [path, into]), "merge", [path, into], None, reason, evidence, page_shas=shas
        )
    if partner is not None and not is_eventish(vault.pages[other := _partner_of(partner, path)].title):
        into = other
        repeats = f"the page repeats {into} ({'; '.join(partner.evidence)})"
        reason = f"Merge because {why} and {repeats}{written_by_hand(vault, path)}"
        evidence["duplicate"] = list(partner.evidence)
        shas[into] = vault.pages[into].sha
        return Suggestion(
            suggestion_id("merge", [path, into]), "merge", [path, into], None, reason, evidence, page_shas=shas
        )
    if not title:
        return None
    collisions = [
        p.path for p in vault.pages.values() if p.path != path and fold(title) in {fold(a) for a in p.aliases}
    ]
    evidence["collisions"] = collisions
    reason = f"Rename because {why}; the page is about {title}{written_by_hand(vault, path)}"
    if collisions:
        reason += f" (note: {', '.join(collisions)} already uses that name as an alias)"
    return Suggestion(suggestion_id("rename", [path]), "rename", [path], title, reason, evidence, page_shas=shas)


def _partner_of(found: Duplicate, path: str) -> str:
    return found.other if found.page == path else found.page


def _merge_suggestion(vault: Vault, found: Duplicate) -> Suggestion:
    """Merge `found.page` into `found.other` (a copy into its original, else the smaller page into
    the larger): a page into the one that holds its text; otherwise links say which name stays."""
    a, b = found.page, found.other
    links_a, links_b = _incoming(vault, a), _incoming(vault, b)
    survivor, why_survivor = kept_of(vault, found, links_a, links_b)
    source = b if survivor == a else a
    reason = (
        f"Merge because the two pages are one: {'; '.join(found.evidence)}; "
        f"{survivor} stays because {why_survivor}{written_by_hand(vault, source)}"
    )
    shas = {source: vault.pages[source].sha, survivor: vault.pages[survivor].sha}
    return Suggestion(
        suggestion_id("merge", [source, survivor]),
        "merge",
        [source, survivor],
        None,
        reason,
        {"evidence": list(found.evidence), "kinds": list(found.kinds), "links": {a: links_a, b: links_b}},
        page_shas=shas,
    )


def _status_updates(vault: Vault) -> list[str]:
    """Pages the `status-update` rule finds (unless the vault turned it off)."""
    from curator.core.check.pages import rule_status_updates

    if vault.config.severity("status-update") is None:
        return []
    return [hit.path for hit in rule_status_updates(vault)]


def _status_suggestion(vault: Vault, path: str, statuses: set[str]) -> Suggestion | None:
    """A status update goes into the page of the thing it names (MERGE), or, naming none and
    needed by no page but the index, is dropped (DROP); when other pages link to it, it stays."""
    from curator.core.change.edits import plan_drop

    index = vault.index_page
    things = {
        rl.resolution.path
        for rl in vault.links
        if rl.source == path and rl.resolution.kind == "page" and rl.resolution.path not in (None, path, index)
    } - statuses
    logs = f"{path} only logs an event (a status update: git or the tracker holds it)"
    if things:
        thing = max(sorted(t for t in things if t is not None), key=lambda t: _incoming(vault, t))
        goes = f"what it says goes into {thing}, the page it is about"
        reason = f"Merge because {logs}; {goes}{written_by_hand(vault, path)}"
        shas = {path: vault.pages[path].sha, thing: vault.pages[thing].sha}
        evidence = {"status_update": path, "links": {t: _incoming(vault, t) for t in sorted(things) if t}}
        return Suggestion(
            suggestion_id("merge", [path, thing]), "merge", [path, thing], None, reason, evidence, page_shas=shas
        )
    reason = f"Drop because {logs}, names no page it belongs to, and no page but the index links to it"
    try:
        plan = plan_drop(vault, path, reason + written_by_hand(vault, path))
    except EditError:
        return None  # linked from pages: it stays (the finding still shows it)
    pages = [c.path for c in plan.changes]
    return Suggestion(
        suggestion_id("drop", [path]),
        "drop",
        [path, *(p for p in pages if p != path)],
        None,
        plan.reason,
        {"status_update": path},
        page_shas={p: vault.pages[p].sha for p in pages if p in vault.pages},
    )


def _ask_proposer(vault: Vault, candidates: list[Suggestion], notes: list[str]) -> None:
    """Let the configured command propose titles; keep the rule-based ones if it fails in any way."""
    notes.extend(vault.config.untrusted)  # a vault's own command that was not run, and why
    command = vault.config.proposer_command
    renames = [s for s in candidates if s.kind == "rename"]
    if not command or not renames:
        return
    request = {
        "schema": PROPOSER_SCHEMA,
        "candidates": [
            {
                "path": s.pages[0],
                "title": vault.pages[s.pages[0]].title,
                "rule_title": s.title,
                "signals": s.evidence.get("signals", {}),
                "body": vault.text_of(s.pages[0])[:8000],
            }
            for s in renames
        ],
    }
    try:
        done = _run_proposer(command, vault.config, request)
        if done.returncode != 0:
            raise ValueError(f"exited {done.returncode}: {done.stderr.strip().splitlines()[-1:] or ''}")
        answer = json.loads(done.stdout)
        proposals = answer["proposals"] if isinstance(answer, dict) else None
        if not isinstance(proposals, list):
            raise ValueError("the answer has no list 'proposals'")
    except subprocess.TimeoutExpired:
        notes.append(f"proposer timed out after {vault.config.proposer_timeout} s; rule-based titles used")
        return
    except (OSError, ValueError, KeyError, TypeError) as exc:
        notes.append(
            f"proposer failed ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__}); rule-based titles used"
        )
        return
    by_path = {s.pages[0]: s for s in renames}
    for proposal in proposals:
        if not isinstance(proposal, dict):
            continue
        suggestion = by_path.get(str(proposal.get("path")))
        title = proposal.get("title")
        if suggestion is None or not isinstance(title, str):
            notes.append(f"proposer: ignored a proposal for {proposal.get('path')!r}")
            continue
        try:
            target_path(vault, suggestion.pages[0], title)
        except EditError as exc:
            notes.append(f"proposer: ignored {title!r} for {suggestion.pages[0]}: {exc}")
            continue
        suggestion.title = title.strip()
        suggestion.proposer = "command"
        if isinstance(proposal.get("reason"), str) and proposal["reason"].strip():
            suggestion.reason = proposal["reason"].strip().splitlines()[0]


def _run_proposer(command: str, config: Config, request: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    """Run the proposer in the folder of the config file that names it (an empty one when none
    does): its relative paths mean files next to that file, never files a vault ships."""
    argv = shlex.split(command)
    if not argv:
        raise ValueError("the command is empty")
    folder = config.folder_of("proposer_command")
    with contextlib.nullcontext(os.path.abspath(folder)) if folder else tempfile.TemporaryDirectory() as cwd:
        if os.sep in argv[0] or (os.altsep and os.altsep in argv[0]):  # a bare name is looked up on PATH
            argv[0] = os.path.join(cwd, os.path.expanduser(argv[0]))
        return subprocess.run(
            argv,
            input=json.dumps(request),
            capture_output=True,
            text=True,
            timeout=config.proposer_timeout,
            cwd=cwd,
            check=False,
        )


def dream(vault: Vault, limit: int | None = None) -> DreamResult:
    """Look at up to `limit` pages (diary titles and merge-worthy pairs first, most linked first) and
    store what a careful curator would propose; earlier decisions are kept."""
    limit = vault.config.dream_limit if limit is None else limit
    notes: list[str] = []
    found = [  # the evidence lint reports, no model; a page in a repository of its own is not curator's to merge
        d
        for d in find_duplicates(vault)
        if d.fix == "merge" and not (own_repository(vault.root, d.page) or own_repository(vault.root, d.other))
    ]
    duplicates: dict[str, Duplicate] = {}
    for pair in found:
        for one in (pair.page, pair.other):
            if one not in duplicates or duplicates[one].contained < pair.contained:
                duplicates[one] = pair
    diary = [path for path in diary_titled(vault) if vault.pages[path].unreadable is None]  # as lint reports them
    work: list[tuple[int, str, Any]] = [(_incoming(vault, path), "rename", path) for path in diary]
    work += [(max(_incoming(vault, d.page), _incoming(vault, d.other)), "merge", d) for d in found]
    statuses = _status_updates(vault)
    work += [(_incoming(vault, path), "status", path) for path in statuses]
    work.sort(key=lambda w: (-w[0], w[1], str(w[2])))
    proposed: list[Suggestion] = []
    seen, renamed_to = set[str](), set[str]()
    for done, (_, kind, item) in enumerate(work):
        pages = [item.page, item.other] if kind == "merge" else [item]
        if any(p in seen for p in pages):
            continue
        if len(seen) + len(pages) > limit:
            notes.append(f"up to {len(work) - done} more renames and merges wait beyond {limit} pages: dream --limit N")
            break
        seen.update(pages)
        if kind == "rename":
            suggestion = _rename_suggestion(vault, item, duplicates)
            if suggestion is not None and suggestion.title is not None:
                if fold(suggestion.title) in renamed_to:
                    continue  # two pages renamed to one name would collide; the more linked one is proposed
                renamed_to.add(fold(suggestion.title))
        elif kind == "status":
            suggestion = _status_suggestion(vault, item, set(statuses))
        else:
            suggestion = _merge_suggestion(vault, item)
        if suggestion is not None:
            proposed.append(suggestion)
    tier = _tier_suggestion(vault)
    if tier is not None:
        proposed.append(tier)
    _ask_proposer(vault, proposed, notes)
    with vault_lock(vault.root):  # an apply or a reject meanwhile is kept
        stored = {s.id: s for s in load_suggestions(vault.root)}
        fresh: list[Suggestion] = []
        for suggestion in proposed:
            was = stored.get(suggestion.id)
            if was and was.status != "pending" and (was.status == "accepted" or was.page_shas == suggestion.page_shas):
                continue  # decided already, and the pages are as they were then
            stored[suggestion.id] = suggestion
            fresh.append(suggestion)
        ordered = fresh + [s for s in stored.values() if s not in fresh]
        save_suggestions(vault.root, ordered)
    return DreamResult(ordered, fresh, len(seen), notes)


class PlanChanged(EditError):
    """The change planned now is not the one a person was shown."""


def _decide(root: Path, suggestion_id: str) -> tuple[list[Suggestion], Suggestion]:
    suggestions = load_suggestions(root)
    return suggestions, by_id_prefix(suggestions, suggestion_id, "suggestion", "curator suggestions")


def accept(
    vault: Vault,
    suggestion_id: str,
    title: str | None = None,
    allow_dirty: bool = False,
    on_wait: Callable[[str], None] | None = None,
    shown: str | None = None,
) -> tuple[Suggestion, Entry]:
    """Apply a suggestion through the edit engine (journaled, undoable); `title` overrides a rename's.

    Planned under the vault's lock against the vault as it is then (`vault` may be older: an
    earlier accept, or another process, may have written since it was loaded); the suggestions
    file is read and written under the lock too. With `shown` (the diff a person approved, as
    `plan_diff` gives it), PlanChanged when the change planned now is another one."""
    with vault_lock(vault.root, on_wait=on_wait):
        suggestions, chosen = _decide(vault.root, suggestion_id)
        if chosen.status == "accepted":
            raise EditError(f"suggestion {chosen.id} was already accepted (change {chosen.change})")
        if title is not None and chosen.kind != "rename":
            raise EditError("--title applies to rename suggestions only")

        def make_plan(current: Vault) -> Plan:
            # A queued memory is decided again against the pages as they are (`decided_again`,
            # refused when it would write other files): an earlier one accepted into the same page
            # changed it, which is no reason to refuse the next.
            as_proposed(current, chosen)
            if title is not None:
                chosen.title = title.strip()
                chosen.reason = f"Rename {chosen.pages[0]} to {chosen.title} (title edited in review)"
            plan = plan_for(current, chosen)
            details = {**plan.details, "suggestion": chosen.id}  # read back when a kill comes before the queue's file
            if chosen.evidence.get("asked_by"):  # an agent's suggestion: the person applies it, the agent suggested it
                details["suggested_by"] = str(chosen.evidence["asked_by"])
            plan = replace(plan, details=details)
            if shown is not None and plan_diff(plan) != shown:
                raise PlanChanged(
                    f"{', '.join(c.path for c in plan.changes)} changed since the change was shown; "
                    "nothing was written: look at it again"
                )
            return plan

        _, entry = plan_and_apply(vault.root, make_plan, allow_dirty)
        chosen.status = "accepted"
        chosen.change = entry.id
        for other in suggestions:  # the same text queued again (after an undo): accepted with this one
            if chosen.kind == "remember" and _of_text(other, chosen.evidence.get("text")) and other.status == "pending":
                other.status = "skipped"
        save_suggestions(vault.root, suggestions)
        return chosen, entry


def _of_text(suggestion: Suggestion, text: object) -> bool:
    """A `remember` suggestion of this text (its spacing and case aside)."""
    said = suggestion.evidence.get("text")
    return suggestion.kind == "remember" and isinstance(said, str) and isinstance(text, str) and _same(said, text)


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def rejected_before(vault: Vault, proposal: Proposal, text: str) -> Suggestion | None:
    """The `remember` suggestion a person rejected that is this proposal again, its pages as they
    were then: not queued again, and not applied by `--apply` either."""
    files, _, shas = _touched(vault, proposal)
    return _rejected_among(load_suggestions(vault.root), proposal, text, files, shas)


def _touched(vault: Vault, proposal: Proposal) -> tuple[list[str], list[str], dict[str, str]]:
    """The files a proposal writes, the pages among them it changes, and those pages' hashes now."""
    files = sorted(c.path for c in proposal.plan.changes) if proposal.plan else []
    changed = [c.path for c in proposal.plan.changes if c.before is not None] if proposal.plan else []
    return files, changed, {path: vault.pages[path].sha for path in changed if path in vault.pages}


def _rejected_among(
    stored: list[Suggestion], proposal: Proposal, text: str, files: list[str], shas: dict[str, str]
) -> Suggestion | None:
    return next(
        (
            s
            for s in stored
            if _of_text(s, text)
            and s.status == "rejected"
            and s.evidence.get("decision") == proposal.decision
            and s.evidence.get("files") == files
            and s.page_shas == shas
        ),
        None,
    )


def set_status(root: Path, suggestion_id: str, status: str) -> Suggestion:
    """Record a rejection or a skip (a rejected suggestion is not proposed again while its pages stay)."""
    if status not in ("rejected", "skipped", "pending"):
        raise EditError(f"cannot set a suggestion to {status!r}")
    with vault_lock(root):  # a dream or an apply meanwhile is kept
        suggestions, chosen = _decide(root, suggestion_id)
        if chosen.status == "accepted":
            raise EditError(f"suggestion {chosen.id} was accepted; undo its change ({chosen.change}) instead")
        chosen.status = status
        save_suggestions(root, suggestions)
    return chosen


def as_proposed(vault: Vault, suggestion: Suggestion) -> None:
    """EditError when a page the suggestion was made of is gone or changed since (a queued memory
    is decided again instead: `decided_again`)."""
    for path, sha in ({} if suggestion.kind == "remember" else suggestion.page_shas).items():
        if (page := vault.pages.get(path)) is None or page.sha != sha:
            raise EditError(f"{path} {'changed' if page else 'is gone'} since the suggestion was made; run dream again")


def plan_for(vault: Vault, suggestion: Suggestion, title: str | None = None) -> Plan:
    """What accepting `suggestion` would change, without writing anything."""
    if suggestion.kind == "rename":
        return plan_rename(vault, suggestion.pages[0], (title or suggestion.title or "").strip(), suggestion.reason)
    if suggestion.kind == "tier":
        from curator.core.check.tiering import plan_tiering

        return plan_tiering(vault)
    if suggestion.kind == "drop":
        from curator.core.change.edits import plan_drop

        return plan_drop(vault, suggestion.pages[0], suggestion.reason)
    if suggestion.kind == "remember":  # decided again against the vault as it is now
        from curator.core.curate.remember import decided_again

        return decided_again(vault, suggestion.evidence, suggestion.page_shas, suggestion.proposed)
    return plan_merge(vault, suggestion.pages[0], suggestion.pages[1], suggestion.reason)


def _tier_suggestion(vault: Vault) -> Suggestion | None:
    """When the index page is over 80 % of its load budget: move its older and closed entries."""
    from curator.core.check.tiering import plan_tiering

    index = vault.index_page
    if index is None or vault.pages[index].size <= 0.8 * vault.config.index_budget:
        return None
    try:
        plan = plan_tiering(vault)
    except EditError:
        return None
    pages = [c.path for c in plan.changes if c.before is not None]
    moved = plan.reason.split("move ", 1)[1].split(" entries", 1)[0]
    reason = (
        f"Tier the index because {index} is {vault.pages[index].size / vault.config.index_budget:.0%} of the "
        f"{vault.config.index_budget} bytes an agent loads; {moved} older and closed entries move to "
        f"{vault.config.index_deep_page}, linked from it"
    )
    return Suggestion(
        suggestion_id("tier", [index]),
        "tier",
        pages,
        vault.config.index_deep_page,
        reason,
        {"entries_moved": int(moved)},
        page_shas={p: vault.pages[p].sha for p in pages if p in vault.pages},
    )


def describe(suggestion: Suggestion) -> str:
    """One line saying what the suggestion would do."""
    if suggestion.kind == "rename":
        return f"rename {suggestion.pages[0]} → {suggestion.title}"
    if suggestion.kind == "tier":
        return f"tier the index → {suggestion.title}"
    if suggestion.kind == "drop":
        return f"drop {suggestion.pages[0]} (a status update)"
    if suggestion.kind == "remember":
        decision = suggestion.evidence.get("decision", "")
        where = suggestion.title or (suggestion.pages[0] if suggestion.pages else "")
        return f"remember ({decision}) → {where}"
    return f"merge {suggestion.pages[0]} into {suggestion.pages[1]}"


def queue_remembered(
    vault: Vault, proposal: Proposal, text: str, source: str, page_type: str | None, asked_by: str | None = None
) -> Suggestion:
    """Put a `remember` proposal into the review queue (`curator suggestions`, the TUI's review),
    in place of a pending one for the same text; accepting it decides again and applies. `asked_by`:
    the agent that asked, named in the history of the change a person applies. The same proposal
    a person rejected, its pages as they were then, is not queued again: the rejected one is returned."""
    files, changed, shas = _touched(vault, proposal)
    evidence: dict[str, Any] = {
        "text": text,
        "source": source,
        "type": page_type,
        "decision": proposal.decision,
        "files": files,
        "nearest": [f"{c.path} ({c.score:.2f}: {c.why})" for c in proposal.evidence[:3]],
        **({"asked_by": asked_by} if asked_by else {}),
    }
    key = hashlib.sha1(text.encode()).hexdigest()
    with vault_lock(vault.root):
        stored = load_suggestions(vault.root)
        if (rejected := _rejected_among(stored, proposal, text, files, shas)) is not None:
            return rejected
        # The text remembered again after it was accepted, undone or rejected: an id of its own.
        earlier = sum(_of_text(s, text) and s.status != "pending" for s in stored)
        suggestion = Suggestion(
            suggestion_id("remember", [key, *([str(earlier)] if earlier else [])]),
            "remember",
            changed,
            proposal.title,
            proposal.reason,
            evidence,
            page_shas=shas,
            proposer="remember",
        )
        kept = [s for s in stored if s.id != suggestion.id or s.status != "pending"]
        save_suggestions(vault.root, [*kept, suggestion])
    return suggestion
