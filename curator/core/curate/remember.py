"""Where a new memory belongs: decide ADD, MERGE-INTO, SUPERSEDE or DROP for a text an agent (or a
person) hands over, instead of minting another diary page.

The evidence, best first: pages the text names (a title or an alias in it, 0.95 / 0.90), pages
whose title's words are all or nearly all in the text (0.85, less by rank), pages whose title's
distinguishing word the text names (0.82: "Zertifikat" of Zertifikatserneuerung), the page the
text's words (BM25) and its meaning both put first when it names what the text is about (0.86,
`agreement`; the search index, built on first use, answers for BM25), the page giving a value the
text says it replaces (0.96: "15 Sekunden statt 30"), and the meaning of the text
against each page's vector (the cosine). Words are compared as each language writes them
(`read.words`: stems, compounds, German met with English).
An event page (a diary title) found this way points on to the thing it links to: a memory of an
incident belongs on the page of the thing that broke. Then:

- DROP: a pure status update ("PR 12 merged": its ticket or commit holds it), or nothing new (every
  sentence of the text is on the page already, in its order and with its "not", or every name and
  number of it with most words: `facts`); a status no page is near enough to take ("still not
  deployed") or a page that seems to say it in other words: drops a person confirms;
- SUPERSEDE: the text says the page's fact changed ("no longer", "replaced by", "raised from",
  "nicht mehr", "umgezogen"), or gives a value of now where the page gives another: on a page of
  many facts it goes after the sentence it changes, struck through where the text names the old
  value (`update`); a page of one fact is superseded by a new page holding it, the old one gets
  `superseded_by: "[[New]]"`;
- MERGE-INTO: the text's sentences the page lacks, appended under its best-matching section (an
  event, dated or numbered, as a line of its History/Verlauf section);
- ADD: a new page titled by what the text is about (never its first sentence as it stands), typed,
  linking the pages it names, listed in the index page.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace
from datetime import date
from typing import Any, NamedTuple

from curator.core.change.edits import FileChange, Plan, explicit_target
from curator.core.change.frontmatter_edit import set_scalar
from curator.core.check.index_page import book_pages, listing_change, lists_pages
from curator.core.common.errors import EditError
from curator.core.common.vaultpath import link_target
from curator.core.curate.agreement import (
    RARE_NAMES,
    REPLACED,
    agreed_page,
    agreed_score,
    named_everywhere,
    names_its_thing,
    only_the_memory_states,
    outranking_weak_names,
    rare_words_page,
    replacing_pages,
    search_first,
)
from curator.core.curate.facts import (
    STOP,
    goes_on,
    happened_once,
    new_sentences,
    said_word_for_word,
    says_change,
    specifics_held,
)
from curator.core.curate.handed import checked, for_review, handed_page, kept_lines
from curator.core.curate.linking import NOT_PROSE, writes_markdown_links
from curator.core.curate.newpage import file_name, hyphenated, new_page, untranslated
from curator.core.curate.placing import handed_over, plan_merge_into, plan_update
from curator.core.curate.repeats import passage_near, quoted, seems_said
from curator.core.curate.replaced import old_values, sets_value_anew
from curator.core.curate.titlecover import (
    bearing_subject_words,
    empty,
    inside_a_longer_name,
    mentions,
    named,
    names_its_modifier,
    names_subject,
    phrase,
    subject_head,
    text_terms,
    title_cover,
    titles_of,
    whole_word_of,
)
from curator.core.curate.titling import title_for
from curator.core.curate.update import block_holding_old, states_one_fact
from curator.core.meaning.duplicates import comparable, share_held
from curator.core.meaning.word_runs import CONTAINED
from curator.core.read.page import INDEX_NAMES, title_of
from curator.core.read.resolve import fold
from curator.core.read.titles import (
    diary_title,
    is_eventish,
    is_status_update,
    names_a_day,
)
from curator.core.read.vault import Vault, book_escaped
from curator.core.read.words import WORD, language_of

DECISIONS = ("add", "merge-into", "supersede", "drop")
ASIDE = 0.1  # what a page named in the text loses when the text is about another thing
NEAR = 0.5  # evidence a page needs for a new page to stand in its folder (unrelated pages score up to 0.45)
SAID_NEAR = 2  # the nearest pages read for a text said already, when none is near enough to take it


class Candidate(NamedTuple):
    path: str
    score: float  # in [0, 1]: the evidence that the text belongs on this page
    why: str


class Proposal(NamedTuple):
    decision: str  # one of DECISIONS
    page: str | None  # the page it goes to (add, supersede: the new page)
    title: str | None
    reason: str
    evidence: list[Candidate]
    plan: Plan | None  # None for a drop, but for one a person confirms: the merge they may accept instead
    review: bool = False  # it changes a page by hand (source: manual), or is a drop to confirm: never applied unasked


def remember(
    vault: Vault,
    text: str,
    source: str = "agent",
    page_type: str | None = None,
    threshold: float | None = None,
    read_now: bool = True,
) -> Proposal:
    """The proposal for `text` (nothing is written: apply `plan` with changes.plan_and_apply); with
    `read_now` False, by the pages the model has read, reading none. One that changes a page
    written by hand (`source: manual`) or an agent's instructions (AGENTS.md) comes with `review`
    set: a person decides it, whatever `--apply` asked."""
    proposal = _decide(vault, text, source, page_type, threshold, read_now)
    if (held := for_review(vault, proposal.decision, proposal.plan)) and source != "manual":
        return proposal._replace(reason=f"{proposal.reason}; {held}, so it waits for review", review=True)
    return proposal


def decided_again(
    vault: Vault, asked: dict[str, Any], shown: dict[str, str] | None = None, proposed: float | None = None
) -> Plan:
    """The plan of a queued proposal (`asked`: its text, source, type and the files it was shown to
    write), decided again against the vault as it is now; refused when it now writes other files,
    or edits a statement of a page changed since it was shown (`shown`: each page's hash then).
    `proposed`: when it was handed over (a "last night" it tells is that day's)."""
    from curator.core.meaning.vectors import provider_for, readable, rows_of

    # What the model read for the proposal is stored: read nothing new (seconds a page with the
    # multilingual model), and the evidence is the proposal's; but for the pages it writes, which an
    # accepted proposal before it may have changed: unread, the text seemed to belong nowhere.
    rows_of(vault, provider_for(vault)[0]).fill(set(shown or {}) & set(readable(vault)))
    text, source = str(asked["text"]), str(asked.get("source", "agent"))
    handed = handed_over.set(date.fromtimestamp(proposed) if proposed else None)
    try:
        proposal = remember(vault, text, source, asked.get("type"), read_now=False)
    finally:
        handed_over.reset(handed)
    if proposal.plan is None:
        raise EditError(f"nothing to apply now: {proposal.reason}")
    files = sorted(c.path for c in proposal.plan.changes)
    # A person read which sentence it strikes or follows: not one edited since.
    if "statement" in proposal.plan.details and any(
        path in vault.pages and vault.pages[path].sha != sha for path, sha in (shown or {}).items()
    ):
        raise EditError(
            f"{', '.join(files)} changed since the proposal was shown, and it edits a sentence there; "
            "nothing was written: remember the text again to see the sentence it changes now"
        )
    if isinstance(asked.get("files"), list) and files != asked["files"]:  # not what a person was shown
        raise EditError(
            f"remember decides otherwise now: shown writing {', '.join(map(str, asked['files']))}, it would write"
            f" {', '.join(files)} ({proposal.reason}); nothing was written: remember the text again to see it"
        )
    return proposal.plan


def _decide(
    vault: Vault, text: str, source: str, page_type: str | None, threshold: float | None, read_now: bool = True
) -> Proposal:
    text = checked(text.strip(), source)
    if vault.book_contents is not None:  # mdBook runs a "{{ #include ...}}" on its next build: written escaped
        text = book_escaped(text)
    if page_type is not None and page_type not in vault.types:
        raise EditError(f"type {page_type!r} is not one of the vault's types ({', '.join(vault.types)})")
    handed = handed_page(text)
    text = handed.body
    if page_type is None and handed.type in vault.types:
        page_type = handed.type
    limit = vault.config.remember_threshold if threshold is None else threshold
    if len([w for w in WORD.findall(text) if fold(w) not in STOP]) < 2:  # "ok", "hello", "Kafka"
        return Proposal("drop", None, None, "Drop: too little to remember (it says nothing about anything)", [], None)
    evidence = candidates(vault, text, read_now=read_now)
    if is_status_update(text):
        why = "Drop: a status update with no lasting fact (its ticket, commit or release holds it)"
        return Proposal("drop", None, None, why, evidence, None)
    index = vault.index_page  # an agent's memory in prose takes no memory, but may say one already, word for word
    if index and not lists_pages(vault, index) and said_word_for_word(text, vault.text_of(index)):
        return Proposal("drop", index, None, f"Drop: {index} says all of it already", evidence, None)
    for near in evidence[:3]:  # a repeat is dropped whatever the evidence says
        if not new_sentences(text, vault.text_of(near.path), vault.pages[near.path].title):
            return Proposal("drop", near.path, None, f"Drop: {near.path} says all of it already", evidence, None)
        held = share_held(vault, near.path, text)
        if held >= CONTAINED:  # what the duplicate rule calls a copy; a word changed in it is news: a person confirms
            near_text = vault.text_of(near.path)
            new = new_sentences(text, near_text, vault.pages[near.path].title)
            merge = None if vault.pages[near.path].bad_encoding else plan_merge_into(vault, near.path, new, near_text)
            anyway = "; accepting it merges the text anyway" if merge else ""
            why = f"Drop: {near.path} holds {held:.0%} of the text already{anyway}"
            return Proposal("drop", near.path, None, why, evidence, merge, merge is not None)
    changed = says_change(text)
    first = evidence[0].path if evidence and evidence[0].score >= NEAR else None
    if first is not None and not changed and specifics_held(text, first_text := vault.text_of(first)):
        if vault.pages[first].bad_encoding:  # no merge to offer: curator writes nothing into it
            return Proposal("drop", first, None, f"Drop: {first} holds every name and number of it", evidence, None)
        # Its names and numbers may be paired otherwise ("VLAN 20" for "VLAN 10"): a person confirms.
        merge = plan_merge_into(vault, first, new_sentences(text, first_text, vault.pages[first].title), first_text)
        said = f"Drop: {first} holds every name and number of it; accepting it merges the text anyway"
        return Proposal("drop", first, None, said, evidence, merge, True)
    # What happened to a thing goes on that thing's page, not on a page of its own (a diary page):
    # the nearest page will do when it is near enough to stand beside.
    needed = min(limit, NEAR) if happened_once(text) else limit
    best = evidence[0] if evidence and evidence[0].score >= needed else None
    if best is None and old_values(text):  # a value changed belongs to its thing's page: never a page of its own
        best = next((c for c in evidence if c.score >= NEAR and names_its_thing(vault, c.path, text)), None)
    if handed.title:  # a page handed whole joins only the page of its own name, when it is near it in what it says
        own = named(vault, handed.title)
        best = next((c for c in evidence if c.path in own and c.score >= NEAR), None)
    if best is None and not handed.title and (subject := named(vault, title_for(text), vault.index_page)):
        # The text's subject has a page of that name already: the memory belongs there, whatever
        # the scores said (a second page of one name would take the first one's links).
        best = next((c for c in evidence if c.path in subject), Candidate(subject[0], 0.0, "the text names it"))
    if best is None and not changed and not handed.title and (repeat := _said_near(vault, text, evidence)):
        return repeat  # a repeat in other words, of a page too far in score to take the text
    top = evidence[0].path if best is None and evidence and not handed.title else None  # a page about more
    if top and (passage := passage_near(text, title_for(text), top, vault)):
        best = evidence[0]._replace(why=f'a passage of it is about this: "{quoted(passage, 60)}"')
    if best is None:
        title = handed.title or title_for(text)
        # Beside a named page: a page in a journal folder or among templates would be one of them.
        beside = next((c.path for c in evidence if c.score >= NEAR and comparable(vault, vault.pages[c.path])), None)
        plan = _plan_add(vault, text, title, source, page_type, handed.fields, beside)
        if not handed.title and goes_on(text):
            return _status_drop(vault, text, evidence, plan, title)
        why = "the vault has nothing near it"
        if evidence:
            why = f"no page is near enough ({evidence[0].path} at {evidence[0].score:.2f}, a page needs {needed:.2f})"
        return Proposal("add", plan.details["page"], title, f"Add a page: {why}{_unread(vault)}", evidence, plan)
    # One name stored two ways ("Müller" composed and not), as the resolver compares names.
    if len(twins := sorted(p for p in vault.pages if fold(p) == fold(best.path))) > 1:
        raise EditError(f"pages {', '.join(map(ascii, twins))} go by one name; rename all but one first")
    # A page superseded is the past: its successor holds it now; a translation's original holds it.
    best = best._replace(path=_latest(vault, untranslated(vault, best.path, language_of(text))))
    if (target := link_target(vault.root, best.path)) in vault.pages:  # a link's page: the file itself takes it
        best, target = best._replace(path=target), None
    page_text = vault.text_of(best.path)
    new = new_sentences(text, page_text, vault.pages[best.path].title)
    if not new:
        why = f"Drop: {best.path} says all of it already ({best.why})"
        return Proposal("drop", best.path, None, why, evidence, None)
    # Written back, its bytes that are no UTF-8 would change too: where it goes is still told.
    page = vault.pages[best.path]
    if page.bad_encoding or page.unreadable is not None or target:  # binary, UTF-16, too large, a link to no page
        why_not = "it is not UTF-8 text" if page.bad_encoding else page.unreadable or f"it is a link to {target}"
        why = f"Merge into {best.path} by hand ({best.why}): {why_not}, so curator writes nothing into it"
        return Proposal("merge-into", best.path, None, why, evidence, None)
    changed = changed or sets_value_anew(text, page_text)
    if not changed and (repeat := _said_drop(vault, best.path, new, page_text, evidence)):
        return repeat
    word = changed.group(0) if isinstance(changed, re.Match) and " " not in changed.group(0) else None
    if changed and not (word and re.search(rf"(?i)\b{re.escape(word)}\b", page_text)):  # "deprecated" it says already
        # The page of many facts stays theirs; a book's page too (its frontmatter would print as text).
        if vault.book_contents or (not handed.title and not states_one_fact(page_text, text)):
            return _update(vault, best, text, new, page_text, evidence)
        old_title = vault.pages[best.path].name  # a README goes by its folder
        base = re.sub(r" \(updated(?: \d+)?\)$", "", old_title)  # "X (updated)", then "X (updated 2)", ...
        names = [handed.title or title_for(text), f"{base} (updated)"]
        names += [f"{base} (updated {n})" for n in range(2, 100)]
        # A title is taken as its file would be named (`nightly-backup-job` in a folder of such names).
        kebab = hyphenated(vault, vault.pages[best.path].folder)
        taken = {*vault.resolver.titles(), fold(old_title)}
        title = next((t for t in names if fold(file_name(t, kebab)) not in taken), names[-1])
        plan = _plan_supersede(vault, text, title, source, page_type, best.path)
        why = f"Supersede {best.path}: the text says its fact changed ({best.why})"
        return Proposal("supersede", plan.details["page"], title, why, evidence, plan)
    plan = plan_merge_into(vault, best.path, new, page_text)
    return Proposal("merge-into", best.path, None, f"Merge into {best.path} ({best.why})", evidence, plan)


def _said_near(vault: Vault, text: str, evidence: list[Candidate]) -> Proposal | None:
    """A drop of a text the nearest pages seem to say already, with the merge a person may accept
    instead: a repeat in other words or in the page's other language scores under the bar a page
    needs to take a text (the page is about more than this)."""
    for near in evidence[:SAID_NEAR]:
        page = vault.pages[near.path]
        if page.bad_encoding or page.unreadable is not None:
            continue
        near_text = vault.text_of(near.path)
        new = new_sentences(text, near_text, page.title)
        if new and (repeat := _said_drop(vault, near.path, new, near_text, evidence)):
            return repeat
    return None


def _status_drop(vault: Vault, text: str, evidence: list[Candidate], page_plan: Plan, title: str) -> Proposal:
    """A drop of a status no page is near enough to take ("Forgejo is still not deployed"), which a
    person confirms: the merge into the nearest page, when near, or else the page it would make,
    waits in the queue (sets 2-22: 26 of 88 status updates say so, no new thing; an attacker's new
    facts said with "still not" are not lost)."""
    why = "Drop: a status update (it says a state goes on) and no page is near enough to take it"
    page = vault.pages[evidence[0].path] if evidence and evidence[0].score >= NEAR else None  # no page far off
    if page is not None and not page.bad_encoding and page.unreadable is None:
        near_text = vault.text_of(page.path)
        if new := new_sentences(text, near_text, page.title):
            why = f"{why}; accepting it merges the text into {page.path}"
            return Proposal(
                "drop", page.path, None, why, evidence, plan_merge_into(vault, page.path, new, near_text), True
            )
    made = page_plan.details["page"]
    return Proposal("drop", made, title, f"{why}; accepting it adds the page {made}", evidence, page_plan, True)


def _said_drop(vault: Vault, path: str, new: list[str], page_text: str, evidence: list[Candidate]) -> Proposal | None:
    """A drop a person confirms when the page at `path` seems to say the text's new sentences
    already, with the merge they may accept instead; None when it does not."""
    seeming = seems_said(" ".join(new), page_text, path)
    if seeming is None:
        return None
    return Proposal("drop", path, None, seeming, evidence, plan_merge_into(vault, path, new, page_text), True)


def _update(
    vault: Vault, best: Candidate, text: str, new: list[str], page_text: str, evidence: list[Candidate]
) -> Proposal:
    """A changed fact of a page that states many, written beside its old statement (`update`), or
    where a merge puts it when no sentence can be told as the old one."""
    # A change, dated or not, goes beside the sentence it changes (what happened once is no change:
    # `happened_once` keeps it from here).
    plan = plan_update(vault, best.path, text, page_text)
    if plan is not None:
        said = plan.details["statement"]
        why = f"the text changes what it says in {said[:80] + '...' if len(said) > 80 else said!r} ({best.why})"
    else:
        block = block_holding_old(text, page_text)
        merged = plan_merge_into(vault, best.path, new, page_text, block[1] if block else None)
        plan = replace(merged, details={**merged.details, "decision": "supersede", "superseded": best.path})
        why = (
            f"the value it replaces stands in code or a table (lines {block[0]}-{block[1]}): the text goes after it;"
            f" change the value there by hand ({best.why})"
            if block is not None
            else "the text says a fact of it changed, but no sentence of it states the old value: the text is"
            f" added where a merge adds it; mark the old statement by hand ({best.why})"
        )
    return Proposal("supersede", best.path, None, f"Supersede a statement of {best.path}: {why}", evidence, plan)


def candidates(vault: Vault, text: str, limit: int = 5, read_now: bool = True) -> list[Candidate]:
    """The pages the text may belong on, best first, each with its score and why."""
    scores: dict[str, tuple[float, str]] = {}

    index = vault.index_page  # never the place for a memory: it lists pages
    templates = vault.templates  # nor a template: each page made from it would repeat the memory
    book = book_pages(vault)  # nor a page a book does not list: it is not published

    subject = title_for(text)
    hollow: dict[str, bool] = {}

    def offer(path: str, score: float, why: str) -> None:
        if path not in vault.pages or path == index or path in templates or score <= scores.get(path, (-1.0, ""))[0]:
            return
        if book is not None and path not in book:
            return
        if hollow.setdefault(path, empty(vault, path)):
            # Nothing to judge a match by: only a memory about just the thing its title names fills it.
            if not names_subject(vault, path, subject):
                return
            score, why = max(score, 0.9), f"the page is empty and its title names what the text is about ({why})"
        scores[path] = (score, why)

    about = f" {phrase(subject)} "
    terms = text_terms(vault, text)  # once: every title is compared with them
    title_cover_found = title_cover(vault, terms)
    named_by_subject = bearing_subject_words(vault, subject, title_cover_found)
    head_word = phrase(subject).split()[-1:] if len(phrase(subject).split()) >= 2 else []

    def qualifies(name: str, path: str) -> bool:
        """Whether a one-word name qualifies a subject of two words or more ("unit" of "unit
        test") while other pages bear the subject's words: the subject is another thing."""
        return (
            " " not in phrase(name)
            and bool(head_word)
            and [phrase(name)] != head_word
            and bool(named_by_subject - {path})
        )

    # An incident happens to a thing it names, wherever (in prose: not a path in code, not a folder's overview).
    prose = f" {phrase(NOT_PROSE.sub(' ', text))} " if is_eventish(text) else ""
    said = mentions(vault, text)
    for path, name, kind in said:
        # A name of one word ("Memory", "Array", "move") is also a word of the sentence: less
        # sure than a name of two words or more, and below a title whose every word the text holds.
        one_word = " " not in phrase(name)
        score = (0.84 if one_word else 0.95) if kind == "title" else (0.83 if one_word else 0.9)
        if f" {phrase(name)} " not in about and about not in f" {phrase(name)} ":
            # Named on the way, not what the text is about ("a skip list ... in logarithmic time"):
            # a page to link, not the place for the memory.
            event = f" {phrase(name)} " in prose and title_of(path).lower() not in INDEX_NAMES
            score -= 0.0 if event else ASIDE
        elif qualifies(name, path) or (one_word and inside_a_longer_name(name, text)):
            score -= ASIDE  # qualified ("Redis" of "Redis cache"), or a part of a name ("home" of "Home Assistant")
        elif phrase(name) == phrase(subject):  # the very thing the text is about
            score = max(score, 0.9)
        if one_word and named_everywhere(vault, name, subject):
            score = min(score, NEAR - ASIDE)
        offer(path, score, f"the text names its {kind} {name!r}")
    # The pages BM25 ranks first are read by the model too: on a vault it has not read whole, the
    # page a memory's words point to may be one its first stage passed over (another language's).
    words_first = search_first(vault, text)
    meaning = _by_meaning(vault, text, limit, read_now, words_first)
    cosine = dict(meaning)
    covering = []
    partial = []
    head = subject_head(vault, subject, text)
    for covered, path in title_cover_found:
        if covered >= 0.75:  # its title in other words, or with words around (a ticket's title)
            covering.append((covered, path))
        elif covered >= 0.5 and names_its_modifier(vault, path, terms, head):
            partial.append((cosine.get(path, 0.0), covered, path))
    # Of titles covered alike, the longer names the more particular thing (Chinesischer Restsatz, not Satz).
    covering.sort(key=lambda item: (-item[0], -len(titles_of(vault).units[item[1]]), item[1]))
    for rank, (covered, path) in enumerate(covering[:limit]):
        title = vault.pages[path].name
        one_word = " " not in phrase(title)  # a word of the sentence, perhaps in other words
        score = (0.82 if one_word else 0.85) - 0.05 * rank
        said_on_the_way = one_word and not whole_word_of(vault, title, subject) and path not in named_by_subject
        # Or a part of one of the text's compounds, no word of it ("Werkzeugschrank" holds "tool":
        # an agent's TOOLS.md took a memory about hens and a barn).
        in_a_compound = one_word and not whole_word_of(vault, title, text)
        if said_on_the_way or in_a_compound or qualifies(title, path) or inside_a_longer_name(title, text):
            # One word said on the way ("after the gateway restart"), inside a compound of the
            # subject ("Restsatz" holds "Satz") while other pages bear the subject's words, or
            # qualifying it: a page to link, not the place for the memory.
            score -= ASIDE
        if one_word and named_everywhere(vault, title, subject):
            score = min(score, NEAR - ASIDE)
        offer(path, score, f"its title's words are in the text ({covered:.0%})")
    # A title half named by the word that tells it from its neighbours ("Zertifikat abgelaufen" on
    # the page Zertifikatserneuerung): enough, unless the text is about another thing of its own.
    for rank, (_, covered, path) in enumerate(sorted(partial, reverse=True)[:limit]):
        offer(path, 0.82 - 0.02 * rank, f"the text names what its title is about ({covered:.0%} of the title)")
    for path, similar in meaning:
        offer(path, similar, f"similar in meaning ({similar:.2f})")
    by_words = words_first[0] if meaning and words_first else None  # both uses weigh it against the meaning
    if (agreed := agreed_page(vault, text, subject, meaning, head, by_words)) is not None:
        at = agreed_score(agreed, {path: score for path, (score, _) in scores.items()})
        offer(agreed, at, "its words and its meaning put it first")
    if (rare := rare_words_page(vault, text, subject, head, by_words)) is not None:
        page, words = rare
        offer(page, RARE_NAMES, f"it alone holds words few pages hold: {', '.join(map(repr, words[:4]))}")
    if by_words and (above := outranking_weak_names(by_words, {p: s for p, (s, _) in scores.items()}, cosine)):
        offer(by_words, above, "its words rank it first, and its meaning is nearer than a title said on the way")
    # Of the pages giving the value, the one the text names first ("Loki now keeps 14 days instead
    # of 30" beside a policy page that also says 30 days).
    replacing = sorted(replacing_pages(vault, text)[:limit], key=lambda item: item[0] not in {p for p, _, _ in said})
    for rank, (path, value) in enumerate(replacing):
        why = f"it gives {value}, the value the text says it replaces"
        if only_the_memory_states(vault, path, text, value):
            # An agent's memory written as prose (OpenClaw's MEMORY.md) holds facts, not a list of
            # pages: a fact only it states, changed, is struck there, where the agent reads it.
            scores[path] = (REPLACED - 0.002 * rank, why)
        offer(path, REPLACED - 0.002 * rank, why)
    # An event page points on to the thing it is about: the page it links to. One that links to no
    # page and names what happened (a site's dated news post, "2026-06-20 Corso Leopold") is the
    # only page about its event: the place for more of it; a page named by its date alone is a
    # day's log, never the place.
    for path, (score, why) in list(scores.items()):
        if diary_title(vault.pages[path].title, vault.config.title_chars) is not None:
            owners: set[str] = set()
            for rl in vault.outlinks(path):
                owner = rl.resolution.path or (rl.resolution.alias_of[0] if len(rl.resolution.alias_of) == 1 else None)
                if owner is not None and owner in vault.pages and owner != path:
                    owners.add(owner)
            # Of the pages it links to, the ones its title names are what it is about
            # ("2026-02-02-Wazuh-Deployment" -> Wazuh-SIEM, not the network map); of several it
            # names none of, none is sure ("2026-02-04-Container-Resources" -> a portfolio site?);
            # a list of such events it does not name is none of them (a changelog's index).
            about_words = _title_words(vault.pages[path].title)
            named_owners = {o for o in owners if about_words & _title_words(vault.pages[o].title)}
            owners = named_owners | {o for o in owners - named_owners if not _lists_events(vault, o)}
            sure = named_owners or (owners if len(owners) == 1 else set())
            for owner in sorted(owners):
                offer(owner, score - (0.0 if owner in sure else ASIDE), f"{path} is about one event of it ({why})")
            if names_a_day(vault.pages[path].title):  # a day's log: under the threshold even when named
                scores[path] = (score - 2 * ASIDE, why)
            elif sure:
                scores[path] = (score - ASIDE, why)  # the event page itself: second to what it is about
    # Pages scored alike (one name in several folders: `macos/onedrive`, `ios/onedrive`): the nearer in meaning first.
    ranked = sorted(scores.items(), key=lambda item: (-item[1][0], -cosine.get(item[0], 0.0), item[0]))
    return [Candidate(path, round(score, 3), why) for path, (score, why) in ranked[:limit]]


def _lists_events(vault: Vault, path: str) -> bool:
    """Whether a page links to LISTED event pages or more (a changelog's index): the list of the
    events, not a thing one of them is about."""
    from curator.core.check.index_page import LISTED

    dated = {
        rl.resolution.path
        for rl in vault.outlinks(path)
        if rl.resolution.path in vault.pages
        and diary_title(vault.pages[rl.resolution.path].title, vault.config.title_chars) is not None
    }
    return len(dated) >= LISTED


def _title_words(title: str) -> set[str]:
    """A title's words of three letters or more (NAS, DNS), folded, no stop word and no number (a date's)."""
    return {fold(w) for w in WORD.findall(title) if len(w) >= 3 and not w.isdigit() and fold(w) not in STOP}


def _unread(vault: Vault) -> str:
    from curator.core.meaning.vectors import unread_note

    return f"; {note}" if (note := unread_note(vault)) else ""


def _by_meaning(
    vault: Vault, text: str, limit: int, read_now: bool = True, also: list[str] | None = None
) -> list[tuple[str, float]]:
    from curator.core.meaning.vectors import nearest, provider_for

    provider, _ = provider_for(vault)
    return list(nearest(vault, provider, text, also=also or (), read_now=read_now).scores.items())[:limit]


def _latest(vault: Vault, path: str) -> str:
    """The page that holds a fact now: `path`, or the page its `superseded_by` names, and so on."""
    seen = {path}
    while isinstance(then := vault.pages[path].frontmatter.get("superseded_by"), str):
        found = vault.resolver.resolve(path, then.strip().strip("[]").split("|")[0])
        if found.kind != "page" or found.path is None or found.path in seen:
            break
        path = found.path
        seen.add(path)
    return path


# Fields a successor does not take over: its own type and source, the old page's names and identity.
# Who wrote the old page and when is not who wrote the new one: those fields stay behind.
# (a `permalink:` is the old page's address: a second page claiming it makes its links ambiguous)
_NOT_KEPT = frozenset(
    "type source aliases alias superseded_by id uid title created author authors creator date updated modified"
    " last_modified lastmod permalink".split()
)


def _kept_fields(vault: Vault, old: str) -> str:
    """The old page's frontmatter lines (owner, tags, ...) as written, less those in _NOT_KEPT."""
    from curator.core.read.parse import split_frontmatter

    header, _, _ = split_frontmatter(vault.text_of(old))
    return kept_lines(header or "", _NOT_KEPT)


def _plan_add(
    vault: Vault, text: str, title: str, source: str, page_type: str | None, kept: str, near: str | None
) -> Plan:
    path, page = new_page(vault, text, title, source, page_type, kept, near)
    changes = [FileChange(path, None, page.encode("utf-8"))]
    index = listing_change(vault, path, title)
    if index is not None:
        changes.append(index)
    details = {"decision": "add", "source": source, "page": path}
    return Plan("remember", f"Remember: add {path}", tuple(sorted(changes, key=lambda c: c.path)), {}, 0, (), details)


def _plan_supersede(vault: Vault, text: str, title: str, source: str, page_type: str | None, old: str) -> Plan:
    kind = page_type or vault.pages[old].frontmatter.get("type")
    path, page = new_page(vault, text, title, source, kind, _kept_fields(vault, old), old, successor=True)
    before = (vault.root / old).read_bytes()
    if writes_markdown_links(vault):  # a docs site's vault: where the page is, as its links say it
        successor = posixpath.relpath(path, posixpath.dirname(old) or ".")
    else:
        named = explicit_target(vault.resolver, old, path, False) if path in vault.pages else title_of(path)
        successor = f"[[{named}]]"
    after = set_scalar(before.decode("utf-8"), "superseded_by", successor, old).encode("utf-8")
    changes = [FileChange(old, before, after), FileChange(path, None, page.encode("utf-8"))]
    index = listing_change(vault, path, title)
    if index is not None:
        changes.append(index)
    details = {"decision": "supersede", "source": source, "page": path, "superseded": old}
    reason = f"Remember: {path} supersedes {old}"
    return Plan("remember", reason, tuple(sorted(changes, key=lambda c: c.path)), {}, 0, (), details)
