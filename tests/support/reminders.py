"""Shared by the reminder tests: asking for a reminder through the real turn and tool path,
and a channel that records what it was asked to send."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kit.api import Kit
from kit.llm.base import ToolResult, ToolUse
from kit.llm.fake import FakeLLM


async def ask(
    kit: Kit,
    llm: FakeLLM,
    fields: Mapping[str, Any],
    *,
    tool: str = "schedule_reminder",
    channel: str = "terminal",
    conversation: str = "terminal",
) -> ToolResult:
    """One owner turn in which the model calls `tool` with `fields`; returns the tool result
    the model was shown."""
    llm.queue(ToolUse("call-1", tool, dict(fields)), "Done.")
    await kit.send("please remind me", channel=channel, conversation=conversation)
    shown = llm.requests[-1].messages[-1].content
    (result,) = [b for b in shown if isinstance(b, ToolResult)]
    return result


class RecordingChannel:
    """A live channel's sender: keeps what it sent; fails the next `fail` sends."""

    def __init__(self, fail: int = 0) -> None:
        self.sent: list[tuple[str, str]] = []
        self.fail = fail

    async def send(self, conversation: str, text: str) -> None:
        if self.fail:
            self.fail -= 1
            raise ConnectionError("the network is down")
        self.sent.append((conversation, text))


async def schedule_local(kit: Kit, text: str, minutes: int, conversation: str = "terminal") -> int:
    """A one-off reminder for the terminal front-ends, due in `minutes`; returns its id."""
    done = await kit.services.reminders.schedule(
        "owner",
        channel="terminal",
        conversation=conversation,
        fields={"text": text, "in_minutes": minutes},
    )
    return done.reminder.id
