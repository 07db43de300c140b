"""The owner's own changes to long-term facts: add, edit, pin, unpin, retire.

Every front-end (the CLI, the TUI, Telegram, the control socket, the Python API) reaches them
here, so the checks are made once: a category of the seven, text that is not empty, at most
`MAX_CONTENT_CHARS` (a subject `MAX_SUBJECT_CHARS`, a reason `MAX_REASON_CHARS`) and holds no
secret (the refusal names the kind, never the text), an expiry in the range a model's is held
to (`ops.expiry_out_of_range`).

Each change is one transaction writing a pass of kind "owner" (status "applied"; its record
names the operation and the fact, never the text) and the fact's history row, actor "owner",
pointing at it. So an owner change is a pass like any other: `kit facts passes` lists it,
`kit facts undo PASS_ID` takes it back, and undo's rules (kit/curator/undo.py) hold unchanged:
a later change to the same fact must be undone first.

Time (kit/memory/fact_times.py): `add` and `edit` take the day a fact began to hold (`since`,
from the start of that day in the owner's zone, not in the future) and the last day it held
(`until`, through the end of that day, today at most: it says a fact stopped holding; an end
still to come is an expiry). A fact added with `until` is recorded closed (out of use from
the start). `edit` with new text and `since` says the world changed then: the old text is kept
as a closed fact that held until then; new text alone corrects the fact in place; `until`
alone retires it as of that day.

What makes a fact the owner's (`Fact.owner_held`): `add` and `edit` set `owner_written` (and
confidence 1.0: the owner's word); a pinned fact is the owner's while pinned. `pin`, `unpin`
and `retire` leave `owner_written` as it was, so unpinning a fact the curator wrote hands it
back to the curator. The curator and REM never change the owner's facts on their own: an
operation naming one (a merge included) is set aside as a question for the owner (apply.py,
kit/inbox/), REM's review does not pick them, and the curator is shown them marked as the
owner's.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, time, timedelta, tzinfo

from kit.clock import Clock, local_date
from kit.curator.ops import (
    MAX_REASON_CHARS,
    MAX_ROW_ID,
    MAX_SUBJECT_CHARS,
    expiry_out_of_range,
)
from kit.curator.records import PassLog
from kit.curator.reports import OwnerChange
from kit.errors import InputError
from kit.memory.fact_rows import MAX_CONTENT_CHARS, Fact, check_category
from kit.memory.fact_times import supersede
from kit.memory.fact_writer import FactWriter, Provenance
from kit.memory.facts import Facts
from kit.secrets import find_secret
from kit.store.db import Database, Transaction
from kit.untrusted.clean import clean_text

KIND = "owner"
OWNER_CONFIDENCE = 1.0


def check_fact_id(fact_id: int) -> int:
    if isinstance(fact_id, bool) or not isinstance(fact_id, int) or not 1 <= fact_id <= MAX_ROW_ID:
        raise InputError(
            f"a fact id is a positive whole number (got {fact_id!r}); `kit facts` lists them"
        )
    return fact_id


def owner_text(value: str, what: str, limit: int) -> str:
    """`value` as one clean line (controls dropped, whitespace runs one space: a fact is a
    sentence), if it may be stored: not empty, at most `limit` characters, no secret.
    Refusals name the problem, never the text (it may hold the secret)."""
    text = " ".join(clean_text(value).split())
    if not text:
        raise InputError(f"the {what} is empty; write what Kit should keep")
    if len(text) > limit:
        raise InputError(
            f"the {what} has {len(text):,} characters, more than the {limit:,} allowed; "
            "keep it to the gist in a sentence or two"
        )
    secret = find_secret(text)
    if secret is not None:
        raise InputError(
            f"not stored: the {what} contains what looks like {secret}, and Kit never keeps "
            "secrets; write it without the secret"
        )
    return text


def owner_expiry(day: date, now: datetime, tz: tzinfo) -> datetime:
    """A fact that holds through `day` (the owner's zone) expires at the next midnight."""
    start = datetime.combine(day, time(), tzinfo=tz)
    problem = expiry_out_of_range(start, now, whole_day=True)
    if problem is not None:
        raise InputError(f"the expiry date {problem}")
    return start + timedelta(days=1)


def owner_since(day: date, now: datetime, tz: tzinfo) -> datetime:
    """`--since DAY`: from the start of that day, which has come."""
    if day > local_date(now, tz):
        raise InputError(
            f"--since {day} is in the future; a fact holds from a day that has come "
            "(--expires says when one will end)"
        )
    return _day_start(day, tz)


def owner_until(day: date, now: datetime, tz: tzinfo) -> datetime:
    """`--until DAY`: held through that day (today: until now), which must not be ahead."""
    if day > local_date(now, tz):
        raise InputError(
            f"--until {day} is in the future; --until says when a fact stopped holding, "
            "--expires when it will"
        )
    return min(_day_start(day, tz) + timedelta(days=1), now)


def _day_start(day: date, tz: tzinfo) -> datetime:
    try:
        return datetime.combine(day, time(), tzinfo=tz)
    except OverflowError:  # pragma: no cover - date.min/max in a far zone
        raise InputError(f"{day} is out of range") from None


def _check_span(since: datetime | None, until: datetime | None) -> None:
    if since is not None and until is not None and until <= since:
        raise InputError("--until must come after --since (a fact holds for at least a day)")


def last_day(expires_at: datetime, tz: tzinfo) -> date:
    """The last day (the owner's zone) a fact holds: the inverse of `owner_expiry`."""
    return local_date(expires_at - timedelta(microseconds=1), tz)


class OwnerFacts:
    def __init__(
        self, db: Database, facts: Facts, passes: PassLog, clock: Clock, tz: tzinfo
    ) -> None:
        self._db = db
        self._facts = facts
        self._passes = passes
        self._clock = clock
        self._tz = tz

    async def add(
        self,
        user_id: str,
        content: str,
        *,
        category: str = "person",
        subject: str = "",
        pinned: bool = False,
        expires: date | None = None,
        since: date | None = None,
        until: date | None = None,
    ) -> OwnerChange:
        check_category(category)
        content = owner_text(content, "fact", MAX_CONTENT_CHARS)
        subject = owner_text(subject, "subject", MAX_SUBJECT_CHARS) if subject.strip() else ""
        now = self._clock.now()
        if until is not None and (expires is not None or pinned):
            raise InputError(
                "a fact with --until no longer holds: it cannot also expire or be pinned"
            )
        expires_at = None if expires is None else owner_expiry(expires, now, self._tz)
        valid_from = None if since is None else owner_since(since, now, self._tz)
        valid_until = None if until is None else owner_until(until, now, self._tz)
        _check_span(valid_from, valid_until)
        async with self._db.transaction() as tx:
            pass_id = await self._pass(tx, user_id, "add", category)
            fact = await self._facts.writer(tx, user_id).insert(
                category=category,
                content=content,
                subject=subject,
                confidence=OWNER_CONFIDENCE,
                expires_at=expires_at,
                pinned=pinned,
                owner_written=True,
                provenance=Provenance("owner", "added by the owner", pass_id),
                valid_from=valid_from,
                valid_until=valid_until,
            )
            await self._describe(tx, pass_id, "add", fact.id)
        return OwnerChange(pass_id, "add", fact)

    async def edit(
        self,
        user_id: str,
        fact_id: int,
        *,
        content: str | None = None,
        subject: str | None = None,
        expires: date | None = None,
        clear_expiry: bool = False,
        since: date | None = None,
        until: date | None = None,
    ) -> OwnerChange:
        """Rewrite a fact: its content and/or subject (an empty subject clears it), its
        expiry, since when it holds; or say it stopped holding (`until`). What is not given
        stays as it was (see the module docstring for time)."""
        check_fact_id(fact_id)
        if expires is not None and clear_expiry:
            raise InputError("give an expiry date or clear the expiry, not both")
        if until is not None and (content is not None or subject is not None or expires):
            raise InputError(
                "--until retires the fact as it reads; change its text or expiry first, "
                "then retire it"
            )
        if content is not None:
            content = owner_text(content, "fact", MAX_CONTENT_CHARS)
        if subject is not None and subject.strip():
            subject = owner_text(subject, "subject", MAX_SUBJECT_CHARS)
        now = self._clock.now()
        expires_at = None if expires is None else owner_expiry(expires, now, self._tz)
        valid_from = None if since is None else owner_since(since, now, self._tz)
        valid_until = None if until is None else owner_until(until, now, self._tz)
        async with self._db.transaction() as tx:
            writer = self._facts.writer(tx, user_id)
            before = await _active(writer, fact_id, "edit")
            _check_span(valid_from or before.holds_since, valid_until)
            changes = {
                "content": content not in (None, before.content),
                "subject": subject is not None and subject.strip() != before.subject,
                "expiry": (expires_at is not None and expires_at != before.expires_at)
                or (clear_expiry and before.expires_at is not None),
                "since": valid_from is not None and valid_from != before.valid_from,
                "until": valid_until is not None,
            }
            if not any(changes.values()):
                raise InputError(f"fact #{fact_id} already says that; nothing was changed")
            pass_id = await self._pass(tx, user_id, "edit", before.category, fact_id)
            provenance = Provenance("owner", "edited by the owner", pass_id)
            text = {
                "content": content,
                "subject": subject,
                "confidence": OWNER_CONFIDENCE,
                "expires_at": expires_at,
                "clear_expiry": clear_expiry,
            }
            if valid_until is not None:  # it stopped holding: retired as of then
                if valid_from is not None:
                    await writer.update(fact_id, provenance=provenance, valid_from=valid_from)
                fact = await writer.deactivate(
                    fact_id, provenance=replace(provenance, reason="ended by the owner"),
                    at=valid_until,
                )  # fmt: skip
            elif (changes["content"] or changes["subject"]) and (
                valid_from is not None and valid_from > before.holds_since
            ):  # the world changed then: the old text held until that day
                fact = await supersede(
                    writer, fact_id, at=valid_from, provenance=provenance, operation="edit",
                    owner_written=True, **text,  # type: ignore[arg-type]
                )  # fmt: skip
            else:
                fact = await writer.update(
                    fact_id,
                    provenance=provenance,
                    owner_written=True,
                    valid_from=valid_from,
                    operation="edit",
                    **text,  # type: ignore[arg-type]
                )
        return OwnerChange(pass_id, "edit", fact)

    async def pin(self, user_id: str, fact_id: int, pinned: bool) -> OwnerChange:
        """Pin a fact (always in context; the curator and REM leave it alone) or unpin it."""
        check_fact_id(fact_id)
        operation = "pin" if pinned else "unpin"
        async with self._db.transaction() as tx:
            writer = self._facts.writer(tx, user_id)
            before = await _active(writer, fact_id, operation)
            if before.pinned == pinned:
                state = "already pinned" if pinned else "not pinned"
                raise InputError(f"fact #{fact_id} is {state}; nothing was changed")
            pass_id = await self._pass(tx, user_id, operation, before.category, fact_id)
            fact = await writer.update(
                fact_id,
                provenance=Provenance("owner", f"{operation}ned by the owner", pass_id),
                pinned=pinned,
                operation=operation,
            )
        return OwnerChange(pass_id, operation, fact)

    async def retire(self, user_id: str, fact_id: int, reason: str) -> OwnerChange:
        """Take a fact out of use, with why. It stays, with its history, and the change can be
        undone; `kit forget` is what erases."""
        check_fact_id(fact_id)
        if not reason.strip():
            raise InputError("say why the fact should go (a reason is kept in its history)")
        reason = owner_text(reason, "reason", MAX_REASON_CHARS)
        async with self._db.transaction() as tx:
            writer = self._facts.writer(tx, user_id)
            before = await _active(writer, fact_id, "retire")
            pass_id = await self._pass(tx, user_id, "retire", before.category, fact_id)
            fact = await writer.deactivate(fact_id, provenance=Provenance("owner", reason, pass_id))
        return OwnerChange(pass_id, "retire", fact)

    async def _pass(
        self, tx: Transaction, user_id: str, operation: str, category: str, fact_id: int = 0
    ) -> int:
        pass_id = await self._passes.add(
            tx, user_id=user_id, kind=KIND, category=category, status="applied"
        )
        if fact_id:
            await self._describe(tx, pass_id, operation, fact_id)
        return pass_id

    async def _describe(self, tx: Transaction, pass_id: int, operation: str, fact_id: int) -> None:
        # The operation and the fact, never the text: `kit forget` scrubs history, not this.
        await self._passes.describe(
            tx,
            pass_id,
            reason=f"{operation} #{fact_id}",
            detail={"operations": [{"op": operation, "fact_id": fact_id}]},
        )


async def _active(writer: FactWriter, fact_id: int, operation: str) -> Fact:
    fact = await writer.get(fact_id)
    if not fact.active:
        raise InputError(
            f"fact #{fact_id} is retired, so there is nothing to {operation}; "
            f"`kit facts history {fact_id}` shows the pass that retired it, and undoing that "
            "pass brings it back"
        )
    return fact
