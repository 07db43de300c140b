"""What every part of the fake Bot API shares: one lock (a condition that wakes whoever
waits on the server), the bot's own account, the ids Telegram hands out, the files users
sent, every call received, and how a chat looks in an update.

The parts (tests/servers/telegram_api/updates.py, messages.py, files.py) are mixins over
`Core`; tests/servers/telegram_api/server.py puts them together as `FakeTelegramServer`.
"""

from __future__ import annotations

import threading
from typing import Any

# How long the waits allow by default: only a hang gets near it on a loaded machine, and
# nothing a test checks depends on it.
HANG_GUARD = 30.0


class Core:
    def __init__(self, token: str) -> None:
        self.token = token
        self.bot_user = {
            "id": int(token.split(":")[0]),
            "is_bot": True,
            "first_name": "Kit",
            "username": "kit_test_bot",
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }
        self._cond = threading.Condition()
        self._next_update_id = 1
        self._next_message_id = 1
        self._files: dict[str, bytes] = {}  # file_id -> content, for getFile and downloads
        self._calls: list[tuple[str, dict]] = []
        self._closed = False

    def _take_message_id(self) -> int:
        """(Under the lock.)"""
        self._next_message_id += 1
        return self._next_message_id - 1

    def _keep_file(self, kind: str, content: bytes) -> str:
        """A file a user sends, kept for getFile and the file URL; its file_id."""
        with self._cond:
            file_id = f"{kind}-{len(self._files) + 1}"
            self._files[file_id] = content
        return file_id

    @staticmethod
    def _chat(chat_id: Any, first_name: str = "Ann") -> dict:
        if isinstance(chat_id, int) and chat_id > 0:
            return {"id": chat_id, "type": "private", "first_name": first_name}
        if isinstance(chat_id, int):  # like Telegram: supergroup ids start with -100 and are long
            kind = "supergroup" if chat_id <= -1_000_000_000_000 else "group"
            return {"id": chat_id, "type": kind, "title": "Test group"}
        name = str(chat_id).lstrip("@")
        return {"id": -100, "type": "channel", "title": name, "username": name}
