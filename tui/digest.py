"""The memory digest in the TUI (F7): a digest day's passes and the facts each changed, with where
they came from, as `kit digest` shows them; `[` and `]` go a day back and forth. What the
Telegram buttons do is here behind a confirmation: undo the pass of the chosen line, pin or
forget its fact (each the owner's own, undoable change). The inbox questions that wait come
first, with F8 (the inbox) to answer them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker

from kit.digest.actions import FORGET_REASON
from kit.digest.model import Digest, DigestLine
from kit.digest.render import (
    ANSWER_IN_TUI,
    line_text,
    nothing,
    pass_heading,
    quiet,
    title,
    waiting_heading,
    waiting_lines,
)
from tui.base import KitHost, MemoryChanged, start_work
from tui.changes import ask_undo
from tui.dialogs import Confirm


@dataclass(frozen=True)
class _Item:
    """What a row of the list stands for: a pass (to undo), a fact line (its pass's too)."""

    pass_id: int | None = None
    line: DigestLine | None = None


class DigestScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("left_square_bracket", "day(-1)", "Day before", key_display="["),
        Binding("right_square_bracket", "day(1)", "Day after", key_display="]"),
        Binding("u", "undo_pass", "Undo pass"),
        Binding("p", "pin", "Pin"),
        Binding("f", "forget", "Forget"),
    ]

    def __init__(self, day: date | None = None) -> None:
        super().__init__()
        self.day = day  # None: the open day (what the next digest reports)
        self.digest: Digest | None = None
        self.items: list[_Item] = []

    @property
    def kit_app(self) -> KitHost:
        return cast(KitHost, self.app)

    def compose(self) -> ComposeResult:
        yield Static("Memory digest", id="digest-title", markup=False)
        yield OptionList(id="digest-list")
        yield Footer()

    @property
    def listing(self) -> OptionList:
        return self.query_one("#digest-list", OptionList)

    def on_mount(self) -> None:
        self.listing.focus()
        self.start_reload()

    def start_reload(self) -> Worker[Any]:
        return start_work(self, self.reload, group="reload")

    async def reload(self) -> None:
        app = self.kit_app
        with app.reporting():
            digest = await app.client.digest(self.day)
            self.digest, self.day = digest, digest.day
            self._fill(digest)

    def _fill(self, digest: Digest) -> None:
        tz = self.kit_app.tz
        heading = nothing(digest, tz) if quiet(digest) else title(digest, tz)
        self.query_one("#digest-title", Static).update(heading)
        rows: list[tuple[str, _Item | None]] = []
        waiting = waiting_lines(digest)  # the inbox's questions: answered on the F8 screen
        if waiting:
            rows.append((waiting_heading(ANSWER_IN_TUI), None))
            rows += [(f"  {x}", None) for x in waiting]
        for digest_pass in (p for p in digest.passes if p.shown):
            undoable = digest_pass.pass_id if digest_pass.undoable else None
            rows.append((pass_heading(digest_pass, tz), _Item(undoable)))
            rows += [(f"  {line_text(x)}", _Item(undoable, x)) for x in digest_pass.lines]
            rows += [(f"  ! left out: {d}", None) for d in digest_pass.dropped]
        for name, lines in (("Expired", digest.expired), ("Remembered", digest.remembered)):
            if lines:
                rows.append((name, None))
                rows += [(f"  {line_text(x)}", _Item(None, x)) for x in lines]
        if digest.refused:
            rows.append(("Refused (nothing of these was applied)", None))
            rows += [(f"  {pass_heading(p, tz)}: {p.reason}", None) for p in digest.refused]
        listing = self.listing
        listing.clear_options()
        listing.add_options(
            # plain Text: a fact's own "[brackets]" are words, not markup
            Option(Text(text), id=f"row-{n}", disabled=item is None)
            for n, (text, item) in enumerate(rows)
        )
        self.items = [item or _Item() for _, item in rows]
        if any(item is not None for _, item in rows):
            listing.highlighted = next(n for n, (_, item) in enumerate(rows) if item is not None)

    def current(self) -> _Item | None:
        index = self.listing.highlighted
        if index is None or not 0 <= index < len(self.items):
            return None
        return self.items[index]

    def action_day(self, step: int) -> None:
        if self.day is not None:
            self.day = self.day + timedelta(days=step)
            self.start_reload()

    def action_undo_pass(self) -> None:
        item = self.current()
        if item is None or item.pass_id is None:
            self.notify("choose a line of a pass that can be undone", severity="warning")
            return
        ask_undo(self, item.pass_id)

    def action_pin(self) -> None:
        line = self._live_line("pin")
        if line is None:
            return
        if line.pinned:
            self.notify(f"fact #{line.fact_id} is pinned already", severity="warning")
            return
        body = (
            f"#{line.fact_id}: {line.text}\n\nIt is always in Kit's context, and the curator "
            "and REM never change it. Recorded in its history; undoable."
        )
        dialog = Confirm(f"Pin fact #{line.fact_id}?", body, action="Pin", variant="primary")
        self._after(dialog, self._pin, line.fact_id)

    def action_forget(self) -> None:
        line = self._live_line("forget")
        if line is None:
            return
        body = (
            f"#{line.fact_id}: {line.text}\n\nKit stops using it. Nothing is deleted: its "
            "history keeps what it said and who retired it; undoable."
        )
        dialog = Confirm(f"Forget fact #{line.fact_id}?", body, action="Forget")
        self._after(dialog, self._forget, line.fact_id)

    def _live_line(self, what: str) -> DigestLine | None:
        item = self.current()
        line = None if item is None else item.line
        if line is None:
            self.notify(f"choose a fact's line to {what} it", severity="warning")
        elif not line.live:
            self.notify(
                f"fact #{line.fact_id} is not in use; nothing to {what}", severity="warning"
            )
            return None
        return line

    def _after(self, dialog: Confirm, work: Any, fact_id: int) -> None:
        def confirmed(answer: str | None) -> None:
            if answer is not None:
                start_work(self, work, fact_id, group="change")

        self.app.push_screen(dialog, confirmed)

    async def _pin(self, fact_id: int) -> None:
        app = self.kit_app
        with app.reporting():
            change = await app.client.pin_fact(fact_id)
            app.notify(f"fact #{fact_id} pinned (pass {change.pass_id}: its history can undo it)")
            app.post_message(MemoryChanged())

    async def _forget(self, fact_id: int) -> None:
        app = self.kit_app
        with app.reporting():
            change = await app.client.deactivate_fact(fact_id, FORGET_REASON)
            app.notify(
                f"fact #{fact_id} forgotten (pass {change.pass_id}: its history can undo it)"
            )
            app.post_message(MemoryChanged())
