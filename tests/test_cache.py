"""The derived store: reused when nothing changed, never stale, and the only thing lint writes."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import make_vault

import curator.core.read.loading as loading
import curator.core.read.reading as reading
import curator.core.state.statefiles as statefiles
from curator.core.check.lint import lint
from curator.core.read.loading import load_fields, load_vault
from curator.core.read.page import page_from_row, rows_json
from curator.core.read.query import run
from curator.core.state.config import Config


def age(root: Path, seconds: float = 60) -> None:
    """Make every page look written `seconds` ago, outside the racy window."""
    then = time.time_ns() - int(seconds * 1e9)
    for path in root.rglob("*.md"):
        os.utime(path, ns=(then, then))


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records the text of every page that gets parsed."""
    seen: list[str] = []
    real = reading.parse_page

    def counting(text: str):  # type: ignore[no-untyped-def]
        seen.append(text)
        return real(text)

    monkeypatch.setattr(reading, "parse_page", counting)
    return seen


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {
        str(p.relative_to(root)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in root.rglob("*")
        if p.is_file() and ".curator" not in p.relative_to(root).parts
    }


def test_unchanged_pages_are_not_parsed_again(tmp_path: Path, parses: list[str]) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "[[b]]", "b.md": "[[a]]", "c.md": "x"})
    age(root)
    first = load_vault(root)
    assert len(parses) == 3
    second = load_vault(root)
    assert len(parses) == 3
    assert first.pages == second.pages


def test_changed_and_deleted_pages_leave_no_stale_entry(tmp_path: Path, parses: list[str]) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "[[b]]", "b.md": "[[a]]", "c.md": "x"})
    age(root)
    load_vault(root)
    (root / "a.md").write_text("[[c]] and more")
    (root / "b.md").unlink()
    age(root)
    vault = load_vault(root)
    assert sorted(vault.pages) == ["a.md", "c.md"]
    assert [lk.target for lk in vault.pages["a.md"].links] == ["c"]
    stored = json.loads((root / ".curator" / "cache" / "pages.json").read_text())
    assert sorted(stored["pages"]) == ["a.md", "c.md"]


def test_a_touched_page_with_the_same_bytes_is_not_parsed_again(tmp_path: Path, parses: list[str]) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "[[b]]", "b.md": "x"})
    age(root, 60)
    load_vault(root)
    age(root, 30)  # a checkout or a touch: new mtime, same content
    count = len(parses)
    assert load_vault(root).pages["a.md"].links[0].target == "b"
    assert len(parses) == count


def test_a_same_size_edit_inside_the_racy_window_is_seen(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "[[bb]]"})
    stamp = (root / "a.md").stat().st_mtime_ns
    load_vault(root)
    (root / "a.md").write_text("[[cc]]")  # same size
    os.utime(root / "a.md", ns=(stamp, stamp))  # and the same timestamp
    assert load_vault(root).pages["a.md"].links[0].target == "cc"


def test_a_curator_edited_or_upgraded_under_one_version_number_checks_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import curator.core.check.lint as linting

    root = make_vault(tmp_path / "v", {"a.md": "[[gone]]"})
    age(root)
    assert not lint(root).from_cache and lint(root).from_cache
    monkeypatch.setattr(linting, "_code", lambda: "0.1.0 with one module edited")
    assert not lint(root).from_cache


def test_lint_reuses_its_last_result_only_while_nothing_changed(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "[[gone]]", "b.md": "x"})
    age(root)
    first = lint(root)
    assert not first.from_cache
    second = lint(root)
    assert second.from_cache and second.findings == first.findings
    (root / "b.md").write_text("[[also gone]]")
    age(root)
    third = lint(root)
    assert not third.from_cache
    assert sorted(f.data["target"] for f in third.findings if f.rule == "dead-link") == ["also gone", "gone"]
    changed_config = lint(root, Config(rules={"dead-link": "off"}))
    assert not changed_config.from_cache
    assert not [f for f in changed_config.findings if f.rule == "dead-link"]


