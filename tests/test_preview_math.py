"""The preview shows TeX as written (its underscores and stars are no Markdown emphasis), and a
callout's kind as its label."""

from __future__ import annotations

import pytest

from curator.tui.widgets.preview import math_as_code


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        ("the sum $x_1 + x_2$ and $a*b*c$", "the sum `$x_1 + x_2$` and `$a*b*c$`"),
        ("inline $$E = m_0 c^2$$ here", "inline `$$E = m_0 c^2$$` here"),
        ("costs $5 and $10 in total", "costs $5 and $10 in total"),  # prices, no formula
        ("$$\nx_1 = y_2\n$$\nafter _this_", "```\nx_1 = y_2\n```\nafter _this_"),
        ("```\n$x_1$\n```\n$y_1$", "```\n$x_1$\n```\n`$y_1$`"),  # a fenced block is left as it is
        ("`code $x_1$` then $z_2$", "`code $x_1$` then `$z_2$`"),  # so is a code span
        ("escaped \\$x_1$ stays", "escaped \\$x_1$ stays"),
        # a $$ line that nothing closes is text: the rest of the page was shown as one code block
        ("$$\nthe _rest_ of the page\n\n# Heading", "$$\nthe _rest_ of the page\n\n# Heading"),
        ("- $$\n  a_b\n  $$\n\n## More *here*", "- $$\n  a_b\n  $$\n\n## More *here*"),
        # an Obsidian callout's kind is its label (a new user read `[!SOURCE] Sources` as a broken link)
        ("> [!SOURCE] Sources\n> - [x](y)", "> **Source** · Sources\n> - [x](y)"),
        ("> [!warning]- Careful\n```\n> [!note] in code\n```", "> **Warning** · Careful\n```\n> [!note] in code\n```"),
        (">> [!tip]\ntext [!x] mid", ">> **Tip**\ntext [!x] mid"),
    ],
)
def test_formulas_become_code_and_lines_stay(body: str, shown: str) -> None:
    assert math_as_code(body) == shown
    assert math_as_code(body).count("\n") == body.count("\n")
