"""Draw a page's neighbourhood as text: links as braille lines, pages as short labels.

`draw` is pure (positions in, a Rich Text out) so that it is tested without a terminal. Each
character cell holds 2×4 braille dots, which gives lines four times finer than box drawing.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len
from rich.text import Text

from curator.tui.words import left, middle

LABEL = 14  # characters of a page's title shown at most
# The braille dot of each (x, y) in a 2×4 cell (Unicode braille patterns start at U+2800).
_DOT = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def draw(
    positions: dict[str, tuple[float, float]],
    edges: Iterable[tuple[str, str]],
    labels: dict[str, str],
    styles: dict[str, str],
    width: int,
    height: int,
    edge_style: str = "dim",
) -> Text:
    """`positions` in [-1, 1]² on a `width`×`height` canvas; an edge between two drawn nodes is
    a line, each node its label (or a dot where a label would cover another), in its style."""
    if width < 4 or height < 2 or not positions:
        return Text("")
    dots = [[0] * width for _ in range(height)]
    cells: list[list[str | None]] = [[None] * width for _ in range(height)]
    cell_style: list[list[str]] = [[""] * width for _ in range(height)]
    margin = min(LABEL // 2 + 1, max(width // 4, 1))

    def to_dots(node: str) -> tuple[int, int]:
        x, y = positions[node]
        dx = margin * 2 + (x + 1) / 2 * (width * 2 - 1 - margin * 4)
        dy = (1 - y) / 2 * (height * 4 - 1)  # y grows upwards in the layout, downwards on screen
        return round(dx), round(dy)

    for a, b in edges:
        if a in positions and b in positions and a != b:
            for x, y in _line(*to_dots(a), *to_dots(b)):
                if 0 <= y < height * 4 and 0 <= x < width * 2:
                    dots[y // 4][x // 2] |= _DOT[y % 4][x % 2]
    # The first nodes are placed first (the caller puts the centre page first); a label that would
    # cover another one shrinks to a dot. Widths are cells, not characters: an emoji takes two.
    for node in positions:
        x, y = to_dots(node)
        row, column = min(y // 4, height - 1), min(x // 2, width - 1)
        label = _letters(_short(labels.get(node, node)))
        cells_wide = sum(w for _, w in label)
        start = max(0, min(column - cells_wide // 2, width - cells_wide))
        # a free cell either side too, so two labels never run into one
        free = all(cells[row][c] is None for c in range(max(start - 1, 0), min(start + cells_wide + 1, width)))
        if not free:
            label, start = [("●", 1)], column
            if cells[row][column] is not None:
                continue
        at = start
        for letter, wide in label:
            if at + wide > width:
                break
            cells[row][at] = letter
            for more in range(1, wide):
                cells[row][at + more] = ""  # the right half of a wide letter: nothing drawn there
            for c in range(at, at + wide):
                cell_style[row][c] = styles.get(node, "")
            at += wide
    text = Text()
    for row in range(height):
        for column in range(width):
            ch = cells[row][column]
            if ch:
                text.append(ch, style=cell_style[row][column])
            elif ch == "":
                continue
            elif dots[row][column]:
                text.append(chr(0x2800 + dots[row][column]), style=edge_style)
            else:
                text.append(" ")
        if row < height - 1:
            text.append("\n")
    return text


def _short(title: str) -> str:
    """A label at most LABEL cells: a title cut in the middle (its start and its end, where a date or
    a version tells two pages apart); a folder-qualified one ("payments/Runbook", given to two pages
    of one title) from the left, keeping the name and the folder that tells them apart."""
    return left(title, LABEL) if "/" in title else middle(title, LABEL, head=0.5)


def _letters(label: str) -> list[tuple[str, int]]:
    """The label's letters with their widths in cells; a zero-width mark (an emoji's variation
    selector, a combining accent) goes with the letter before it, and the pair is measured whole."""
    letters: list[str] = []
    for char in label:
        if letters and cell_len(char) == 0:
            letters[-1] += char
        else:
            letters.append(char)
    return [(letter, max(cell_len(letter), 1)) for letter in letters]


def _line(x0: int, y0: int, x1: int, y1: int) -> list[tuple[int, int]]:
    """The dots of a straight line (Bresenham)."""
    points = []
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    error = dx + dy
    while True:
        points.append((x0, y0))
        if x0 == x1 and y0 == y1:
            return points
        double = 2 * error
        if double >= dy:
            error += dy
            x0 += sx
        if double <= dx:
            error += dx
            y0 += sy
