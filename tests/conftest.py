"""Shared fixtures: copies of the bundled and the real vaults, and small vaults made on the spot."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import FOAM_DOCS, SAMPLE_VAULT


@pytest.fixture
def sample_vault(tmp_path: Path) -> Path:
    """A private copy of sample_vault/, safe to change."""
    target = tmp_path / "sample_vault"
    shutil.copytree(SAMPLE_VAULT, target)
    return target


@pytest.fixture
def foam_docs(tmp_path: Path) -> Path:
    """A private copy of the Foam documentation vault (skipped where ../shared is absent)."""
    if not FOAM_DOCS.is_dir():
        pytest.skip("../shared/vaults/foam-docs is not present")
    target = tmp_path / "foam-docs"
    shutil.copytree(FOAM_DOCS, target)
    return target


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def own_user_config(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Each test gets an empty user config folder (the trust list, the user's config.toml, the
    key that seals its state), and no resident process. Set apart from the test's own
    `monkeypatch`, so a test that undoes its patches midway still writes and reads its state with
    one key."""
    folder = tmp_path_factory.mktemp("user-config")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CURATOR_CONFIG_HOME", str(folder))
        patch.setenv("CURATOR_RESIDENT", "0")  # no search leaves a process behind; test_resident.py turns it on
        yield folder
