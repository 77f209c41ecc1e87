"""Values from the core (a finding's data, a suggestion's evidence) as a person reads them."""

from __future__ import annotations


def words(value: object) -> str:
    """Lists joined, pairs and tables as words, numbers rounded: no brackets, quotes or braces."""
    if isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
        shown = [words(v) for v in items[:5]]
        return ", ".join(shown) + (f" and {len(items) - 5} more" if len(items) > 5 else "")
    if isinstance(value, dict):
        return ", ".join(f"{k} {words(v)}" for k, v in value.items())
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.2f}"
    return "none" if value is None else str(value)
