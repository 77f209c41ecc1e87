"""The fixes a person decides, as data a view shows: what to ask, the answers to pick from or the
text to edit, and the plan an answer makes. A view renders the question and hands the answer
back; it knows no rule. Fixes that need no choice are `check.fixes.fix_for`'s."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, NamedTuple

if TYPE_CHECKING:
    from curator.core.change.edits import Plan
    from curator.core.common.rules import Finding
    from curator.core.read.vault import Vault

Kind = Literal["pick", "text", "editor", "none"]


class Question(NamedTuple):
    """One fix to decide.

    - "pick": one of `choices`, (answer, what it does) each;
    - "text": the answer is `proposed`, as the person edits it;
    - "editor": nothing to answer: the person edits `path` at `line` in their own editor;
    - "none": there is no fix; `note` says what to do instead.

    `plan(vault, answer)` makes the change an answer asks for, against the vault as it is when the
    change is applied; `note` is (title, message), shown first where there is one.
    """

    kind: Kind
    prompt: str
    path: str
    choices: tuple[tuple[str, str], ...] = ()
    proposed: str = ""
    plan: Callable[[Vault, str], Plan] | None = None
    line: int | None = None
    note: tuple[str, str] | None = None


def question_for(vault: Vault, finding: Finding) -> Question:
    """The choice a finding's fix needs: a type, a title, a merge's direction, the page to link an
    orphan from; broken frontmatter or one text under two names is edited by hand."""
    from curator.core.change.edits import plan_rename
    from curator.core.change.merging import plan_merge
    from curator.core.check import pages
    from curator.core.curate.dream import derive_title, written_by_hand

    path, rule, other = finding.path, finding.rule, finding.data.get("other")
    if rule == "untyped":
        return Question(
            "pick",
            f"Type of {path}:",
            path,
            tuple((t, t) for t in vault.types),
            plan=lambda v, t: pages.plan_type(v, path, t),
        )
    if rule == "diary-title":
        proposed, _, _ = derive_title(vault, path)
        prompt = f"New title for {path} (links to it are rewritten){written_by_hand(vault, path)}:"
        return Question("text", prompt, path, proposed=proposed, plan=lambda v, title: plan_rename(v, path, title))
    if rule == "duplicate" and finding.data.get("fix") == "edit":
        note = ("The same text under two names", f"{path} says what {other} says: edit it to say what its name means.")
        return Question("editor", "", path, note=note)
    if rule in ("duplicate", "similar") and isinstance(other, str):
        choices = (
            (other, f"merge {path} into {other}{written_by_hand(vault, path)}"),
            (path, f"merge {other} into {path}{written_by_hand(vault, other)}"),
        )
        return Question(
            "pick",
            "Merge the two pages (the other one's links are rewritten):",
            path,
            choices,
            plan=lambda v, into: plan_merge(v, other if into == path else path, into),
        )
    if rule == "orphan":
        sources = pages.link_from_choices(vault, path)
        if not sources:
            return Question("none", "", path, note=("No fix", f"No page to link {path} from"))
        index = vault.index_page
        links = tuple((p, f"from {p}" + (" (the index page)" if p == index else "")) for p in sources)
        return Question(
            "pick", f"Link {path} from:", path, links, plan=lambda v, src: pages.plan_link_from(v, path, src)
        )
    if rule == "bad-frontmatter":
        return Question("editor", "", path, line=finding.line)
    return Question("none", "", path, note=("No fix", f"No fix for this {rule} finding; i ignores it."))
