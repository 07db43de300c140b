"""A live channel stand-in for the outbox: records what it was given, can be made to fail."""

from __future__ import annotations

from collections.abc import Sequence

from kit.delivery.outbox import Outgoing


class Pushes:
    """Registered as a channel in `Outbox`: each memory named in `chats` has that many owner
    chats; `fail` makes the next pushes raise (a channel that is down)."""

    def __init__(self, chats: dict[str, int] | None = None) -> None:
        self.chats = {"owner": 1} if chats is None else chats
        self.pushed: list[tuple[str, list[Outgoing]]] = []
        self.fail = 0

    async def __call__(self, user_id: str, messages: Sequence[Outgoing]) -> int:
        if self.fail:
            self.fail -= 1
            raise ConnectionError("the channel is down")
        self.pushed.append((user_id, list(messages)))
        return self.chats.get(user_id, 0)

    def buttons(self, n: int = -1) -> dict[str, str]:
        """Label -> data of every button pushed in the n-th push."""
        _, messages = self.pushed[n]
        return {b.label: b.data for m in messages for row in m.buttons for b in row}
