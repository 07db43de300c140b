"""What users do, as the bot sees it: updates a test pushes (text, a photo, a sticker, a voice
message, a document, a press on a button) and getUpdates' long poll that hands them out,
including one that hangs (a connection that died without a word). The `origin_*` helpers
make a pushed message a forwarded one."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tests.servers.telegram_api.core import HANG_GUARD, Core


class Updates(Core):
    # tests/servers/telegram_api/messages.py: a message the bot sent, as it now stands.
    _now: Callable[[dict], dict | None]

    def __init__(self, token: str) -> None:
        super().__init__(token)
        self._updates: list[dict] = []  # queued, not yet confirmed via getUpdates offset
        self._polls_to_hang = 0
        self.hung_polls = 0  # getUpdates calls hanging now (`hang_next_poll`)

    # ---- test controls ---------------------------------------------------------------------
    def push_text(
        self,
        user_id: int,
        text: str,
        *,
        chat_id: int | None = None,
        first_name: str = "Ann",
        forward_origin: dict | None = None,
    ) -> dict:
        """A text message from `user_id`, in their private chat or in `chat_id` (a negative
        id is a group; see `_chat`); `forward_origin` (from `origin_user` and friends) makes
        it a message they forwarded."""
        extra: dict[str, Any] = {"text": text}
        if text.startswith("/"):  # CommandHandler only matches messages with a bot_command entity
            length = len(text.split()[0])
            extra["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        if forward_origin is not None:
            extra["forward_origin"] = forward_origin
        return self._push(user_id, chat_id, first_name, extra)

    def push_photo(
        self, user_id: int, *, chat_id: int | None = None, caption: str | None = None
    ) -> dict:
        sizes = [
            {
                "file_id": f"photo-{w}",
                "file_unique_id": f"uphoto-{w}",
                "width": w,
                "height": w,
                "file_size": w * 10,
            }
            for w in (90, 320)
        ]
        content: dict[str, Any] = {"photo": sizes}
        if caption:
            content["caption"] = caption
        return self._push(user_id, chat_id, "Ann", content)

    def push_sticker(self, user_id: int, *, chat_id: int | None = None) -> dict:
        sticker = {
            "file_id": "sticker-1",
            "file_unique_id": "usticker-1",
            "type": "regular",
            "width": 512,
            "height": 512,
            "is_animated": False,
            "is_video": False,
            "emoji": "🙂",
        }
        return self._push(user_id, chat_id, "Ann", {"sticker": sticker})

    def push_voice(
        self,
        user_id: int,
        *,
        chat_id: int | None = None,
        duration: int = 3,
        content: bytes = b"OggS voice",
        file_size: int | None = None,
    ) -> dict:
        """A voice message; its audio (`content`) is served by getFile and the file URL.
        `file_size` overrides the size the message states (None: the real size)."""
        file_id = self._keep_file("voice", content)
        voice = {
            "file_id": file_id,
            "file_unique_id": f"u{file_id}",
            "duration": duration,
            "mime_type": "audio/ogg",
            "file_size": len(content) if file_size is None else file_size,
        }
        return self._push(user_id, chat_id, "Ann", {"voice": voice})

    def push_document(
        self,
        user_id: int,
        content: bytes,
        *,
        file_name: str | None = "note.md",
        mime_type: str | None = "text/markdown",
        file_size: int | None = None,
        chat_id: int | None = None,
        caption: str | None = None,
        forward_origin: dict | None = None,
    ) -> dict:
        """A file sent as a document; its bytes are served by getFile and the file URL.
        `file_size` overrides the size the message states (None: the real size)."""
        file_id = self._keep_file("doc", content)
        document: dict[str, Any] = {
            "file_id": file_id,
            "file_unique_id": f"u{file_id}",
            "file_size": len(content) if file_size is None else file_size,
        }
        if file_name is not None:
            document["file_name"] = file_name
        if mime_type is not None:
            document["mime_type"] = mime_type
        extra: dict[str, Any] = {"document": document}
        if caption:
            extra["caption"] = caption
        if forward_origin is not None:
            extra["forward_origin"] = forward_origin
        return self._push(user_id, chat_id, "Ann", extra)

    def push_callback(
        self,
        user_id: int,
        data: str,
        *,
        message: dict | None = None,
        chat_id: int | None = None,
        first_name: str = "Ann",
    ) -> dict:
        """A press on an inline button by `user_id`: `data` is the button's callback_data,
        `message` the sendMessage payload (from `sent`) the button was under, which the
        press carries as it now stands (edits included); its chat is where the press happens
        unless `chat_id` says otherwise."""
        chat = chat_id if chat_id is not None else (message or {}).get("chat_id", user_id)
        with self._cond:
            under = self._now(message) if message is not None else None
            if under is None or under["chat"]["id"] != chat:
                under = {
                    "message_id": 1,
                    "date": int(time.time()),
                    "chat": self._chat(chat, first_name),
                    "from": self.bot_user,
                    "text": (message or {}).get("text", "…"),
                }
            query = {
                "id": f"cq-{self._next_update_id}",
                "from": {"id": user_id, "is_bot": False, "first_name": first_name},
                "chat_instance": f"ci-{chat}",
                "data": data,
                "message": under,
            }
            update = {"update_id": self._next_update_id, "callback_query": query}
            self._next_update_id += 1
            self._updates.append(update)
            self._cond.notify_all()
        return update

    def hang_next_poll(self) -> None:
        """The getUpdates waiting now (or, if none is, the next one) never answers until the
        server closes: a long poll whose connection died without a word. Later polls are
        answered as usual. `hung_polls` counts the polls hanging."""
        with self._cond:
            self._polls_to_hang += 1
            self._cond.notify_all()

    def wait_for_hung_polls(self, n: int, timeout: float = HANG_GUARD) -> None:
        with self._cond:
            if not self._cond.wait_for(lambda: self.hung_polls >= n, timeout):
                raise TimeoutError(f"expected {n} hung polls, got {self.hung_polls}")

    # ---- getUpdates (server threads) -------------------------------------------------------
    def _get_updates(self, p: dict) -> list[dict]:
        offset, limit = int(p.get("offset") or 0), int(p.get("limit") or 100)
        deadline = time.monotonic() + float(p.get("timeout") or 0)
        with self._cond:
            # Like Telegram: offset confirms (forgets) older updates; -N keeps only the last N.
            if offset > 0:
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
            elif offset < 0:
                self._updates = self._updates[offset:]
            while not self._closed:
                if self._polls_to_hang:
                    self._polls_to_hang -= 1
                    self.hung_polls += 1
                    self._cond.notify_all()
                    while not self._closed:
                        self._cond.wait()
                    return []
                now = time.monotonic()
                if self._updates or now >= deadline:
                    return self._updates[:limit]
                else:
                    self._cond.wait(deadline - now)
            return []

    def _push(self, user_id: int, chat_id: int | None, first_name: str, content: dict) -> dict:
        with self._cond:
            update = {
                "update_id": self._next_update_id,
                "message": {
                    "message_id": self._take_message_id(),
                    "date": int(time.time()),
                    "chat": self._chat(user_id if chat_id is None else chat_id, first_name),
                    "from": {"id": user_id, "is_bot": False, "first_name": first_name},
                    **content,
                },
            }
            self._next_update_id += 1
            self._updates.append(update)
            self._cond.notify_all()  # wake a waiting long poll
        return update


def origin_user(user_id: int, first_name: str, last_name: str | None = None) -> dict:
    """`forward_origin` of a message forwarded from a user who allows linking to them."""
    sender: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name}
    if last_name:
        sender["last_name"] = last_name
    return {"type": "user", "date": int(time.time()), "sender_user": sender}


def origin_hidden_user(name: str) -> dict:
    """`forward_origin` of a message from a user who hides their account when forwarded."""
    return {"type": "hidden_user", "date": int(time.time()), "sender_user_name": name}


def origin_channel(chat_id: int, title: str, signature: str | None = None) -> dict:
    """`forward_origin` of a channel post, optionally signed by its author."""
    origin: dict[str, Any] = {
        "type": "channel",
        "date": int(time.time()),
        "chat": {"id": chat_id, "type": "channel", "title": title},
        "message_id": 7,
    }
    if signature:
        origin["author_signature"] = signature
    return origin
