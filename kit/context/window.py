"""Working memory, 50/20: when a conversation's window passes `window_max` messages, the older
ones are folded into the rolling window summary by the small model and the window keeps only
the latest `window_keep`. Nothing is deleted; the archive keeps every message.

The new summary is checked like a day summary (`parse_bullets`): a refusal, a cut-off or empty
answer, or one without bullets is not stored, the previous summary and the window stay as they
were. A secret repeated in it is withheld. A botched fold (a bad answer, a crash) is counted in
`work_attempts`: it is retried with backoff, not on every turn, and held for a day after three
failures."""

from __future__ import annotations

import logging
from datetime import tzinfo

from kit.config import MemorySettings
from kit.errors import LLMOutputError, LLMTimeout
from kit.jobs.attempts import WINDOW_SUMMARY, Attempts
from kit.llm.base import LLM, ChatMessage, LLMRequest, SystemBlock
from kit.llm.bullets import ask, parse_bullets
from kit.llm.fit import room, split_lines
from kit.memory.messages import Message, Messages, attributed
from kit.model_settings import ModelRole
from kit.prompts import Prompts
from kit.untrusted.neutralise import neutralise

log = logging.getLogger(__name__)

MAX_BULLETS = 60  # the prompt asks for at most 250 words
MAX_TOKENS = 600
_SYSTEM = "You write concise, faithful conversation summaries."


def format_transcript(messages: list[Message], tz: tzinfo) -> str:
    lines = []
    for m in messages:
        default = "Owner" if m.role == "user" else "Kit"
        who = attributed(neutralise(m.speaker, inline=True) or default, m)
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
        background: ModelRole,
        tz: tzinfo,
        attempts: Attempts,
    ) -> None:
        self._attempts = attempts
        self._messages = messages
        self._llm = llm
        self._prompts = prompts
        self._memory = memory
        self._role = background  # the background model and its limits
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
        previous = neutralise(conversation.window_summary)
        output = self._role.output(MAX_TOKENS)
        fixed = self._prompts.render("window_summary", previous_summary=previous, messages="")
        left = room(self._role, output, fixed, _SYSTEM)
        # A window longer than the model can read folds its oldest part now; the rest folds
        # on a later turn (the window is still past its maximum then).
        lines = format_transcript(leaving, self._tz).splitlines()
        first = split_lines(lines, left.tokens)[0]
        folded = leaving[: len(first)]
        prompt = self._prompts.render(
            "window_summary", previous_summary=previous, messages="\n".join(first)
        )
        request = LLMRequest(
            model=self._role.model,
            system=(SystemBlock(_SYSTEM),),
            messages=(ChatMessage.text("user", prompt),),
            max_tokens=output,
            purpose="window_summary",
            user_id=conversation.user_id,
        )
        try:
            # The model being down or the budget spent (LLMUnavailable) is not this window's
            # fault: it propagates and counts nothing. A timeout is counted (and backs off):
            # the next turn must not send the same long prompt again at once.
            reply = await ask(self._llm, request, what="the window summary")
            summary = parse_bullets(reply, what="the window summary", max_bullets=MAX_BULLETS)
        except LLMTimeout:
            reason = (
                f"the model did not answer within {self._role.timeout_seconds:g} s "
                f"({self._role.setting('timeout_seconds')})"
            )
            log.warning("window summary for conversation %s: %s", conversation_id, reason)
            await self._attempts.failed(WINDOW_SUMMARY, conversation.user_id, item, reason)
            return False
        except LLMOutputError as exc:
            log.warning(
                "window summary for conversation %s not stored, the previous one stays: %s",
                conversation_id,
                exc,
            )
            await self._attempts.failed(WINDOW_SUMMARY, conversation.user_id, item, str(exc))
            return False
        moved = await self._messages.advance_window(
            conversation_id,
            expected_start_id=conversation.window_start_id,
            new_start_id=window[len(folded)].id,
            summary=summary.text,
        )
        await self._attempts.succeeded(WINDOW_SUMMARY, conversation.user_id, [item])
        return moved
