"""The notes pane: the owner's notes (name and description, by name) and the chosen note's
text with line numbers, the numbers `kit notes show --lines` and the model's `read_note` use.
Notes are added with `kit notes add` or by sending a file to the Telegram bot."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import OptionList, Static, TextArea
from textual.widgets.option_list import Option

from kit.notes.store import NoteInfo
from kit.notes.text import size_text
from tui.base import Pane
from tui.format import clip, when

DESCRIPTION_WIDTH = 30  # beside the name in the list's fixed width (tui/kit.tcss)
EMPTY = (
    "No notes yet. A note is a document Kit reads when a question needs it: add one with "
    "`kit notes add FILE`, or send a text or Markdown file to the Telegram bot."
)


class NotesPane(Pane):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "to_list", "Notes list", tooltip="Back to the list of notes", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.notes: dict[str, NoteInfo] = {}
        self.shown: str | None = None

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield OptionList(id="note-list")
            with Vertical(id="note-view"):
                yield Static(EMPTY, id="note-header", markup=False)
                yield TextArea(
                    "", id="note-body", read_only=True, show_line_numbers=True, soft_wrap=True
                )

    @property
    def note_list(self) -> OptionList:
        return self.query_one("#note-list", OptionList)

    async def reload(self) -> None:
        with self.kit_app.reporting():
            notes = await self.client.notes()
            self.notes = {n.name: n for n in notes}
            await self._fill_list()

    async def _fill_list(self) -> None:
        options = self.note_list
        options.clear_options()
        options.add_options(
            Option(f"{n.name}\n  {clip(n.description, DESCRIPTION_WIDTH)}", id=n.name)
            for n in self.notes.values()
        )
        if not self.notes:
            self.shown = None
            self.query_one("#note-header", Static).update(EMPTY)
            self.query_one("#note-body", TextArea).load_text("")
            return
        keep = self.shown if self.shown in self.notes else next(iter(self.notes))
        self.note_list.highlighted = self.note_list.get_option_index(keep)
        await self._show(keep)

    async def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is not None and event.option.id != self.shown:
            self.work(self._show, event.option.id, group="show")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_read()

    async def _show(self, name: str) -> None:
        with self.kit_app.reporting():
            note = await self.client.note(name)
            self.shown = name
            info = note.info
            header = (
                f"{info.name} · {info.lines:,} lines · {size_text(info.bytes)} · updated "
                f"{when(info.updated_at, self.tz)}\n{info.description}"
            )
            self.query_one("#note-header", Static).update(header)
            self.query_one("#note-body", TextArea).load_text(note.text)

    def action_read(self) -> None:
        if self.shown is not None:
            self.query_one("#note-body", TextArea).focus()

    def action_to_list(self) -> None:
        self.note_list.focus()
