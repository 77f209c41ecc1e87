"""A vault is data: page names reach the editor as file names, the user's proposer never runs a
script the vault ships, and a vault's config, baseline and model folders stay inside the vault
unless the user trusts it."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path

import pytest
from helpers import make_vault, settle

from curator.cli.main import main
from curator.core.check.lint import baseline_document, lint
from curator.core.common.errors import ConfigError
from curator.core.meaning import vectors
from curator.core.meaning.embeddings import LexicalProvider, ProviderChoice
from curator.core.meaning.search import search
from curator.core.read.loading import load_vault
from curator.core.state.config import load_config, trust_asked
from curator.tui.app import CuratorApp
from curator.tui.editor import editor_command

ATTACK = "+!touch PWNED.md"
BODY = "# Notes\n\nA page with enough words in it to be an ordinary page of the vault, and no more.\n"


def cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


# --- the editor -------------------------------------------------------------------------------


def test_the_editor_gets_the_absolute_path_after_double_dash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    page = Path(ATTACK)  # what `vault_root / path` is for a vault opened as "."
    absolute = str(tmp_path / ATTACK)
    assert editor_command("vim", page) == ["vim", "--", absolute]
    assert editor_command("code --wait", page, 7) == ["code", "--wait", "+7", "--", absolute]
    assert editor_command("/usr/bin/micro", page) == ["/usr/bin/micro", "--", absolute]
    # micro's parser stops at `+7`, so a `--` after it would be a second file: the absolute path is enough
    assert editor_command("/usr/bin/micro", page, 7) == ["/usr/bin/micro", "+7", absolute]
    with pytest.raises(ValueError):
        editor_command("   ", page)  # no program: the page itself must never become the command


RECORDER = """
import json, sys
with open(sys.argv[1], "w") as out:
    json.dump(sys.argv[2:], out)
"""


@pytest.mark.anyio
async def test_e_on_a_page_named_like_an_editor_command_opens_it_as_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = make_vault(tmp_path / "vault", {ATTACK: BODY})
    recorder = tmp_path / "editor.py"
    recorder.write_text(RECORDER)
    argv_file = tmp_path / "argv.json"
    monkeypatch.setenv("VISUAL", f"{sys.executable} {recorder} {argv_file}")
    monkeypatch.chdir(vault)
    app = CuratorApp(".")
    monkeypatch.setattr(app, "suspend", contextlib.nullcontext)  # the headless driver cannot suspend
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        assert app.main.current == ATTACK
        await pilot.press("e")
        await settle(pilot)
    assert json.loads(argv_file.read_text()) == ["--", str(vault / ATTACK)]
    assert not (vault / "PWNED.md").exists()


# --- the proposer -----------------------------------------------------------------------------


def proposer_script(marker: Path) -> str:
    """A proposer that leaves a marker and proposes nothing (a valid curator.proposer/1 answer)."""
    return f"""#!{sys.executable}
