"""The generated reference in docs/reference/ matches the code it is written from."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.cli import reference
from curator.core.check.catalogue import CATALOGUE
from curator.core.state.config import CONFIG_KEYS

DOCS = Path(__file__).resolve().parent.parent / "docs" / "reference"


@pytest.mark.parametrize("name", sorted(reference.PAGES))
def test_each_reference_page_is_up_to_date(name: str) -> None:
    written = (DOCS / name).read_text(encoding="utf-8")
    assert written == reference.PAGES[name](), f"run python -m curator.cli.reference to update docs/reference/{name}"


def test_the_reference_names_every_command_rule_and_setting() -> None:
    cli, rules, config = reference.cli_reference(), reference.rules_reference(), reference.config_reference()
    for command in reference.COMMANDS:
        assert f"## curator {command}\n" in cli
    for rule in CATALOGUE:
        assert f"| `{rule.id}` |" in rules
    for key in CONFIG_KEYS:
        assert f"| `{key.name}` |" in config


def test_check_says_which_page_is_stale(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert reference.main(["--out", str(tmp_path)]) == 0
    assert reference.main(["--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "rules.md").write_text("old\n", encoding="utf-8")
    assert reference.main(["--out", str(tmp_path), "--check"]) == 1
    assert "docs/reference/rules.md is out of date" in capsys.readouterr().err
