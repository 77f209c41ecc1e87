"""The commands that change a vault, each through the journal: rename, merge, fix, remember,
undo and history, the dream's suggestions (dream, apply, reject), and trust."""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from curator.cli import documents, output
from curator.cli.shared import EXIT_OK, EXIT_USAGE, edit_options, held_or_loaded, loaded_with_model, positive, recovered
from curator.core.common.names import INVISIBLE

if TYPE_CHECKING:
    from curator.core.change.edits import Plan
    from curator.core.change.journal import Entry
    from curator.core.check.hits import Fix
    from curator.core.curate.suggestions import Suggestion
    from curator.core.read.vault import Vault


def say_uncommitted(entry: Entry | None) -> None:
    """One line when a change is written and journaled but git did not take its commit (the next
    command tries again): said at once, not only by the next command."""
    if entry is not None and entry.not_committed:
        output.diagnose(f"change {entry.id} is applied but not committed: {entry.not_committed}")


def rename_arguments(rename: argparse.ArgumentParser) -> None:
    rename.add_argument("vault")
    rename.add_argument("old", help="the page: a title or a path")
    rename.add_argument("new", help="the new title, or a path from the vault root (folders are created)")
    edit_options(rename)


def merge_arguments(merge: argparse.ArgumentParser) -> None:
    merge.add_argument("vault")
    merge.add_argument("source", help="the page that goes: a title or a path")
    merge.add_argument("into", help="the page that stays")
    edit_options(merge)


def run_rename(args: argparse.Namespace) -> int:
    from curator.core.change.edits import plan_rename

    return _run_edit(args, lambda vault: plan_rename(vault, args.old, args.new, args.reason))


def run_merge(args: argparse.Namespace) -> int:
    from curator.core.change.merging import plan_merge

    return _run_edit(args, lambda vault: plan_merge(vault, args.source, args.into, args.reason))


def _run_edit(args: argparse.Namespace, make_plan: Callable[[Vault], Plan]) -> int:
    from curator.core.change.changes import plan_and_apply
    from curator.core.read.loading import load_vault

    root = recovered(args.vault)
    entry = None
    if args.dry_run:
        plan = make_plan(load_vault(root))
    else:  # planned under the vault's lock, against what another writer may just have written
        plan, entry = plan_and_apply(root, make_plan, args.allow_dirty, on_wait=output.diagnose)
    for note in plan.notes:
        output.diagnose(note)
    say_uncommitted(entry)
    if args.json:
        output.emit_json(documents.change(plan, entry))
        return EXIT_OK
    links, files = plan.links_rewritten, len(plan.changes)
    what = f"{plan.reason}: {links} link{'s' * (links != 1)} rewritten in {files} file{'s' * (files != 1)}"
    if entry is None:
        output.emit(f"would {what[0].lower()}{what[1:]} (dry run, nothing written)")
    else:
        output.emit(f"{what}; change {entry.id}" + (f", commit {entry.commit[:10]}" if entry.commit else ""))
    for c in plan.changes:
        output.emit(f"  {documents.file_action(c.before, c.after):<6} {c.path}")
    return EXIT_OK


def run_history(args: argparse.Namespace) -> int:
    import time

    from curator.core.change.changes import history, reverted_outside

    root = recovered(args.vault)
    entries = history(root)
    reverted = reverted_outside(root)
    if args.json:
        output.emit_json(documents.history(entries, reverted))
        return EXIT_OK
    if not entries:
        output.emit("no changes yet")
    for e in entries:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(e.time))
        state = "" if e.state == "applied" else f" [{e.state}]"
        if e.id in reverted:
            state += " [reverted outside curator]"
        if e.not_committed:
            state += f" [not committed: {e.not_committed}]"
        if e.undo is not None and e.undo.not_committed:
            state += f" [undo not committed: {e.undo.not_committed}]"
        output.emit(f"{e.id}  {when}  {e.kind:<6} {e.reason}  (by {e.credited}){state}")
        output.emit(f"    {', '.join(e.paths)}")
    return EXIT_OK


