"""What a chat channel says on its own, and the shape of a reply, without a messenger's SDK
(the Telegram and Matrix channels, kit/channels/telegram/ and kit/channels/matrix/, send them)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from dataclasses import dataclass

from kit.errors import KitError

log = logging.getLogger(__name__)

REFUSAL = "Sorry, this is a private assistant and I can only talk to its owner."
NON_TEXT = (
    "I can only read text and listen to voice messages: photos, videos and stickers are lost "
    "on me. Please type it out. (A text or Markdown file sent to me in our private chat I keep "
    "as a note.)"
)
NOTE_SAVED = "I'll read it whenever a question needs it."
SORRY = "Sorry, something went wrong on my side; the details are in Kit's log. Please try again."


@dataclass(frozen=True)
class Reply:
    text: str
    formatted: bool  # Markdown from the model (rendered as HTML) or plain text


def for_chat(error: KitError) -> str:
    text = str(error)
    return text[:1].upper() + text[1:]


async def plain(work: Awaitable[str]) -> Reply:
    """Command output is sent as plain text: it quotes facts and summaries verbatim."""
    return Reply(await work, formatted=False)


async def guarded(work: Awaitable[Reply], label: str, channel: str = "telegram") -> Reply:
    """The work's reply; a KitError's message, or an apology (the error logged), instead."""
    try:
        return await work
    except KitError as exc:
        return Reply(for_chat(exc), formatted=False)
    except Exception:
        log.exception("%s: %s failed", channel, label)
        return Reply(SORRY, formatted=False)


def argument(text: str | None) -> str:
    """The text after a command (its own spacing and newlines kept)."""
    parts = (text or "").split(None, 1)
    return parts[1] if len(parts) > 1 else ""