def test_the_tui_and_lint_share_the_last_result_while_nothing_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import curator.core.check.findings as findings_module
    from curator.core.check.lint import checked_findings
    from curator.core.read.scan import scan_vault
    from curator.core.state.config import load_config

    root = make_vault(tmp_path / "v", {"a.md": "[[gone]]", "b.md": "x"})
    age(root)
    config = load_config(root)

    def checked() -> list[Any]:
        scan = scan_vault(root, config.ignore, sizes=True)
        return checked_findings(load_vault(root, config, scan=scan), scan, config)

    first = checked()  # checked, and kept for lint
    assert lint(root).from_cache and lint(root).findings == first
    runs: list[int] = []
    real = findings_module.findings_of
    monkeypatch.setattr(findings_module, "findings_of", lambda *a: runs.append(1) or real(*a))
    assert checked() == first and runs == []  # the last result, not checked again
    (root / "b.md").write_text("[[also gone]]")
    age(root)
    assert sorted(f.data["target"] for f in checked() if f.rule == "dead-link") == ["also gone", "gone"]
    assert runs == [1]


def test_lint_writes_nothing_outside_its_state_folder(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "[[gone]]", "sub/b.md": "x", "pic.png": b"\x89PNG"})
    age(root)
    before = snapshot(root)
    lint(root)
    lint(root)
    assert snapshot(root) == before
    state = root / ".curator"
    names = sorted(p.name for p in state.rglob("*") if p.is_file())
    assert [n for n in names if "-" not in n] == [".gitignore", "lint.json", "pages.json"]
    assert [n for n in names if "-" in n] == ["duplicate-reads.json"]  # each page's words, by content hash
    lint(root, Config(rules={"similar": "info"}))
    assert snapshot(root) == before
    names = sorted(p.name for p in state.rglob("*") if p.is_file())
    kinds = sorted(n.split("-", 1)[0] + "." + n.rsplit(".", 1)[1] for n in names if "-" in n)
    # What the template counts of each page and what each page says of its own; stage one's frame and page vectors.
    assert kinds == [
        "distinct.json",
        "duplicate.json",
        "frame.npy",
        "static.json",
        "static.npy",
        "template.json",
        "template.npy",
    ]
    assert "*" in (state / ".gitignore").read_text()


def test_deleting_or_corrupting_the_cache_only_costs_time(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "[[gone]]"})
    age(root)
    expected = lint(root).findings
    shutil.rmtree(root / ".curator")
    assert lint(root).findings == expected
    for name in ("pages.json", "lint.json"):
        (root / ".curator" / "cache" / name).write_text("{not json")
    assert lint(root).findings == expected
    (root / ".curator" / "cache" / "pages.json").write_text('{"format": 1, "config": [10485760], "pages": []}')
    assert lint(root, use_cache=True).findings == expected


def test_an_unwritable_vault_still_lints_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "[[gone]]"})

    def refuse(path: Path, data: bytes) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(statefiles, "write_atomic", refuse)
    report = lint(root)
    assert [f.rule for f in report.findings if f.rule == "dead-link"] == ["dead-link"]
    assert report.notes and "Permission denied" in report.notes[0]


def test_no_cache_reads_and_writes_nothing(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "x"})
    lint(root, use_cache=False)
    assert not (root / ".curator").exists()


def _many_pages() -> dict[str, str | bytes]:
    return {
        f"f{i % 7}/p{i}.md": (
            f'---\ntype: topic\nrelated: "[[p{i + 1}]]"\n---\n# P{i}\n[[p{i * 3}]] [x](../f0/p0.md) ^b{i}\n'
        )
        for i in range(60)
    }


@pytest.mark.parametrize("parent_works", [True, False])
def test_parsing_in_worker_processes_gives_the_same_vault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parent_works: bool
) -> None:
    root = make_vault(tmp_path / "v", _many_pages())
    serial = load_vault(root, use_cache=False)
    monkeypatch.setattr(reading, "PARALLEL_MIN_PAGES", 10)
    monkeypatch.setattr(reading, "_CHUNK", 7)
    monkeypatch.setattr(reading, "_PARENT_WORKS", parent_works)  # False: every page from a worker
    forked = _count_forked_loads(monkeypatch)
    parallel = load_vault(root)
    assert forked == [1]
    assert parallel.pages == serial.pages
    assert list(parallel.pages) == list(serial.pages)
    assert parallel.links == serial.links
    stored = json.loads((root / ".curator" / "cache" / "pages.json").read_text())
    assert {path: page_from_row(path, row) for path, row in stored["pages"].items()} == serial.pages


