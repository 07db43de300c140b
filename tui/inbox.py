"""The inbox in the TUI (F8): the changes Kit set aside for the owner to decide, one row each,
the chosen one in full below; k keeps the old, t takes the new, b keeps both. Each answer is
an owner pass (its notice names it: `kit facts undo` takes it back)."""

from __future__ import annotations

from typing import Any, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static
from textual.worker import Worker

from kit.curator.questions import Question
from kit.inbox.render import headline, question_lines
from tui.base import KitHost, MemoryChanged, add_columns, start_work

EMPTY = "Nothing waits for you: no curation or REM pass has asked about a change."


class InboxScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("k", "answer('keep-old')", "Keep old"),
        Binding("t", "answer('take-new')", "Take new"),
        Binding("b", "answer('keep-both')", "Keep both"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.questions: list[Question] = []

    @property
    def kit_app(self) -> KitHost:
        return cast(KitHost, self.app)

    def compose(self) -> ComposeResult:
        yield Static("Inbox: changes Kit asks you about first", id="inbox-title")
        table: DataTable[str] = DataTable(id="inbox-table", cursor_type="row")
        yield table
        yield Static("", id="inbox-detail", markup=False)
        yield Footer()

    @property
    def table(self) -> DataTable[str]:
        return self.query_one("#inbox-table", DataTable)

    def on_mount(self) -> None:
        fixed = (("#", 5), ("category", 11), ("answers", 28))
        add_columns(self.table, fixed, ("what Kit would do", "what", 16), self.app.size.width)
        self.table.focus()
        self.start_reload()

    def start_reload(self) -> Worker[Any]:
        return start_work(self, self.reload, group="reload")

    async def reload(self) -> None:
        app = self.kit_app
        with app.reporting():
            self.questions = await app.client.inbox()
        table = self.table
        table.clear()
        for q in self.questions:
            table.add_row(str(q.id), q.category, " / ".join(q.choices), headline(q), key=str(q.id))
        self._show_current()

    def current(self) -> Question | None:
        if not self.questions or not self.table.row_count:
            return None
        return self.questions[min(self.table.cursor_row, len(self.questions) - 1)]

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_current()

    def _show_current(self) -> None:
        question = self.current()
        detail = self.query_one("#inbox-detail", Static)
        if question is None:
            detail.update(EMPTY)
            return
        detail.update("\n".join(question_lines(question, self.kit_app.tz)))

    def action_answer(self, answer: str) -> None:
        question = self.current()
        if question is None:
            self.notify("no question selected; nothing waits for an answer", severity="warning")
            return
        if answer not in question.choices:
            offered = ", ".join(question.choices)
            self.notify(f"question {question.id} offers {offered}", severity="warning")
            return
        start_work(self, self._answer, question.id, answer, group="change")

    async def _answer(self, question_id: int, answer: str) -> None:
        app = self.kit_app
        with app.reporting():
            answered = await app.client.answer_question(question_id, answer)
            app.notify(answered.summary(), timeout=10)
            app.post_message(MemoryChanged())
        await self.reload()
