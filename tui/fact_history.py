"""One fact and its history: every change, when, by whom (which pass or message), and why."""

from __future__ import annotations

from typing import Any, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static
from textual.worker import Worker

from kit.memory.fact_rows import Fact, HistoryEntry
from tui.base import KitHost, add_columns, start_work
from tui.changes import ask_deactivate, ask_undo
from tui.fact_edits import ask_edit, ask_pin
from tui.format import fact_details, history_change, history_source, when


class FactHistoryScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("u", "undo_pass", "Undo this pass"),
        Binding("e", "edit", "Edit"),
        Binding("p", "pin", "Pin"),
        Binding("d", "deactivate", "Deactivate"),
    ]

    def __init__(self, fact: Fact) -> None:
        super().__init__()
        self.fact = fact
        self.entries: list[HistoryEntry] = []

    def compose(self) -> ComposeResult:
        yield Static(id="fact-details", markup=False)
        table: DataTable[str] = DataTable(id="history-table", cursor_type="row")
        yield table
        with VerticalScroll(id="history-change"):
            yield Static(id="change-text", markup=False)
        yield Footer()

    @property
    def table(self) -> DataTable[str]:
        return self.query_one("#history-table", DataTable)

    def on_mount(self) -> None:
        fixed = (("when", 16), ("by", 8), ("change", 10), ("source", 14))
        add_columns(self.table, fixed, ("why", "why", 12), self.app.size.width)
        self.start_reload()

    def start_reload(self) -> Worker[Any]:
        return start_work(self, self.reload, group="reload")

    async def reload(self) -> None:
        app = cast(KitHost, self.app)
        with app.reporting():
            facts = await app.client.facts(include_inactive=True)
            self.fact = next((f for f in facts if f.id == self.fact.id), self.fact)
            self.entries = await app.client.fact_history(self.fact.id)
        self.query_one("#fact-details", Static).update(fact_details(self.fact, app.tz))
        table = self.table
        table.clear()
        for i, entry in enumerate(reversed(self.entries)):  # newest first
            table.add_row(
                when(entry.at, app.tz),
                entry.actor,
                entry.operation,
                history_source(entry),
                entry.reason or "—",
                key=str(i),
            )
        self._show_change()

    def current(self) -> HistoryEntry | None:
        if not self.entries or not self.table.row_count:
            return None
        return list(reversed(self.entries))[self.table.cursor_row]

    def on_data_table_row_highlighted(self) -> None:
        self._show_change()

    def _show_change(self) -> None:
        entry = self.current()
        text = "" if entry is None else f"{entry.reason}\n\n{history_change(entry)}".strip()
        self.query_one("#change-text", Static).update(text)

    def action_undo_pass(self) -> None:
        entry = self.current()
        if entry is None or entry.pass_id is None:
            self.notify(
                "this change was not made by a pass; pick a row whose source says 'pass N'",
                severity="warning",
            )
            return
        ask_undo(self, entry.pass_id)

    def action_edit(self) -> None:
        ask_edit(self, self.fact)

    def action_pin(self) -> None:
        ask_pin(self, self.fact)

    def action_deactivate(self) -> None:
        ask_deactivate(self, self.fact)
