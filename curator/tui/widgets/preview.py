"""The page preview: frontmatter as text, the body rendered as Markdown, opened at a finding's line."""

from __future__ import annotations

from typing import NamedTuple

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Markdown, Static
from textual.widgets.markdown import MarkdownBlock

from curator.core.read.parse import split_frontmatter
from curator.core.read.vault import Vault


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
        await markdown.update(text[body_at:])
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
