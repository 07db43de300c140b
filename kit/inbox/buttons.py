"""An inbox question as a message Kit starts to its owner (kit/delivery/outbox.py), with one
button per answer it offers (kit/delivery/callbacks.py), and what such a button carries.

A button holds only a token; its row in `callbacks` holds the payload `{"question": id,
"answer": "take-new"}` and whose memory it acts on, and it works until the question expires.
The registry has already checked who pressed (the owner of that memory only), that it is the
first press of that button and that it has not expired; the payload is still read as untrusted
(a row from an older Kit, or one written by hand), and the inbox's own checks (open, an answer
the question offers, facts unchanged since asked) decide the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import tzinfo

from kit.curator.contest import ANSWERS
from kit.curator.questions import Question
from kit.delivery.callbacks import Callbacks
from kit.delivery.outbox import DEFAULT_LIMIT, Outgoing
from kit.delivery.splitting import utf16_length
from kit.errors import InputError
from kit.inbox.render import LABELS, question_lines
from kit.store.db import Transaction

ACTION = "inbox"  # the callbacks action an answer button runs
EXPIRED = "the question expired unanswered and the old facts were kept"
INTRO = "Kit would like your word before changing what it remembers:"


def message_text(question: Question, tz: tzinfo, limit: int = DEFAULT_LIMIT) -> str:
    """The question in one chat message of at most `limit` UTF-16 units, the channel's own (a
    fact quoted at length is cut, never the message)."""
    text = "\n".join([INTRO, *question_lines(question, tz)])
    if utf16_length(text) <= limit:
        return text
    cut = text[: limit - 1]
    while utf16_length(cut) > limit - 1:  # characters beyond the BMP count twice
        cut = cut[:-1]
    return cut.rstrip() + "…"


async def question_message(
    tx: Transaction,
    callbacks: Callbacks,
    question: Question,
    tz: tzinfo,
    limit: int = DEFAULT_LIMIT,
) -> Outgoing:
    """The question with a button per answer it offers (their tokens stored inside `tx`)."""
    row = tuple(
        [
            await callbacks.button(
                tx,
                LABELS[answer],
                user_id=question.user_id,
                action=ACTION,
                payload={"question": question.id, "answer": answer},
                expires_at=question.expires_at,
            )
            for answer in question.choices
        ]
    )
    return Outgoing(message_text(question, tz, limit), (row,))


def answer_of(payload: Mapping[str, int | str]) -> tuple[int, str]:
    """(question id, answer) from a button's payload, or an InputError: nothing changes."""
    question, answer = payload.get("question"), payload.get("answer")
    if isinstance(question, bool) or not isinstance(question, int) or question < 1:
        raise InputError("this button names no inbox question; nothing was changed")
    if answer not in ANSWERS:
        raise InputError("this button names no answer Kit knows; nothing was changed")
    return question, str(answer)
