"""Small modal dialogs: confirm a step, edit a line of text, or choose one of a few answers."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option


class Confirm(ModalScreen[bool]):
    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__(classes="modal")
        self.question = question

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog"):  # a long question (a rule's fixes, listed) scrolls
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


class Choose(ModalScreen[str | None]):
    """Pick one of a few answers (enter), or none (escape)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="choose.cancel")]

    def __init__(self, prompt: str, choices: list[tuple[str, str]]) -> None:
        super().__init__(classes="modal")
        self.prompt, self.choices = prompt, choices  # (value, what the person reads)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.prompt))
            yield OptionList(*(Option(Text(shown), id=value) for value, shown in self.choices), id="choices")
            yield Static(Text("enter: choose   escape: cancel", style="dim"))

    def on_mount(self) -> None:
        self.query_one("#choices", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class Reading(ModalScreen[None]):
    """Text to read in full (a finding, a long message), scrolled when it is longer than the screen."""

    BINDINGS = [Binding("escape,enter,q", "dismiss", "Close", id="reading.close")]

    def __init__(self, text: Text) -> None:
        super().__init__(classes="modal")
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog wide"):
            yield Static(self.text, id="reading-text")
            yield Static(Text("escape closes", style="dim"))
