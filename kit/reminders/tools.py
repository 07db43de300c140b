"""The chat model's reminder tools: schedule, list and cancel. Results are short and plain;
a refusal says why, and nothing is stored then."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kit.errors import KitError, NotFound
from kit.llm.base import ToolSpec
from kit.memory.messages import Messages
from kit.reminders.rules import MAX_IN_MINUTES, MAX_TEXT_CHARS, REPEATS, WEEKDAYS

if TYPE_CHECKING:  # the service reaches the agent, which imports these tools
    from kit.followups.service import Followups
    from kit.reminders.service import Reminders

UNASKED = (
    "the owner mentioned a plan but did not ask for a reminder; offer one in your reply and "
    "schedule it only if they say yes"
)

SCHEDULE_REMINDER = "schedule_reminder"  # the one tool that sets a reminder (kit/turn_reply.py)

REMINDER_TOOL_SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        SCHEDULE_REMINDER,
        "Schedule something for later, delivered in this chat: a reminder (its text is sent "
        "as it is) or a task (you do it then, e.g. 'list the week's open items from memory', "
        "and your answer is sent). Times are the owner's local time. Once: give `at` "
        "(YYYY-MM-DDTHH:MM) or `in_minutes`. Repeating: `repeat` daily, weekdays (Mon-Fri) or "
        "weekly, with `time` (HH:MM) and, for weekly, `weekday`. Nothing else repeats.",
        {
            "type": "object",
            "properties": {
                "text": {
                    "type": "string",
                    "description": f"what to remind of, or the task (at most {MAX_TEXT_CHARS})",
                },
                "kind": {"type": "string", "enum": ["reminder", "task"]},
                "at": {"type": "string", "description": "once: local YYYY-MM-DDTHH:MM"},
                "in_minutes": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_IN_MINUTES,
                    "description": "once: minutes from now",
                },
                "repeat": {"type": "string", "enum": list(REPEATS)},
                "time": {"type": "string", "description": "repeats: local HH:MM"},
                "weekday": {"type": "string", "enum": list(WEEKDAYS)},
            },
            "required": ["text"],
        },
    ),
    ToolSpec(
        "list_reminders",
        "List the owner's active reminders and tasks with their numbers and next times.",
        {"type": "object", "properties": {}},
    ),
    ToolSpec(
        "cancel_reminder",
        "Cancel one of the owner's reminders by its number (from list_reminders).",
        {
            "type": "object",
            "properties": {
                "id": {"type": "integer", "minimum": 1, "description": "the reminder's number"}
            },
            "required": ["id"],
        },
    ),
)
REMINDER_TOOLS = frozenset(spec.name for spec in REMINDER_TOOL_SPECS)


class ReminderTools:
    def __init__(
        self, reminders: Reminders, messages: Messages, followups: Followups | None = None
    ) -> None:
        self._reminders = reminders
        self._messages = messages
        self._followups = followups

    async def run(
        self, name: str, args: Mapping[str, Any], *, user_id: str, message_id: int
    ) -> tuple[str, bool]:
        """(result text, is_error). A KitError becomes the model's explanation."""
        try:
            if name == SCHEDULE_REMINDER:
                return await self._schedule(args, user_id, message_id), False
            if name == "list_reminders":
                return await self._list(user_id), False
            if name == "cancel_reminder":
                return await self._cancel(args, user_id), False
        except KitError as exc:
            return f"Not done: {exc}.", True
        return f"unknown tool {name!r}", True

    async def _schedule(self, args: Mapping[str, Any], user_id: str, message_id: int) -> str:
        # The reminder answers where it was asked: the conversation of the message this turn
        # answers. A scheduled task's own turn may not schedule more (no self-feeding loops).
        (message,) = await self._messages.get_many(user_id, [message_id])
        if message.source != "chat":
            raise KitError("a scheduled task cannot schedule reminders; only the owner can")
        if self._followups is not None and self._followups.unasked(message.text):
            raise KitError(UNASKED)  # a follow-up is offered, never created unasked
        conversation = await self._messages.get_conversation(message.conversation_id)
        done = await self._reminders.schedule(
            user_id,
            channel=conversation.channel,
            conversation=conversation.external_id,
            fields=args,
        )
        line = self._reminders.describe(done.reminder)
        note = f" Note: {done.note}." if done.note else ""
        return f"Scheduled {line}.{note}"

    async def _list(self, user_id: str) -> str:
        active = await self._reminders.active(user_id)
        if not active:
            return "The owner has no active reminders."
        return "\n".join(self._reminders.describe(r) for r in active)

    async def _cancel(self, args: Mapping[str, Any], user_id: str) -> str:
        number = args.get("id")  # a whole number from 1 on: checked at the edge (kit/tool_input.py)
        if not isinstance(number, int) or isinstance(number, bool):
            raise KitError("id must be the reminder's number, e.g. 3")
        try:
            reminder = await self._reminders.cancel(user_id, number)
        except NotFound as exc:
            raise NotFound(f"there is no reminder #{number}; list_reminders shows them") from exc
        return f"Cancelled reminder #{reminder.id}: {reminder.text}"
