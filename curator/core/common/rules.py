"""The catalogue of finding rules (id, default severity, meaning) and the Finding they report."""

from __future__ import annotations

from typing import Any, NamedTuple

# NamedTuples, not dataclasses, here and in the other modules a warm lint imports: importing
# `dataclasses` (and `inspect` with it) costs more than the rest of a warm lint of 1,000 pages.


class Rule(NamedTuple):
    id: str
    severity: str  # the severity it reports at when on
    summary: str
    on: bool = True  # whether it runs without being asked for (`rules.<id>` or `--select`)
    detail: str = ""  # what it reports and leaves alone, for the reference (docs/reference/rules.md)


CATALOGUE: tuple[Rule, ...] = (
    Rule("orphan", "warning", "A page with no incoming link and no resolving outgoing link."),
    Rule(
        "dead-link",
        "error",
        "A link whose target resolves to no page or file in the vault.",
        detail='Says "did you mean" for a title one typo away, and `[[Page|alias]]` when the target is an alias; '
        "template placeholders (`[[{{date}}]]`, `[[<% tp.file.title %>]]`) are no links.",
    ),
    Rule("stub", "info", "A page with too little body text to be worth its title.", detail="Under `stub_chars` (120)."),
    Rule(
        "diary-title",
        "warning",
        "A title that names an event (it holds a date, or is very long), not a thing.",
        detail="Dates as ISO, `dd.mm.yyyy`, `dd/mm/yyyy`, `29 Jul 2026`, `July 29, 2026` or with German month names, "
        "or 80+ characters. Daily notes (`[dream] journal_folders`, `.obsidian/`'s, or a folder of five or more "
        "pages 80% of which are titled with a date), drawings and templates are left alone.",
    ),
    Rule(
        "duplicate",
        "warning",
        "Two pages a person would merge: one holds the other's text, or both name one thing (title, name and address).",
        detail="Text: one page holds 85% of the other's own text (template text left out). Identity: one title up to "
        "case, separators and a copy suffix, in a folder or a folder and its subfolder; one name and one website; "
        "one name and a rarely linked page both list. Says which evidence holds. No model. Dated pages, drawings, "
        "templates, parallel platform or language trees, derived series and passages copied into an overview are "
        "never duplicates. See [duplicates](../design/duplicates.md).",
    ),
    Rule(
        "similar",
        "info",
        "Two pages close in meaning, by the embedding model: a suspicion to read, not a verdict. Off unless asked for.",
        on=False,
        detail='Aligned score 0.92, or reworded piece by piece; `[rules] similar = "info"` or `--select similar` '
        "turns it on.",
    ),
    Rule(
        "untyped",
        "info",
        "Frontmatter `type` missing or outside the vault's vocabulary.",
        detail="The vocabulary is the config's `types`, else the default ones and any type three or more pages carry; "
        "only in a vault that uses types (its config names `types`, or a fifth of its pages have a `type`).",
    ),
    Rule("ambiguous-link", "warning", "A link that several pages could answer; the nearest wins."),
    Rule(
        "broken-anchor",
        "warning",
        "A link to a heading or block id that the target does not have.",
        detail="`[[page#heading]]`, `[[page#^block]]`, `[[#heading]]` or `[x](page.md#slug)`.",
    ),
    Rule(
        "bad-frontmatter",
        "error",
        "Frontmatter that does not parse as a YAML mapping.",
        detail="The page is still indexed by its body.",
    ),
    Rule("index-drift", "info", "A page the vault's index page does not list."),
    Rule("index-pressure", "warning", "The index page is over 80% of the size an agent harness loads."),
    Rule(
        "unreadable",
        "error",
        "A page or folder that cannot be read: binary, too large, unreadable, or a symlink leaving the vault.",
    ),
    Rule(
        "bad-encoding", "warning", "A page that is not valid UTF-8.", detail="It is read with replacement characters."
    ),
    Rule(
        "status-update",
        "info",
        "A page that only logs events (merged, deployed, closed) that git holds.",
        detail="`curator remember` drops such texts; the dream merges them into the page they link to.",
    ),
    Rule(
        "secret",
        "error",
        "A credential in a page: a private key, a cloud or API token, a password in a URL.",
        detail="Also a secret assigned to a key word (Yelp's detect-secrets); random-looking strings alone, such as "
        "checksums, and IP addresses are not reported.",
    ),
    Rule("relation-dead", "error", "A typed edge in the frontmatter (`broader: [[X]]`) whose target is no page."),
    Rule(
        "relation-cycle",
        "warning",
        "A page broader than itself (or part of itself) through a chain of pages.",
        detail="One finding per cycle.",
    ),
    Rule(
        "stale",
        "info",
        "A page many pages link to that nobody has edited for a long time.",
        detail="`stale_backlinks` (5) links and no edit for `stale_days` (180), by git's last commit; names the "
        "`owner`.",
    ),
)
BY_ID = {rule.id: rule for rule in CATALOGUE}


SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}


class Finding(NamedTuple):
    rule: str
    severity: str  # "error", "warning" or "info"
    path: str
    line: int | None
    column: int | None
    message: str
    fingerprint: str
    data: dict[str, Any]  # what the message says, as values for scripts

    def as_dict(self) -> dict[str, Any]:
        """Plain data, as stored in the lint cache and printed as JSON (a literal: `_asdict` is slower)."""
        return {
            "rule": self.rule,
            "severity": self.severity,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "fingerprint": self.fingerprint,
            "data": self.data,
        }
