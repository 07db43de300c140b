"""The digest as a service: read a day's (`kit digest`, the TUI), send the open one now (`kit
digest --send`), and send each memory's digest once its day closes (the scheduler's `digest`
job, scheduler/jobs.py).

Sending goes through the outbox (kit/delivery/outbox.py) to the channels live in this process,
each getting the digest packed to its own message limit: the worker that runs the channels is
the one that sends, and the scheduled digest of a memory and
day is claimed first (kit/digest/sends.py), so a restart, a catch-up run and a second worker
never send it twice. A day with no news sends nothing (`Digest.news`: memory changed, or a
pass set a question aside that still waits; questions from before the day alone never send
one); buttons are made (their tokens stored) just before the messages go out, each closing with
its change's undo window.
"""

from __future__ import annotations

import logging
from datetime import date, datetime, timedelta, tzinfo

from kit.clock import Clock
from kit.config import DigestSettings
from kit.delivery.callbacks import Callbacks
from kit.delivery.outbox import Outbox, Outgoing
from kit.digest.build import DigestBuilder
from kit.digest.model import Digest, DigestSent
from kit.digest.render import chat_messages
from kit.digest.sends import DigestSends
from kit.errors import ConfigError, KitError, shown
from kit.jobs.runs import known_users
from kit.store.db import Database

log = logging.getLogger(__name__)

NO_CHANNEL = (
    "no channel to send the digest on: neither Telegram nor Matrix is connected in this Kit "
    "(Telegram needs TELEGRAM_BOT_TOKEN and telegram.allowed_user_ids, Matrix "
    "MATRIX_ACCESS_TOKEN and [matrix]; both need the daemon: `kit run`); `kit digest` shows "
    "the digest here"
)


class DigestService:
    def __init__(
        self,
        db: Database,
        builder: DigestBuilder,
        callbacks: Callbacks,
        outbox: Outbox,
        settings: DigestSettings,
        clock: Clock,
        tz: tzinfo,
    ) -> None:
        self._db = db
        self.builder = builder
        self._callbacks = callbacks
        self._outbox = outbox
        self.sends = DigestSends(db, clock)
        self._settings = settings
        self._clock = clock
        self._tz = tz

    @property
    def undo_window(self) -> timedelta:
        return timedelta(days=self._settings.undo_days)

    def open_day(self) -> date:
        """The digest day now belongs to (the one the next digest reports)."""
        return self.builder.day_of(self._clock.now())

    def closed_day(self, now: datetime) -> date:
        """The latest digest day whose digest time has come at `now`."""
        return self.builder.closed_day(now)

    async def read(self, user_id: str, day: date | None = None) -> Digest:
        return await self.builder.build(user_id, day or self.open_day())

    async def send_now(self, user_id: str, day: date | None = None) -> DigestSent:
        """Send a day's digest (the open one unless given) to `user_id`'s owners now, whatever
        was sent before: the owner asked. Nothing is sent for a day without news."""
        digest = await self.read(user_id, day)
        if not digest.news:
            return DigestSent(user_id, digest.day, "empty")
        if not self._outbox.channels:
            raise ConfigError(NO_CHANNEL)
        messages, chats = await self._deliver(digest)
        await self.sends.by_hand(user_id, digest.day, messages=messages, chats=chats)
        return DigestSent(user_id, digest.day, "sent" if chats else "no chat", messages, chats)

    async def send_due(self, now: datetime) -> list[DigestSent]:
        """The scheduled digests owed at `now`: for every memory, the latest closed day's, once.
        Raises a KitError naming the failures after trying every memory (the job retries)."""
        if not self._outbox.channels:
            return []  # Telegram is not up in this worker: the one that polls it sends
        day = self.closed_day(now)
        settled = await self.sends.settled(day)
        results: list[DigestSent] = []
        failures: list[str] = []
        for user_id in await known_users(self._db):
            if user_id in settled:
                continue
            digest = await self.builder.build(user_id, day)
            if not digest.news:
                await self.sends.empty(user_id, day)
                results.append(DigestSent(user_id, day, "empty"))
                continue
            if not await self.sends.claim(user_id, day):
                results.append(DigestSent(user_id, day, "already"))
                continue
            try:
                messages, chats = await self._deliver(digest)
            except Exception as exc:  # one memory's failure never holds up the others
                log.warning("digest for %s could not be sent: %s", user_id, shown(exc))
                await self.sends.finish(user_id, day, sent=False, detail=shown(exc))
                failures.append(f"{user_id}: {shown(exc)}")
                continue
            await self.sends.finish(user_id, day, sent=True, messages=messages, chats=chats)
            results.append(
                DigestSent(user_id, day, "sent" if chats else "no chat", messages, chats)
            )
        if failures:
            raise KitError(f"the digest could not be sent ({'; '.join(failures)}); retried later")
        return results

    async def _deliver(self, digest: Digest) -> tuple[int, int]:
        """Make the buttons and push the messages, for each live channel at its own limit:
        (messages sent, chats reached)."""
        now = self._clock.now()
        sent = 0

        async def for_channel(limit: int) -> list[Outgoing]:
            nonlocal sent
            plan = chat_messages(digest, self._tz, now=now, window=self.undo_window, limit=limit)
            outgoing: list[Outgoing] = []
            async with self._db.transaction() as tx:
                for message in plan:
                    rows = []
                    for row in message.rows:
                        buttons = [
                            await self._callbacks.button(
                                tx,
                                planned.label,
                                user_id=digest.user_id,
                                action=planned.action,
                                payload=planned.payload,
                                expires_at=planned.expires_at,
                            )
                            for planned in row
                        ]
                        rows.append(tuple(buttons))
                    outgoing.append(Outgoing(message.text, tuple(rows)))
            sent += len(outgoing)
            return outgoing

        chats = await self._outbox.push_planned(digest.user_id, for_channel)
        return sent, chats
