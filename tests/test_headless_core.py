"""The core must not know the terminal: importing any core module loads neither Textual nor Rich."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest

import curator.core

CORE_MODULES = sorted(m.name for m in pkgutil.walk_packages(curator.core.__path__, "curator.core."))


def test_core_modules_are_found() -> None:
    assert "curator.core.read.vault" in CORE_MODULES and len(CORE_MODULES) >= 10


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_imports_no_ui(module: str) -> None:
    code = f"import sys, {module}; print([m for m in ('textual', 'rich') if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
