"""What the digest's buttons do: Undo pass, Pin, Forget. Each is the owner's own action, made by
the same code as `kit facts undo|pin|forget` (kit/curator/undo.py, kit/curator/owner.py): one
transaction with its history rows, undoable like any other change. The button registry
(kit/delivery/callbacks.py) has already checked who pressed, that it is the first press and
that the undo window is open; a refusal here (a KitError) changed nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from kit.curator.owner import OwnerFacts
from kit.curator.reports import UndoResult, describe_undo
from kit.delivery.callbacks import Callbacks
from kit.digest.render import FORGET, PIN, UNDO
from kit.errors import InputError, NotFound
from kit.text import clip

FORGET_REASON = "forgotten from the memory digest"
UNDO_WINDOW_OVER = "its undo window is over"  # digest.undo_days after the change


class PassUndoer(Protocol):
    async def undo(self, user_id: str, pass_id: int) -> UndoResult: ...


def register(callbacks: Callbacks, passes: PassUndoer, owner: OwnerFacts) -> None:
    """Register the digest's button actions with the registry."""

    async def undo(user_id: str, payload: Mapping[str, int | str]) -> str:
        pass_id = _id(payload, "pass")
        try:
            return describe_undo(await passes.undo(user_id, pass_id))
        except NotFound:
            raise InputError(f"pass {pass_id} no longer exists; nothing was changed") from None

    async def pin(user_id: str, payload: Mapping[str, int | str]) -> str:
        fact_id = _id(payload, "fact")
        try:
            change = await owner.pin(user_id, fact_id, True)
        except NotFound:
            raise InputError(f"fact #{fact_id} no longer exists; nothing was changed") from None
        return f"Pinned #{fact_id}: {clip(change.fact.content, 120)}"

    async def forget(user_id: str, payload: Mapping[str, int | str]) -> str:
        fact_id = _id(payload, "fact")
        try:
            change = await owner.retire(user_id, fact_id, FORGET_REASON)
        except NotFound:
            raise InputError(f"fact #{fact_id} no longer exists; nothing was changed") from None
        return (
            f"Forgot #{fact_id}: {clip(change.fact.content, 80)} (kept in its history; "
            f"`kit facts undo {change.pass_id}` brings it back)"
        )

    for action, handler in ((UNDO, undo), (PIN, pin), (FORGET, forget)):
        callbacks.handle(action, handler, expired=UNDO_WINDOW_OVER)


def _id(payload: Mapping[str, int | str], key: str) -> int:
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"this button names no {key}; nothing was changed")
    return value