def undo_arguments(undo: argparse.ArgumentParser) -> None:
    undo.add_argument("vault")
    undo.add_argument("id", help="the change id from 'curator history' (a unique prefix is enough)")
    undo.add_argument("--allow-dirty", action="store_true")
    undo.add_argument("--json", action="store_true")


def run_undo(args: argparse.Namespace) -> int:
    from curator.core.change.changes import undo

    root = recovered(args.vault)
    entry = undo(root, args.id, allow_dirty=args.allow_dirty, on_wait=output.diagnose)
    document = documents.undo(entry)
    if document["not_committed"]:
        output.diagnose(f"undo of {entry.id} is written but not committed: {document['not_committed']}")
    if args.json:
        output.emit_json(document)
    else:
        restored = len(document["files"])
        output.emit(f"undid {entry.id} ({entry.reason}); restored {restored} file{'' if restored == 1 else 's'}")
    return EXIT_OK


def _suggestion_line(s: Suggestion) -> str:
    from curator.core.curate.dream import describe

    return f"{s.id}  {s.status:<8} {describe(s)}\n    {s.reason}"


def dream_arguments(dream: argparse.ArgumentParser) -> None:
    dream.add_argument("vault")
    dream.add_argument("--limit", type=positive, help="pages to look at (default: dream.limit, 40)")
    dream.add_argument("--json", action="store_true")


def run_dream(args: argparse.Namespace) -> int:
    from curator.core.curate.dream import dream
    from curator.core.read.loading import load_vault

    root = recovered(args.vault)
    result = dream(load_vault(root), args.limit)
    for note in result.notes:
        output.diagnose(note)
    if args.json:
        output.emit_json(documents.dream(result))
        return EXIT_OK
    if not result.proposed:
        output.emit(
            f"looked at {result.looked_at} page{'' if result.looked_at == 1 else 's'}; nothing new to propose"
            if result.looked_at
            else "nothing to propose: no event-style titles, duplicates or status updates"
        )
    for s in result.proposed:
        links = s.evidence.get("links_to_rewrite")
        if s.kind == "rename":
            output.emit(f"I would rename {s.pages[0]} to {s.title!r} ({links} links to rewrite).")
        elif s.kind == "merge":
            output.emit(f"I would merge {s.pages[0]} into {s.pages[1]}.")
        else:  # an index tiering, a dropped status update: not about two pages
            from curator.core.curate.dream import describe

            output.emit(f"I would {describe(s)}.")
        output.emit(f"    {s.reason}.  [{s.id}]")
    pending = sum(1 for s in result.suggestions if s.status == "pending")
    output.emit(f"{pending} pending; accept one with 'curator apply VAULT ID', reject with 'curator reject VAULT ID'")
    return EXIT_OK


def suggestions_arguments(listing: argparse.ArgumentParser) -> None:
    listing.add_argument("vault")
    listing.add_argument(
        "--diff", action="store_true", help="under each pending one, the diff accepting it would apply now"
    )
    listing.add_argument("--json", action="store_true")


def run_suggestions(args: argparse.Namespace) -> int:
    from curator.core.curate.suggestions import load_suggestions

    root = recovered(args.vault)
    suggestions = load_suggestions(root)
    diffs = _diffs_now(root, [s for s in suggestions if s.status == "pending"]) if args.diff else None
    if args.json:
        output.emit_json(documents.suggestions(suggestions, diffs))
    elif not suggestions:
        output.emit("no suggestions; run 'curator dream'")
    for s in [] if args.json else suggestions:
        output.emit(_suggestion_line(s))
        if diffs is not None and s.id in diffs:
            diff, why_not = diffs[s.id]
            output.emit(_escaped(diff).rstrip("\n") if diff is not None else f"    cannot be applied now: {why_not}")
    return EXIT_OK


def _diffs_now(root: Path, pending: list[Suggestion]) -> dict[str, tuple[str | None, str | None]]:
    """Each suggestion's diff planned against the vault as it is read now (what `apply` would write,
    which plans it again under the lock), or why it cannot be applied. Read without waiting for the
    lock: a writer that keeps taking it would hold a listing back for good."""
    from curator.core.change.edits import plan_diff
    from curator.core.common.errors import REPORTED, one_line
    from curator.core.curate.dream import as_proposed, plan_for
    from curator.core.read.loading import load_vault

    vault = load_vault(root)
    diffs: dict[str, tuple[str | None, str | None]] = {}
    for s in pending:
        try:
            as_proposed(vault, s)
            diffs[s.id] = (plan_diff(plan_for(vault, s)), None)
        except REPORTED as exc:
            diffs[s.id] = (None, one_line(exc))
    return diffs


