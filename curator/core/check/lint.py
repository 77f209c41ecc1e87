"""Lint a vault: findings, baselines and the fail rule, with the last result reused when nothing changed."""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from curator import __version__
from curator.core.common.errors import BaselineError, EditError
from curator.core.common.fast import blake2b
from curator.core.common.progress import Phased, phase
from curator.core.common.rules import SEVERITY_RANK, Finding
from curator.core.common.vaultpath import inside_vault, read_regular
from curator.core.read.link_order import dendron_files
from curator.core.read.scan import ScanResult, check_vault_root, scan_vault
from curator.core.state import cache
from curator.core.state.config import Config, load_config

if TYPE_CHECKING:
    from curator.core.change.edits import Plan
    from curator.core.read.vault import Vault

LINT_CACHE = "lint.json"
BASELINE_FORMAT = "curator.baseline/1"


class LintReport(NamedTuple):
    vault: str
    findings: list[Finding]
    pages: int
    links: int
    notes: list[str]
    from_cache: bool = False
    similarity: dict[str, Any] | None = None  # the provider that scored `similar` pairs, when that rule ran
    pages_by: dict[str, dict[str, int]] | None = None  # field -> value -> pages (provenance: source, type)


def lint(
    root: Path | str,
    config: Config | None = None,
    use_cache: bool = True,
    progress: Phased | None = None,
) -> LintReport:
    """Check every page; an unchanged vault (same files, sizes, times, config) reuses the last result."""
    root = check_vault_root(root)
    if config is None:
        config = load_config(root)
    cached = use_cache and cache.has_cache(root)
    scan = scan_vault(root, config.ignore, sizes=cached)  # nothing cached: no sizes to compare with
    last = _last_result(root, scan, config) if cached else None
    if last is not None:
        findings, stored = last
        similarity = stored.get("similarity")
        if similarity is not None:
            similarity = {**similarity, "stages": []}  # nothing was embedded this time
        return LintReport(
            vault=str(root),
            findings=findings,
            pages=stored["pages"],
            links=stored["links"],
            notes=[],
            from_cache=True,
            similarity=similarity,
            pages_by=stored.get("pages_by"),
        )
    # Parsing and checking load more code; an unchanged vault never needs it.
    from curator.core.check.findings import check_vault
    from curator.core.common.fast import gc_paused
    from curator.core.read.loading import load_vault

    reading = phase(progress, "reading pages")
    vault = load_vault(root, config, use_cache=use_cache, scan=scan, progress=reading)  # pauses the collector itself
    similar = None
    # What follows makes millions of objects and few cycles: the collector would walk them again and again.
    with gc_paused():
        if config.severity("similar") is not None:
            from curator.core.meaning.similarity import find_similar

            similar = find_similar(vault, progress=progress)
        findings = check_vault(vault, similar)
    notes = list(vault.notes)
    similarity = None
    if similar is not None:
        similarity = {
            "provider": similar.provider,
            "fallback_reason": similar.warning,
            "stages": [stage.as_dict() for stage in similar.stages],
        }
        if similar.warning:
            notes.append(similar.warning)
    report = LintReport(
        vault=str(root),
        findings=findings,
        pages=len(vault.pages),
        links=len(vault.links),
        notes=notes,
        similarity=similarity,
        pages_by=pages_by(vault),
    )
    if use_cache:
        _store(vault, scan, config, findings, report.similarity)
    return report


def checked_findings(vault: Vault, scan: ScanResult, config: Config) -> list[Finding]:
    """The findings of a loaded vault (the `similar` rule's left pending): the last lint's when the
    vault's files and the config are as they were then, else checked now and kept for the next
    lint. `scan` is the scan the vault was loaded from (sizes read)."""
    from curator.core.check.findings import check_vault
    from curator.core.meaning.similarity import SimilarReport

    similar_on = config.severity("similar") is not None  # its pairs come later, from the model
    if vault.use_cache and not similar_on and cache.has_cache(vault.root):
        last = _last_result(vault.root, scan, config)
        if last is not None:
            return last[0]
    findings = check_vault(vault, SimilarReport("pending"))
    if vault.use_cache and not similar_on:
        _store(vault, scan, config, findings, None)
    return findings


