"""Load curator's themes from their TOML data files into Textual themes."""

from __future__ import annotations

import tomllib
from importlib import resources

from textual.theme import Theme

DEFAULT_THEME = "curator-dark"
# Fallbacks for curator's own colour variables, so any Textual theme can be used too.
DEFAULT_VARIABLES = {
    "finding-error": "#ff5f5f",
    "finding-warning": "#d7af5f",
    "finding-info": "#5fafd7",
    "dead-link": "#ff5f87",
    "orphan": "#af87d7",
}


def load_themes() -> list[Theme]:
    themes = []
    for entry in sorted(resources.files("curator.themes").iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
            variables = {**DEFAULT_VARIABLES, **data.pop("variables", {})}
            themes.append(Theme(**data, variables=variables))
    return themes
