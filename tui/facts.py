"""The facts pane: long-term facts filterable by category, active/inactive and text, with
confidence, expiry and last use; open one for its history, add, edit, pin or deactivate one
(the owner's own changes), undo a pass."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Checkbox, DataTable, Input, Select

from kit.config import CATEGORIES
from kit.memory.fact_rows import Fact
from tui.base import Pane
from tui.changes import ask_deactivate, ask_undo
from tui.dialogs import Pick
from tui.fact_edits import ask_add, ask_edit, ask_pin
from tui.fact_history import FactHistoryScreen
from tui.format import clip, fact_line, on_day, pass_line

# Columns beside the fact's text, with their widths; the text gets what is left.
FIXED_COLUMNS = (
    ("#", 4),
    ("category", 11),
    ("held", 6),  # "pinned", or "yours": written or rewritten by the owner (kit facts add/edit)
    ("conf", 4),
    ("expires", 10),
    ("last used", 10),
)
MIN_TEXT_WIDTH = 16
PASSES_LISTED = 30


def held(fact: Fact) -> str:
    """Whom the curator and REM leave a fact to: pinned ones, and the owner's own."""
    return "pinned" if fact.pinned else "yours" if fact.owner_written else ""


class FactsPane(Pane):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "open", "History"),
        Binding("a", "add", "Add"),
        Binding("e", "edit", "Edit"),
        Binding("p", "pin", "Pin"),
        Binding("d", "deactivate", "Deactivate"),
        Binding("u", "undo_pass", "Undo pass"),
        # The filters name their own keys: the footer keeps to 80 columns.
        Binding("slash", "search", "Filter", key_display="/", show=False),
        Binding("c", "category", "Category", show=False),
        Binding("i", "toggle_inactive", "Inactive", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.facts: dict[int, Fact] = {}

    def compose(self) -> ComposeResult:
        with Horizontal(id="fact-filters"):
            yield Select(
                [(c, c) for c in CATEGORIES],
                prompt="c all categories",
                id="fact-category",
            )
            yield Checkbox("i inactive too", id="fact-inactive")
            yield Input(placeholder="/ filter text", id="fact-filter")
        table: DataTable[str | Text] = DataTable(id="fact-table", cursor_type="row")
        yield table

    @property
    def table(self) -> DataTable[str | Text]:
        return self.query_one("#fact-table", DataTable)

    def on_mount(self) -> None:
        self._add_columns()

    def _text_width(self) -> int:
        fixed = sum(width + 2 for _, width in FIXED_COLUMNS) + 2  # cell padding, scrollbar
        return max(MIN_TEXT_WIDTH, (self.size.width or self.app.size.width) - fixed)

    def _add_columns(self) -> None:
        table = self.table
        table.clear(columns=True)
        for label, width in FIXED_COLUMNS[:3]:
            table.add_column(label, width=width, key=label)
        table.add_column("fact", width=self._text_width(), key="fact")
        for label, width in FIXED_COLUMNS[3:]:
            table.add_column(label, width=width, key=label)

    def on_resize(self) -> None:
        if self.table.columns:
            self._add_columns()
            self._fill()

    async def reload(self) -> None:
        category: Select[str] = self.query_one("#fact-category", Select)
        with self.kit_app.reporting():
            facts = await self.client.facts(
                category=category.selection,
                include_inactive=self.query_one("#fact-inactive", Checkbox).value,
                text=self.query_one("#fact-filter", Input).value,
            )
            self.facts = {f.id: f for f in facts}
            self._fill()

    def _fill(self) -> None:
        table = self.table
        keep = self.current()
        table.clear()
        width = self._text_width()
        for fact in self.facts.values():
            style = "" if fact.active else "dim strike"
            cells = (
                str(fact.id),
                fact.category,
                held(fact),
                clip(fact_line(fact), width),
                f"{fact.confidence:.2f}",
                on_day(fact.expires_at, self.tz, empty="—"),
                on_day(fact.last_accessed_at, self.tz),
            )
            table.add_row(*(Text(c, style=style) for c in cells), key=str(fact.id))
        if keep is not None and keep.id in self.facts:
            table.move_cursor(row=table.get_row_index(str(keep.id)))

    def current(self) -> Fact | None:
        table = self.table
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return None if key is None else self.facts.get(int(key))

    def on_select_changed(self) -> None:
        self.start_reload()

    def on_checkbox_changed(self) -> None:
        self.start_reload()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "fact-filter":
            self.start_reload()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "fact-filter":
            event.stop()
            self.table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def _need_fact(self) -> Fact | None:
        fact = self.current()
        if fact is None:
            self.notify("no fact selected; the table is empty", severity="warning")
        return fact

    def action_open(self) -> None:
        fact = self._need_fact()
        if fact is not None:
            self.app.push_screen(FactHistoryScreen(fact))

    def action_add(self) -> None:
        ask_add(self)

    def action_edit(self) -> None:
        fact = self._need_fact()
        if fact is not None:
            ask_edit(self, fact)

    def action_pin(self) -> None:
        fact = self._need_fact()
        if fact is not None:
            ask_pin(self, fact)

    def action_deactivate(self) -> None:
        fact = self._need_fact()
        if fact is not None:
            ask_deactivate(self, fact)

    def action_undo_pass(self) -> None:
        self.work(self._pick_pass, group="change")

    async def _pick_pass(self) -> None:
        """The recent passes that can be undone, newest first, to choose from."""
        with self.kit_app.reporting():
            passes = [p for p in await self.client.passes(limit=PASSES_LISTED) if p.undoable]
            if not passes:
                self.notify("no curation pass to undo: none has changed a fact yet")
                return

            def chosen(pass_id: str | None) -> None:
                if pass_id is not None:
                    ask_undo(self, int(pass_id))

            choices = [(str(p.id), pass_line(p, self.tz)) for p in passes]
            hint = "enter to choose (then confirm), esc to cancel; newest first"
            self.app.push_screen(Pick("Undo which pass?", choices, hint=hint), chosen)

    def action_search(self) -> None:
        self.query_one("#fact-filter", Input).focus()

    def action_category(self) -> None:
        select = self.query_one("#fact-category", Select)
        select.focus()
        select.action_show_overlay()

    def action_toggle_inactive(self) -> None:
        self.query_one("#fact-inactive", Checkbox).toggle()
