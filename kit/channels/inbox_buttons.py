"""The inbox on a chat channel, without any SDK: the question as a message with one button per
answer, and what a tap on one does (kit/channels/telegram.py sends and receives them).

A button's data is `inbox:<question id>:<answer>` (Telegram allows 64 bytes). A tap is taken
from whoever the channel says it is: the question must belong to the tapper's memory (another
person's question is "does not exist" to them), be open, and offer that answer; anything else,
like a second tap or one after expiry, changes nothing and is told in one line. Data that is not
ours (a forged or stale button) is refused the same way, never parsed further.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import tzinfo

from kit.errors import KitError
from kit.inbox.render import LABELS, question_lines
from kit.inbox.service import Inbox
from kit.inbox.store import Question

log = logging.getLogger(__name__)

PREFIX = "inbox:"
_DATA = re.compile(r"inbox:([0-9]{1,19}):(keep-old|take-new|keep-both)")
TOAST_CHARS = 200  # Telegram shows at most this much of a tap's answer


@dataclass(frozen=True)
class Tapped:
    """What a tap does: a short answer shown to the tapper, and the message's new text once
    the question is answered (None: leave the message and its buttons as they are)."""

    toast: str
    text: str | None = None


def message_text(question: Question, tz: tzinfo) -> str:
    return "\n".join(
        [
            "Kit would like your word before changing what it remembers:",
            *question_lines(question, tz),
        ]
    )


def buttons(question: Question) -> list[tuple[str, str]]:
    """(label, data) per answer the question offers."""
    return [(LABELS[a], f"{PREFIX}{question.id}:{a}") for a in question.choices]


async def tap(inbox: Inbox, user_id: str, data: str, tz: tzinfo) -> Tapped:
    """The owner `user_id` tapped the button carrying `data`."""
    found = _DATA.fullmatch(data)
    if found is None:
        return Tapped("That button is not one of Kit's; nothing changed.")
    question_id, answer = int(found[1]), found[2]
    try:
        answered = await inbox.answer(user_id, question_id, answer)
    except KitError as exc:
        text = str(exc)
        return Tapped(_clip(text[:1].upper() + text[1:]))
    question = await inbox.question(user_id, question_id)
    lines = [*question_lines(question, tz), "", answered.summary()]
    return Tapped(_clip(f"{LABELS[answer]}: done."), "\n".join(lines))


def _clip(text: str) -> str:
    return text if len(text) <= TOAST_CHARS else text[: TOAST_CHARS - 1] + "…"