def _last_result(root: Path, scan: ScanResult, config: Config) -> tuple[list[Finding], dict[str, Any]] | None:
    """The stored lint result (this user's own) and its findings, when it was made of these files and this config."""
    last = cache.read_json(cache.cache_path(root, LINT_CACHE), sealed=True)
    if not isinstance(last, dict) or any(key not in last for key in ("pages", "links", "findings", "pages_by")):
        return None
    if last.get("signature") != _signature(root, scan.pages, scan, config):
        return None
    try:
        return [Finding(**f) for f in last["findings"]], last
    except (KeyError, TypeError):
        return None


def _store(
    vault: Vault, scan: ScanResult, config: Config, findings: list[Finding], similarity: dict[str, Any] | None
) -> None:
    newest = max((p.mtime_ns for p in vault.pages.values()), default=0)
    if vault.notes or time.time_ns() - newest <= cache.RACY_NS:
        return  # a page written this moment may change again unseen by its time stamp
    cache.write_json(
        vault.root,
        LINT_CACHE,
        {
            "signature": _signature(vault.root, vault.pages.values(), scan, config),  # sizes as read
            "pages": len(vault.pages),
            "links": len(vault.links),
            "similarity": similarity and {k: v for k, v in similarity.items() if k != "stages"},
            "findings": [f.as_dict() for f in findings],
            "pages_by": pages_by(vault),
        },
        sealed=True,
    )


PROVENANCE = ("source", "type")  # frontmatter fields lint counts pages by
WEB_ADDRESS = "(a web address)"
_ADDRESS = re.compile(r"[a-z][a-z0-9+.-]*://", re.IGNORECASE)


def pages_by(vault: Vault) -> dict[str, dict[str, int]]:
    """How many pages have each value of `source` (manual, agent, ...) and `type`; "" for none. A
    web address (a web clipper's `source: https://...`) is where a page came from, not who wrote
    it: such pages count as one value, WEB_ADDRESS."""
    counts: dict[str, dict[str, int]] = {field: {} for field in PROVENANCE}
    for page in vault.pages.values():
        for field in PROVENANCE:
            value = page.frontmatter.get(field)
            key = value if isinstance(value, str) else ""
            key = WEB_ADDRESS if _ADDRESS.match(key) else key
            counts[field][key] = counts[field].get(key, 0) + 1
    return {field: dict(sorted(values.items())) for field, values in counts.items()}


class _Stat(Protocol):
    """A page file's identity for the signature: a scan entry, or a page as read."""

    @property
    def path(self) -> str: ...
    @property
    def size(self) -> int: ...
    @property
    def mtime_ns(self) -> int: ...


@functools.cache
def _code() -> str:
    """The running curator: its version and its modules' sizes and times. A curator edited or
    upgraded under one version number checks the vault again instead of giving an older one's findings."""
    package = Path(__file__).resolve().parents[2]
    stats = [(f.relative_to(package), f.stat()) for f in sorted(package.rglob("*.py"))]
    return __version__ + "".join(f"\0{name}:{st.st_size}:{st.st_mtime_ns}" for name, st in stats)


def _signature(root: Path, pages: Iterable[_Stat], scan: ScanResult, config: Config) -> str:
    digest = blake2b(digest_size=16)
    digest.update(f"{_code()}\0{config.fingerprint()}\n".encode())
    # Dendron's files say how links read, whether or not the vault's `ignore` leaves them out.
    digest.update(b"dendron\n" if dendron_files(root) else b"\n")
    if config.severity("stale") is not None:  # a page grows stale by the day, not by its file
        digest.update(f"day {int(time.time() // 86_400)}\n".encode())
    digest.update("\n".join([f"{p.path}\0{p.size}\0{p.mtime_ns}" for p in pages]).encode())
    digest.update(b"\n\1")
    digest.update("\n".join(scan.attachments).encode())
    digest.update(b"\n\3")  # what the ignore globs leave out: a dead link's file may be one
    digest.update("\n".join(f"{path}\0{time}" for path, time in scan.left_out).encode())
    digest.update(b"\n\2")
    digest.update("\n".join(f"{p.path}\0{p.reason}" for p in scan.problems).encode())
    return digest.hexdigest()


