"""A vault cannot run code on the user's machine: its proposer command needs the user's trust."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from curator.cli.main import main
from curator.core.state import trust
from curator.core.state.config import load_config
from curator.tui.app import CuratorApp
from curator.tui.screens.modals import Confirm

PROPOSER = """
import json, pathlib, sys
pathlib.Path(sys.argv[1]).touch()
json.load(sys.stdin)
print(json.dumps({"proposals": []}))
"""


def with_proposer(vault: Path, marker: Path) -> str:
    script = vault.parent / "proposer.py"
    script.write_text(PROPOSER)
    command = f"{sys.executable} {script} {marker}"
    (vault / ".curator.toml").write_text(f'[dream]\nproposer = "{command}"\n')
    return command


def dream(vault: Path, capsys: pytest.CaptureFixture[str]) -> tuple[dict, str]:  # type: ignore[type-arg]
    code = main(["dream", str(vault), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out), err


def test_an_untrusted_vault_runs_nothing_and_still_dreams(
    sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = sample_vault.parent / "ran"
    command = with_proposer(sample_vault, marker)
    result, err = dream(sample_vault, capsys)
    assert not marker.exists()
    assert result["proposed"]  # the rule-based proposer did its work
    (line,) = [line for line in err.splitlines() if "did not take effect" in line]
    assert command in line and "[dream] proposer" in line and f"curator trust {sample_vault}" in line


def test_trust_runs_it_until_the_command_changes_or_trust_is_revoked(
    sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = sample_vault.parent / "ran"
    command = with_proposer(sample_vault, marker)
    assert main(["trust", str(sample_vault)]) == 0
    assert command in capsys.readouterr().out
    dream(sample_vault, capsys)
    assert marker.exists()
    assert main(["trust", "--list"]) == 0
    assert command in capsys.readouterr().out

    marker.unlink()
    with_proposer(sample_vault, sample_vault.parent / "other-marker")  # the config now asks for something else
    _, err = dream(sample_vault, capsys)
    assert not marker.exists() and not (sample_vault.parent / "other-marker").exists()
    assert "changed since you trusted this vault" in err

    assert main(["trust", str(sample_vault)]) == 0
    assert load_config(sample_vault).untrusted == ()
    assert main(["trust", "--revoke", str(sample_vault)]) == 0
    assert load_config(sample_vault).untrusted and load_config(sample_vault).proposer_command is None
    capsys.readouterr()
    assert main(["trust", "--list"]) == 0 and "no vault is trusted" in capsys.readouterr().out


def test_the_users_own_config_is_the_users_choice(
    sample_vault: Path, own_user_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = sample_vault.parent / "ran"
    script = sample_vault.parent / "proposer.py"
    script.write_text(PROPOSER)
    (own_user_config / "config.toml").write_text(f'[dream]\nproposer = "{sys.executable} {script} {marker}"\n')
    dream(sample_vault, capsys)
    assert marker.exists()


def test_a_vault_without_a_command_has_nothing_to_trust(sample_vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["trust", str(sample_vault)]) == 0
    assert "nothing to trust" in capsys.readouterr().err
    assert trust.trusted_vaults() == []


@pytest.mark.anyio
async def test_the_tui_shows_the_command_and_trusts_only_when_told(sample_vault: Path) -> None:
    marker = sample_vault.parent / "ran"
    command = with_proposer(sample_vault, marker)
    app = CuratorApp(sample_vault)
    async with app.run_test(size=(160, 45)) as pilot:
        for _ in range(3):
            await app.workers.wait_for_complete()
            await pilot.pause()
        await pilot.press("r")
        for _ in range(3):
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert not marker.exists()
        assert isinstance(app.screen, Confirm) and command in app.screen.question
        await pilot.press("n")
        await pilot.pause()
        assert trust.trusted_vaults() == []
        await pilot.press("escape")  # leave the review
        await pilot.pause()
        app.run_dream(open_review=False)
        for _ in range(3):
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("y")
        for _ in range(3):
            await app.workers.wait_for_complete()
            await pilot.pause()
        (trusted,) = trust.trusted_vaults()
        assert trusted.settings == {"[dream] proposer": command}
        assert not marker.exists()  # trusting runs nothing by itself


def test_a_vault_needs_trust_to_let_an_agent_skip_review(sample_vault: Path) -> None:
    (sample_vault / ".curator.toml").write_text("[agent]\napply_without_review = false\n")
    assert trust.code_settings({"agent": {"apply_without_review": False}}, sample_vault) == {}
    (sample_vault / ".curator.toml").write_text("[agent]\napply_without_review = true\n")
    config = load_config(sample_vault)
    assert config.agent_apply_without_review is False
    (line,) = config.untrusted
    assert "[agent] apply_without_review" in line and f"curator trust {sample_vault}" in line
    assert main(["trust", str(sample_vault)]) == 0
    assert load_config(sample_vault).agent_apply_without_review is True