def apply_arguments(accept: argparse.ArgumentParser) -> None:
    accept.add_argument("vault")
    accept.add_argument("id", help="the suggestion id (a unique prefix is enough)")
    accept.add_argument("--title", help="use this title instead of the proposed one (renames)")
    accept.add_argument("--allow-dirty", action="store_true")
    accept.add_argument("--json", action="store_true")


def run_apply(args: argparse.Namespace) -> int:
    from curator.core.curate.dream import accept
    from curator.core.read.loading import load_vault

    root = recovered(args.vault)
    suggestion, entry = accept(load_vault(root), args.id, args.title, args.allow_dirty, on_wait=output.diagnose)
    say_uncommitted(entry)
    if args.json:
        output.emit_json(documents.applied(suggestion, entry))
    else:
        output.emit(
            f"applied {suggestion.id}: {entry.reason}; change {entry.id} (undo with 'curator undo VAULT {entry.id}')"
        )
        for note in entry.details.get("notes", []):  # what the change left out or could not keep
            output.emit(f"    note: {note}")
    return EXIT_OK


def reject_arguments(reject: argparse.ArgumentParser) -> None:
    reject.add_argument("vault")
    reject.add_argument("id")


def run_reject(args: argparse.Namespace) -> int:
    from curator.core.curate.dream import set_status
    from curator.core.read.scan import check_vault_root

    suggestion = set_status(check_vault_root(args.vault), args.id, "rejected")
    output.emit(f"rejected {suggestion.id}; it is not proposed again while its pages stay as they are")
    return EXIT_OK


def fix_arguments(fix: argparse.ArgumentParser) -> None:
    fix.add_argument("vault")
    fix.add_argument("fingerprints", nargs="*", metavar="FINGERPRINT", help="the findings to fix (default: every one)")
    fix.add_argument("--rule", action="append", help="fix only this rule's findings (repeatable)")
    fix.add_argument("--dry-run", action="store_true", help="show what would change and write nothing")
    fix.add_argument("--allow-dirty", action="store_true", help="go ahead though touched files have uncommitted edits")
    fix.add_argument("--json", action="store_true", help="print the result as JSON")


def run_fix(args: argparse.Namespace) -> int:
    from curator.core.change.changes import plan_and_apply
    from curator.core.check.fixes import FindingGone, chosen_fixes, planner
    from curator.core.common.names import visible
    from curator.core.read.loading import load_vault

    root = recovered(args.vault)
    chosen = chosen_fixes(load_vault(root), args.fingerprints, args.rule or ())
    done: list[tuple[Fix, Entry | None]] = []
    for fix in chosen:
        entry = None
        if not args.dry_run:  # each its own change, planned under the lock against the vault as it is then
            try:
                _, entry = plan_and_apply(root, planner(fix), args.allow_dirty, output.diagnose)
            except FindingGone:  # an earlier fix mended it too (a link inside a heading it renamed)
                output.diagnose(f"skipped {fix.finding.path}:{fix.finding.line or 1}: gone after the fixes before it")
                continue
            say_uncommitted(entry)
        done.append((fix, entry))
    if args.json:
        output.emit_json(documents.fixes(done, args.dry_run))
        return EXIT_OK
    for fix, entry in done:
        f = fix.finding
        where = f"{f.path}:{f.line}" if f.line else f.path
        what = (
            f"{visible(fix.before)} → {visible(fix.after)}"
            if fix.before
            else f"{visible(fix.after.strip())} added to {fix.path}"
        )
        if entry is None:
            output.emit(f"would fix {where}: {what}")
        else:
            output.emit(f"fixed {where}: {what}; change {entry.id}")
    if not done:
        output.emit("nothing to fix without a choice")
    elif args.dry_run:
        output.emit(f"{len(done)} {'fix' if len(done) == 1 else 'fixes'} (dry run, nothing written)")
    return EXIT_OK