def at_or_above(findings: list[Finding], level: str) -> list[Finding]:
    rank = SEVERITY_RANK[level]
    return [f for f in findings if SEVERITY_RANK[f.severity] >= rank]


def load_baseline(path: Path) -> set[str]:
    """Fingerprints a team has accepted; the file is what `--write-baseline` wrote."""
    try:
        data = json.loads(read_regular(path).decode("utf-8"))  # a FIFO is refused, not waited on
    except FileNotFoundError as exc:
        raise BaselineError(f"baseline not found: {path} (create it with --write-baseline)") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise BaselineError(f"baseline cannot be read: {path}: {exc}") from exc
    except (ValueError, RecursionError) as exc:  # RecursionError: nested too deep to read
        raise BaselineError(f"baseline is not JSON: {path}: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != BASELINE_FORMAT:
        raise BaselineError(f"baseline is not a curator baseline ({BASELINE_FORMAT}): {path}")
    entries = data.get("findings")
    if not isinstance(entries, list) or not all(isinstance(e, dict) and "fingerprint" in e for e in entries):
        raise BaselineError(f"baseline has no list of findings with fingerprints: {path}")
    return {str(e["fingerprint"]) for e in entries}


def vault_baseline(root: Path, config: Config) -> set[str]:
    """The fingerprints in the vault's own baseline file (`baseline` in its config), if it has one."""
    path = baseline_file(root, config)
    return load_baseline(path) if path.is_file() else set()


def baseline_file(root: Path, config: Config) -> Path:
    """The vault's own baseline file; one its config names outside the vault (or in `.git/`) is
    refused, as the config is the vault's data and the file could be any file on the machine."""
    path = root / config.baseline
    if inside_vault(root, config.baseline) is None:  # taken from the vault, as `path` is
        origin = config.origins.get("baseline")
        named = f" (set in {origin})" if origin is not None else ""
        raise BaselineError(
            f"the vault's baseline {config.baseline!r}{named} resolves outside the vault or into .git/; "
            "name a file in the vault, or pass --baseline FILE"
        )
    return path


def plan_ignore(root: Path, config: Config, findings: list[Finding]) -> Plan:
    """A change that adds `findings` to the vault's baseline file (made when missing), so lint and
    the TUI stop reporting them; undone like any other change."""
    from curator.core.change.edits import FileChange, Plan

    path = baseline_file(root, config)
    before = path.read_bytes() if path.is_file() else None
    kept: list[dict[str, Any]] = []
    if before is not None:
        load_baseline(path)  # refuses a file that is not a baseline
        kept = json.loads(before)["findings"]
    known = {e["fingerprint"] for e in kept}
    new = [f for f in findings if f.fingerprint not in known]
    if not new:
        raise EditError("already in the baseline; nothing was changed")
    entries = [*kept, *baseline_document(new)["findings"]]
    body = {
        "format": BASELINE_FORMAT,
        "findings": sorted(entries, key=lambda e: (e["path"], e["rule"], e["fingerprint"])),
    }
    after = (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode()
    what = f"{new[0].rule} in {new[0].path}" if len(new) == 1 else f"{len(new)} findings"
    return Plan(
        "ignore",
        f"Ignore {what} (baseline {config.baseline})",
        (FileChange(config.baseline, before, after),),
        {},
        0,
        (),
        {"baseline": config.baseline, "fingerprints": ",".join(f.fingerprint for f in new)},
    )


def baseline_document(findings: list[Finding]) -> dict[str, Any]:
    """A baseline lists each accepted finding's fingerprint, with rule, page and message to read by."""
    return {
        "format": BASELINE_FORMAT,
        "findings": [
            {"fingerprint": f.fingerprint, "rule": f.rule, "path": f.path, "message": f.message}
            for f in sorted(findings, key=lambda f: (f.path, f.rule, f.fingerprint))
        ],
    }
