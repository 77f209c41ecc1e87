"""`curator` command line. Exit codes: 0 clean, 1 findings at or above the fail level, 2 usage or I/O error."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from curator import __version__
from curator.cli import documents, output
from curator.cli.changing import (
    apply_arguments,
    dream_arguments,
    fix_arguments,
    merge_arguments,
    reject_arguments,
    remember_arguments,
    rename_arguments,
    run_apply,
    run_dream,
    run_fix,
    run_history,
    run_merge,
    run_reject,
    run_remember,
    run_rename,
    run_suggestions,
    run_trust,
    run_undo,
    suggestions_arguments,
    trust_arguments,
    undo_arguments,
)
from curator.cli.shared import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, loaded_with_model, positive, vault_and_json_arguments
from curator.core.common.errors import REPORTED, one_line


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line and exit code 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _help_formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        output.diagnose(f"{message} (see '{self.prog} --help')")
        raise SystemExit(EXIT_USAGE)


def _help_formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's formatter, told the width as `shutil.get_terminal_size` would find it: argparse
    makes one for every argument added, and importing shutil for it costs a warm lint 3 ms."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return argparse.HelpFormatter(prog, width=(columns or 80) - 2)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or with `command` only that command's (a warm lint starts faster)."""
    parser = _Parser(
        prog="curator",
        description="Keep a Markdown knowledge vault healthy. 'curator [VAULT]' opens the terminal UI.",
    )
    parser.add_argument("--version", action="version", version=f"curator {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, spec in COMMANDS.items():
        if command is None or command == name:
            found = sub.add_parser(name, help=spec.help, description=spec.description)
            spec.arguments(found)
            found.set_defaults(run=spec.run)
    return parser


# Set by a command that needs no interpreter teardown (a lint: nothing left to flush or join but
# stdout), which then leaves with os._exit.
_leave_fast: list[Any] = []


def _quiet_stdout() -> None:
    """Standard output to /dev/null, so the interpreter's own flush at exit meets no closed pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def entry() -> None:
    """The console script (and `python -m curator`): `main`, then exit with its code."""
    code = main()
    if _leave_fast:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BrokenPipeError:  # the reader went away (`curator lint | head`): nothing to say
            pass
        os._exit(code)
    raise SystemExit(code)


def main(argv: list[str] | None = None) -> int:
    _leave_fast.clear()
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(args_list[0] if args_list and args_list[0] in COMMANDS else None)
    try:
        if not args_list or args_list[0] not in (*COMMANDS, "-h", "--help", "--version"):
            return run_tui(args_list)
        args = parser.parse_args(args_list)
    except KeyboardInterrupt:
        return 130
    if getattr(args, "command", None) in RESIDENT_COMMANDS and not resident_refused(args):
        from curator.cli import resident as client

        answered = client.run(args_list, args.vault)
        if answered is not None:
            code, out, err = answered
            sys.stdout.write(out)
            sys.stderr.write(err)
            return code
        code = run_parsed(parser, args)
        client.start(args.vault)  # for the commands to come; this one has its answer
        return code
    return run_parsed(parser, args)


RESIDENT_COMMANDS = ("search", "remember")  # what a vault's resident process answers (curator/resident.py)


def resident_refused(args: argparse.Namespace) -> bool:
    """Whether a command must run in this process: a memory read from its standard input."""
    return getattr(args, "text", None) == "-"


def run_parsed(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run the command `args` names (in this process, or in the vault's resident), its errors as one line."""
    try:
        if not hasattr(args, "run"):  # `curator --help` exits inside argparse; nothing else lands here
            parser.print_help()
            return EXIT_USAGE
        undecodable = _undecodable_argument(args)
        if undecodable is not None:
            output.diagnose(undecodable)
            return EXIT_USAGE
        code: int = args.run(args)
        return code
    except BrokenPipeError:  # the reader went away (`curator history | head -1`): it has what it wanted
        _quiet_stdout()
        return EXIT_OK
    except REPORTED as exc:
        output.diagnose(one_line(exc))
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


def _undecodable_argument(args: argparse.Namespace) -> str | None:
    """What is wrong when an argument that is text (a name, a query, a reason) holds bytes that are
    not UTF-8, which Python keeps as lone surrogates that no file, page or JSON document can hold;
    the vault's path is a path, any bytes the system allows."""
    from curator.core.common.names import escaped, is_utf8

    for name, value in vars(args).items():
        for text in value if isinstance(value, list) else [value]:
            if name != "vault" and isinstance(text, str) and not is_utf8(text):
                return f"the argument {name.upper()} is not valid UTF-8 text ('{escaped(text)}'): give it in UTF-8"
    return None


def _lint_arguments(lint: argparse.ArgumentParser) -> None:
    lint.add_argument("vault", nargs="?", default=".", help="the vault folder (default: the current folder)")
    lint.add_argument("--format", choices=("text", "json", "sarif", "github"), default="text")
    lint.add_argument("--json", action="store_const", const="json", dest="format", help="the same as --format json")
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
    from curator.core.state.config import OFF_UNLESS_ASKED, RULE_SEVERITY

    rules = ", ".join(f"{rule} (off unless named)" if rule in OFF_UNLESS_ASKED else rule for rule in RULE_SEVERITY)
    lint.add_argument(
        "--select", metavar="RULES", help=f"check only these rules (comma-separated), as ruff does: {rules}"
    )
    lint.add_argument("--ignore", metavar="RULES", help="do not check these rules (comma-separated)")


def run_lint(args: argparse.Namespace) -> int:
    from curator.cli import lint_formats as fmt
    from curator.core.check.lint import at_or_above, baseline_document, lint, load_baseline, vault_baseline
    from curator.core.read.scan import check_vault_root
    from curator.core.state.config import load_config
    from curator.core.state.lock import between_writes
    from curator.core.state.statefiles import STATE_DIR

    root = check_vault_root(args.vault)
    config = load_config(root)
    # The vault's own baseline file unless one is named (a fresh --write-baseline ignores both).
    accepted = load_baseline(args.baseline) if args.baseline else vault_baseline(root, config)
    if args.select is not None or args.ignore is not None:
        from curator.core.state.config import select_rules

        config = select_rules(config, args.select, args.ignore)
    with output.progress_bar() as progress:  # a change being written is waited for, never half read
        report = between_writes(
            root, lambda: lint(args.vault, config, use_cache=not args.no_cache, progress=progress), output.diagnose
        )
    _leave_fast[:] = [report]
    for note in report.notes:
        output.diagnose(note)
    if (root / STATE_DIR / "journal").is_dir():  # only edit commands write a journal
        from curator.core.change.changes import pending

        interrupted, ignored = pending(root)
        if ignored:
            output.diagnose(ignored)
    else:
        interrupted = []
    for change_id in interrupted:
        output.diagnose(f"change {change_id} was interrupted; any edit command (e.g. 'curator history') rolls it back")
    if args.write_baseline:
        args.write_baseline.write_text(
            json.dumps(baseline_document(report.findings), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        output.diagnose(f"wrote {len(report.findings)} findings to the baseline {args.write_baseline}")
        return EXIT_OK
    before = len(report.findings)
    report = report._replace(findings=[f for f in report.findings if f.fingerprint not in accepted])
    baselined = before - len(report.findings)
    failed = bool(at_or_above(report.findings, args.fail_on))
    if args.format == "text":
        expand = frozenset(rule.strip() for rule in (args.select or "").split(","))
        output.emit(fmt.format_text(report, baselined, args.fail_on, failed, output.use_colour(), expand))
    elif args.format == "json":
        summary = fmt.summary(report, baselined, args.fail_on, failed)
        output.emit_json(documents.lint(report, summary), large=len(report.findings) > 1000)
    elif args.format == "sarif":
        output.emit_json(fmt.format_sarif(report), large=len(report.findings) > 1000)
    else:
        text = fmt.format_github(report)
        if text:
            output.emit(text)
    return EXIT_FINDINGS if failed else EXIT_OK


def _graph_arguments(graph: argparse.ArgumentParser) -> None:
    graph.add_argument("vault", nargs="?", default=".")
    graph.add_argument("--format", choices=("json", "dot"), default="json")
    graph.add_argument("--json", action="store_const", const="json", dest="format", help="the same as --format json")
    graph.add_argument("--no-cache", action="store_true")


def run_graph(args: argparse.Namespace) -> int:
    from curator.core.read.graph import graph_of, to_dot
    from curator.core.read.loading import load_vault

    vault = load_vault(args.vault, use_cache=not args.no_cache)
    for note in vault.notes:
        output.diagnose(note)
    if args.format == "dot":
        output.emit(to_dot(graph_of(vault)))
    else:
        output.emit_json(documents.graph(graph_of(vault)), large=True)
    return EXIT_OK


def run_tui(args_list: list[str]) -> int:
    """`curator [VAULT] [--theme NAME]`: the interactive view (Textual is imported only here)."""
    parser = _Parser(prog="curator", description="Open the vault in the terminal UI.")
    parser.add_argument("vault", nargs="?", default=".")
    parser.add_argument(
        "--theme", help="curator-dark (default), curator-light, curator-high-contrast, or any Textual theme"
    )
    args = parser.parse_args(args_list)
    from curator.core.read.scan import check_vault_root

    root = check_vault_root(args.vault)
    from textual.theme import BUILTIN_THEMES

    from curator.tui.themes import load_themes

    themes = {*BUILTIN_THEMES, *(theme.name for theme in load_themes())}
    if args.theme and args.theme not in themes:
        output.diagnose(f"no theme {args.theme!r} (try: {', '.join(sorted(themes))})")
        return EXIT_USAGE
    from curator.core.common.progress import phase
    from curator.core.curate.opening import open_vault

    # Read before the app (and numpy, which it imports) starts a thread: parsing may fork workers then.
    with output.progress_bar() as progress:
        opened = open_vault(root, phase(progress, "reading pages"), output.diagnose, output.diagnose)
    from curator.tui.app import CuratorApp

    CuratorApp(root, args.theme, first=opened).run()
    return EXIT_OK


def _search_arguments(find: argparse.ArgumentParser) -> None:
    find.add_argument("vault")
    find.add_argument("query", nargs="+", help="words, plus filters: type:x path:folder tag:x field:>value")
    find.add_argument("--limit", type=positive, default=10, help="results shown (default 10)")
    find.add_argument("--json", action="store_true")


def run_search(args: argparse.Namespace) -> int:
    from curator.core.meaning.search import check_query, search

    check_query(" ".join(args.query))  # before the vault is loaded
    result = search(loaded_with_model(args.vault), " ".join(args.query), args.limit)
    for note in result.notes:
        output.diagnose(note)
    if args.json:
        output.emit_json(documents.search(result))
        return EXIT_OK
    if not result.hits:
        output.emit("no pages match")
    for rank, h in enumerate(result.hits, 1):
        output.emit(f"{rank:>2}. {h.path}  ({', '.join(h.reasons)})")
        if h.section != h.title:
            output.emit(f"    § {h.section}")
        if h.snippet:
            output.emit(f"    {h.snippet}")
    return EXIT_OK


def _index_arguments(index: argparse.ArgumentParser) -> None:
    index.add_argument("vault")


def run_index(args: argparse.Namespace) -> int:
    stopped: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: stopped.append(signum))
    try:  # a SIGTERM (a service manager, `timeout`) stops at the next batch and stores what was read
        return _index(args, lambda: bool(stopped))
    finally:
        signal.signal(signal.SIGTERM, previous)


def _index(args: argparse.Namespace, stopped: Callable[[], bool]) -> int:
    from curator.core.meaning.search import indexed
    from curator.core.meaning.vectors import fill_all, provider_for, readable

    vault = loaded_with_model(args.vault)
    counts = indexed(vault).update(vault)
    read_now = f" ({counts['reindexed']:,} read now)" if counts["reindexed"] else ""  # else read while loading
    output.diagnose(f"words: {counts['pages']:,} pages indexed{read_now}")
    provider, warning = provider_for(vault)
    if warning:
        output.diagnose(f"meaning: not indexed ({warning})")
        return EXIT_OK
    shown, said_at = [0], [time.monotonic()]

    def progress(done: int, total: int) -> None:
        # Every twentieth of the vault, and at least every half minute: the multilingual model
        # reads a long page in seconds, and a twentieth of a large vault in minutes.
        if done == total or done >= shown[0] + max(total // 20, 1) or time.monotonic() - said_at[0] >= 30:
            shown[0], said_at[0] = done, time.monotonic()
            output.diagnose(f"meaning: {done:,}/{total:,} pages read by the model ({provider.label})")

    read = fill_all(vault, provider, progress, stop=stopped)
    if stopped():
        output.diagnose(f"meaning: stopped; the {read:,} pages read now are stored (curator index goes on from there)")
        return 128 + signal.SIGTERM
    pages = len(readable(vault))
    before = f"; the other {pages - read:,} pages' texts were read already" if pages > read else ""
    output.diagnose(f"meaning: {pages:,} pages indexed ({read:,} read now{before})")
    return EXIT_OK


def _query_arguments(query: argparse.ArgumentParser) -> None:
    query.add_argument("vault")
    query.add_argument("expression", nargs="+", help="e.g. 'type:concept AND broader+:[[SOLID]] sort:title'")
    query.add_argument("--json", action="store_true")


def run_query(args: argparse.Namespace) -> int:
    from curator.core.read.loading import load_fields
    from curator.core.read.query import field_value, run

    vault = load_fields(args.vault)
    for note in vault.notes:
        output.diagnose(note)
    text = " ".join(args.expression)
    result = run(vault, text)
    if args.json:
        output.emit_json(documents.query(text, result, vault))
        return EXIT_OK
    if result.kind is not None:
        for a, b in result.edges:
            output.emit(f"{a}  --{result.kind}--  {b}")
        output.diagnose(f"{len(result.edges)} {result.kind} edges")
        return EXIT_OK
    shown = [name for name in result.fields if "." not in name]
    for path in result.pages:
        values = [f"{name}={_shown(field_value(vault, path, name))}" for name in shown]
        output.emit("  ".join([path, *values]))
    output.diagnose(f"{len(result.pages)} pages")
    return EXIT_OK


def _shown(value: object) -> str:
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return "" if value is None else str(value)


def _stats_arguments(stats: argparse.ArgumentParser) -> None:
    stats.add_argument("vault")
    stats.add_argument(
        "--by", default="type,source", metavar="FIELDS", help="frontmatter fields (or folder) to count pages by"
    )
    stats.add_argument("--json", action="store_true")


def run_stats(args: argparse.Namespace) -> int:
    from curator.core.check.lint import lint
    from curator.core.read.loading import load_vault
    from curator.core.read.stats import stats

    by = tuple(name.strip() for name in args.by.split(",") if name.strip())
    report = lint(args.vault)  # lint's findings (its cached result when nothing changed)
    counted = stats(load_vault(args.vault), report.findings, by)
    if args.json:
        output.emit_json(documents.stats(counted))
        return EXIT_OK
    output.emit(f"pages     {counted.pages}")
    kinds = ", ".join(f"{k} {n}" for k, n in counted.links.items() if k not in ("total", "resolved", "dead"))
    links = counted.links
    output.emit(f"links     {links['total']} ({links['resolved']} resolve, {links['dead']} dead; {kinds})")
    by_rule = ", ".join(f"{rule} {n}" for rule, n in counted.findings["by_rule"].items())
    output.emit(f"findings  {sum(counted.findings['by_rule'].values())} ({by_rule or 'none'})")
    for name, values in counted.by.items():
        output.emit(f"by {name}:")
        for value, n in values.items():
            output.emit(f"  {n:>6}  {value or '(none)'}")
    return EXIT_OK


def _mcp_arguments(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("vault", nargs="?", default=".", help="the vault to serve (default: the current folder)")


def run_mcp(args: argparse.Namespace) -> int:
    """Serve the vault to an agent over MCP on stdin/stdout (the SDK is imported only here)."""
    from curator.core.read.scan import check_vault_root

    root = check_vault_root(args.vault)  # a missing vault is one line and exit 2, before any protocol
    try:
        from curator.mcp.server import serve
    except ImportError as exc:  # pragma: no cover - the SDK is a dependency; a broken install says so
        output.diagnose(f"curator mcp needs the MCP SDK ({exc}); install curator again with pip")
        return EXIT_USAGE
    serve(root)
    return EXIT_OK


class Command(NamedTuple):
    help: str  # one line in `curator --help`
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    description: str = ""  # the first line of `curator COMMAND --help` (default: `help`)


_RESIDENT = (
    "The first search or remember of a vault leaves a process that keeps it loaded for the next ones, which it then "
    "answers in a fraction of a second; it leaves after 15 idle minutes (CURATOR_RESIDENT=0: none)."
)
_EDIT = "journaled and undoable; in a git repository, one commit"


# Every command, in the order `curator --help` lists them.
COMMANDS: dict[str, Command] = {
    "lint": Command(
        "check the vault and report findings (for CI and pre-commit)",
        _lint_arguments,
        run_lint,
        "Check the vault headless. Exit 0: nothing at or above --fail-on; 1: findings that are; 2: usage or I/O error.",
    ),
    "graph": Command("print the link graph", _graph_arguments, run_graph, "Print the wikilink graph."),
    "rename": Command(
        "rename a page and rewrite every link to it", rename_arguments, run_rename, f"Rename a page ({_EDIT})."
    ),
    "merge": Command("merge one page into another", merge_arguments, run_merge, f"Merge SOURCE into INTO ({_EDIT})."),
    "history": Command(
        "list applied changes, newest first", vault_and_json_arguments, run_history, "List applied changes."
    ),
    "undo": Command("undo one change, leaving the others", undo_arguments, run_undo, "Undo one change."),
    "dream": Command("propose renames and merges", dream_arguments, run_dream, "Propose renames and merges."),
    "suggestions": Command(
        "list suggestions and their status",
        suggestions_arguments,
        run_suggestions,
        "List suggestions; --diff shows what accepting each pending one would change now.",
    ),
    "apply": Command("accept a suggestion (journaled, undoable)", apply_arguments, run_apply, "Accept a suggestion."),
    "reject": Command("reject a suggestion", reject_arguments, run_reject, "Reject a suggestion."),
    "fix": Command(
        "fix the findings that need no choice (dead links with a suggestion, aliases, ambiguous links, anchors, "
        "index drift)",
        fix_arguments,
        run_fix,
        f"Fix findings that need no human choice; each fix is its own change ({_EDIT}).",
    ),
    "remember": Command(
        "decide where a new memory belongs (add, merge into a page, supersede, or drop) and apply it",
        remember_arguments,
        run_remember,
        f"Decide where a text belongs in the vault. A proposal that writes waits in the review queue (curator"
        f" suggestions); --apply writes it at once ({_EDIT}). {_RESIDENT}",
    ),
    "search": Command(
        "search pages (BM25 + meaning + links)",
        _search_arguments,
        run_search,
        f"Search the vault. {_RESIDENT}",
    ),
    "index": Command(
        "build the search index now: words, and every page read by the model (resumes where it stopped)",
        _index_arguments,
        run_index,
        "Build the whole search index. A search answers without it (the model reads the pages a query needs "
        "first); this reads the rest, storing as it goes: a stop (Ctrl-C, SIGTERM) keeps what was read, "
        "a kill -9 loses at most the last few seconds' reading.",
    ),
    "query": Command(
        "find pages by frontmatter and typed edges (type:, tag:, broader+:[[X]], AND/OR/NOT, sort:)",
        _query_arguments,
        run_query,
        "Query pages by their frontmatter and typed edges; see curator/core/read/query.py for the language.",
    ),
    "stats": Command(
        "count pages, links, findings, and pages by any frontmatter field",
        _stats_arguments,
        run_stats,
        "Count pages, links (by kind), findings (by rule and severity) and pages by field.",
    ),
    "mcp": Command(
        "serve the vault to an agent as its memory over MCP (stdio): search, read, remember, rename, undo",
        _mcp_arguments,
        run_mcp,
        "Serve one vault over the Model Context Protocol on stdin/stdout for an agent (Claude Code, Claude Desktop, "
        "any MCP client). Reading tools answer at once; remember proposes into the review queue unless the vault's "
        "[agent] apply_without_review allows it; every write is journaled and undoable. See docs/guides/agents.md.",
    ),
    "trust": Command(
        "let a vault's config run the command it names (a proposer) or fetch the models it names",
        trust_arguments,
        run_trust,
        "Trust a vault: settings in its .curator.toml that run a command or fetch a model take effect. Trust is kept "
        "outside the "
        "vault, for exactly the settings shown; if they change, the vault is untrusted again.",
    ),
}
