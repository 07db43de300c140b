"""Small modal dialogs: confirm an action (optionally with a reason), ask for one value, pick
one of a list."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.button import ButtonVariant
from textual.widgets.option_list import Option


class Confirm(ModalScreen[str | None]):
    """Ask before a change to memory. Dismisses with the reason (or "") or None on cancel."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+y", "confirm", "Confirm"),
    ]

    def __init__(
        self,
        title: str,
        body: str,
        *,
        action: str,
        reason: str | None = None,
        variant: ButtonVariant = "error",
    ) -> None:
        super().__init__()
        self._title = title
        self._body = body
        self._action = action
        self._reason = reason  # None: no reason asked
        self._variant: ButtonVariant = variant  # "error" (red) for what takes memory away

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._title, classes="dialog-title")
            yield Static(self._body, markup=False, classes="dialog-body")
            if self._reason is not None:
                yield Input(self._reason, placeholder="why (kept in the history)", id="reason")
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self._action} (ctrl+y)", variant=self._variant, id="confirm")
                yield Button("Cancel (esc)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#reason" if self._reason is not None else "#cancel").focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "confirm":
            self.action_confirm()
        else:
            self.action_cancel()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_confirm()

    def action_confirm(self) -> None:
        reason = self.query_one("#reason", Input).value if self._reason is not None else ""
        if self._reason is not None and not reason.strip():
            self.notify("say why (it is kept in the fact's history)", severity="warning")
            return
        self.dismiss(reason.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


class Ask(ModalScreen[str | None]):
    """Ask for one value (a date, a pass number). Dismisses with the text or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, *, placeholder: str = "", value: str = "") -> None:
        super().__init__()
        self._title = title
        self._placeholder = placeholder
        self._value = value

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._title, classes="dialog-title")
            yield Input(self._value, placeholder=self._placeholder, id="answer")
            yield Static("enter to go, esc to cancel", classes="dialog-hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


class Pick(ModalScreen[str | None]):
    """Choose one of a list (a curation pass to undo). Dismisses with its id or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, choices: list[tuple[str, str]], *, hint: str = "") -> None:
        super().__init__()
        self._title = title
        self._choices = choices  # (id, what to show)
        self._hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._title, classes="dialog-title")
            yield OptionList(*(Option(label, id=key) for key, label in self._choices), id="choices")
            yield Static(self._hint or "enter to choose, esc to cancel", classes="dialog-hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
