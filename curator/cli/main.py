"""`curator` command line. Exit codes: 0 clean, 1 findings at or above the fail level, 2 usage or I/O error."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from curator import __version__
from curator.cli import output
from curator.core.errors import CuratorError

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
COMMANDS = ("lint", "graph")


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        output.diagnose(f"{message} (see '{self.prog} --help')")
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="curator", description="Keep a Markdown knowledge vault healthy.")
    parser.add_argument("--version", action="version", version=f"curator {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    lint = sub.add_parser(
        "lint",
        help="check the vault and report findings (for CI and pre-commit)",
        description="Check the vault headless. Exit 0: nothing at or above --fail-on; 1: findings that are; "
        "2: usage or I/O error.",
    )
    lint.add_argument("vault", nargs="?", default=".", help="the vault folder (default: the current folder)")
    lint.add_argument("--format", choices=("text", "json", "sarif", "github"), default="text")
    lint.add_argument(
        "--fail-on",
        choices=("error", "warning", "info"),
        default="error",
        help="the lowest severity that fails the run (default: error)",
    )
    lint.add_argument("--baseline", type=Path, metavar="FILE", help="do not report findings listed in FILE")
    lint.add_argument(
        "--write-baseline", type=Path, metavar="FILE", help="write every current finding to FILE and exit 0"
    )
    lint.add_argument("--no-cache", action="store_true", help="neither read nor write the cache in VAULT/.curator/")

    graph = sub.add_parser("graph", help="print the link graph", description="Print the wikilink graph.")
    graph.add_argument("vault", nargs="?", default=".")
    graph.add_argument("--format", choices=("json", "dot"), default="json")
    graph.add_argument("--no-cache", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        if not args_list or (args_list[0] not in COMMANDS and not args_list[0].startswith("-")):
            output.diagnose("the interactive view is not built yet; use 'curator lint VAULT' or 'curator graph VAULT'")
            return EXIT_USAGE
        args = parser.parse_args(args_list)
        if args.command == "lint":
            return run_lint(args)
        if args.command == "graph":
            return run_graph(args)
        parser.print_help()
        return EXIT_USAGE
    except CuratorError as exc:
        output.diagnose(str(exc))
        return EXIT_USAGE
    except OSError as exc:
        output.diagnose(f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": "))
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


def run_lint(args: argparse.Namespace) -> int:
    from curator.cli import lint_formats as fmt
    from curator.core.lint import at_or_above, baseline_document, lint, load_baseline

    accepted = load_baseline(args.baseline) if args.baseline else set()
    report = lint(args.vault, use_cache=not args.no_cache)
    for note in report.notes:
        output.diagnose(note)
    if args.write_baseline:
        args.write_baseline.write_text(
            json.dumps(baseline_document(report.findings), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        output.diagnose(f"wrote {len(report.findings)} findings to the baseline {args.write_baseline}")
        return EXIT_OK
    before = len(report.findings)
    report.findings = [f for f in report.findings if f.fingerprint not in accepted]
    baselined = before - len(report.findings)
    failed = bool(at_or_above(report.findings, args.fail_on))
    if args.format == "text":
        output.emit(fmt.format_text(report, baselined, args.fail_on, failed, output.use_colour()))
    elif args.format == "json":
        output.emit_json(fmt.format_json(report, baselined, args.fail_on, failed))
    elif args.format == "sarif":
        output.emit_json(fmt.format_sarif(report))
    else:
        text = fmt.format_github(report)
        if text:
            output.emit(text)
    return EXIT_FINDINGS if failed else EXIT_OK


def run_graph(args: argparse.Namespace) -> int:
    from curator.core.graph import graph_document, to_dot
    from curator.core.vault import load_vault

    vault = load_vault(args.vault, use_cache=not args.no_cache)
    for note in vault.notes:
        output.diagnose(note)
    if args.format == "dot":
        output.emit(to_dot(vault.graph))
    else:
        output.emit_json(graph_document(vault.graph))
    return EXIT_OK
