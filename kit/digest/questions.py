"""The inbox in the digest: the questions passes set aside in the digest's day that still wait for
an answer, each one line, and how many asked before the day wait too (kit/inbox/).

A question holds text taken from the owner's messages and the model's output (the proposed
statement, the facts as they were): each part is cleaned (kit/untrusted/clean.py: no control
characters) and cut to one line like the digest's other lines, so it reaches neither the
terminal as escape sequences nor a line of its own (a heading, a pass) in the digest. Nothing
forgotten is left to show: `kit forget` deletes the questions that quote what it erases, in its
own transaction (kit/forget/inbox.py), and this reads only the rows there are.
"""

from __future__ import annotations

from datetime import datetime

from kit.curator.questions import InboxStore, Question
from kit.digest.model import DigestQuestion
from kit.inbox.render import headline, proposed
from kit.text import clip
from kit.untrusted.clean import clean_text

QUESTIONS_LISTED = 20  # a day's questions listed in the digest; the rest are counted
QUOTE_CHARS = 120  # what holds now, what would hold instead: each at most this long


async def waiting_questions(
    store: InboxStore, user_id: str, since: datetime, until: datetime, now: datetime
) -> tuple[tuple[DigestQuestion, ...], int, int]:
    """(the questions asked in (since, until] that wait at `now`, as many as are listed; how
    many more of them; how many asked before `since` wait too)."""
    listed = await store.waiting_asked(
        user_id, now, after=since, until=until, limit=QUESTIONS_LISTED
    )
    older, of_the_day = await store.waiting_counts(user_id, now, after=since, until=until)
    return tuple(map(digest_question, listed)), max(0, of_the_day - len(listed)), older


def digest_question(question: Question) -> DigestQuestion:
    old = question.old
    if len(old) == 1:
        now = old[0].label
    else:  # several facts (a merge, a disagreement with two): each by its id
        now = "; ".join(f"#{f.id} {f.label}" for f in old)
    return DigestQuestion(
        question.id,
        question.category,
        _line(headline(question)),
        _line(now),
        _line(proposed(question) or ""),
        question.asked_at,
        question.expires_at,
        question.choices,
    )


def _line(text: str) -> str:
    return clip(clean_text(text), QUOTE_CHARS)
