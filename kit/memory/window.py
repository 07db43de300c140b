"""Working memory, 50/20: when a conversation's window passes `window_max` messages, the older
ones are folded into the rolling window summary by the small model and the window keeps only
the latest `window_keep`. Nothing is deleted; the archive keeps every message.

A fold the model botches (an empty or cut-off answer, a crash) is counted in `work_attempts`:
it is retried with backoff, not on every turn, and held for a day after three failures."""

from __future__ import annotations

import logging
from datetime import tzinfo

from kit.config import LLMSettings, MemorySettings
from kit.errors import KitError, LLMUnavailable, shown
from kit.llm.base import LLM, ChatMessage, LLMReply, LLMRequest, SystemBlock
from kit.memory.attempts import WINDOW_SUMMARY, Attempts
from kit.memory.messages import Message, Messages
from kit.prompts import Prompts

log = logging.getLogger(__name__)


def format_transcript(messages: list[Message], tz: tzinfo) -> str:
    lines = []
    for m in messages:
        who = m.speaker or ("Owner" if m.role == "user" else "Kit")
        lines.append(f"[{m.at.astimezone(tz).strftime('%Y-%m-%d %H:%M')}] {who}: {m.text}")
    return "\n".join(lines)


class WindowKeeper:
    def __init__(
        self,
        messages: Messages,
        llm: LLM,
        prompts: Prompts,
        memory: MemorySettings,
        llm_settings: LLMSettings,
        tz: tzinfo,
        attempts: Attempts,
    ) -> None:
        self._attempts = attempts
        self._messages = messages
        self._llm = llm
        self._prompts = prompts
        self._memory = memory
        self._llm_settings = llm_settings
        self._tz = tz

    async def maybe_summarize(self, conversation_id: int) -> bool:
        """Fold the window's older messages into the summary if it has grown past the max."""
        conversation = await self._messages.get_conversation(conversation_id)
        window = await self._messages.window(conversation_id)
        if len(window) <= self._memory.window_max:
            return False
        item = str(conversation_id)
        if item in await self._attempts.blocked(WINDOW_SUMMARY, conversation.user_id):
            return False  # failed lately: wait out the backoff (or the day's hold)
        leaving = window[: -self._memory.window_keep]
        prompt = self._prompts.render(
            "window_summary",
            previous_summary=conversation.window_summary,
            messages=format_transcript(leaving, self._tz),
        )
        request = LLMRequest(
            model=self._llm_settings.small_model,
            system=(SystemBlock("You write concise, faithful conversation summaries."),),
            messages=(ChatMessage.text("user", prompt),),
            max_tokens=600,
            purpose="window_summary",
            user_id=conversation.user_id,
        )
        problem: str | None
        try:
            reply = await self._llm.complete(request)
        except LLMUnavailable:
            raise  # the model is down or the budget is spent: not this window's fault
        except Exception as exc:  # a broken adapter or answer, or a call too big for the budget
            if not isinstance(exc, KitError):
                log.exception("window summary for conversation %s crashed", conversation_id)
            problem = f"the model call failed: {shown(exc)}"
        else:
            problem = _unusable(reply)
        if problem:
            log.warning(
                "window summary for conversation %s not stored: %s", conversation_id, problem
            )
            await self._attempts.failed(WINDOW_SUMMARY, conversation.user_id, item, problem)
            return False
        moved = await self._messages.advance_window(
            conversation_id,
            expected_start_id=conversation.window_start_id,
            new_start_id=window[-self._memory.window_keep].id,
            summary=reply.text.strip(),
        )
        await self._attempts.succeeded(WINDOW_SUMMARY, conversation.user_id, [item])
        return moved


def _unusable(reply: LLMReply) -> str | None:
    """Why a fold cannot be stored: an empty answer would erase the leaving messages from the
    window's memory, a cut-off one would lose its end."""
    if reply.stop_reason == "max_tokens":
        return "the summary was cut off at the token limit"
    if not reply.text.strip():
        return "the summary came back empty"
    return None
