"""The chat pane: the conversation, the reply streaming in, and what memory the reply used."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Collapsible, Input, Markdown, Static
from textual.widgets.markdown import MarkdownStream

from kit.agent import TurnResult
from tui.base import MemoryChanged, Pane
from tui.format import clip, fact_line


class HistoryInput(Input):
    """An input that remembers what was sent: up for older, down for newer (then the draft)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "older", "History", key_display="↑↓"),
        Binding("down", "newer", "Newer", show=False),
    ]

    def __init__(self, *, placeholder: str = "", id: str | None = None) -> None:
        super().__init__(placeholder=placeholder, id=id)
        self.history: list[str] = []
        self._index: int | None = None  # None: editing the draft, not browsing history
        self._draft = ""

    def remember(self, text: str) -> None:
        if not self.history or self.history[-1] != text:
            self.history.append(text)
        self._index = None
        self._draft = ""

    def action_older(self) -> None:
        if not self.history:
            return
        if self._index is None:
            self._draft = self.value
            self._index = len(self.history) - 1
        else:
            self._index = max(0, self._index - 1)
        self._show(self.history[self._index])

    def action_newer(self) -> None:
        if self._index is None:
            return
        self._index += 1
        if self._index >= len(self.history):
            self._index = None
            self._show(self._draft)
        else:
            self._show(self.history[self._index])

    def _show(self, text: str) -> None:
        self.value = text
        self.cursor_position = len(text)


class Said(Static):
    """One message from the owner."""


class Reply(Vertical):
    """Kit's reply: Markdown that grows as chunks stream in."""

    def compose(self) -> ComposeResult:
        yield Markdown("", classes="reply-body")

    @property
    def body(self) -> Markdown:
        return self.query_one(Markdown)


class MemoryNote(Collapsible):
    """Which facts and days were in the reply's context; collapsed until asked for."""


class ChatPane(Pane):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+o", "toggle_memory", "Memory used")]

    def __init__(self, *, conversation: str = "terminal", id: str | None = None) -> None:
        super().__init__(id=id)
        self.conversation = conversation
        self.busy = False

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="transcript"):
            yield Static(
                "Talk to Kit. It answers from what it remembers; a note under each reply "
                "shows which memories it used (ctrl+o opens the latest).",
                id="chat-hint",
            )
        yield HistoryInput(placeholder="Message Kit (enter sends, ↑↓ history)", id="prompt")

    @property
    def prompt(self) -> HistoryInput:
        return self.query_one("#prompt", HistoryInput)

    @property
    def transcript(self) -> VerticalScroll:
        return self.query_one("#transcript", VerticalScroll)

    async def reload(self) -> None:
        """The transcript is this session's; nothing to reload."""

    def focus_prompt(self) -> None:
        self.prompt.focus()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            return
        if self.busy:
            self.notify(
                "Kit is still answering; send this when the reply is done", severity="warning"
            )
            return
        self.prompt.remember(text)
        self.prompt.value = ""
        await self.send(text)

    async def send(self, text: str) -> None:
        """Show the owner's message and start the turn in a worker."""
        self.busy = True
        reply = Reply(classes="reply")
        await self.transcript.mount_all([Said(text, markup=False, classes="said"), reply])
        self.transcript.scroll_end(animate=False)
        self.work(self._turn, text, reply, group="chat")

    async def _turn(self, text: str, reply: Reply) -> None:
        chunks: list[str] = []
        # Started on the first chunk: a stream stopped before its task ran raises on stop().
        stream: MarkdownStream | None = None
        result: TurnResult | None = None

        async def on_text(chunk: str) -> None:
            nonlocal stream
            if stream is None:
                stream = Markdown.get_stream(reply.body)
            chunks.append(chunk)
            await stream.write(chunk)
            self.transcript.scroll_end(animate=False)

        try:
            with self.kit_app.reporting():
                result = await self.client.send(
                    text, conversation=self.conversation, on_text=on_text
                )
        finally:
            if stream is not None:
                await stream.stop()
            self.busy = False
        if result is None:
            reply.add_class("failed")
            await reply.body.update("*Not sent; see the notification.*")
        else:
            await self._finish(result, reply, "".join(chunks))
        self.transcript.scroll_end(animate=False)
        self.post_message(MemoryChanged())

    async def _finish(self, result: TurnResult, reply: Reply, streamed: str) -> None:
        if result.failed:
            reply.add_class("failed")
            self.notify(result.reply, title="Kit could not answer", severity="error", timeout=10)
        if streamed != result.reply:
            await reply.body.update(result.reply)
        if result.fact_ids or result.days:
            note = await self._memory_note(result)
            await self.transcript.mount(note, after=reply)

    async def _memory_note(self, result: TurnResult) -> MemoryNote:
        """Look up what the used facts and days say, for the expandable note."""
        lines: list[str] = []
        with self.kit_app.reporting():
            if result.fact_ids:
                wanted = set(result.fact_ids)
                facts = await self.client.facts(include_inactive=True)
                for fact in facts:
                    if fact.id in wanted:
                        line = clip(fact_line(fact), 200)
                        lines.append(f"fact #{fact.id} [{fact.category}] {line}")
            for day in result.days:
                summary = await self.client.day(day)
                gist = clip(summary.gist, 200) if summary is not None else "(no summary)"
                lines.append(f"day {day.isoformat()}: {gist}")
        facts_n, days_n = len(result.fact_ids), len(result.days)
        title = (
            f"memory used: {facts_n} fact{'s' * (facts_n != 1)}, {days_n} day{'s' * (days_n != 1)}"
        )
        body = Static(
            "\n".join(lines) or "(details unavailable)", markup=False, classes="memory-lines"
        )
        return MemoryNote(body, title=title, collapsed=True, classes="memory-note")

    def action_toggle_memory(self) -> None:
        notes = self.query(MemoryNote)
        if not notes:
            self.notify("no reply has used memory yet", severity="information")
            return
        note = notes.last()
        note.collapsed = not note.collapsed
        self.transcript.scroll_to_widget(note, animate=False)
