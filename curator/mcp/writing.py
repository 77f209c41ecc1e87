"""The tools that change the served vault: remember, rename, merge, fix, undo, and history to see
what was changed. Every write goes through the change engine (the vault's lock, the plan made
under it, the journal, the atomic write, one commit in git, undo), which refuses a credential in
any file it would write.

What an agent may do differs from the command line in four ways: a memory is proposed (it waits
in the review queue a person walks through) unless the vault's config lets the agent write without
review; a page a person wrote (`source: manual`) is never changed without review: a memory, rename
or merge that would touch one waits in the queue, a fix that would is left for the person; the
agent may not claim to be a person (`source: manual`); and it undoes only the changes it made."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from curator.cli import documents
from curator.core.change.journal import BY_AGENT
from curator.core.common.errors import EditError
from curator.mcp.memory import Memory

if TYPE_CHECKING:
    from curator.core.change.edits import Plan
    from curator.core.change.journal import Entry
    from curator.core.check.hits import Fix
    from curator.core.curate.remember import Proposal
    from curator.core.read.vault import Vault

MANUAL = "manual"
_PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
NOTES = "_notes"  # remarks a tool adds for the agent to read: the server says them beside the document


def _by_agent(make_plan: Callable[[Vault], Plan], agent: str) -> Callable[[Vault], Plan]:
    """`make_plan`, its plan marked as the agent's, by name (in the journal entry's details)."""

    def marked(vault: Vault) -> Plan:
        plan = make_plan(vault)
        return dataclasses.replace(plan, details={**plan.details, "by": BY_AGENT, "agent": agent})

    return marked


def _apply(memory: Memory, make_plan: Callable[[Vault], Plan]) -> tuple[Plan, Entry]:
    """Plan and apply under the vault's lock (`changes.plan_and_apply`), against the vault the
    server holds (checked against the disk under the lock, read again where it changed): a second
    writer waits, then plans against what the first one wrote."""
    from curator.core.change.changes import plan_and_apply

    return plan_and_apply(memory.root, _by_agent(make_plan, memory.agent), load=lambda _root: memory.vault())


class _NothingToWrite(Exception):
    """Decided again under the lock: DROP, so there is no change to apply."""


class _HandWritten(Exception):
    """Planned under the lock: the change would touch pages a person wrote (`source: manual`)."""

    def __init__(self, plan: Plan, pages: list[str]) -> None:
        super().__init__(", ".join(pages))
        self.plan, self.pages = plan, pages


def _not_by_hand(make_plan: Callable[[Vault], Plan]) -> Callable[[Vault], Plan]:
    """`make_plan`, refused (`_HandWritten`) when its plan would change a page a person wrote."""

    def checked(vault: Vault) -> Plan:
        plan = make_plan(vault)
        held = manual_pages(vault, plan)
        if held:
            raise _HandWritten(plan, held)
        return plan

    return checked


def _for_review(memory: Memory, held: _HandWritten, kind: str, pages: list[str], title: str | None) -> dict[str, Any]:
    """A rename or merge that would change a person's page: queued for the person's review (where
    the dream's and remember's wait: `curator suggestions`, the TUI's review), answered unapplied."""
    from curator.core.curate.suggestions import Suggestion, load_suggestions, save_suggestions, suggestion_id
    from curator.core.state.lock import vault_lock

    vault = memory.vault()
    by_hand = f"{', '.join(held.pages)} written by hand (source manual) or an agent's instructions"
    reason = f"{held.plan.reason} (asked by {memory.agent}, an agent; {by_hand})"
    suggestion = Suggestion(
        suggestion_id(kind, pages),
        kind,
        pages,
        title,
        reason,
        {"asked_by": memory.agent, "written_by_hand": held.pages},
        page_shas={path: vault.pages[path].sha for path in pages if path in vault.pages},
        proposer=BY_AGENT,
    )
    with vault_lock(memory.root):
        kept = [s for s in load_suggestions(memory.root) if s.id != suggestion.id or s.status != "pending"]
        save_suggestions(memory.root, [*kept, suggestion])
    written = f"{', '.join(held.pages)} is written by a person (source: manual) or is an agent's instructions"
    note = f"queued for review as suggestion {suggestion.id}: {written}"
    document = documents.change(held.plan, None)
    return {**document, "notes": [*document["notes"], note], NOTES: [note]}


def manual_pages(vault: Vault, plan: Plan) -> list[str]:
    """The pages `plan` changes that a person wrote (`source: manual` in their header), and the
    files it writes that are an agent's standing instructions (a merge into AGENTS.md, a rename to
    CLAUDE.md): neither is changed by an agent unreviewed."""
    from curator.core.curate.handed import written_by_person
    from curator.core.read.page import instructions

    changed = [c.path for c in plan.changes if c.before is not None and c.path in vault.pages]
    by_hand = [path for path in changed if written_by_person(vault, path)]
    return by_hand + [c.path for c in plan.changes if instructions(c.path) and c.path not in by_hand]


def remember(memory: Memory, args: dict[str, Any]) -> dict[str, Any]:
    """Decide where the text belongs; queue the decision for review, or (where the vault allows the
    agent to write without review, and the page is not a person's) apply it, decided again under
    the vault's lock."""
    from curator.core.change.changes import WrittenMeanwhile
    from curator.core.curate.dream import queue_remembered, rejected_before
    from curator.core.curate.remember import remember as decide

    text, source, page_type = args["text"], args.get("source", "agent"), args.get("type")
    if not _PLAIN_NAME.fullmatch(
        source
    ):  # written into YAML as it is: quotes, comments, tags and lines could say manual
        raise EditError(f"source {source!r}: a plain name of letters, digits, '.', '_' or '-' (such as 'agent')")
    if source.casefold() == MANUAL:
        raise EditError("source 'manual' marks what a person wrote; an agent remembers as 'agent' or its own name")
    vault = memory.vault()
    try:
        proposal = decide(vault, text, source, page_type)
    except FileNotFoundError:  # a page removed (and perhaps written anew) by another program as it was read
        vault = memory.vault()
        proposal = decide(vault, text, source, page_type)
    notes: list[str] = [
        f"queued for review: {line}" for line in vault.config.untrusted if "[agent] apply_without_review" in line
    ]
    entry = None
    if proposal.plan is not None and vault.config.agent_apply_without_review:
        held = manual_pages(vault, proposal.plan)
        if held:
            notes.append(f"queued for review: {', '.join(held)} is written by a person (source: manual)")
        elif proposal.review:
            notes.append(f"queued for review: {proposal.reason}")
        elif rejected_before(vault, proposal, text) is not None:
            pass  # a person rejected just this: not applied, and said so below
        else:
            decided: list[Proposal] = []

            def again(current: Vault) -> Plan:
                now = decide(current, text, source, page_type)
                decided.append(now)
                if now.plan is None or now.review:  # a drop a person confirms is queued below
                    raise _NothingToWrite
                return now.plan

            try:
                _, entry = _apply(memory, _not_by_hand(again))
            except _NothingToWrite:
                notes.append("nothing to write once decided again against the vault as it is now")
            except _HandWritten:
                notes.append("queued for review: the page it would go into is written by a person (source: manual)")
            except WrittenMeanwhile as exc:  # another program keeps writing the page: the memory waits
                notes.append(f"queued for review: {exc}")
            proposal = decided[-1] if decided else proposal
    queued = None
    if entry is None and proposal.plan is not None:
        queued = queue_remembered(memory.vault(), proposal, text, source, page_type, memory.agent)
        if queued.status == "rejected":
            notes.append(
                f"a person rejected this proposal as suggestion {queued.id}; not queued again while its pages stay"
            )
    document = documents.remembered(proposal, entry, queued)
    return {**document, NOTES: notes}


def rename(memory: Memory, args: dict[str, Any]) -> dict[str, Any]:
    from curator.core.change.edits import plan_rename

    old, title = memory.page(args["page"]), args["new_title"]
    memory.check_inside(title)
    try:
        plan, entry = _apply(memory, _not_by_hand(lambda vault: plan_rename(vault, old, title, args.get("reason"))))
    except _HandWritten as held:
        return _for_review(memory, held, "rename", [old], title)
    return documents.change(plan, entry)


def merge(memory: Memory, args: dict[str, Any]) -> dict[str, Any]:
    from curator.core.change.merging import plan_merge

    source, into = memory.page(args["source"]), memory.page(args["into"])
    try:
        plan, entry = _apply(memory, _not_by_hand(lambda vault: plan_merge(vault, source, into, args.get("reason"))))
    except _HandWritten as held:
        return _for_review(memory, held, "merge", [source, into], None)
    return documents.change(plan, entry)


def fix(memory: Memory, args: dict[str, Any]) -> dict[str, Any]:
    """The fixes that need no choice (the ones `curator fix` makes), each its own change; one that
    would change a page a person wrote is left for the person (the review queue holds no fixes)."""
    from curator.core.check.fixes import chosen_fixes, planner

    chosen = chosen_fixes(memory.vault(), args.get("fingerprints", []), args.get("rules", []))
    done: list[tuple[Fix, Entry | None]] = []
    held: list[str] = []
    for one in chosen:  # each planned under the lock against the vault as the fix before it left it
        try:
            _, entry = _apply(memory, _not_by_hand(planner(one)))
        except _HandWritten as exc:
            held.append(f"{one.finding.rule} {one.finding.fingerprint} in {exc}")
            continue
        done.append((one, entry))
    if held and not done:
        raise EditError(
            f"not fixed: {'; '.join(held)} is written by a person (source: manual); "
            "the person fixes it (curator fix, the TUI)"
        )
    notes = [f"not fixed, written by a person (source: manual): {one}" for one in held]
    return {**documents.fixes(done, dry_run=False), NOTES: notes}


def undo(memory: Memory, args: dict[str, Any]) -> dict[str, Any]:
    """Undo a change this agent made (a person's changes are the person's to undo)."""
    from curator.core.change.changes import undo as take_back
    from curator.core.change.journal import Journal

    entry = Journal(memory.root).get(args["change"])
    if entry.details.get("by") != BY_AGENT:
        raise EditError(
            f"change {entry.id} was not made by an agent through curator mcp; undo it with 'curator undo' or the TUI"
        )
    return documents.undo(take_back(memory.root, entry.id, allow_dirty=False))


def history(memory: Memory, args: dict[str, Any]) -> dict[str, Any]:
    from curator.core.change.changes import history as entries
    from curator.core.change.changes import reverted_outside

    listed = entries(memory.root)[: args.get("limit", 50)]
    return documents.history(listed, reverted_outside(memory.root, listed))
