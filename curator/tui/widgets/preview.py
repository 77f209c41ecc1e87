"""The page preview: frontmatter as text, the body rendered as Markdown, opened at a finding's line."""

from __future__ import annotations

import re
from typing import NamedTuple

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Markdown, Static
from textual.widgets.markdown import MarkdownBlock

from curator.core.read.parse import split_frontmatter
from curator.core.read.vault import Vault

# TeX between dollars as Obsidian and pandoc read it: an opening `$` before a non-space, a closing
# one after a non-space and before no digit ("$5 and $10" is no formula). Outside code only.
_INLINE_MATH = re.compile(r"(?<![\\$`])\$(?=[^\s$])([^$\n]*?[^\s$\\])\$(?![\d$])")
_DISPLAY_MATH = re.compile(r"(?<![\\`])\$\$([^$\n]+?)\$\$")
_CODE_SPAN = re.compile(r"(`+[^`]*`+)")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


def math_as_code(body: str) -> str:
    """The body with each TeX formula as inline code (`$x_1$`), a `$$` line of its own as a fence:
    a terminal cannot typeset it, and as Markdown its underscores and stars would turn into
    emphasis and vanish; a callout's `[!kind]` as its label. The lines stay where they are (a
    finding's line is found by them)."""
    out, fenced, display = [], "", False
    lines = body.split("\n")
    # A $$ line opens a formula only when another $$ line follows to close it: else it is text
    # (the rest of the page was shown as one code block).
    last = max((i for i, line in enumerate(lines) if line.strip() == "$$"), default=-1)
    for i, line in enumerate(lines):
        fence = _FENCE.match(line)
        if fenced or (fence and not display):
            if fence and (not fenced or (fence.group(1)[0] == fenced[0] and len(fence.group(1)) >= len(fenced))):
                fenced = "" if fenced else fence.group(1)
            out.append(line)
        elif line.strip() == "$$" and (display or i < last):
            display = not display
            out.append("```")
        elif display:
            out.append(line)
        else:
            parts = _CODE_SPAN.split(_CALLOUT.sub(_callout_head, line))  # odd parts are code spans: left as written
            for at in range(0, len(parts), 2):
                parts[at] = _INLINE_MATH.sub(r"`$\1$`", _DISPLAY_MATH.sub(r"`$$\1$$`", parts[at]))
            out.append("".join(parts))
    return "\n".join(out)


# An Obsidian callout's first line, "> [!warning]- Title": its kind shown as a label, as Obsidian
# shows it, not as "[!warning]" (a new user read the preview's `[!SOURCE] Sources` as a broken link).
_CALLOUT = re.compile(r"^(\s{0,3}(?:>\s*)+)\[!([\w-]+)\][+-]?[ \t]*(.*)$")


def _callout_head(found: re.Match[str]) -> str:
    kind = found.group(2).replace("-", " ").capitalize()
    title = found.group(3).strip()
    return f"{found.group(1)}**{kind}**" + (f" · {title}" if title and title.casefold() != kind.casefold() else "")


class Like(NamedTuple):
    pages: list[tuple[str, float]]  # the model's closest pages, best first
    evidence: dict[str, str]  # page -> the duplicate rule's evidence for the pair
    warning: str | None  # why the model fell back, if it did


class PreviewPane(Vertical):
    def compose(self) -> ComposeResult:
        yield Static("Preview", classes="pane-title", id="preview-title")
        with VerticalScroll(id="preview-scroll"):
            yield Static(id="preview-like")
            yield Static(id="preview-meta")
            yield Markdown(id="preview")

    def show_like(self, found: Like | None) -> None:
        """ "Pages like this one" above the page: the duplicate rule's evidence first, then the
        model's closest pages by score (a suspicion to read); None while they are being found."""
        like = self.query_one("#preview-like", Static)
        if found is None:
            like.update(Text("Pages like this one: comparing…", style="italic"))
            return
        pages, evidence, warning = found
        text = Text("Pages like this one", style="bold")
        text.append(" (l; by meaning, read before merging)\n", style="dim")
        for other, why in evidence.items():
            text.append(f"  duplicate  {other}: {why}\n")
        for other, score in pages:
            if other not in evidence:
                text.append(f"  {score:.2f}  {other}\n")
        if not pages and not evidence:
            text.append("  none: the page says too little of its own\n", style="italic")
        if warning:
            text.append(f"  {warning}\n", style="dim")
        like.update(text)

    async def show(self, vault: Vault, path: str, line: int | None = None) -> None:
        self.query_one("#preview-like", Static).update("")
        page = vault.pages[path]
        self.query_one("#preview-title", Static).update(Text(f"{path}"))
        meta = self.query_one("#preview-meta", Static)
        if page.unreadable:
            meta.update(Text(page.unreadable, style="italic"))
            await self.query_one("#preview", Markdown).update("")
            return
        try:
            text = vault.text_of(path)
        except OSError as exc:  # gone or unreadable since the vault was read
            meta.update(Text(f"cannot be read now: {exc.strerror or exc}", style="italic"))
            await self.query_one("#preview", Markdown).update("")
            return
        fm_text, _, body_at = split_frontmatter(text)
        meta.update(Text(fm_text.rstrip(), style="dim") if fm_text else Text(""))
        markdown = self.query_one("#preview", Markdown)
        await markdown.update(math_as_code(text[body_at:]))
        scroll = self.query_one("#preview-scroll", VerticalScroll)
        scroll.scroll_home(animate=False)
        if line:
            wanted = line - 1 - text.count("\n", 0, body_at)  # the finding's line within the body, from 0
            block = next(
                (b for b in markdown.query(MarkdownBlock) if b.source_range[0] <= wanted < max(b.source_range[1], 1)),
                None,
            )
            if block is not None:  # the finding's block, marked and scrolled to
                block.add_class("-finding")
                self.call_after_refresh(scroll.scroll_to_widget, block, top=True, animate=False)
