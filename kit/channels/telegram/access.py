"""Who Kit answers on Telegram, and from which memory. No python-telegram-bot here: the
channel passes plain ids in and acts on the decision.

- A private chat with someone in `telegram.allowed_user_ids`: answered from their namespace.
- A private chat with anyone else: one short refusal per person per process, nothing stored.
- A group in `telegram.allowed_group_ids`: the allowed users there are answered from the
  group's own namespace (never from anyone's private memory); everyone else is ignored.
- Any other group: ignored, whoever writes. A refusal there would be posted to every member,
  and the only memory Kit could answer from is someone's private one.

Ignoring means no reply, nothing stored, no model call. The first message ignored in a group
logs that group's id once, so the owner can add it to the config.
"""

from __future__ import annotations

import logging
from typing import Literal

from kit.channels.telegram.config import allowed_groups, allowed_users
from kit.config import Settings

log = logging.getLogger(__name__)


Turned = Literal["refuse", "ignore"]


class TelegramAccess:
    def __init__(self, settings: Settings) -> None:
        self._users = allowed_users(settings)
        self._groups = allowed_groups(settings)
        self._refused: set[int] = set()
        self._ignored_groups: set[int] = set()

    def namespace(self, chat_id: int, private: bool, user_id: int | None) -> str | None:
        """The Kit user whose memory answers this sender in this chat; None: not answered."""
        if user_id is None or user_id not in self._users:
            return None
        return self._users[user_id] if private else self._groups.get(chat_id)

    def chats_of(self, namespace: str) -> tuple[int, ...]:
        """The private chats (Telegram user ids) of the people whose memory is `namespace`:
        where a message for that memory's owner goes (a digest, a question)."""
        return tuple(user for user, kit_user in self._users.items() if kit_user == namespace)

    def turn_away(self, chat_id: int, private: bool, user_id: int | None) -> Turned:
        """What to do with a sender `namespace()` does not answer: "refuse" (once per person,
        in private chats only) or "ignore" (silently)."""
        if not private:
            if chat_id not in self._groups and chat_id not in self._ignored_groups:
                self._ignored_groups.add(chat_id)
                log.info(
                    "telegram: ignoring group chat %d (not in telegram.allowed_group_ids)",
                    chat_id,
                )
            return "ignore"
        if user_id is None or user_id in self._refused:
            return "ignore"
        self._refused.add(user_id)
        log.info("telegram: refused user %d (not in telegram.allowed_user_ids)", user_id)
        return "refuse"
