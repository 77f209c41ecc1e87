"""Lint output formats: text for people, SARIF for code scanning, GitHub annotations, and the summary
that the text and the JSON document (documents.py) share."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

from curator import __version__
from curator.core.check.lint import LintReport
from curator.core.state.config import OFF_UNLESS_ASKED, RULE_SEVERITY

_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_ANSI = {"error": "\x1b[31m", "warning": "\x1b[33m", "info": "\x1b[36m", "bold": "\x1b[1m", "dim": "\x1b[2m"}
_RESET = "\x1b[0m"


def display_path(vault: str, path: str) -> str:
    """A finding's file as the caller sees it: relative to the working folder when inside it."""
    full = os.path.join(vault, path)
    try:
        relative = os.path.relpath(full)
    except ValueError:
        return Path(full).as_posix()
    return Path(full if relative.startswith("..") else relative).as_posix()


def summary(report: LintReport, baselined: int, fail_on: str, failed: bool) -> dict[str, Any]:
    by_severity = Counter(f.severity for f in report.findings)
    return {
        "pages": report.pages,
        "links": report.links,
        "findings": len(report.findings),
        "by_severity": {s: by_severity.get(s, 0) for s in ("error", "warning", "info")},
        "by_rule": dict(sorted(Counter(f.rule for f in report.findings).items())),
        "baselined": baselined,
        "fail_on": fail_on,
        "failed": failed,
        "similarity": report.similarity,
        "pages_by": report.pages_by or {},
    }


GROUP_AT = 50  # a rule with more findings than this is one line in the text output, unless selected


def format_text(
    report: LintReport, baselined: int, fail_on: str, failed: bool, colour: bool, expand: frozenset[str] = frozenset()
) -> str:
    """Findings by page; a rule with more than GROUP_AT findings is one line with its count and
    an example (a docs vault's thousand orphans would hide the ten errors), unless it is in
    `expand` (the rules `--select` names) or gives errors (a new user had to ask for JSON to see
    which 57 links were dead). Those lines stand last, above the totals, where a reader
    of a long report looks (at the top, a new user read the totals' 267 info as hidden)."""

    def paint(style: str, text: str) -> str:
        return f"{_ANSI[style]}{text}{_RESET}" if colour else text

    counts_by_rule = Counter(f.rule for f in report.findings)
    errors = {f.rule for f in report.findings if f.severity == "error"}  # each error is shown: what fails the run
    grouped = {rule for rule, n in counts_by_rule.items() if n > GROUP_AT and rule not in expand | errors}
    lines: list[str] = []
    current = None
    for f in report.findings:
        if f.rule in grouped:
            continue
        if f.path != current:
            if current is not None:
                lines.append("")
            lines.append(paint("bold", display_path(report.vault, f.path)))
            current = f.path
        where = f"{f.line}:{f.column or 1}" if f.line else ""
        lines.append(
            f"  {where:>8}  {paint(f.severity, f'{f.severity:<7}')}  {paint('dim', f'{f.rule:<15}')} {f.message}"
        )
    if grouped and lines:
        lines.append("")
    for rule in sorted(grouped):
        first = next(f for f in report.findings if f.rule == rule)
        lines.append(
            f"{paint(first.severity, f'{first.severity:<7}')}  {paint('bold', rule)}: {counts_by_rule[rule]:,} findings"
            f" (list them with --select {rule}), e.g. {display_path(report.vault, first.path)}: {first.message}"
        )
    s = summary(report, baselined, fail_on, failed)
    counts = s["by_severity"]
    tail = (
        f"{s['findings']} findings ({counts['error']} errors, {counts['warning']} warnings, {counts['info']} info)"
        f" in {s['pages']} pages, {s['links']} links"
    )
    if baselined:
        tail += f"; {baselined} accepted by the baseline"
    if report.similarity:
        tail += f"\nsimilar pages scored with {report.similarity['provider']}"
    if lines and lines[-1]:
        lines.append("")
    lines.append(tail if not failed else paint("error", tail + f" — failing at {fail_on} or above"))
    return "\n".join(lines)


def format_sarif(report: LintReport) -> dict[str, Any]:
    """SARIF 2.1.0, as GitHub code scanning reads it (file paths relative to the working folder)."""
    from curator.core.check.catalogue import CATALOGUE  # the rules' modules: a warm text or JSON lint needs none

    index = {rule.id: i for i, rule in enumerate(CATALOGUE)}
    rules = [
        {
            "id": rule.id,
            "name": "".join(part.capitalize() for part in rule.id.split("-")),
            "shortDescription": {"text": rule.summary},
            "defaultConfiguration": {
                "level": _SARIF_LEVEL[RULE_SEVERITY[rule.id]],
                "enabled": rule.id not in OFF_UNLESS_ASKED,
            },
        }
        for rule in CATALOGUE
    ]
    results = []
    for f in report.findings:
        region: dict[str, int] = {"startLine": f.line or 1}
        if f.column:
            region["startColumn"] = f.column
        results.append(
            {
                "ruleId": f.rule,
                "ruleIndex": index[f.rule],
                "level": _SARIF_LEVEL[f.severity],
                "message": {"text": f.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": _uri(report.vault, f.path)},
                            "region": region,
                        }
                    }
                ],
                "partialFingerprints": {"curatorFinding/v1": f.fingerprint},
            }
        )
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "curator", "version": __version__, "rules": rules}},
                "results": results,
            }
        ],
    }


def _uri(vault: str, path: str) -> str:
    """Relative to the working folder (a repository checkout in CI), else an absolute file URI."""
    shown = display_path(vault, path)
    if Path(shown).is_absolute():
        return Path(shown).as_uri()
    return quote(shown, safe="/")


def format_github(report: LintReport) -> str:
    """GitHub Actions workflow commands: one annotation line per finding."""
    level = {"error": "error", "warning": "warning", "info": "notice"}
    lines = []
    for f in report.findings:
        props = [f"file={_gh_property(display_path(report.vault, f.path))}"]
        if f.line:
            props.append(f"line={f.line}")
            if f.column:
                props.append(f"col={f.column}")
        props.append(f"title={_gh_property(f'curator {f.rule}')}")
        lines.append(f"::{level[f.severity]} {','.join(props)}::{_gh_data(f.message)}")
    return "\n".join(lines)


def _gh_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")