def remember_arguments(remember: argparse.ArgumentParser) -> None:
    remember.add_argument("vault")
    remember.add_argument("text", help="what to remember, or - to read it from standard input")
    remember.add_argument("--source", default="agent", help="who learned it: agent (default), manual, or a name")
    remember.add_argument(
        "--type",
        dest="page_type",
        help="the type of a new page, one of the vault's `types` (by default customer, project, system, person, "
        "problem, topic); guessed from the text when not given",
    )
    chosen = remember.add_mutually_exclusive_group()
    chosen.add_argument("--apply", action="store_true", help="apply the proposal at once (journaled, undoable)")
    chosen.add_argument("--dry-run", action="store_true", help="show the proposal and queue nothing")
    remember.add_argument(
        "--allow-dirty", action="store_true", help="go ahead though touched files have uncommitted edits"
    )
    remember.add_argument("--json", action="store_true", help="print the decision as JSON")


class _NothingToWrite(Exception):
    """`remember --apply` decided DROP: there is no change to apply."""


class _NeedsReview(Exception):
    """`remember --apply` would change a page written by hand: it is queued for review instead."""


def run_remember(args: argparse.Namespace) -> int:
    from curator.core.change.changes import WrittenMeanwhile, plan_and_apply
    from curator.core.change.edits import plan_diff
    from curator.core.curate.dream import rejected_before
    from curator.core.curate.remember import Proposal, remember
    from curator.core.meaning.vectors import preload_provider
    from curator.core.state.config import load_config

    root = recovered(args.vault)
    text = args.text
    if text == "-":
        raw = sys.stdin.buffer.read()  # as UTF-8, whatever the locale says: pages are UTF-8
        try:
            text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        except UnicodeDecodeError as exc:
            output.diagnose(f"standard input is not valid UTF-8 text (byte {exc.start}: {raw[exc.start : exc.end]!r})")
            return EXIT_USAGE
    proposal: Proposal | None = None
    entry = queued = None
    held_back = False
    if args.apply:  # decided once, under the vault's lock, against the vault as it is then

        def decide(vault: Vault) -> Plan:
            nonlocal proposal, held_back
            proposal = remember(vault, text, args.source, args.page_type)
            if proposal.plan is None:
                raise _NothingToWrite
            if proposal.review or rejected_before(vault, proposal, text) is not None:
                held_back = True  # a person decides it, or decided it already
                raise _NeedsReview
            if args.source == "manual":
                return proposal.plan
            from dataclasses import replace  # not at import: a warm lint loads this module and nothing more

            return replace(proposal.plan, details={**proposal.plan.details, "suggested_by": args.source})

        preload_provider(load_config(root), root)
        with contextlib.suppress(_NothingToWrite, _NeedsReview):
            try:
                _, entry = plan_and_apply(root, decide, args.allow_dirty, on_wait=output.diagnose, load=held_or_loaded)
            except WrittenMeanwhile as exc:  # the memory is not lost: it waits in the queue
                output.diagnose(f"not applied: {exc}; the memory is queued instead")
                held_back = True
    # A proposal that changes a page written by hand waits in the review queue, as one not applied does.
    if not args.apply or (held_back and entry is None):
        from curator.core.curate.dream import queue_remembered

        vault = loaded_with_model(root)
        proposal = remember(vault, text, args.source, args.page_type)
        if proposal.plan is not None and not args.dry_run:
            asked_by = None if args.source == "manual" else args.source  # the history credits who learned it
            queued = queue_remembered(vault, proposal, text, args.source, args.page_type, asked_by)
    assert proposal is not None
    say_uncommitted(entry)
    if args.json:
        output.emit_json(documents.remembered(proposal, entry, queued))
        return EXIT_OK
    output.emit(f"{proposal.decision.upper()}: {proposal.reason}")
    for near in proposal.evidence[:3]:
        output.emit(f"    {near.score:.2f}  {near.path}  ({near.why})")
    if entry is not None:
        output.emit(f"applied as change {entry.id} (undo with 'curator undo VAULT {entry.id}')")
    elif queued is not None and queued.status == "rejected":
        output.emit(f"a person rejected this proposal as suggestion {queued.id}; not queued again while its pages stay")
    elif queued is not None or (args.dry_run and proposal.plan is not None):
        files = ", ".join(c.path for c in proposal.plan.changes) if proposal.plan else ""
        how = "a person confirms it" if proposal.review else "or --apply"
        output.emit(
            f"would change {files}; nothing queued (--dry-run)"
            if queued is None
            else f"would change {files}; queued as suggestion {queued.id} (curator apply VAULT {queued.id}, {how})"
        )
    if proposal.plan is not None:  # what it writes, as a person reviews it
        _show_diff(plan_diff(proposal.plan, context=2))  # where it goes, among the lines around it
    return EXIT_OK


