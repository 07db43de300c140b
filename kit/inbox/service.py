"""The owner's side of the inbox: what waits, answering it, and asking on the channels.

`answer` checks before it writes, inside one transaction, and says in one line what is wrong
when it cannot: an unknown question, one already answered (the first answer stands), one that
expired or was withdrawn, an answer it does not offer, a fact that changed since Kit asked
(the question no longer says what would happen). Nothing is written then.

`announce` asks the owner each open question once, as a message with a button per answer
(kit/inbox/buttons.py) pushed through the outbox to the live channels (Telegram). A question is
claimed in the database first, so two workers never both send it, and only when a live channel
reaches its owner; one no channel delivered is given back and asked next time. It runs when a
channel starts and after each curation sweep and REM run (scheduler/jobs.py). A press on an
answer button is `answer`, like `kit inbox answer`; the registry (kit/delivery/callbacks.py)
lets only that memory's owner press it, once, until the question expires.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, tzinfo

from kit.clock import Clock, local_minute
from kit.curator.contest import ANSWERS
from kit.curator.ops import MAX_ROW_ID
from kit.curator.owner import KIND as OWNER_PASS
from kit.curator.questions import InboxStore, Question, operation_of
from kit.curator.records import PassLog
from kit.delivery.callbacks import Callbacks
from kit.delivery.outbox import Outbox, Outgoing
from kit.errors import InputError
from kit.inbox.answer import write_answer
from kit.inbox.buttons import ACTION, EXPIRED, answer_of, question_message
from kit.inbox.render import LABELS
from kit.memory.fact_times import earliest
from kit.memory.fact_writer import Provenance
from kit.memory.facts import Facts
from kit.memory.messages import said_at
from kit.store.db import Database

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Answered:
    """An answer written: the owner pass that records it and what it changed."""

    question_id: int
    answer: str
    pass_id: int
    changes: tuple[str, ...]  # one line per fact written (none for "keep old")
    inserted_fact_ids: tuple[int, ...] = ()
    changed_fact_ids: tuple[int, ...] = ()
    kept_fact_ids: tuple[int, ...] = ()

    def summary(self) -> str:
        label = LABELS.get(self.answer, self.answer)
        if self.answer == "keep-old":
            kept = ", ".join(f"#{i}" for i in self.kept_fact_ids)
            done = f"kept {kept} as it was; the proposed change was dropped"
        else:
            done = "; ".join(self.changes) or "no fact needed a change"
        return (
            f"Question {self.question_id}: {label}. {done[:1].upper()}{done[1:]}. Recorded as "
            f"pass {self.pass_id}; `kit facts undo {self.pass_id}` takes it back."
        )


def check_question_id(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROW_ID:
        raise InputError(
            f"a question id is a positive whole number (got {value!r}); `kit inbox` lists them"
        )
    return value


def check_answer(value: str) -> str:
    answer = value.strip().lower().replace("_", "-").replace(" ", "-")
    if answer not in ANSWERS:
        raise InputError(f"answer one of {', '.join(ANSWERS)} (got {value[:20]!r})")
    return answer


class Inbox:
    def __init__(
        self,
        db: Database,
        store: InboxStore,
        facts: Facts,
        passes: PassLog,
        clock: Clock,
        tz: tzinfo,
        *,
        callbacks: Callbacks,
        outbox: Outbox,
    ) -> None:
        self._db = db
        self._tz = tz
        self.store = store
        self._facts = facts
        self._passes = passes
        self._clock = clock
        self._callbacks = callbacks
        self._outbox = outbox
        # Each answer is the same act however it is given: the message stays, its buttons go.
        callbacks.handle(ACTION, self._pressed, expired=EXPIRED, spends="message")

    async def waiting(self, user_id: str) -> list[Question]:
        """Questions waiting for an answer, oldest first."""
        return await self.store.listing(user_id, self._clock.now())

    async def questions(self, user_id: str, *, limit: int = 50) -> list[Question]:
        """Every question, answered, expired and withdrawn ones too, newest first."""
        return await self.store.listing(user_id, self._clock.now(), waiting_only=False, limit=limit)

    async def question(self, user_id: str, question_id: int) -> Question:
        return await self.store.get(user_id, check_question_id(question_id), self._clock.now())

    async def answer(self, user_id: str, question_id: int, answer: str) -> Answered:
        """Write the owner's answer (see answer.py), or say in one line why not."""
        check_question_id(question_id)
        choice = check_answer(answer)
        now = self._clock.now()
        async with self._db.transaction() as tx:
            question = await self.store.get_in(tx, user_id, question_id, now)
            _check_open(question, choice, now, self._tz)
            writer = self._facts.writer(tx, user_id)
            facts = {f.id: await writer.get(f.id) for f in question.facts}
            for asked in question.facts:
                # Keeping the old is always possible; a change is written only onto the
                # facts the question showed.
                if choice != "keep-old" and facts[asked.id].snapshot() != asked.snapshot:
                    raise InputError(
                        f"question {question_id} no longer applies: fact #{asked.id} changed "
                        "since Kit asked, so nothing was changed; `kit facts history "
                        f"{asked.id}` shows how, `kit facts edit` changes it yourself and "
                        f"`kit inbox answer {question_id} keep-old` dismisses the question"
                    )
            op = operation_of(question)
            said = await said_at(tx, user_id, op.sources)
            at = min(earliest(said, op.sources) or question.asked_at, now)
            pass_id = await self._passes.add(
                tx,
                user_id=user_id,
                kind=OWNER_PASS,
                category=question.category,
                status="applied",
                reason=f"inbox {question_id}: {choice}",
                detail={
                    "operations": [{"op": "inbox", "question": question_id, "answer": choice}],
                    "question": question_id,
                },
            )
            provenance = Provenance(
                "owner", f"the owner answered inbox question {question_id}: {choice}", pass_id
            )
            done = await write_answer(writer, question, op, choice, provenance, facts, at)
            if not await self.store.close(tx, question_id, choice, pass_id, now):
                raise InputError(f"question {question_id} was answered meanwhile; nothing changed")
        return Answered(
            question_id,
            choice,
            pass_id,
            tuple(done.changes),
            tuple(done.inserted),
            tuple(done.changed),
            tuple(f.id for f in question.old) if choice != "take-new" else (),
        )

    # -- asking on the channels ------------------------------------------------------------

    async def announce(self) -> int:
        """Ask the owner each open question not asked yet, on the live channels that reach
        them. A question no channel delivered is asked again next time. Returns how many were
        delivered."""
        if not self._outbox.channels:
            return 0
        delivered = 0
        for question in await self.store.claim_unannounced(self._clock.now(), self._outbox.reaches):
            try:

                async def for_channel(limit: int, asked: Question = question) -> list[Outgoing]:
                    async with self._db.transaction() as tx:
                        made = await question_message(tx, self._callbacks, asked, self._tz, limit)
                    return [made]

                chats = await self._outbox.push_planned(question.user_id, for_channel)
            except Exception:  # one question's failure must not stop the others, nor the job
                log.exception("inbox: could not ask question %d", question.id)
                chats = 0
            if chats:
                delivered += 1
            else:
                await self.store.unclaim(question.id)
        return delivered

    async def _pressed(self, user_id: str, payload: Mapping[str, int | str]) -> str:
        """An answer button pressed by its owner (kit/delivery/callbacks.py checked who)."""
        question_id, answer = answer_of(payload)
        return (await self.answer(user_id, question_id, answer)).summary()


def _check_open(question: Question, choice: str, now: datetime, tz: tzinfo) -> None:
    qid = question.id
    if question.status == "answered":
        raise InputError(
            f"question {qid} was already answered ({question.answer}, pass "
            f"{question.answer_pass_id}); nothing changed. `kit facts undo "
            f"{question.answer_pass_id}` takes that answer back"
        )
    if question.status == "withdrawn":
        raise InputError(
            f"question {qid} was withdrawn: the pass that asked it (pass {question.pass_id}) "
            "was undone; nothing changed"
        )
    if question.status == "expired" or question.expires_at <= now:
        raise InputError(
            f"question {qid} expired unanswered on "
            f"{local_minute(question.expires_at, tz, zone=True)}, and the old facts were kept; "
            "nothing changed (`kit facts edit` changes a fact yourself)"
        )
    if choice not in question.choices:
        raise InputError(
            f"question {qid} offers {', '.join(question.choices)}; {choice} does not apply to it"
        )
