"""The page preview: frontmatter as text, the body rendered as Markdown, opened at a finding's line."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Markdown, Static
from textual.widgets.markdown import MarkdownBlock

from curator.core.parse import split_frontmatter
from curator.core.vault import Vault


class PreviewPane(Vertical):
    def compose(self) -> ComposeResult:
        yield Static("Preview", classes="pane-title", id="preview-title")
        with VerticalScroll(id="preview-scroll"):
            yield Static(id="preview-meta")
            yield Markdown(id="preview")

    async def show(self, vault: Vault, path: str, line: int | None = None) -> None:
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
