"""The consolidation pane: run REM now (or a dry run) with progress per step, then its report;
and the last REM's report (the nightly one, unless run here since)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Markdown, Static

from kit.curator.reports import REM_STEPS, RemProgress, RemReport
from tui.base import MemoryChanged, Pane
from tui.format import report_markdown

ICONS = {"waiting": "·", "running": "▶", "done": "✓", "skipped": "–", "failed": "✗"}

WHAT_STEPS_DO = {
    "condense": "condense older day summaries",
    "review": "review facts unused for a long time",
    "copies": "keep a fact stored twice once",
    "expire": "deactivate facts past their expiry",
}


class StepLine(Static):
    """One REM step and how far it got."""

    def __init__(self, step: str) -> None:
        super().__init__(markup=False, classes="rem-step")
        self.step = step
        self.state = "waiting"
        self.detail = WHAT_STEPS_DO.get(step, "")

    def on_mount(self) -> None:
        self._draw()

    def show(self, progress: RemProgress) -> None:
        self.state = progress.status
        self.detail = progress.detail or WHAT_STEPS_DO.get(self.step, "")
        self._draw()

    def reset(self) -> None:
        self.state = "waiting"
        self.detail = WHAT_STEPS_DO.get(self.step, "")
        self._draw()

    def _draw(self) -> None:
        self.set_classes(f"rem-step -{self.state}")
        self.update(f"{ICONS.get(self.state, '?')} {self.step:<9} {self.state:<8} {self.detail}")


class ConsolidationPane(Pane):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "run_rem", "Run REM"),
        Binding(
            "n",
            "dry_run",
            "Dry run",
            tooltip="What REM would do, changing nothing (the model is still asked: it spends "
            "tokens)",
        ),
        Binding("l", "last_report", "Last report"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.running = False
        self.ran_here = False  # showing the report of a run started in this pane
        self.report: RemReport | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="rem-steps"):
            yield Static(
                "REM consolidates memory: r runs it now, n shows what it would do.",
                id="rem-state",
                markup=False,
            )
            for step in REM_STEPS:
                yield StepLine(step)
        with VerticalScroll(id="rem-report-box"):
            yield Markdown("", id="rem-report")

    async def reload(self) -> None:
        if self.running or self.ran_here:
            return  # the report on screen is newer than (or the same as) the last one
        await self._show_last()

    async def _show_last(self) -> None:
        with self.kit_app.reporting():
            report = await self.client.last_rem()
            self.ran_here = False
            await self._show(report, "Last REM")

    async def _show(self, report: RemReport | None, title: str) -> None:
        self.report = report
        body = self.query_one("#rem-report", Markdown)
        if report is None:
            await body.update(
                "## Last REM\n\nREM has not run yet. It runs every night; r runs it now."
            )
            return
        await body.update(report_markdown(report, self.tz, title))

    def action_run_rem(self) -> None:
        self._start(dry_run=False)

    def action_dry_run(self) -> None:
        self._start(dry_run=True)

    def action_last_report(self) -> None:
        if self.running:
            self.notify("REM is running; its report shows when it is done", severity="warning")
            return
        self.work(self._show_last, group="rem-report")

    def _start(self, *, dry_run: bool) -> None:
        if self.running:
            self.notify("REM is already running", severity="warning")
            return
        self.running = True
        self.work(self._run, dry_run, group="rem")

    async def _run(self, dry_run: bool) -> None:
        kind = "dry run" if dry_run else "REM"
        state = self.query_one("#rem-state", Static)
        lines = {line.step: line for line in self.query(StepLine)}
        for line in lines.values():
            line.reset()
        state.update(f"{kind} running…")

        async def progress(event: RemProgress) -> None:
            line = lines.get(event.step)
            if line is not None:
                line.show(event)

        report: RemReport | None = None
        try:
            with self.kit_app.reporting():
                report = await self.client.rem(dry_run=dry_run, on_progress=progress)
        finally:
            self.running = False
        if report is None:
            state.update(f"{kind} failed; see the notification. r runs it again.")
            return
        for step in report.steps:
            await progress(step)
        state.update(f"{kind} finished. r runs REM, n a dry run, l shows the last report.")
        self.ran_here = True
        await self._show(report, "Dry run: what REM would do" if dry_run else "REM: just now")
        if not dry_run:
            self.post_message(MemoryChanged())
