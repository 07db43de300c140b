"""What the bot says: sendMessage (with an inline keyboard, HTML refused on request, sends
held on request), the edits of its messages, and its answers to button presses; each kept
as the test reads it (`sent`, `now`, `edits`, `answers`), within Telegram's own limits."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from tests.servers.telegram_api.core import HANG_GUARD, Core
from tests.servers.telegram_api.http import ApiError

MAX_TEXT = 4096  # Telegram's real sendMessage limit
MAX_CALLBACK_DATA = 64  # bytes of an inline button's callback_data
MAX_ANSWER = 200  # characters of an answerCallbackQuery text


class Messages(Core):
    def __init__(self, token: str) -> None:
        super().__init__(token)
        self._sent: list[dict] = []
        self._answers: list[dict] = []  # answerCallbackQuery payloads
        self._messages: dict[int, dict] = {}  # the bot's messages as they now stand (edits)
        self._sent_ids: list[int] = []  # the message id of each entry of `_sent`
        self._edits: list[dict] = []  # editMessageText / editMessageReplyMarkup payloads
        self._reject_markdown = 0
        self._hold_sends = False

    # ---- test controls ---------------------------------------------------------------------
    @property
    def sent(self) -> list[dict]:
        """Snapshot of successful sendMessage payloads (chat_id, text, parse_mode, ...)."""
        with self._cond:
            return list(self._sent)

    def wait_for_sent(self, n: int, timeout: float = HANG_GUARD) -> list[dict]:
        with self._cond:
            if not self._cond.wait_for(lambda: len(self._sent) >= n, timeout):
                raise TimeoutError(f"expected {n} sent messages, got {self._sent!r}")
            return list(self._sent)

    async def async_wait_for_sent(self, n: int, timeout: float = HANG_GUARD) -> list[dict]:  # noqa: ASYNC109
        # Poll instead of blocking: PTB runs on the same event loop and must keep going.
        deadline = time.monotonic() + timeout
        while len(self.sent) < n:
            if time.monotonic() >= deadline:
                raise TimeoutError(f"expected {n} sent messages, got {self.sent!r}")
            await asyncio.sleep(0.01)
        return self.sent

    @property
    def answers(self) -> list[dict]:
        """Snapshot of answerCallbackQuery payloads (callback_query_id, text, show_alert)."""
        with self._cond:
            return list(self._answers)

    async def async_wait_for_answers(self, n: int, timeout: float = HANG_GUARD) -> list[dict]:  # noqa: ASYNC109
        deadline = time.monotonic() + timeout
        while len(self.answers) < n:
            if time.monotonic() >= deadline:
                raise TimeoutError(f"expected {n} button answers, got {self.answers!r}")
            await asyncio.sleep(0.01)
        return self.answers

    def now(self, sent: dict) -> dict:
        """A message the bot sent (its sendMessage payload, from `sent`) as it now stands,
        after editMessageText / editMessageReplyMarkup."""
        with self._cond:
            message = self._now(sent)
        if message is None:
            raise KeyError("not a payload from `sent`")
        return message

    @property
    def edits(self) -> list[dict]:
        """Snapshot of editMessageText / editMessageReplyMarkup payloads, in order."""
        with self._cond:
            return list(self._edits)

    async def async_wait_for_edits(self, n: int, timeout: float = HANG_GUARD) -> list[dict]:  # noqa: ASYNC109
        deadline = time.monotonic() + timeout
        while len(self.edits) < n:
            if time.monotonic() >= deadline:
                raise TimeoutError(f"expected {n} message edits, got {self.edits!r}")
            await asyncio.sleep(0.01)
        return self.edits

    @staticmethod
    def buttons(sent: dict) -> list[list[dict]]:
        """The inline keyboard of a sent message (a payload from `sent`, or `now(...)`):
        rows of {"text", "callback_data"}."""
        markup = sent.get("reply_markup") or {}
        if isinstance(markup, str):
            markup = json.loads(markup)
        return [list(row) for row in markup.get("inline_keyboard", [])]

    def reject_markdown_next(self) -> None:
        """The next sendMessage that has a parse_mode fails with 400 (PTB: BadRequest)."""
        with self._cond:
            self._reject_markdown += 1

    def hold_sends(self, held: bool = True) -> None:
        """While held, sendMessage calls wait (recorded in `calls`, not yet in `sent`); on
        release they complete as accepted: a message Telegram took while its sender died."""
        with self._cond:
            self._hold_sends = held
            self._cond.notify_all()

    # ---- the methods (server threads) ------------------------------------------------------
    def _send_message(self, p: dict) -> dict:
        text = p.get("text")
        if "chat_id" not in p:
            raise ApiError(400, "Bad Request: chat_id is empty")
        if not text:
            raise ApiError(400, "Bad Request: message text is empty")
        if len(text) > MAX_TEXT:
            raise ApiError(400, "Bad Request: message is too long")
        with self._cond:
            while self._hold_sends and not self._closed:
                self._cond.wait()
            if p.get("parse_mode") and self._reject_markdown:
                self._reject_markdown -= 1
                raise ApiError(
                    400,
                    "Bad Request: can't parse entities: Can't find end of the "
                    "entity starting at byte offset 0",
                )
            message = {
                "message_id": self._take_message_id(),
                "date": int(time.time()),
                "chat": self._chat(p["chat_id"]),
                "from": self.bot_user,
                "text": text,
            }
            if p.get("reply_markup"):
                message["reply_markup"] = p["reply_markup"]
                _check_keyboard(p["reply_markup"])
            self._sent.append(p)
            self._sent_ids.append(message["message_id"])
            self._messages[message["message_id"]] = message
            self._cond.notify_all()
        return message

    def _edit_message(self, p: dict) -> dict:
        """editMessageText (text and keyboard) or editMessageReplyMarkup (keyboard only);
        like Telegram, a keyboard not given is taken away."""
        with self._cond:
            message = self._messages.get(int(p.get("message_id") or 0))
            if message is None or message["chat"]["id"] != p.get("chat_id"):
                raise ApiError(400, "Bad Request: message to edit not found")
            message = dict(message)
            if "text" in p:
                if not p["text"] or len(p["text"]) > MAX_TEXT:
                    raise ApiError(400, "Bad Request: message text is empty or too long")
                message["text"] = p["text"]
            message.pop("reply_markup", None)
            if p.get("reply_markup"):
                _check_keyboard(p["reply_markup"])
                message["reply_markup"] = p["reply_markup"]
            self._messages[message["message_id"]] = message
            self._edits.append(p)
            self._cond.notify_all()
        return message

    def _now(self, sent: dict) -> dict | None:
        """(Under the lock.) The message a `sent` payload made, as it now stands."""
        for index, payload in enumerate(self._sent):
            if payload is sent:
                return self._messages[self._sent_ids[index]]
        return None

    def _answer_callback_query(self, p: dict) -> bool:
        if not p.get("callback_query_id"):
            raise ApiError(400, "Bad Request: query id is empty")
        if len(str(p.get("text") or "")) > MAX_ANSWER:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        with self._cond:
            self._answers.append(p)
            self._cond.notify_all()
        return True


def _check_keyboard(markup: Any) -> None:
    """Telegram's limits on an inline keyboard: callback_data of 1-64 bytes, a label."""
    if isinstance(markup, str):
        markup = json.loads(markup)
    for row in markup.get("inline_keyboard", []):
        for button in row:
            data = str(button.get("callback_data", "")).encode()
            if not 1 <= len(data) <= MAX_CALLBACK_DATA:
                raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
            if not button.get("text"):
                raise ApiError(400, "Bad Request: a button has no text")
