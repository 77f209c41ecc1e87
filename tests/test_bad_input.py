"""Bad input gets a finding or one clear line, never a traceback, and the rest is still checked."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, make_vault

import curator.core.read.reading as reading
from curator.cli.main import main
from curator.core.check.findings import check_vault
from curator.core.read.loading import load_vault


def findings_by_path(root: Path) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {}
    for f in check_vault(load_vault(root, use_cache=False)):
        result.setdefault(f.path, []).append(f"{f.rule}: {f.message}")
    return result


def good_pages() -> dict[str, str | bytes]:
    return {"good.md": "---\ntype: topic\n---\n[[missing page]] " + "text " * 40, "other.md": "[[good]]"}


def test_invalid_utf8_is_read_with_replacements_and_reported(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {**good_pages(), "latin1.md": "Caf\xe9 [[good]]\n".encode("latin-1")})
    found = findings_by_path(root)
    assert any(m.startswith("bad-encoding") for m in found["latin1.md"])
    vault = load_vault(root, use_cache=False)
    assert [lk.target for lk in vault.pages["latin1.md"].links] == ["good"]
    assert any(m.startswith("dead-link") for m in found["good.md"])


def test_binary_data_named_md_is_unreadable(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", {**good_pages(), "blob.md": bytes(range(256)) * 10})
    found = findings_by_path(root)
    assert any("binary data" in m for m in found["blob.md"])
    assert any(m.startswith("dead-link") for m in found["good.md"])


def test_a_50_mb_page_is_reported_not_parsed(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", good_pages())
    with open(root / "huge.md", "wb") as handle:
        handle.write(b"[[good]] " * 1000)
        handle.truncate(50 * 1024 * 1024)
    found = findings_by_path(root)
    assert any(m.startswith("unreadable") and "50.0 MB" in m for m in found["huge.md"])
    # It still exists as a title: links to it resolve.
    assert load_vault(root, use_cache=False).resolver.resolve("good.md", "huge").path == "huge.md"


def test_an_unreadable_file_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_vault(tmp_path / "v", {**good_pages(), "locked.md": "secret"})
    real_open = os.open

    def guarded_open(path: str, flags: int, *args: int) -> int:  # as root, chmod 000 would not stop it
        if str(path).endswith("locked.md"):
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, flags, *args)

    monkeypatch.setattr(reading.os, "open", guarded_open)
    found = findings_by_path(root)
    assert found["locked.md"] == ["unreadable: cannot be read: Permission denied"]
    assert any(m.startswith("dead-link") for m in found["good.md"])
    # Read without a stat from the scan (nothing cached), it still has the size and time it has on disk.
    page = reading.read_page(
        os.path.join(root, ""), reading.FileEntry("locked.md", reading.NOT_STATED, reading.NOT_STATED), 10**9
    )
    on_disk = (root / "locked.md").stat()
    assert (page.size, page.mtime_ns, page.unreadable) == (
        on_disk.st_size,
        on_disk.st_mtime_ns,
        "cannot be read: Permission denied",
    )


@pytest.mark.skipif(os.name != "posix", reason="symlinks")
def test_symlinks_loops_and_escapes(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("[[should never be read]]")
    root = make_vault(tmp_path / "v", good_pages())
    os.symlink(outside / "secret.md", root / "escape.md")
    os.symlink(outside, root / "escape-folder")
    os.symlink(root / "loop-b.md", root / "loop-a.md")
    os.symlink(root / "loop-a.md", root / "loop-b.md")
    os.symlink(root, root / "self-loop")
    os.symlink(root / "good.md", root / "alias-of-good.md")
    found = findings_by_path(root)
    assert found["escape.md"] == ["unreadable: symlink points outside the vault; not read"]
    assert found["escape-folder"] == ["unreadable: symlink points outside the vault; not read"]
    assert any("cannot be read" in m for m in found["loop-a.md"])
    vault = load_vault(root, use_cache=False)
    assert "alias-of-good.md" in vault.pages
    assert not any("secret" in p for p in vault.pages)
    assert not any(p.startswith("self-loop") for p in vault.pages)


def test_dot_folders_and_ignore_globs_are_skipped(tmp_path: Path) -> None:
    root = make_vault(
        tmp_path / "v",
        {
            "a.md": "x",
            ".obsidian/x.md": "x",
            ".trash/y.md": "x",
            ".hidden.md": "x",
            "templates/t.md": "x",
            "drafts/keep.md": "x",
            "drafts/skip.excalidraw.md": "x",
            ".curator.toml": 'ignore = ["templates/", "*.excalidraw.md"]\n',
        },
    )
    assert sorted(load_vault(root, use_cache=False).pages) == ["a.md", "drafts/keep.md"]


@pytest.mark.parametrize("make", ["missing", "file"])
def test_a_bad_vault_path_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], make: str) -> None:
    target = tmp_path / "nope"
    if make == "file":
        target.write_text("x")
    assert main(["lint", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("curator: vault")


def test_a_bad_config_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_vault(tmp_path / "v", {"a.md": "x", ".curator.toml": "[rules]\nnope = 'off'\n"})
    assert main(["lint", str(root)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rules.nope" in err


def test_a_page_that_changed_size_since_the_scan_is_read_whole(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    text = b"[[a]] " * 500_000  # 3 MB: more than one read
    page.write_bytes(text)

    def read(expected: int, max_bytes: int) -> bytes:
        fd = os.open(page, os.O_RDONLY)
        try:
            return reading._read_open_file(fd, expected, max_bytes)
        finally:
            os.close(fd)

    assert read(10, 10**9) == text  # grew since the scan
    assert read(10**6, 10**9) == text  # shrank since the scan
    assert 1000 < len(read(10, 1000)) < len(text)  # stops soon after the limit


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("max_page_bytes = 99999999999999999999", "max_page_bytes"),
        pytest.param("max_page_bytes = 1" + "0" * 5000, "not valid TOML", id="5001 digits"),  # past Python's 4,300
        pytest.param("x = " + "[" * 5000 + "]" * 5000, "not valid TOML", id="nested 5000 deep"),  # past recursion
        ('ignore = ["!"]', "'!' is not a gitignore pattern"),
        ("[search]\nbm25_weight = inf", "search.bm25_weight"),
        ("[search]\nhalf_life_days = nan", "search.half_life_days"),
        ("[thresholds]\nstale_days = 99999999999999999999", "thresholds.stale_days"),
        ("[dream]\nproposer_timeout = 9999999", "dream.proposer_timeout"),  # past what poll() can wait
        ('index_deep_page = "../outside.md"', "index_deep_page"),
        ('index_deep_page = "CON.md"', "device name"),
        ('index_deep_page = "deep"', "does not end in .md"),
        ('baseline = "a\\u0000b"', "without NUL"),
        ('types = ["topic", " "]', "no empty one"),
    ],
)
def test_a_config_value_nothing_can_use_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, says: str
) -> None:
    root = make_vault(tmp_path / "v", {**good_pages(), ".curator.toml": text + "\n"})
    assert main(["lint", str(root), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and len(err) < 400


def test_a_baseline_nested_too_deep_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_vault(tmp_path / "v", good_pages())
    (tmp_path / "baseline.json").write_text("[" * 100_000)
    assert main(["lint", str(root), "--baseline", str(tmp_path / "baseline.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "baseline is not JSON" in err


def _undecodable(path: Path) -> Path:
    """`path` with a byte that is not UTF-8 (0xff) at the end of its name, created on disk."""
    raw = os.fsencode(path) + b"\xff"
    try:
        os.close(os.open(raw, os.O_CREAT | os.O_WRONLY, 0o644))
    except OSError:  # a file system that holds only UTF-8 names (APFS): nothing to test
        pytest.skip("this file system refuses names that are not UTF-8")
    return Path(os.fsdecode(raw))


def test_a_page_whose_name_is_not_utf8_is_reported_with_its_bytes_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_vault(tmp_path / "v", good_pages())
    page = _undecodable(root / "bad name.md")
    page.rename(root / os.fsdecode(os.fsencode(page.name) + b".md"))  # "bad name.md\xff.md"
    folder = _undecodable(root / "folder")
    folder.unlink()
    folder.mkdir()
    (folder / "inside.md").write_text("[[good]]")
    assert main(["lint", str(root), "--no-cache", "--format", "json"]) == 1  # findings: exit 1, no traceback
    found = {
        f["path"]: f["message"] for f in json.loads(capsys.readouterr().out)["findings"] if f["rule"] == "unreadable"
    }
    assert set(found) == {"bad name.md\\xff.md", "folder\\xff"}
    assert all("not valid UTF-8" in message for message in found.values())
    assert sorted(load_vault(root, use_cache=False).pages) == ["good.md", "other.md"]
    assert main(["search", str(root), "good"]) == 0
    assert main(["rename", str(root), "other", "renamed", "--json"]) == 0
    assert main(["graph", str(root)]) == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["rename", "{root}", "other", "new\udcff"],
        ["rename", "{root}", "other\udcff", "new"],
        ["search", "{root}", "good\udcff"],
        ["query", "{root}", "type:\udcff"],
        ["rename", "{root}", "other", "fine", "--reason", "why\udcff"],
    ],
)
def test_an_argument_that_is_not_utf8_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    root = make_vault(tmp_path / "v", good_pages())
    before = sorted(p.name for p in root.iterdir())
    assert main([arg.format(root=root) for arg in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not valid UTF-8" in err and "\\xff" in err
    assert sorted(p.name for p in root.iterdir()) == before


def test_remembered_input_that_is_not_utf8_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_vault(tmp_path / "v", good_pages())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"Ada \xff likes tea\n")))
    assert main(["remember", str(root), "-", "--apply"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "standard input is not valid UTF-8" in err
    assert sorted(p.name for p in root.glob("**/*.md")) == ["good.md", "other.md"]


def test_a_refused_write_leaves_without_aborting(tmp_path: Path) -> None:
    """The model loads in a thread meanwhile; leaving while onnxruntime builds its session aborted
    the process (exit 134) in about half of the runs."""
    root = make_vault(tmp_path / "v", good_pages())
    for _ in range(4):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "curator",
                "remember",
                str(root),
                "The deploy password = 'hunter2Xq9zLm3Kp'",
                "--apply",
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            check=False,
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.splitlines()[-1].startswith("curator: the text holds a credential")


@pytest.mark.parametrize(
    "argv",
    [
        ["query", "{root}", "(" * 5000 + "type:topic" + ")" * 5000],
        ["query", "{root}", "NOT " * 5000 + "type:topic"],
        ["search", "{root}", "(" * 498 + "good" + ")" * 498],  # 1,000 characters: as long as a search may be
    ],
    ids=["query parentheses", "query NOTs", "search parentheses"],
)
def test_a_query_nested_past_the_stack_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    root = make_vault(tmp_path / "v", good_pages())
    assert main([arg.format(root=root) for arg in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "deep" in err


def test_a_query_nested_as_deep_as_anyone_writes_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_vault(tmp_path / "v", good_pages())
    assert main(["query", str(root), "(" * 50 + "NOT " * 49 + "type:topic" + ")" * 50]) == 0
    assert capsys.readouterr().err == "curator: 1 pages\n"


def test_a_fix_to_a_page_that_is_not_utf8_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The index page (the drift fix writes into it) holds a byte that is not UTF-8."""
    from curator.cli.main import main

    root = make_vault(tmp_path / "v", {"MEMORY.md": b"# Memory\n\n- [[a]]\n\xe9\n", "a.md": "# A\n", "b.md": "# B\n"})
    before = (root / "MEMORY.md").read_bytes()
    assert main(["fix", str(root), "--rule", "index-drift"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not valid UTF-8" in err, err
    assert (root / "MEMORY.md").read_bytes() == before
