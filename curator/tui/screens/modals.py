"""Small modal dialogs: confirm a step, or edit a line of text."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class Confirm(ModalScreen[bool]):
    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__(classes="modal")
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.question))
            yield Static(Text("y: yes   n: no", style="dim"))

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class EditLine(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="edit.cancel")]

    def __init__(self, prompt: str, value: str) -> None:
        super().__init__(classes="modal")
        self.prompt, self.value = prompt, value

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.prompt))
            yield Input(value=self.value, id="edit-line")
            yield Static(Text("enter: accept with this title   escape: cancel", style="dim"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
