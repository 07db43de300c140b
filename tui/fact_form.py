"""The form for writing a fact yourself: add one, or edit one in place.

The form saves through the client itself and closes only once the change is stored, so a
refusal (a secret, a date out of range, a text too long) is shown while what you typed is
still there to fix.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date
from typing import ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from kit.config import CATEGORIES
from kit.curator.reports import OwnerChange
from tui.base import KitHost, start_work


@dataclass(frozen=True)
class FactDraft:
    """What the form holds when saved. `expires`: the last day the fact holds, or None."""

    content: str
    subject: str
    category: str
    pinned: bool
    expires: date | None


Save = Callable[[FactDraft], Awaitable[OwnerChange]]

OWNERS_NOTE = (
    "Yours from now on: the curator and REM never change it. Recorded in the fact's "
    "history, where it can be undone."
)


class FactForm(ModalScreen[OwnerChange | None]):
    """Add (no `draft`) or edit a fact. Dismisses with the stored change, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+y", "save", "Save"),
    ]

    def __init__(self, title: str, save: Save, *, draft: FactDraft | None = None) -> None:
        super().__init__()
        self._title = title
        self._save = save
        self._draft = draft
        self.adding = draft is None

    def compose(self) -> ComposeResult:
        draft = self._draft or FactDraft("", "", "person", False, None)
        expires = "" if draft.expires is None else draft.expires.isoformat()
        with Vertical(classes="dialog fact-form"):
            yield Label(self._title, classes="dialog-title")
            with Horizontal(classes="form-row"):
                yield Label("Fact", classes="form-label")
                yield Input(
                    draft.content,
                    placeholder="e.g. Prefers green tea",
                    id="form-content",
                    compact=True,
                )
            with Horizontal(classes="form-row"):
                yield Label("Subject", classes="form-label")
                yield Input(
                    draft.subject,
                    placeholder="who or what (optional)",
                    id="form-subject",
                    compact=True,
                )
            if self.adding:
                with Horizontal(classes="form-row"):
                    yield Label("Category", classes="form-label")
                    yield Select(
                        [(c, c) for c in CATEGORIES],
                        value=draft.category,
                        allow_blank=False,
                        id="form-category",
                        compact=True,
                    )
            with Horizontal(classes="form-row"):
                yield Label("Holds to", classes="form-label")
                yield Input(
                    expires,
                    placeholder="last day, YYYY-MM-DD (optional)",
                    id="form-expires",
                    compact=True,
                )
            if self.adding:
                yield Checkbox("pin it: always in context", id="form-pin", compact=True)
            yield Static(OWNERS_NOTE, classes="dialog-hint")
            with Horizontal(classes="dialog-buttons"):
                label = "Add" if self.adding else "Save"
                yield Button(f"{label} (ctrl+y)", variant="primary", id="save")
                yield Button("Cancel (esc)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#form-content", Input).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.action_cancel()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def draft(self) -> FactDraft | None:
        """What the form holds, or None (with a warning) when the date is not a date."""
        text = self.query_one("#form-expires", Input).value.strip()
        expires = None
        if text:
            try:
                expires = date.fromisoformat(text)
            except ValueError:
                self.notify("the last day must be a date, YYYY-MM-DD", severity="warning")
                return None
        category = self._draft.category if self._draft else "person"
        pinned = self._draft.pinned if self._draft else False
        if self.adding:
            category = str(self.query_one("#form-category", Select).value)
            pinned = self.query_one("#form-pin", Checkbox).value
        return FactDraft(
            self.query_one("#form-content", Input).value.strip(),
            self.query_one("#form-subject", Input).value.strip(),
            category,
            pinned,
            expires,
        )

    def action_save(self) -> None:
        draft = self.draft()
        if draft is None:
            return
        if not draft.content:
            self.notify("write the fact first", severity="warning")
            return
        start_work(self, self._store, draft, group="save")

    async def _store(self, draft: FactDraft) -> None:
        app = cast(KitHost, self.app)
        with app.reporting():  # a refusal is shown and the form stays open to fix it
            self.dismiss(await self._save(draft))

    def action_cancel(self) -> None:
        self.dismiss(None)
