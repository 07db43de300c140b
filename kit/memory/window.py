"""Working memory, 50/20: when a conversation's window passes `window_max` messages, the older
ones are folded into the rolling window summary by the small model and the window keeps only
the latest `window_keep`. Nothing is deleted; the archive keeps every message.

The new summary is checked like a day summary (`parse_bullets`): a refusal, a cut-off or empty
answer, or one without bullets is not stored, the previous summary and the window stay as they
were, and the next message tries again. A secret repeated in it is withheld."""

from __future__ import annotations

import logging
from datetime import tzinfo

from kit.config import LLMSettings, MemorySettings
from kit.curator.bullets import parse_bullets
from kit.errors import LLMOutputError
from kit.llm.base import LLM, ChatMessage, LLMRequest, SystemBlock
from kit.memory.messages import Message, Messages
from kit.neutralise import neutralise
from kit.prompts import Prompts

log = logging.getLogger(__name__)

MAX_BULLETS = 60  # the prompt asks for at most 250 words


def format_transcript(messages: list[Message], tz: tzinfo) -> str:
    lines = []
    for m in messages:
        who = neutralise(m.speaker, inline=True) or ("Owner" if m.role == "user" else "Kit")
        text = neutralise(m.text, inline=True)
        lines.append(f"[{m.at.astimezone(tz).strftime('%Y-%m-%d %H:%M')}] {who}: {text}")
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
    ) -> None:
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
        leaving = window[: -self._memory.window_keep]
        prompt = self._prompts.render(
            "window_summary",
            previous_summary=neutralise(conversation.window_summary),
            messages=format_transcript(leaving, self._tz),
        )
        reply = await self._llm.complete(
            LLMRequest(
                model=self._llm_settings.small_model,
                system=(SystemBlock("You write concise, faithful conversation summaries."),),
                messages=(ChatMessage.text("user", prompt),),
                max_tokens=600,
                purpose="window_summary",
                user_id=conversation.user_id,
            )
        )
        try:
            summary = parse_bullets(reply, what="the window summary", max_bullets=MAX_BULLETS)
        except LLMOutputError as exc:
            log.warning(
                "window summary for conversation %s not stored, the previous one stays: %s",
                conversation_id,
                exc,
            )
            return False
        return await self._messages.advance_window(
            conversation_id,
            expected_start_id=conversation.window_start_id,
            new_start_id=window[-self._memory.window_keep].id,
            summary=summary.text,
        )
