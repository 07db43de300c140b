"""Buttons Kit sends (Telegram inline buttons), each behind a short token kept in the database.

A button's data is `PREFIX + token` (Telegram allows 64 bytes of callback_data; this is 18),
and the token's row says what pressing it does: an action name, a small payload of ids, the
memory (Kit user) it acts on, and until when it works. Nothing else travels in the button.

Pressing one (`press`, with the presser's Kit user as the channel's access rules decide it):
- a presser whose memory is not the token's (a stranger, a tap from another namespace) is
  refused, and the button stays usable for its owner;
- an unknown token (not Kit's, or purged), one already used, one past its expiry: one line
  saying so;
- otherwise the token is taken, once (a compare-and-set that also checks the expiry, so a
  double tap or a second worker cannot run it twice), and the action's handler runs with the
  token's user and payload; the handler's line is the answer. A handler that raises a KitError
  changed nothing (each action is one transaction): the token is given back, so the owner may
  press it again once the cause is fixed, and the error's message is the answer.
Every refusal changes nothing. Answers are one line of at most `MAX_ANSWER` characters
(Telegram's answerCallbackQuery limit). After an action ran (`pressed`), the channel takes away
the buttons it left without use: the pressed one (a digest's Pin), or, for an action registered
with `spends="message"`, all of the message's (an inbox question, answered once).

No python-telegram-bot here: the channel passes the data and the presser in and shows the
answer. Actions are registered at composition with `handle` (kit/digest/actions.py has the
digest's); messages carrying buttons go out through kit/delivery/outbox.py.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from typing import Any, Literal

from kit.clock import Clock, from_iso, to_iso
from kit.errors import KitError
from kit.store.db import Database, Transaction

log = logging.getLogger(__name__)

PREFIX = "k1:"  # Kit's buttons (a version, should the data's form ever change)
MAX_ANSWER = 200  # characters Telegram shows of an answerCallbackQuery text
MAX_PAYLOAD = 512  # bytes of a payload's JSON: ids and short names, never text
KEPT_AFTER_EXPIRY = timedelta(days=30)  # a late tap says "expired" rather than "unknown"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16}")

Payload = Mapping[str, int | str]
# (the Kit user the button acts on, its payload) -> the answer line. A KitError means nothing
# was changed; its message is shown.
Handler = Callable[[str, Payload], Awaitable[str]]
# What a press that ran its action leaves without use: that button, or all of the message's.
Spends = Literal["button", "message"]

NOT_OURS = "This button is not one of Kit's (or it is damaged); nothing was changed."
UNKNOWN = "Kit no longer knows this button (it is too old); nothing was changed."
NOT_YOURS = "These buttons are for the owner of this memory only; nothing was changed."
NO_ACTION = (
    "This Kit does not know what this button does (a different version?); nothing was changed."
)
FAILED = "Something went wrong on Kit's side; nothing was changed. The details are in Kit's log."


@dataclass(frozen=True)
class Button:
    """One button: its label and the data the channel sends back when it is pressed."""

    label: str
    data: str


@dataclass(frozen=True)
class Pressed:
    """A press's answer line, and what it used up: None when it changed nothing (a refusal),
    else the buttons the channel may take away (see `Spends`)."""

    answer: str
    spent: Spends | None = None


@dataclass(frozen=True)
class _Token:
    user_id: str
    action: str
    payload: dict[str, int | str]
    expires_at: datetime
    used_at: datetime | None


def fit_answer(text: str) -> str:
    """`text` as one line of at most MAX_ANSWER characters."""
    line = " ".join(text.split())
    return line if len(line) <= MAX_ANSWER else line[: MAX_ANSWER - 1].rstrip() + "…"


def _answer_for(error: KitError) -> str:
    """A refusal as one line that says nothing changed (up front: the line may be cut)."""
    text = str(error).rstrip(".") + "."
    if "nothing was changed" not in text:
        return fit_answer(f"Not done: {text}")
    return fit_answer(text[:1].upper() + text[1:])


class Callbacks:
    def __init__(self, db: Database, clock: Clock, tz: tzinfo) -> None:
        self._db = db
        self._clock = clock
        self._tz = tz
        self._handlers: dict[str, Handler] = {}
        self._expiry_notes: dict[str, str] = {}
        self._spends: dict[str, Spends] = {}
        self._purged_on: datetime | None = None

    def handle(
        self, action: str, handler: Handler, *, expired: str = "", spends: Spends = "button"
    ) -> None:
        """What pressing a button of `action` does (one handler per action name); `expired`
        says in a few words why such a button no longer works ("its undo window is over");
        `spends`: what a press that ran leaves without use (its button, or the message's)."""
        if action in self._handlers:
            raise ValueError(f"callback action {action!r} is registered twice")
        self._handlers[action] = handler
        self._expiry_notes[action] = expired
        self._spends[action] = spends

    @property
    def actions(self) -> tuple[str, ...]:
        return tuple(self._handlers)

    async def button(
        self,
        tx: Transaction,
        label: str,
        *,
        user_id: str,
        action: str,
        payload: Payload,
        expires_at: datetime,
    ) -> Button:
        """A new button (its token stored inside `tx`, so it exists once the message does)."""
        if action not in self._handlers:
            raise ValueError(f"no handler for callback action {action!r}")
        data = json.dumps(dict(payload), sort_keys=True)
        if len(data.encode()) > MAX_PAYLOAD:
            raise ValueError(f"a callback payload holds ids, not text ({len(data)} bytes)")
        await self._purge(tx)
        token = secrets.token_urlsafe(12)  # 16 characters, 96 random bits
        await tx.execute(
            "INSERT INTO callbacks (token, user_id, action, payload_json, created_at, expires_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (token, user_id, action, data, to_iso(self._clock.now()), to_iso(expires_at)),
        )
        return Button(label, PREFIX + token)

    async def press(self, data: str, presser: str | None) -> str:
        """Press the button whose data is `data`, as the Kit user `presser` (None: someone
        the channel answers for no memory). Returns the answer line; never raises."""
        return (await self.pressed(data, presser)).answer

    async def pressed(self, data: str, presser: str | None) -> Pressed:
        """`press`, saying also which buttons the press used up (the channel takes them away)."""
        token = data[len(PREFIX) :] if data.startswith(PREFIX) else ""
        if not _TOKEN.fullmatch(token):
            return Pressed(NOT_OURS)
        try:
            return await self._press(token, presser)
        except Exception:
            log.exception("a button press failed")
            return Pressed(FAILED)

    async def _press(self, token: str, presser: str | None) -> Pressed:
        found = await self._get(token)
        if found is None:
            return Pressed(UNKNOWN)
        if presser is None or presser != found.user_id:
            log.info("callbacks: refused a press on %s's button by another", found.user_id)
            return Pressed(NOT_YOURS)
        if found.used_at is not None:
            return Pressed(self._used(found.used_at))
        now = self._clock.now()
        if found.expires_at <= now:
            return Pressed(self._expired(found.expires_at, found.action))
        handler = self._handlers.get(found.action)
        if handler is None:
            log.warning("callbacks: no handler for action %r", found.action)
            return Pressed(NO_ACTION)
        taken = to_iso(now)
        async with self._db.transaction() as tx:
            claimed = await tx.execute_rowcount(
                "UPDATE callbacks SET used_at = ? WHERE token = ? AND used_at IS NULL"
                " AND expires_at > ?",
                (taken, token, taken),
            )
        if claimed != 1:  # pressed twice at once: the other press has it
            again = await self._get(token)
            if again is not None and again.used_at is not None:
                return Pressed(self._used(again.used_at))
            return Pressed(self._expired(found.expires_at, found.action))
        try:
            # The answer is shown, never stored: it may quote a fact `kit forget` later erases.
            answer = fit_answer(await handler(found.user_id, found.payload))
        except KitError as exc:
            await self._give_back(token, taken)
            return Pressed(_answer_for(exc))
        except BaseException:
            await self._give_back(token, taken)
            raise
        return Pressed(answer, self._spends.get(found.action, "button"))

    async def _get(self, token: str) -> _Token | None:
        row = await self._db.fetchone(
            "SELECT user_id, action, payload_json, expires_at, used_at FROM callbacks"
            " WHERE token = ?",
            (token,),
        )
        if row is None:
            return None
        payload: Any = json.loads(row[2])
        return _Token(
            user_id=str(row[0]),
            action=str(row[1]),
            payload=payload if isinstance(payload, dict) else {},
            expires_at=from_iso(row[3]),
            used_at=None if row[4] is None else from_iso(row[4]),
        )

    async def _give_back(self, token: str, taken: str) -> None:
        """The action changed nothing: the button works again."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "UPDATE callbacks SET used_at = NULL WHERE token = ? AND used_at = ?",
                (token, taken),
            )

    async def _purge(self, tx: Transaction) -> None:
        """Forget tokens long past their expiry (at most once a day per process)."""
        now = self._clock.now()
        if self._purged_on is not None and now - self._purged_on < timedelta(days=1):
            return
        self._purged_on = now
        await tx.execute(
            "DELETE FROM callbacks WHERE expires_at < ?", (to_iso(now - KEPT_AFTER_EXPIRY),)
        )

    def _local(self, when: datetime) -> str:
        return when.astimezone(self._tz).strftime("%a %d %b %H:%M")

    def _used(self, when: datetime) -> str:
        return f"This button was already used ({self._local(when)}); nothing was changed."

    def _expired(self, when: datetime, action: str) -> str:
        note = self._expiry_notes.get(action, "")
        why = f" ({note})" if note else ""
        return f"This button expired on {self._local(when)}{why}; nothing was changed."
