"""Values from the core (a finding's data, a suggestion's evidence) as a person reads them."""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size


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


def middle(name: str, width: int, head: float = 0.25) -> str:
    """`name` cut in the middle to `width` cells, `head` of them its start: a long path keeps its first
    folder and (the most of) its page's name, which tells two rows apart."""
    if cell_len(name) <= width:
        return name
    keep = max(width - 1, 2)
    end = _last_cells(name, keep - int(keep * head))
    return set_cell_size(name, width - 1 - cell_len(end)) + "…" + end


def left(name: str, width: int) -> str:
    """`name` cut from the left to `width` cells: its end, which tells two long names apart, stays."""
    if cell_len(name) <= width:
        return name
    return "…" + _last_cells(name, max(width - 1, 1))


def _last_cells(text: str, width: int) -> str:
    """The end of `text` that fits in `width` cells (measured whole: an emoji and its variation
    selector are two cells together, one apart)."""
    start = len(text)
    while start > 0 and cell_len(text[start - 1 :]) <= width:
        start -= 1
    return text[start:]
