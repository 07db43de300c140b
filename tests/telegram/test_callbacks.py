"""The button registry (kit/delivery/callbacks.py) on its own: a button acts on one memory,
only for its owner, once, until it expires; every refusal is one line and changes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.delivery.callbacks import (
    MAX_ANSWER,
    NOT_OURS,
    NOT_YOURS,
    UNKNOWN,
    Button,
    Callbacks,
    Pressed,
)
from kit.errors import InputError

pytestmark = pytest.mark.stores


class Counter:
    """A test action: counts its runs; fails with an InputError while `refuse` is set."""

    def __init__(self) -> None:
        self.runs: list[tuple[str, dict[str, int | str]]] = []
        self.refuse = ""
        self.gate: asyncio.Event | None = None

    async def __call__(self, user_id: str, payload: Mapping[str, int | str]) -> str:
        if self.gate is not None:
            await self.gate.wait()
        if self.refuse:
            raise InputError(self.refuse)
        self.runs.append((user_id, dict(payload)))
        return f"Counted {payload['n']}."


@pytest.fixture
def counter(kit: Kit) -> Counter:
    count = Counter()
    kit.services.callbacks.handle("test.count", count)
    return count


async def issue(kit: Kit, clock: FakeClock, *, user: str = "owner", days: int = 7) -> Button:
    callbacks = kit.services.callbacks
    async with kit.services.db.transaction() as tx:
        return await callbacks.button(
            tx,
            "Count",
            user_id=user,
            action="test.count",
            payload={"n": 3},
            expires_at=clock.now() + timedelta(days=days),
        )


async def test_the_owner_presses_once_and_a_second_tap_changes_nothing(
    kit: Kit, clock: FakeClock, counter: Counter
) -> None:
    button = await issue(kit, clock)
    assert len(button.data.encode()) <= 64  # Telegram's callback_data limit
    callbacks = kit.services.callbacks
    assert await callbacks.press(button.data, "owner") == "Counted 3."
    clock.advance(timedelta(minutes=5))
    again = await callbacks.press(button.data, "owner")
    assert again == "This button was already used (Mon 02 Mar 09:00); nothing was changed."
    assert counter.runs == [("owner", {"n": 3})]


async def test_a_tap_from_someone_else_changes_nothing_and_leaves_the_button_to_its_owner(
    kit: Kit, clock: FakeClock, counter: Counter
) -> None:
    button = await issue(kit, clock)
    callbacks = kit.services.callbacks
    assert await callbacks.press(button.data, None) == NOT_YOURS  # a stranger
    assert await callbacks.press(button.data, "ana") == NOT_YOURS  # another memory's owner
    assert counter.runs == []
    assert await callbacks.press(button.data, "owner") == "Counted 3."


async def test_an_expired_button_says_so_and_changes_nothing(
    kit: Kit, clock: FakeClock, counter: Counter
) -> None:
    button = await issue(kit, clock, days=2)
    clock.advance(timedelta(days=2))
    answer = await kit.services.callbacks.press(button.data, "owner")
    assert answer == "This button expired on Wed 04 Mar 09:00; nothing was changed."
    assert counter.runs == []


@pytest.mark.parametrize(
    ("data", "answer"),
    [
        ("", NOT_OURS),
        ("hello", NOT_OURS),
        ("k1:short", NOT_OURS),
        ("k1:AAAAAAAAAAAAAAAA", UNKNOWN),  # the right shape, never issued (or long purged)
        ("k1:AAAAAAAAAAAAAAA'", NOT_OURS),
        ("k1:" + "A" * 61, NOT_OURS),
    ],
)
async def test_data_that_is_not_a_live_token_gets_one_line(
    kit: Kit, counter: Counter, data: str, answer: str
) -> None:
    assert await kit.services.callbacks.press(data, "owner") == answer
    assert counter.runs == []


async def test_only_a_press_that_ran_its_action_spends_buttons(
    kit: Kit, clock: FakeClock, counter: Counter
) -> None:
    """What the channel may take off the message: nothing after a refusal, the pressed button
    by default, all of the message's for an action registered with spends="message"."""
    callbacks = kit.services.callbacks
    callbacks.handle("test.once", counter, spends="message")
    button = await issue(kit, clock)
    assert await callbacks.pressed(button.data, "ana") == Pressed(NOT_YOURS)
    counter.refuse = "fact #12 is already pinned; nothing was changed"
    assert (await callbacks.pressed(button.data, "owner")).spent is None
    counter.refuse = ""
    assert await callbacks.pressed(button.data, "owner") == Pressed("Counted 3.", "button")
    assert (await callbacks.pressed(button.data, "owner")).spent is None  # already used
    async with kit.services.db.transaction() as tx:
        whole = await callbacks.button(
            tx, "Once", user_id="owner", action="test.once", payload={"n": 4},
            expires_at=clock.now() + timedelta(days=1),
        )  # fmt: skip
    assert await callbacks.pressed(whole.data, "owner") == Pressed("Counted 4.", "message")


