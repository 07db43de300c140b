"""The chat pane: the conversation (its latest messages when reopened, the rolling summary of
older ones on demand), the reply streaming in, and what memory the reply used."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Collapsible, Input, Markdown, Static
from textual.widgets.markdown import MarkdownStream

from kit.chat_commands import command_name
from kit.memory.messages import ChatHistory, Message
from kit.text import plural
from kit.turn import TurnResult
from tui.base import MemoryChanged, Pane
from tui.format import clip, fact_line

HISTORY_LIMIT = 20  # messages shown when a conversation is reopened
HINT = (
    "Talk to Kit. It answers from what it remembers; a note under each reply shows which "
    "memories it used (ctrl+o opens the latest). /help lists the commands."
)


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
    """Kit's reply: Markdown that grows as chunks stream in (or, reopened, is there already)."""

    def __init__(self, text: str = "", *, classes: str = "") -> None:
        super().__init__(classes=classes)
        self._text = text

    def compose(self) -> ComposeResult:
        yield Markdown(self._text, classes="reply-body")

    @property
    def body(self) -> Markdown:
        return self.query_one(Markdown)


class CommandAnswer(Static):
    """What a slash command answered (/help, /facts ...): shown, never sent to the model."""


class MemoryNote(Collapsible):
    """Which facts and days were in the reply's context; collapsed until asked for."""

    def scroll_visible(self, animate: bool = True, **how: Any) -> None:
        # Opened, it jumps into view: an animated scroll shows the transcript between two
        # places for a moment (a screenshot taken then has the note half in view).
        super().scroll_visible(animate=False, **how)


class EarlierSummary(Static):
    """The rolling summary of the messages that left the working window (ctrl+s)."""


class ChatPane(Pane):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+o", "toggle_memory", "Memory used"),
        Binding(
            "ctrl+s",
            "toggle_summary",
            "Summary",
            tooltip="Show or hide the summary of this conversation's older messages",
        ),
    ]

    def __init__(self, *, conversation: str = "terminal", id: str | None = None) -> None:
        super().__init__(id=id)
        self.conversation = conversation
        self.busy = False
        self.history: ChatHistory | None = None  # None until loaded
        self._history_settled = asyncio.Event()  # loaded, or failed to: a turn may show now

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="transcript"):
            yield Static(HINT, id="chat-hint")
        yield HistoryInput(placeholder="Message Kit (enter sends, ↑↓ history)", id="prompt")

    @property
    def prompt(self) -> HistoryInput:
        return self.query_one("#prompt", HistoryInput)

    @property
    def transcript(self) -> VerticalScroll:
        return self.query_one("#transcript", VerticalScroll)

    async def reload(self) -> None:
        """Once: the conversation as it was left (its latest messages), so a reopened chat
        continues where it stopped. After that the transcript is this session's own."""
        if self.history is not None or self.query(Said):
            return  # shown already, or this session has begun (no reordering under it)
        try:
            with self.kit_app.reporting():
                history = await self.client.chat_history(self.conversation, limit=HISTORY_LIMIT)
                await self._show_history(history)
                self.history = history
        finally:
            self._history_settled.set()

    async def _show_history(self, history: ChatHistory) -> None:
        if not history.messages:
            return
        older = (
            f"{plural(history.earlier, 'earlier message')} before these; "
            if history.earlier
            else ""
        )
        summary = "ctrl+s shows the summary of older ones" if history.summary else ""
        name = "this conversation" if self.conversation == "terminal" else self.conversation
        note = f"Continuing {name}: {older}{summary}".rstrip("; :")
        self.query_one("#chat-hint", Static).update(f"{note}.")
        widgets = [_earlier(m) for m in history.messages]
        await self.transcript.mount_all(widgets, after="#chat-hint")
        self.transcript.scroll_end(animate=False)

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
        if command_name(text) is not None:
            self.work(self._command, text, group="chat")
            return
        await self.send(text)

    async def _command(self, text: str) -> None:
        """A slash command, as Telegram and `kit chat` answer it (kit/chat_commands.py)."""
        await self._history_settled.wait()
        answer: str | None = None
        with self.kit_app.reporting():
            answer = await self.client.command(text, conversation=self.conversation)
        said = Said(text, markup=False, classes="said")
        shown = CommandAnswer(answer or "(no answer; see the notification)", markup=False)
        await self.transcript.mount_all([said, shown])
        self.transcript.scroll_end(animate=False)
        self.post_message(MemoryChanged())  # /pin, /forget, /rem change what other panes show

    async def send(self, text: str) -> None:
        """Start the turn in a worker: it shows the owner's message, then the reply."""
        self.busy = True
        self.work(self._turn, text, group="chat")

    async def _turn(self, text: str) -> None:
        # After the conversation's earlier messages (loading them takes a moment at start).
        await self._history_settled.wait()
        reply = Reply(classes="reply")
        await self.transcript.mount_all([Said(text, markup=False, classes="said"), reply])
        self.transcript.scroll_end(animate=False)
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
        title = f"memory used: {plural(facts_n, 'fact')}, {plural(days_n, 'day')}"
        body = Static(
            "\n".join(lines) or "(details unavailable)", markup=False, classes="memory-lines"
        )
        return MemoryNote(body, title=title, collapsed=True, classes="memory-note")

    async def action_toggle_summary(self) -> None:
        shown = self.query(EarlierSummary)
        if shown:
            await shown.remove()
            return
        summary = self.history.summary if self.history is not None else ""
        if not summary:
            self.notify(
                "nothing summarised yet: all of this conversation is still in Kit's working memory",
                severity="information",
            )
            return
        box = EarlierSummary(f"Summary of the older messages\n\n{summary}", markup=False)
        await self.transcript.mount(box, after="#chat-hint")
        self.transcript.scroll_to_widget(box, animate=False, top=True)

    def action_toggle_memory(self) -> None:
        notes = self.query(MemoryNote)
        if not notes:
            self.notify("no reply has used memory yet", severity="information")
            return
        note = notes.last()
        note.collapsed = not note.collapsed  # the note scrolls itself into view once laid out


def _earlier(message: Message) -> Said | Reply:
    """A message from before this session, shown as it was when it was new."""
    if message.role == "assistant":
        return Reply(message.text, classes="reply earlier")
    text = f"{message.speaker}: {message.text}" if message.speaker else message.text
    return Said(text, markup=False, classes="said earlier")
