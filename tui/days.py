"""The days pane: dates with summaries (newest first, with a gist) and the chosen day's summary,
detailed or condensed. Jump to any date."""

from __future__ import annotations

from datetime import date
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Markdown, OptionList, Static
from textual.widgets.option_list import Option

from kit.errors import InputError
from kit.memory.days import Day
from kit.text import plural
from tui.base import Pane
from tui.dialogs import Ask
from tui.format import clip, day_title, when

GIST_WIDTH = 17  # what fits beside the date in the list's fixed width (tui/kit.tcss)


def parse_date(text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise InputError(
            f"{text.strip()!r} is not a date; type it as YYYY-MM-DD, e.g. 2026-03-01"
        ) from None


class DaysPane(Pane):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "toggle_version", "Detailed/condensed"),
        Binding("g", "jump", "Jump to date"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.days: dict[date, Day] = {}
        self.shown: date | None = None
        self.detailed = True

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield OptionList(id="day-list")
            with VerticalScroll(id="day-view"):
                yield Static("No day summaries yet.", id="day-header", markup=False)
                yield Markdown("", id="day-body")

    @property
    def day_list(self) -> OptionList:
        return self.query_one("#day-list", OptionList)

    async def reload(self) -> None:
        with self.kit_app.reporting():
            days = await self.client.days()
            self.days = {d.day: d for d in days}
            await self._fill_list()

    async def _fill_list(self) -> None:
        ordered = sorted(self.days.values(), key=lambda d: d.day, reverse=True)
        options = self.day_list
        options.clear_options()
        options.add_options(
            Option(f"{d.day.isoformat()}  {clip(d.gist, GIST_WIDTH)}", id=d.day.isoformat())
            for d in ordered
        )
        if not ordered:
            self.shown = None
            self.query_one("#day-header", Static).update(
                "No day summaries yet: Kit writes one at the end of each day you talk to it."
            )
            await self.query_one("#day-body", Markdown).update("")
            return
        keep = self.shown if self.shown in self.days else ordered[0].day
        await self.select(keep)

    async def select(self, day: date) -> None:
        """Highlight a day in the list and show its summary."""
        self.day_list.highlighted = self.day_list.get_option_index(day.isoformat())
        await self._show(day)

    async def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is not None:
            day = date.fromisoformat(event.option.id)
            if day != self.shown:
                await self._show(day)

    async def _show(self, day: date) -> None:
        summary = self.days.get(day)
        if summary is None:
            return
        self.shown = day
        version = "detailed" if self.detailed else "condensed"
        header = f"{day_title(day)} · {version} · {plural(summary.message_count, 'message')}"
        if summary.condensed_at is not None:
            header += f" · condensed {when(summary.condensed_at, self.tz)}"
        text = summary.detailed if self.detailed else summary.condensed
        if not text:
            text = (
                "*No condensed summary yet: REM condenses older days. "
                "Press t for the detailed one.*"
                if not self.detailed
                else "*No detailed summary for this day.*"
            )
        self.query_one("#day-header", Static).update(header)
        await self.query_one("#day-body", Markdown).update(text)

    async def action_toggle_version(self) -> None:
        self.detailed = not self.detailed
        if self.shown is not None:
            await self._show(self.shown)

    def action_jump(self) -> None:
        self.app.push_screen(Ask("Jump to date", placeholder="YYYY-MM-DD"), self._jump_answered)

    def _jump_answered(self, answer: str | None) -> None:
        if answer:
            self.work(self._jump_to, answer, group="jump")

    async def _jump_to(self, answer: str) -> None:
        with self.kit_app.reporting():
            day = parse_date(answer)
            if day not in self.days:
                found = await self.client.day(day)
                if found is None:
                    self.notify(
                        f"no summary for {day.isoformat()}: Kit writes one at the end of each "
                        "day you talk to it",
                        severity="warning",
                    )
                    return
                self.days[day] = found
                await self._fill_list()
            await self.select(day)
