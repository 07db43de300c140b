"""Firing due reminders and delivering them on the channel each was asked on.

`Dispatcher.run_due()` is what the daemon's scheduler calls (at each reminder's fire time and
every half minute as a safety net): it claims every due fire (kit/reminders/store.py), then
delivers the claimed ones, each conversation's in fire order, conversations side by side.

Guarantee: every fire is delivered at least once and recorded exactly once. A fire is
claimed (its delivery row written and the reminder moved on) before anything is sent, and
marked sent in the same transaction that stores the sent text as Kit's message. If Kit is
killed after a channel accepted the text and before that commit, the fire is still pending at
the next start and is sent again: Telegram may then show it twice (a window of one SQLite
commit), Kit's own record never does. Local front-ends (TUI, `kit chat`) get it exactly once.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from typing import Protocol

from kit.clock import Clock
from kit.errors import shown
from kit.jobs.runs import holder_gone, this_process
from kit.prompts import Prompts
from kit.reminders.rules import next_fire
from kit.reminders.store import LOCAL_CHANNELS, AlreadySent, Delivery, ReminderStore
from kit.turn import Inbound, TurnResult

log = logging.getLogger(__name__)

# (conversation id on that channel, text) -> sent, or raises (KitError or anything else).
Sender = Callable[[str, str], Awaitable[None]]

# Delivered later than this after its time, or left unsent by a Kit that stopped: says so.
LATE_AFTER = timedelta(minutes=2)
MAX_ATTEMPTS = 8  # sends that fail (channel down) are retried with backoff, then given up
FIRST_RETRY = timedelta(seconds=30)
LONGEST_RETRY = timedelta(minutes=30)
PARALLEL_CONVERSATIONS = 8
# How long a worker has to send a fire it took before another worker may (kit/jobs/leases.py:
# several workers on one database); a taker whose process is gone is replaced at once.
SENDING_FOR = timedelta(minutes=10)


@dataclass(frozen=True)
class DispatchReport:
    claimed: int = 0
    sent: int = 0
    failed: int = 0  # attempts that failed this time (retried later unless given up)


def retry_after(attempts: int) -> timedelta:
    """Backoff after the `attempts`-th failed send: 30 s, 1 min, 2 min ... at most 30 min."""
    wait: timedelta = FIRST_RETRY * 2 ** min(max(0, attempts - 1), 10)
    return min(wait, LONGEST_RETRY)


async def _settled(task: asyncio.Future[None]) -> None:
    """Wait for `task` to finish, whatever it ends with (it logs nothing we need here)."""
    try:
        await task
    except AlreadySent:
        pass


def _local_send(conversation: str, text: str) -> Awaitable[None]:
    """Local channels: the stored message is the delivery (front-ends show it)."""
    return asyncio.sleep(0)


class Turns(Protocol):
    """What runs a task reminder's turn (the agent); named here so reminders need not import
    the agent, whose tools import reminders."""

    async def turn(self, inbound: Inbound) -> TurnResult: ...


class Dispatcher:
    def __init__(
        self, store: ReminderStore, agent: Turns, prompts: Prompts, clock: Clock, tz: tzinfo
    ) -> None:
        self._store = store
        self._agent = agent
        self._prompts = prompts
        self._clock = clock
        self._tz = tz
        self._senders: dict[str, Sender] = dict.fromkeys(LOCAL_CHANNELS, _local_send)
        self._lock = asyncio.Lock()
        self._since = clock.now()  # a fire claimed before this was left by a Kit that stopped
        self.worker = this_process()  # who takes a fire for sending (tests name two workers)
        # Called whenever the next fire time may have changed (a reminder added, cancelled,
        # a channel came up): the scheduler sets it to plan its next wake-up.
        self.on_change: Callable[[], None] = lambda: None

    # ---- channels --------------------------------------------------------------------------

    def register(self, channel: str, sender: Sender) -> None:
        """A live channel (Telegram) delivers its reminders through `sender` from now on."""
        self._senders[channel] = sender
        self.on_change()

    def unregister(self, channel: str) -> None:
        if channel not in LOCAL_CHANNELS:
            self._senders.pop(channel, None)

    @property
    def channels(self) -> tuple[str, ...]:
        return tuple(self._senders)

    async def next_due(self) -> datetime | None:
        """When `run_due` has something to do next on the channels that are up."""
        return await self._store.next_due(self.channels)

    # ---- firing ----------------------------------------------------------------------------

    async def run_due(self, now: datetime | None = None) -> DispatchReport:
        """Claim what is due and deliver what is claimed. One run at a time in this process;
        claims are compare-and-set, so another process cannot fire the same time again."""
        async with self._lock:
            now = now or self._clock.now()
            channels = self.channels
            due = await self._store.due_now(now, channels)
            claims = [(r, next_fire(r.rule, now, self._tz)) for r in due]
            claimed = await self._store.claim(claims, now, LATE_AFTER) if claims else 0
            pending = await self._store.pending(now, channels)
            by_conversation: dict[tuple[str, str], list[Delivery]] = defaultdict(list)
            for delivery in pending:
                by_conversation[(delivery.channel, delivery.conversation)].append(delivery)
            gate = asyncio.Semaphore(PARALLEL_CONVERSATIONS)
            results: list[bool] = []
            async with asyncio.TaskGroup() as group:
                for deliveries in by_conversation.values():
                    group.create_task(self._conversation(deliveries, gate, results))
            sent = sum(results)
            return DispatchReport(claimed, sent, len(results) - sent)

    async def _conversation(
        self, deliveries: Sequence[Delivery], gate: asyncio.Semaphore, results: list[bool]
    ) -> None:
        async with gate:
            for delivery in deliveries:
                results.append(await self._deliver(delivery))

    async def _deliver(self, delivery: Delivery) -> bool:
        """Deliver one fire. Never raises (but for cancellation): a failure is recorded on
        the delivery and retried later, so one broken reminder never holds up the others."""
        now = self._clock.now()
        taken = await self._store.take_for_sending(
            delivery.id, self.worker, now + SENDING_FOR, holder_gone
        )
        if not taken:  # another worker on this database is sending it
            return False
        late = (
            delivery.late
            or now - delivery.fire_at > LATE_AFTER
            or delivery.claimed_at < self._since
        )
        try:
            text = delivery.text
            if text is None:
                body = delivery.reminder_text
                if delivery.kind == "task":
                    body = await self._run_task(delivery)
                text = self._notice(delivery, body, late)
                if delivery.kind == "task":
                    await self._store.prepare(delivery.id, text)
            await self._senders[delivery.channel](delivery.conversation, text)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            attempts = delivery.attempts + 1
            retry = None if attempts >= MAX_ATTEMPTS else self._clock.now() + retry_after(attempts)
            log.warning(
                "reminder #%d: delivery failed (%s, attempt %d); %s",
                delivery.reminder_id,
                shown(exc),
                attempts,
                "given up" if retry is None else "retrying later",
            )
            await self._store.mark_failed_attempt(delivery, shown(exc), retry)
            return False
        # Sent: the mark is written even if a shutdown cancels us now (one commit; being
        # cut short here would make the next start send it again).
        mark = asyncio.ensure_future(
            self._store.mark_sent(delivery, text, self._clock.now(), late=late)
        )
        try:
            await asyncio.shield(mark)
        except asyncio.CancelledError:
            await _settled(mark)
            raise
        except AlreadySent:
            log.info("reminder #%d: already marked sent elsewhere", delivery.reminder_id)
        return True

    def _notice(self, delivery: Delivery, body: str, late: bool) -> str:
        """What the owner receives: the reminder (or the task's answer), saying if late."""
        head = "Reminder" if delivery.kind == "reminder" else "Scheduled"
        if late:
            due = delivery.fire_at.astimezone(self._tz)
            head += f" (late: it was due {due:%a %d %b %H:%M})"
        if delivery.kind == "task":
            return f"{head}: {delivery.reminder_text}\n\n{body}"
        return f"{head}: {body}"

    async def _run_task(self, delivery: Delivery) -> str:
        """A normal turn with the task as its prompt, marked as scheduled ('job'): never
        learned from as the owner's words. Its reply is kept on the delivery (`prepare`), so
        a failed send is retried with the same text, never by asking the model again."""
        prompt = self._prompts.render("reminder_task", task=delivery.reminder_text)
        result = await self._agent.turn(
            Inbound(
                user_id=delivery.user_id,
                text=prompt,
                channel=delivery.channel,
                conversation=delivery.conversation,
                source="job",
            )
        )
        return result.reply