def test_stored_rows_give_back_every_kind_of_page(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        "links.md": '---\nrelated: "[[b]]"\n---\n# T\n![[b#H|x]] [m](b.md#h) ^id\nSub\n---\n',
        "b.md": "password = 'hunter2hunter2'\n",
        "bad yaml.md": "---\na: [1\n---\nx",
        "latin.md": "caf\xe9".encode("latin-1"),
        "binary.md": b"\x00\x01",
        "done.md": "Merged PR #12.",
        "big.md": "x" * 2000,
    }
    root = make_vault(tmp_path / "v", files)
    (root / ".curator.toml").write_text("max_page_bytes = 1000\n")
    vault = load_vault(root)
    stored = json.loads((root / ".curator" / "cache" / "pages.json").read_text())["pages"]
    assert {path: page_from_row(path, row) for path, row in stored.items()} == vault.pages
    assert json.loads(b"{" + rows_json(vault.pages.values()) + b"}") == stored and rows_json([]) == b""
    kinds = vault.pages
    assert kinds["big.md"].unreadable and kinds["binary.md"].unreadable and kinds["latin.md"].bad_encoding
    assert kinds["bad yaml.md"].frontmatter_error and kinds["b.md"].maybe_secret and kinds["done.md"].status_update


def test_workers_send_chunks_larger_than_a_pipe_holds_and_fewer_chunks_when_there_are_many(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chunk's rows pass a pipe in parts (64 KiB at a time); chunks grow so that their numbers fit one pipe."""
    files = {f"p{i}.md": f"# P{i}\n" + " ".join(f"[[target {i} {j}|label {j}]]" for j in range(400)) for i in range(40)}
    root = make_vault(tmp_path / "v", files)
    serial = load_vault(root, use_cache=False)
    monkeypatch.setattr(reading, "PARALLEL_MIN_PAGES", 10)
    monkeypatch.setattr(reading, "_CHUNK", 2)
    monkeypatch.setattr(reading, "_MAX_CHUNKS", 5)  # 40 pages in at most 5 chunks: 8 a chunk, ~250 KB of rows
    monkeypatch.setattr(reading, "_PARENT_WORKS", False)  # every chunk through a pipe
    forked = _count_forked_loads(monkeypatch)
    parallel = load_vault(root, use_cache=False)
    assert forked == [1]
    assert parallel.pages == serial.pages and parallel.links == serial.links


def test_a_read_given_up_midway_leaves_no_worker_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_vault(tmp_path / "v", _many_pages())
    monkeypatch.setattr(reading, "_CHUNK", 3)
    from curator.core.read.scan import scan_vault

    items = [(entry, None) for entry in scan_vault(root, ()).pages]
    before = _children()
    pages = reading._read_pages_forked(root, items, 1 << 20, True, 2)
    assert len([next(pages) for _ in range(4)]) == 4
    workers = _children() - before
    assert workers  # the read forked its workers
    pages.close()  # what an error or ctrl-c in the caller does
    for pid in workers:  # none left, running or unreaped (children of other tests are not its business)
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def _children() -> set[int]:
    """This process's children, running or unreaped (Linux's /proc)."""
    found: set[int] = set()
    for task in Path("/proc/self/task").iterdir():
        found.update(int(pid) for pid in (task / "children").read_text().split())
    return found


def test_pages_a_dead_worker_took_are_parsed_by_the_parent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_vault(tmp_path / "v", _many_pages())
    serial = load_vault(root, use_cache=False)

    def dies_after_taking_a_chunk(root: Path, chunks: list, max_bytes: int, rows: bool, jobs: int, out: int) -> None:  # type: ignore[type-arg]
        reading._take(jobs)
        os._exit(1)  # killed before it delivered anything

    monkeypatch.setattr(reading, "PARALLEL_MIN_PAGES", 10)
    monkeypatch.setattr(reading, "_CHUNK", 7)
    monkeypatch.setattr(reading, "_PARENT_WORKS", False)
    monkeypatch.setattr(reading, "_worker", dies_after_taking_a_chunk)
    forked = _count_forked_loads(monkeypatch)
    assert load_vault(root, use_cache=False).pages == serial.pages
    assert forked == [1]


def _count_forked_loads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make the forked path run on any machine (two cores assumed), and count that it did."""
    calls = [0]
    real = reading._read_pages_forked

    def counted(*args: Any) -> Any:
        calls[0] += 1
        return real(*args)

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    # The test process may run native threads that other tests started (a `curator lint` has none
    # when it reads); the path is what is tested here.
    monkeypatch.setattr(reading, "_may_fork", lambda: True)
    monkeypatch.setattr(reading, "_read_pages_forked", counted)
    return calls


def test_a_load_with_nothing_cached_learns_sizes_from_the_open_files(tmp_path: Path) -> None:
    from curator.core.read.scan import scan_vault

    root = make_vault(tmp_path / "v", {"a.md": "[[b]]", "sub/b.md": "bee", "skip/c.md": "x", "pic.png": b"\x89PNG"})
    if os.name == "posix":
        (root / "link.md").symlink_to(root / "sub" / "b.md")
    full, bare = scan_vault(root, ("skip/",)), scan_vault(root, ("skip/",), sizes=False)
    assert [e.path for e in bare.pages] == [e.path for e in full.pages]
    assert (bare.attachments, bare.problems) == (full.attachments, full.problems)
    assert {e.size for e in bare.pages if e.path != "link.md"} == {-1}
    vault = load_vault(root)  # nothing cached: the scan did not stat, the reader did
    assert {p.path: (p.size, p.mtime_ns) for p in vault.pages.values()} == {
        e.path: (e.size, e.mtime_ns) for e in scan_vault(root).pages
    }


def test_a_query_reads_its_own_store_only_while_no_page_changed(
    tmp_path: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "a.md": '---\ntype: concept\nbroader: "[[b]]"\n---\nA [[c]] link in the body.\n',
            "b.md": "---\ntype: concept\n---\nx\n",
            "c.md": "x",
        },
    )
    age(root)
    full = load_vault(root, typed_links_only=True)
    first = load_fields(root)  # from the full load (nothing reparsed), then stored
    assert (root / ".curator" / "cache" / "fields.json").is_file()
    with monkeypatch.context() as patched:
        patched.setattr(loading, "load_vault", None)  # the store alone serves it
        second = load_fields(root)
    for vault in (first, second):
        assert {p: page.frontmatter for p, page in vault.pages.items()} == {
            p: page.frontmatter for p, page in full.pages.items()
        }
        assert [(rl.source, rl.link.key, rl.resolution.path) for rl in vault.links] == [("a.md", "broader", "b.md")]
    assert run(second, "broader:[[b]]").pages == ["a.md"]

    (root / "a.md").write_text("---\ntype: problem\n---\nNo edge now.\n")  # changed
    (root / "d.md").write_text("---\ntype: problem\n---\nNew.\n")  # added
    (root / "c.md").unlink()  # removed
    age(root)
    third = load_fields(root)
    assert sorted(third.pages) == ["a.md", "b.md", "d.md"]
    assert run(third, "type:problem").pages == ["a.md", "d.md"] and third.links == []
    assert run(load_fields(root), "type:problem").pages == ["a.md", "d.md"]


def test_a_query_does_not_trust_a_page_changed_within_the_racy_window(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "---\ntype: aa\n---\n"})
    stamp = (root / "a.md").stat().st_mtime_ns
    load_fields(root)
    (root / "a.md").write_text("---\ntype: bb\n---\n")  # same size
    os.utime(root / "a.md", ns=(stamp, stamp))  # and the same timestamp
    assert run(load_fields(root), "type:bb").pages == ["a.md"]


def test_a_damaged_query_store_is_rebuilt(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "---\ntype: aa\n---\n"})
    age(root)
    load_fields(root)
    store = root / ".curator" / "cache" / "fields.json"
    stored = json.loads(store.read_bytes())
    rows = stored["pages"]["a.md"]
    damaged = [
        {**stored, "pages": {"a.md": bad}} for bad in (rows[:3], [*rows[:2], "x", rows[3]], [*rows[:3], [[1, 2]]], 7)
    ]
    for damage in (
        b"{not json",
        b'{"format": 3, "config": [1], "stored_ns": 1, "pages": []}',
        b"[]",
        *(json.dumps(d).encode() for d in damaged),
    ):
        store.write_bytes(damage)
        assert run(load_fields(root), "type:aa").pages == ["a.md"]
    assert json.loads(store.read_bytes())["pages"]["a.md"][2] == {"type": "aa"}


def test_a_damaged_row_in_the_page_store_costs_that_page_a_read(tmp_path: Path, parses: list[str]) -> None:
    files = {"a.md": "[[b]]", "b.md": "[[a]]", "c.md": "# C\nx", "d.md": "[[c]]", "e.md": "# E\n[[a]]"}
    root = make_vault(tmp_path / "v", files)
    age(root)
    load_vault(root)
    store = root / ".curator" / "cache" / "pages.json"
    stored = json.loads(store.read_text())
    stored["pages"]["a.md"] = stored["pages"]["a.md"][:5]  # too short
    stored["pages"]["b.md"][6] = 42  # its links are no list
    stored["pages"]["c.md"][7][0] = [1, "C"]  # a heading without its line
    stored["pages"]["d.md"][6][0] = "wiki"  # a link that is a string
    stored.pop("mac")
    store.write_bytes(b"".join(statefiles.seal(statefiles.label_of(store), [json.dumps(stored).encode()])))
    count = len(parses)
    vault = load_vault(root)
    assert len(parses) == count + 4  # a to d read again, e from the store
    assert vault.pages["c.md"].headings[0].line == 1 and vault.pages["d.md"].links[0].target == "c"
    assert [lk.target for lk in vault.pages["a.md"].links] == ["b"]
    assert [lk.target for lk in vault.pages["b.md"].links] == ["a"]


def test_pages_are_read_serially_while_another_thread_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A forked child inherits the locks other threads hold, and no thread to free them."""
    import threading

    root = make_vault(tmp_path / "v", _many_pages())
    monkeypatch.setattr(reading, "PARALLEL_MIN_PAGES", 10)
    may_fork = reading._may_fork
    forked = _count_forked_loads(monkeypatch)
    monkeypatch.setattr(reading, "_may_fork", may_fork)  # the real check, with a thread running
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        vault = load_vault(root, use_cache=False)
    finally:
        stop.set()
        thread.join()
    assert forked == [0] and len(vault.pages) == len(_many_pages())


@pytest.mark.parametrize("resolve_aliases", [False, True])
@pytest.mark.parametrize("forked", [False, True])
def test_links_resolved_as_pages_arrive_are_those_of_the_whole_vault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, resolve_aliases: bool, forked: bool
) -> None:
    """Links are resolved while pages are still being read, before any alias is known; the
    aliases then settle what was dead. The answer is that of resolving the read vault at once."""
    from curator.core.read.loading import _resolved
    from curator.core.read.scan import scan_vault
    from curator.core.state.config import Config

    files = _many_pages()
    files["alias owner.md"] = "---\naliases: [Nickname, page 3]\n---\nbody"
    files["links.md"] = "[[Nickname]] [[nickname]] [[page 3]] [[gone]] [[alias owner]]"
    root = make_vault(tmp_path / "v", files)
    if forked:
        monkeypatch.setattr(reading, "PARALLEL_MIN_PAGES", 10)
        monkeypatch.setattr(reading, "_CHUNK", 7)
        assert _count_forked_loads(monkeypatch) is not None
    config = Config(resolve_aliases=resolve_aliases)
    vault = load_vault(root, config, use_cache=False)
    _, whole = _resolved(vault.pages, scan_vault(root, config.ignore), config, typed_links_only=False)
    assert vault.links == whole
    kinds = {rl.link.target: rl.resolution for rl in vault.links if rl.source == "links.md"}
    assert kinds["Nickname"].kind == ("page" if resolve_aliases else "dead")
    assert kinds["Nickname"].alias_of == (() if resolve_aliases else ("alias owner.md",))
    assert kinds["gone"].kind == "dead" and kinds["alias owner"].kind == "page"


def test_a_page_edited_with_its_size_and_time_put_back_is_read_again(tmp_path: Path) -> None:
    """An attacker's `cp -p`: a page that gained `[[b]]` in place of as many letters, its time put
    back, kept its stored reading; a rename of b then left its new link dead."""
    import os

    from edit_helpers import dead_count, rename

    root = make_vault(tmp_path / "v", {"a.md": "note XXXXXXX end\n", "b.md": "page b\n", "c.md": "page c [[b]]\n"})
    for name in ("a.md", "b.md", "c.md"):
        os.utime(root / name, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    load_vault(root)  # stores its reading
    (root / "a.md").write_text("note [[b]]XX end\n")
    os.utime(root / "a.md", ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    assert [rl.link.target for rl in load_vault(root).outlinks("a.md")] == ["b"]
    rename(root, "b", "bee")
    assert (root / "a.md").read_text() == "note [[bee]]XX end\n" and dead_count(root) == 0
