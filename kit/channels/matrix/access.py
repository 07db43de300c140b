"""Who Kit answers on Matrix, and from which memory. No matrix-nio here: the channel passes
plain ids and counts in and acts on the decision.

- A direct room (Kit and one other member) with someone in `matrix.allowed_user_ids`:
  answered from their namespace.
- A direct room with anyone else: one short refusal per person per process, nothing stored.
- A room with more members: ignored, whoever writes (as Telegram's groups that are not listed:
  anything Kit said there would be read by every member). Logged once per room.
- An invitation from an allowed user is taken; from anyone else it is declined, unread.

Ignoring means no reply, nothing stored, no model call.
"""

from __future__ import annotations

import logging
from typing import Literal

log = logging.getLogger(__name__)

Turned = Literal["refuse", "ignore"]


class MatrixAccess:
    def __init__(self, users: dict[str, str]) -> None:
        self._users = dict(users)
        self._refused: set[str] = set()
        self._ignored_rooms: set[str] = set()

    def allowed(self, sender: str) -> bool:
        return sender in self._users

    def namespace(self, sender: str, members: int) -> str | None:
        """The Kit user whose memory answers `sender` in a room of `members` members (Kit
        included); None: not answered."""
        if members != 2:
            return None
        return self._users.get(sender)

    def owners_of(self, namespace: str) -> tuple[str, ...]:
        """The Matrix users whose memory is `namespace`: where its digest and questions go."""
        return tuple(user for user, kit_user in self._users.items() if kit_user == namespace)

    def turn_away(self, room_id: str, sender: str, members: int) -> Turned:
        """What to do with a sender `namespace()` does not answer: "refuse" (once per person,
        in direct rooms only) or "ignore" (silently)."""
        if members != 2:
            if room_id not in self._ignored_rooms:
                self._ignored_rooms.add(room_id)
                log.info(
                    "matrix: ignoring room %s (%d members): Kit talks in direct rooms only",
                    room_id,
                    members,
                )
            return "ignore"
        if sender in self._refused:
            return "ignore"
        self._refused.add(sender)
        log.info("matrix: refused %s (not in matrix.allowed_user_ids)", sender)
        return "refuse"