import json, pathlib, sys
pathlib.Path({str(marker)!r}).touch()
assert json.load(sys.stdin)["schema"] == "curator.proposer/1"
print(json.dumps({{"proposals": []}}))
"""


def dream_notes(vault: Path, capsys: pytest.CaptureFixture[str]) -> str:
    code, out, err = cli(["dream", str(vault), "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["proposed"]  # there were renames to ask the proposer about
    return err


@pytest.mark.parametrize("command", [f"{sys.executable} my_proposer.py", "./my_proposer.py"])
def test_the_users_proposer_runs_the_users_script_not_the_one_the_vault_ships(
    sample_vault: Path, own_user_config: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    users, vaults = sample_vault.parent / "users-ran", sample_vault.parent / "vaults-ran"
    for folder, marker in ((own_user_config, users), (sample_vault, vaults)):
        (folder / "my_proposer.py").write_text(proposer_script(marker))
        (folder / "my_proposer.py").chmod(0o755)
    (own_user_config / "config.toml").write_text(f'[dream]\nproposer = "{command}"\n')
    err = dream_notes(sample_vault, capsys)
    assert users.exists(), err
    assert not vaults.exists()


def test_a_trusted_vaults_own_proposer_is_the_file_next_to_its_config(
    sample_vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "vaults-ran"
    (sample_vault / "tools").mkdir()
    (sample_vault / "tools" / "propose.py").write_text(proposer_script(marker))
    (sample_vault / ".curator.toml").write_text(f'[dream]\nproposer = "{sys.executable} tools/propose.py"\n')
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "tools").mkdir(parents=True)
    (elsewhere / "tools" / "propose.py").write_text(proposer_script(tmp_path / "elsewhere-ran"))
    monkeypatch.chdir(elsewhere)  # where curator runs does not matter
    dream_notes(sample_vault, capsys)
    assert not marker.exists()  # untrusted: nothing ran
    assert cli(["trust", str(sample_vault)], capsys)[0] == 0
    dream_notes(sample_vault, capsys)
    assert marker.exists() and not (tmp_path / "elsewhere-ran").exists()


def test_a_proposer_set_in_code_runs_in_an_empty_folder(tmp_path: Path) -> None:
    from curator.core.curate.dream import dream
    from curator.core.state.config import Config

    vault_root = make_vault(tmp_path / "vault", {"Meeting with Acme on 2024-03-02.md": BODY})
    (vault_root / "my_proposer.py").write_text(proposer_script(tmp_path / "vaults-ran"))
    config = Config(proposer_command=f"{sys.executable} my_proposer.py")
    result = dream(load_vault(vault_root, config))
    assert not (tmp_path / "vaults-ran").exists()
    assert any("proposer failed" in note for note in result.notes)


# --- config files and baselines ---------------------------------------------------------------


def test_a_config_file_that_is_a_symlink_is_refused(
    sample_vault: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "elsewhere.toml"
    outside.write_text("resolve_aliases = true\n")
    (sample_vault / ".curator.toml").unlink()
    (sample_vault / ".curator.toml").symlink_to(outside)
    for args in (["lint", str(sample_vault)], ["trust", str(sample_vault)], ["dream", str(sample_vault)]):
        code, out, err = cli(args, capsys)
        assert code == 2 and not out
        (line,) = err.splitlines()
        assert ".curator.toml" in line and "symbolic link" in line
    (sample_vault / ".curator.toml").unlink()
    (sample_vault / ".curator.toml").symlink_to(sample_vault / "MEMORY.md")  # inside the vault: a link all the same
    with pytest.raises(ConfigError, match="symbolic link"):
        load_config(sample_vault)


def test_a_config_file_that_is_a_fifo_is_refused_without_waiting(
    sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (sample_vault / ".curator.toml").unlink()
    os.mkfifo(sample_vault / ".curator.toml")
    code, _, err = cli(["lint", str(sample_vault)], capsys)
    assert code == 2 and "not a regular file" in err and len(err.splitlines()) == 1


def test_the_users_own_config_may_be_a_symlink(sample_vault: Path, own_user_config: Path, tmp_path: Path) -> None:
    dotfile = tmp_path / "dotfiles" / "curator.toml"
    dotfile.parent.mkdir()
    dotfile.write_text("resolve_aliases = true\n")
    (own_user_config / "config.toml").symlink_to(dotfile)
    assert load_config(sample_vault).resolve_aliases is True


def accept_everything(vault: Path, where: Path) -> None:
    where.write_text(json.dumps(baseline_document(lint(vault, use_cache=False).findings)))


@pytest.mark.parametrize("name", ["../outside.json", "{outside}", ".git/baseline.json", "link.json"])
def test_a_vault_baseline_outside_the_vault_is_refused(
    sample_vault: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    outside = tmp_path / "outside.json"
    accept_everything(sample_vault, outside)  # were it read, lint would pass
    (sample_vault / ".git").mkdir(exist_ok=True)
    accept_everything(sample_vault, sample_vault / ".git" / "baseline.json")
    (sample_vault / "link.json").symlink_to(outside)
    (sample_vault / ".curator.toml").write_text(f"baseline = {name.format(outside=outside)!r}\n")
    code, out, err = cli(["lint", str(sample_vault)], capsys)
    assert code == 2 and not out
    (line,) = err.splitlines()
    assert "outside the vault" in line and "--baseline" in line


def test_a_baseline_named_on_the_command_line_may_be_anywhere(
    sample_vault: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside.json"
    accept_everything(sample_vault, outside)
    (sample_vault / ".curator.toml").write_text("baseline = 'accepted/baseline.json'\n")  # inside: fine
    code, _, err = cli(["lint", str(sample_vault), "--baseline", str(outside)], capsys)
    assert code == 0, err
    assert cli(["lint", str(sample_vault)], capsys)[0] == 1  # the vault's own (missing) baseline accepts nothing


# --- model folders ----------------------------------------------------------------------------


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """The model folders the embedding provider is asked to load from (nothing is really loaded)."""
    asked: list[str | None] = []

    def load_provider(kind: str, model_path: str | None, model_name: str | None, cache_dir: str | None) -> object:
        asked.append(model_path)
        return ProviderChoice(LexicalProvider(), None)

    monkeypatch.setattr(vectors, "load_provider", load_provider)
    return asked


def test_a_model_folder_outside_the_vault_needs_trust(
    sample_vault: Path, tmp_path: Path, loads: list[str | None], capsys: pytest.CaptureFixture[str]
) -> None:
    models = tmp_path / "models" / "mini"
    models.mkdir(parents=True)
    (sample_vault / ".curator.toml").write_text(
        f'[embedding]\nmodel_path = "{models}"\nmodel_name = "some/model"\n'
        f'[search]\nrerank_model = "some/reranker"\nrerank_model_path = "{models}"\n'
    )
    config = load_config(sample_vault)
    assert config.embedding_model_path is None and config.embedding_model_name is None  # nothing fetched instead
    assert config.search_rerank_model is None and config.search_rerank_model_path is None
    (notice,) = config.untrusted
    assert "[embedding] model_path" in notice and "[search] rerank_model_path" in notice
    _, warning = vectors.provider_for(load_vault(sample_vault, config))
    assert warning is not None and "[embedding] model_path" in warning
    assert str(models) not in loads
    notes = search(load_vault(sample_vault, config), "payments", use_vectors=False).notes
    assert any("no rerank" in note and "[search] rerank_model_path" in note for note in notes)

    code, out, _ = cli(["trust", str(sample_vault)], capsys)
    assert code == 0 and "[embedding] model_path" in out and "[search] rerank_model_path" in out
    config = load_config(sample_vault)
    assert config.untrusted == () and config.embedding_model_path == str(models)
    assert config.search_rerank_model_path == str(models)
    assert vectors.provider_for(load_vault(sample_vault, config))[1] is None and loads[-1] == str(models)


def test_a_model_folder_inside_the_vault_needs_no_trust_and_is_read_from_the_vault(
    sample_vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (sample_vault / "models" / "mini").mkdir(parents=True)
    (sample_vault / ".curator.toml").write_text('[embedding]\nmodel_path = "models/mini"\nmodel_name = "some/model"\n')
    monkeypatch.chdir(tmp_path)
    config = load_config(sample_vault)
    assert config.untrusted == () and config.embedding_model_path == str(sample_vault / "models" / "mini")
    assert trust_asked(sample_vault) == {}


def test_a_model_folder_that_links_out_of_the_vault_needs_trust(sample_vault: Path, tmp_path: Path) -> None:
    (tmp_path / "models").mkdir()
    (sample_vault / "models").symlink_to(tmp_path / "models")
    (sample_vault / ".curator.toml").write_text('[embedding]\nmodel_path = "models"\n')
    assert load_config(sample_vault).embedding_model_path is None
    assert trust_asked(sample_vault) == {"[embedding] model_path": "models"}


def test_the_users_relative_model_folder_is_next_to_the_users_config(
    sample_vault: Path, own_user_config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (own_user_config / "config.toml").write_text('[embedding]\nmodel_path = "models/mini"\n')
    monkeypatch.chdir(tmp_path)
    config = load_config(sample_vault)
    assert config.embedding_model_path == os.path.realpath(own_user_config / "models" / "mini")
    assert config.folder_of("embedding_model_path") == own_user_config


def test_the_model_leaves_nothing_in_the_home_folder(tmp_path: Path) -> None:
    """onnxruntime records a device id under ~/.cache/Microsoft unless its telemetry is off."""
    import subprocess

    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in {"ORT_DISABLE_TELEMETRY", "XDG_CACHE_HOME"}}
    env["HOME"] = str(home)
    script = "from curator.core.meaning.embeddings import BundledModel; BundledModel().embed(['a page'])"
    subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=120)
    assert list(home.iterdir()) == []


def test_installed_software_is_no_page_and_a_program_linked_from_outside_no_finding(tmp_path: Path) -> None:
    """A vault that holds a project's node_modules or a Python virtual environment: their READMEs
    are nobody's notes, and the interpreter a venv links to outside is no page left unread."""
    outside = tmp_path / "usr" / "python3"
    outside.parent.mkdir()
    outside.write_text("#!/bin/sh\n")
    (tmp_path / "notes.md").write_text("elsewhere\n")
    root = make_vault(
        tmp_path / "v",
        {
            "Home.md": "# Home\n\nThe vault's own page.\n",
            "node_modules/left-pad/README.md": "# left-pad\n\n[[missing]]\n",
            "tools/venv/lib/site.md": "# site\n\n[[missing too]]\n",
        },
    )
    (root / "tools" / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (root / "tools" / "venv" / "python3").symlink_to(outside)
    (root / "Linked notes.md").symlink_to(tmp_path / "notes.md")
    vault = load_vault(root, use_cache=False)
    assert sorted(vault.pages) == ["Home.md"]
    assert [p.path for p in vault.problems] == ["Linked notes.md"]
    assert not [f for f in lint(root, use_cache=False).findings if f.rule == "dead-link"]


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need rights on Windows")
def test_a_new_page_named_as_a_link_out_of_the_vault_says_it_is_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An attacker's `Payroll.md`, a link to a file outside: "already exists" sent the user to merge into it."""
    outside = tmp_path / "outside.md"
    outside.write_text("# Payroll\n\nPayroll runs on the 25th through the DATEV export.\n")
    root = make_vault(tmp_path / "v", {"Kitchen.md": "# Kitchen\n\nThe coffee machine is descaled every Friday.\n"})
    os.symlink(outside, root / "Payroll.md")
    text = "Payroll runs on the 25th; the DATEV export is checked by Anna before it is sent."
    assert main(["remember", str(root), text, "--apply"]) == 2
    assert "Payroll.md is a symbolic link, which curator does not write through" in capsys.readouterr().err
    assert outside.read_text() == "# Payroll\n\nPayroll runs on the 25th through the DATEV export.\n"
    assert os.path.islink(root / "Payroll.md")