# A page's text shown as it is: every control, bidi or invisible character as its escape (a
# page's `ESC[8m` would hide a struck sentence, U+202E would turn it round).
_HIDING = re.compile(rf"[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad{INVISIBLE}]")


def _escaped(text: str) -> str:
    """The text with each character that could hide or turn what is shown as its escape (`_HIDING`)."""
    return _HIDING.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def _show_diff(diff: str, most: int = 30, width: int = 300) -> None:
    """The diff's lines, a changed one cut to `width` around where it differs from the line it
    replaces; an added line whole (it is what would be written)."""
    lines = [line for line in _escaped(diff).splitlines() if not line.startswith("@@")]
    for n, line in enumerate(lines[:most]):
        other = lines[n + 1] if line.startswith("-") and n + 1 < len(lines) else lines[n - 1] if n else ""
        if len(line) > width and line[:1] in "+-" and other[:1] in "+-" and other[:1] != line[:1]:
            same = next((i for i, (a, b) in enumerate(zip(line[1:], other[1:], strict=False)) if a != b), 0)
            start = max(same - width // 3, 0)
            line = f"{line[0]}…{line[1 + start : 1 + start + width]}…" if start else line[: width + 1] + "…"
        elif len(line) > width and not line.startswith("+"):
            line = line[: width + 1] + "…"
        output.emit(f"    {line}")
    if len(lines) > most:
        output.emit(f"    ... {len(lines) - most} more lines")


def trust_arguments(trust: argparse.ArgumentParser) -> None:
    trust.add_argument("vault", nargs="?", help="the vault to trust (or to revoke with --revoke)")
    trust.add_argument("--list", action="store_true", help="list the trusted vaults and what they may do")
    trust.add_argument("--revoke", action="store_true", help="stop trusting VAULT")
    trust.add_argument("--json", action="store_true")


def run_trust(args: argparse.Namespace) -> int:
    from curator.core.read.scan import check_vault_root
    from curator.core.state import trust
    from curator.core.state.config import CONFIG_NAME, trust_asked

    if args.list:
        vaults = trust.trusted_vaults()
        if args.json:
            output.emit_json(documents.trust(vaults))
            return EXIT_OK
        if not vaults:
            output.emit("no vault is trusted")
        for entry in vaults:
            shown = "; ".join(f"{name} = {value!r}" for name, value in entry.settings.items())
            output.emit(f"{entry.path}  (since {entry.since}): {shown or 'nothing to run'}")
        return EXIT_OK
    if not args.vault:
        output.diagnose("name the vault to trust, or use --list (see 'curator trust --help')")
        return EXIT_USAGE
    root = check_vault_root(args.vault)
    if args.revoke:
        if trust.revoke(root):
            output.diagnose(f"{root} is no longer trusted")
        else:
            output.diagnose(f"{root} was not trusted")
        return EXIT_OK
    asked = trust_asked(root)
    if not asked:
        output.diagnose(f"{root / CONFIG_NAME} asks for nothing that needs trust: there is nothing to trust")
        return EXIT_OK
    trusted = trust.trust(root, asked)
    if args.json:
        output.emit_json(documents.trust([trusted]))
    else:
        for name, value in asked.items():
            output.emit(f"trusted {trusted.path}: {name} = {value!r} takes effect ({trust.what_it_does(name)})")
    return EXIT_OK