async def test_an_action_that_refuses_gives_the_button_back(
    kit: Kit, clock: FakeClock, counter: Counter
) -> None:
    button = await issue(kit, clock)
    callbacks = kit.services.callbacks
    counter.refuse = "fact #12 is already pinned; nothing was changed"
    answer = await callbacks.press(button.data, "owner")
    assert answer == "Fact #12 is already pinned; nothing was changed."
    counter.refuse = ""
    assert await callbacks.press(button.data, "owner") == "Counted 3."
    assert len(counter.runs) == 1


async def test_two_taps_at_once_run_the_action_once(
    kit: Kit, clock: FakeClock, counter: Counter
) -> None:
    button = await issue(kit, clock)
    callbacks = kit.services.callbacks
    counter.gate = asyncio.Event()
    first = asyncio.create_task(callbacks.press(button.data, "owner"))
    second = asyncio.create_task(callbacks.press(button.data, "owner"))
    done, _ = await asyncio.wait({first, second}, return_when=asyncio.FIRST_COMPLETED)
    assert next(iter(done)).result().startswith("This button was already used")
    counter.gate.set()
    answers = sorted([first.result() if first.done() else await first, await second])
    assert answers[0] == "Counted 3."
    assert len(counter.runs) == 1


async def test_a_long_answer_is_cut_to_what_telegram_shows(
    kit: Kit, clock: FakeClock, counter: Counter
) -> None:
    button = await issue(kit, clock)
    counter.refuse = "cannot undo pass 7: " + "later changes touched the same facts; " * 20
    answer = await kit.services.callbacks.press(button.data, "owner")
    assert len(answer) == MAX_ANSWER and answer.endswith("…")


async def test_a_button_needs_a_registered_action_and_an_id_sized_payload(
    kit: Kit, clock: FakeClock, counter: Counter
) -> None:
    callbacks = kit.services.callbacks
    async with kit.services.db.transaction() as tx:
        with pytest.raises(ValueError, match="no handler"):
            await callbacks.button(
                tx, "x", user_id="owner", action="nope", payload={}, expires_at=clock.now()
            )
        with pytest.raises(ValueError, match="ids, not text"):
            await callbacks.button(
                tx,
                "x",
                user_id="owner",
                action="test.count",
                payload={"n": "words " * 200},
                expires_at=clock.now(),
            )
    with pytest.raises(ValueError, match="twice"):
        callbacks.handle("test.count", counter)


async def test_tokens_long_past_their_expiry_are_purged(
    kit: Kit, clock: FakeClock, counter: Counter
) -> None:
    old = await issue(kit, clock, days=1)
    clock.advance(timedelta(days=40))
    fresh_registry = Callbacks(kit.services.db, clock, kit.services.tz)
    fresh_registry.handle("test.count", counter)
    async with kit.services.db.transaction() as tx:
        await fresh_registry.button(
            tx,
            "Count",
            user_id="owner",
            action="test.count",
            payload={"n": 1},
            expires_at=clock.now() + timedelta(days=1),
        )
    assert await fresh_registry.press(old.data, "owner") == UNKNOWN
