"""The user's own folders for curator (not the vault's): where trust and settings live, where
fetched models are kept. XDG on Linux and the BSDs without importing platformdirs, platformdirs
elsewhere."""

from __future__ import annotations

import os
import sys
from pathlib import Path

USER_CONFIG = "config.toml"  # the user's own settings, in config_home()
_XDG = {"config": ("XDG_CONFIG_HOME", "~/.config"), "cache": ("XDG_CACHE_HOME", "~/.cache")}


def config_home() -> Path:
    """The user's curator config folder: `CURATOR_CONFIG_HOME`, else the platform's standard place."""
    override = os.environ.get("CURATOR_CONFIG_HOME")
    if override:
        return Path(override).expanduser()
    return user_folder("config")


def user_folder(kind: str) -> Path:
    """curator's folder of `kind` ("config" or "cache") for this user."""
    if sys.platform.startswith(("linux", "freebsd", "openbsd")):
        variable, default = _XDG[kind]
        return Path(os.environ.get(variable) or default).expanduser() / "curator"
    import platformdirs

    if kind == "config":
        return Path(platformdirs.user_config_dir("curator", appauthor=False))
    return Path(platformdirs.user_cache_dir("curator", appauthor=False))
