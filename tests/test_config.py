from __future__ import annotations

from pathlib import Path

import pytest

from curator.core.common.errors import ConfigError
from curator.core.state.config import Config, load_config


def write(tmp_path: Path, text: str) -> Path:
    (tmp_path / ".curator.toml").write_text(text, encoding="utf-8")
    return tmp_path


def test_no_file_gives_defaults(tmp_path: Path) -> None:
    assert load_config(tmp_path) == Config()


def test_every_key_is_read(tmp_path: Path) -> None:
    config = load_config(
        write(
            tmp_path,
            """
resolve_aliases = true
ignore = ["templates/**", "*.excalidraw.md"]
types = ["service", "team"]
index_page = "Home.md"
index_budget = 8192
max_page_bytes = 1000
[thresholds]
stub_chars = 50
title_chars = 60
[rules]
orphan = "off"
stub = "error"
""",
        )
    )
    assert config.resolve_aliases and config.index_page == "Home.md" and config.index_budget == 8192
    assert config.ignore == ("templates/**", "*.excalidraw.md") and config.types == ("service", "team")
    assert (config.stub_chars, config.title_chars, config.max_page_bytes) == (50, 60, 1000)
    assert config.severity("orphan") is None and config.severity("stub") == "error"
    assert config.severity("dead-link") == "error"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("resolve_alias = true", "'resolve_alias'"),
        ("[thresholds]\nstub = 3", "thresholds.stub"),
        ("[rules]\norphans = 'off'", "rules.orphans"),
        ("[rules]\norphan = 'fatal'", "rules.orphan"),
        ("index_budget = -1", "index_budget"),
        ("index_budget = '24k'", "index_budget"),
        ("resolve_aliases = 'yes'", "resolve_aliases"),
        ("ignore = 'templates'", "ignore"),
        ("ignore = ['[z-a]']", "'[z-a]' is not a gitignore pattern"),  # a bad character range
        ("types = []", "types"),
        ("rules = 3", "rules"),
        ("this is = not toml", "not valid TOML"),
        ("[thresholds]\nreworded_margin = 0.2", "thresholds.reworded_margin is no longer read"),  # an earlier key
    ],
)
def test_bad_config_is_one_clear_error_naming_the_key(tmp_path: Path, text: str, names: str) -> None:
    with pytest.raises(ConfigError) as raised:
        load_config(write(tmp_path, text))
    message = str(raised.value)
    assert names in message and "\n" not in message


def test_fingerprint_changes_with_any_setting() -> None:
    assert Config().fingerprint() == Config().fingerprint()
    assert Config().fingerprint() != Config(rules={"orphan": "off"}).fingerprint()
    assert Config().fingerprint() != Config(stub_chars=10).fingerprint()
