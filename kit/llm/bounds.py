"""Bounds on one model answer, the same for every provider's adapter.

- **A deadline for the whole call.** The SDKs' timeouts are per read: an answer that trickles
  one character a second never trips them (one held a turn 536 s). The call, retries included,
  ends at its deadline with `LLMTimeout`.
- **A size.** No tokenizer averages `CHARS_PER_TOKEN` characters a token, so an answer longer
  than that many per token of its `max_tokens` comes from a server that ignores the limit (a
  30 MB answer was stored whole). What is over is cut, the answer says so (`cut_note`), and it
  is marked `max_tokens`: a reader of structured output rejects it as cut. A stream stops being
  read at the limit; a plain answer's body is read to `body_bytes` at most, and past that it is
  dropped whole (a body cut short cannot be read in part).
- **A stream ends with its end marker** (`finish_reason` on OpenAI's API, `message_stop` on
  Anthropic's). One that ends without it, or whose connection breaks mid-way, is broken
  (`StreamBroken`): asked once more, and never kept as a complete answer.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

from kit.errors import LLMTimeout, LLMUnavailable
from kit.llm.base import Block, LLMReply, TextBlock, TextSink, ToolUse

log = logging.getLogger(__name__)

CHARS_PER_TOKEN = 16  # English averages ~4 characters a token, code ~3
MIN_REPLY_CHARS = 1024
BODY_BYTES_PER_CHAR = 8  # JSON escapes and the envelope around the text
MIN_BODY_BYTES = 256 * 1024

BROKE_OFF_NOTE = "\n\n[The answer broke off; asking the model once more.]\n\n"


class StreamBroken(Exception):
    """A stream that ended without its end marker, or whose connection broke mid-way."""


class BodyTooLarge(Exception):
    """A plain (not streamed) answer's body passed `body_bytes`."""


def reply_chars(max_tokens: int) -> int:
    """The most characters (text and tool arguments together) an answer may keep."""
    return max(MIN_REPLY_CHARS, CHARS_PER_TOKEN * max_tokens)


def body_bytes(max_tokens: int) -> int:
    """The most bytes of a plain answer's body that are read."""
    return max(MIN_BODY_BYTES, BODY_BYTES_PER_CHAR * reply_chars(max_tokens))


def cut_note(limit: int) -> str:
    return (
        f"\n\n[Kit cut this answer at {limit:,} characters: the model went on past its "
        "output limit.]"
    )


class Meter:
    """Counts an answer as it streams in: `take` hands back the part within the limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self.over = False

    def take(self, piece: str) -> str:
        room = self.limit - self.used
        if len(piece) > room:
            self.over = True
            piece = piece[: max(0, room)]
        self.used += len(piece)
        return piece


def cap_reply(reply: LLMReply, limit: int, *, went_on: bool = False) -> LLMReply:
    """`reply` within `limit` characters: a text that crosses it is cut, a tool call that
    crosses it is dropped (half an input is no input), and the cut is said. `went_on`: the
    stream was stopped at the limit, so the answer is cut even if what was kept fits."""
    size = sum(_size(b) for b in reply.content)
    if size <= limit and not went_on:
        return reply
    kept: list[Block] = []
    used = 0
    for block in reply.content:
        room = limit - used
        if isinstance(block, TextBlock):
            part = block.text[: max(0, room)]
            if part:
                kept.append(TextBlock(part))
            used += len(part)
        elif _size(block) <= room:
            kept.append(block)
            used += _size(block)
    kept.append(TextBlock(cut_note(limit)))
    log.warning("the model's answer passed %d characters; cut there", limit)
    return LLMReply(tuple(kept), "max_tokens", reply.usage, reply.model)


def _size(block: Block) -> int:
    if isinstance(block, TextBlock):
        return len(block.text)
    if isinstance(block, ToolUse):
        return len(json.dumps(dict(block.input), ensure_ascii=False))
    return 0


async def read_body(chunks: AsyncIterator[bytes], limit: int) -> bytes:
    """A plain answer's body, `limit` bytes at most (`BodyTooLarge` past it)."""
    parts: list[bytes] = []
    size = 0
    async for chunk in chunks:
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(f"the answer's body passed {limit:,} bytes")
        parts.append(chunk)
    return b"".join(parts)


def too_large(limit: int) -> LLMUnavailable:
    return LLMUnavailable(
        f"the model's answer passed {limit // 1024:,} KB (a server that ignores max_tokens?); "
        "nothing of it was kept"
    )


async def bounded(
    attempt: Callable[[], Awaitable[LLMReply]],
    *,
    deadline: float,
    purpose: str,
    on_text: TextSink | None,
) -> LLMReply:
    """One model call within `deadline` seconds, its broken stream asked once more."""
    window = asyncio.timeout(deadline)
    try:
        async with window:
            try:
                return await attempt()
            except StreamBroken as exc:
                log.warning("the model's answer broke off for %s (%s); once more", purpose, exc)
                if on_text is not None:
                    await on_text(BROKE_OFF_NOTE)
            try:
                return await attempt()
            except StreamBroken as exc:
                log.warning("the model's answer broke off again for %s (%s)", purpose, exc)
                raise LLMUnavailable(
                    "the model's answer broke off twice; try again shortly"
                ) from exc
    except TimeoutError as exc:
        if not window.expired():
            raise
        log.warning("model call for %s passed its %g s deadline", purpose, deadline)
        raise LLMTimeout(
            f"the model did not answer in time (its whole answer within {deadline:g} s); "
            "try again shortly"
        ) from exc
