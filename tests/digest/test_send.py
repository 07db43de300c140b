"""Sending digests: once per memory and closed day whatever runs it (the digest time, a later
look, a restart, a second worker), nothing for a day without changes, a failed send retried a
bounded number of times, `kit digest --send` sends the open day's on request. And the buttons:
each press is the owner's action, with history, through the same code as `kit facts`."""

from __future__ import annotations

from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.curator.ops import Insert
from kit.digest.sends import MAX_ATTEMPTS
from kit.digest.service import NO_CHANNEL
from kit.errors import KitError
from tests.support.curation import all_facts
from tests.support.digest import USER, a_day_of_curation, at
from tests.support.pushes import Pushes

pytestmark = pytest.mark.stores


@pytest.fixture
def pushes(kit: Kit) -> Pushes:
    channel = Pushes()
    kit.services.outbox.register("test", channel)
    return channel


async def test_a_closed_days_digest_is_sent_once_whoever_looks_again(
    kit: Kit, other: Kit, clock: FakeClock, pushes: Pushes
) -> None:
    day = await a_day_of_curation(kit, clock)
    digests = kit.services.digest
    # at 20:59 the 2nd is still open; the 1st (facts added by hand, no pass) had nothing
    early = await digests.send_due(at(20, 59))
    assert [(r.day, r.status) for r in early] == [(at(12, day=1).date(), "empty")]
    assert pushes.pushed == []
    clock.set(at(21))
    (sent,) = await digests.send_due(at(21))
    assert (sent.user_id, sent.status, sent.messages, sent.chats) == (USER, "sent", 1, 1)
    ((user, (message,)),) = pushes.pushed
    assert user == USER and message.text.startswith("Memory digest for Monday 2 March 2026")
    assert f"Undo pass {day.curation.pass_id}" in pushes.buttons()
    clock.set(at(21, 5))
    assert await digests.send_due(at(21, 5)) == []  # the next look
    other.services.outbox.register("test", pushes)  # a second worker on the same store
    assert await other.services.digest.send_due(at(21, 5)) == []
    assert len(pushes.pushed) == 1
    assert await digests.sends.status(USER, at(21).date()) == "sent"


async def test_a_day_without_changes_sends_nothing_and_is_not_looked_at_again(
    kit: Kit, clock: FakeClock, pushes: Pushes
) -> None:
    await a_day_of_curation(kit, clock)  # on the 2nd; nothing on the 3rd
    digests = kit.services.digest
    await digests.send_due(at(21))
    clock.set(at(21, day=3))
    assert [r.status for r in await digests.send_due(at(21, day=3))] == ["empty"]
    assert await digests.send_due(at(21, 5, day=3)) == []  # settled: not built again
    assert len(pushes.pushed) == 1
    assert await digests.sends.status(USER, at(21, day=3).date()) == "empty"


async def test_no_live_channel_sends_nothing_and_owes_it_to_the_worker_that_has_one(
    kit: Kit, clock: FakeClock
) -> None:
    await a_day_of_curation(kit, clock)
    digests = kit.services.digest
    assert await digests.send_due(at(21)) == []
    assert await digests.sends.status(USER, at(21).date()) is None  # still owed
    pushes = Pushes()
    kit.services.outbox.register("telegram", pushes)  # Telegram connects a minute later
    clock.set(at(21, 1))
    assert [r.status for r in await digests.send_due(at(21, 1))] == ["sent"]
    assert len(pushes.pushed) == 1


async def test_a_failed_send_is_retried_a_bounded_number_of_times(
    kit: Kit, clock: FakeClock, pushes: Pushes
) -> None:
    await a_day_of_curation(kit, clock)
    digests = kit.services.digest
    pushes.fail = MAX_ATTEMPTS
    for n in range(MAX_ATTEMPTS):
        clock.set(at(21, 5 * n))
        with pytest.raises(KitError, match=r"could not be sent \(owner: ConnectionError\)"):
            await digests.send_due(clock.now())
    assert await digests.send_due(at(22)) == []  # held: it failed too often
    assert pushes.pushed == [] and await digests.sends.status(USER, at(21).date()) == "failed"


async def test_one_failure_is_retried_at_the_next_look(
    kit: Kit, clock: FakeClock, pushes: Pushes
) -> None:
    await a_day_of_curation(kit, clock)
    pushes.fail = 1
    with pytest.raises(KitError):
        await kit.services.digest.send_due(at(21))
    assert [r.status for r in await kit.services.digest.send_due(at(21, 5))] == ["sent"]


async def test_a_send_cut_short_midway_is_not_sent_again(
    kit: Kit, clock: FakeClock, pushes: Pushes
) -> None:
    """A worker died between taking the digest and marking it sent: the owner may have it."""
    await a_day_of_curation(kit, clock)
    digests = kit.services.digest
    assert await digests.sends.claim(USER, at(21).date())
    assert await digests.send_due(at(21, 5)) == []
    assert pushes.pushed == []


async def test_send_now_sends_the_open_days_digest_on_request(
    kit: Kit, clock: FakeClock, pushes: Pushes
) -> None:
    await a_day_of_curation(kit, clock)
    digests = kit.services.digest
    first = await digests.send_now(USER)
    again = await digests.send_now(USER)  # asked twice: sent twice
    assert (first.status, first.day) == ("sent", at(12).date()) and again.status == "sent"
    assert len(pushes.pushed) == 2
    assert [r.status for r in await digests.send_due(at(21))] == ["sent"]  # the daily one too
    clock.set(at(21, 30))
    assert (await digests.send_now(USER)).status == "empty"  # the next day: nothing yet


async def test_send_now_without_a_live_channel_says_what_to_do(kit: Kit, clock: FakeClock) -> None:
    await a_day_of_curation(kit, clock)
    with pytest.raises(KitError) as error:
        await kit.services.digest.send_now(USER)
    assert str(error.value) == NO_CHANNEL


async def test_undo_reverts_exactly_that_pass_and_is_the_owners_undo(
    kit: Kit, clock: FakeClock, pushes: Pushes
) -> None:
    day = await a_day_of_curation(kit, clock)
    clock.set(at(16))  # a later pass on other facts stays as it is
    later = await kit.services.curator.apply_ops(
        USER, "projects", [Insert("Garden shed", 0.8)], kind="curate", source_message_ids=[]
    )
    assert day.curation.pass_id is not None and later.pass_id is not None
    await kit.services.digest.send_due(at(21))
    press = kit.services.callbacks.press
    answer = await press(pushes.buttons()[f"Undo pass {day.curation.pass_id}"], USER)
    assert answer.startswith(f"Undid pass {day.curation.pass_id}: restored #")
    after = await all_facts(kit)
    # every fact the pass found is exactly as it was before it, the ones it added retired
    assert {i: after[i] for i in day.before} == day.before
    assert after[later.inserted_fact_ids[0]]["active"]  # the later pass is untouched
    assert all(not after[i]["active"] for i in day.curation.inserted_fact_ids)
    undo = (await kit.services.curator.passes.recent(USER))[0]
    assert undo.kind == "undo" and undo.detail["undoes"] == day.curation.pass_id
    assert (await kit.services.curator.passes.get(USER, later.pass_id)).status == "applied"


async def test_pin_and_forget_are_the_owners_changes_with_history(
    kit: Kit, clock: FakeClock, pushes: Pushes
) -> None:
    day = await a_day_of_curation(kit, clock)
    learned, merged = day.curation.inserted_fact_ids
    await kit.services.digest.send_due(at(21))
    buttons = pushes.buttons()
    press = kit.services.callbacks.press
    assert (await press(buttons[f"Pin #{learned}"], USER)) == (
        f"Pinned #{learned}: Takes oat milk in coffee"
    )
    forgot = await press(buttons[f"Forget #{merged}"], USER)
    assert forgot.startswith(f"Forgot #{merged}: Has two cats, Tom and Jerry (kept in its history")
    pinned = await kit.services.facts.get(USER, learned)
    retired = await kit.services.facts.get(USER, merged)
    assert pinned.pinned and not retired.active
    pin_row = (await kit.fact_history(learned))[-1]
    forget_row = (await kit.fact_history(merged))[-1]
    assert (pin_row.actor, pin_row.operation) == ("owner", "pin")
    assert (forget_row.actor, forget_row.reason) == ("owner", "forgotten from the memory digest")
    passes = [p for p in await kit.services.curator.passes.recent(USER) if p.kind == "owner"]
    assert len(passes) == 2  # each an undoable pass of the owner's, as from `kit facts`


async def test_stale_buttons_change_nothing_and_say_why(
    kit: Kit, clock: FakeClock, pushes: Pushes
) -> None:
    day = await a_day_of_curation(kit, clock)
    learned = day.curation.inserted_fact_ids[0]
    await kit.services.digest.send_due(at(21))
    buttons = pushes.buttons()
    press = kit.services.callbacks.press
    undo = buttons[f"Undo pass {day.curation.pass_id}"]
    assert (await press(undo, USER)).startswith("Undid pass")
    # the pass's facts are gone back: pinning one it added is refused, and changes nothing
    pin = await press(buttons[f"Pin #{learned}"], USER)
    assert pin.startswith(f"Not done: fact #{learned} is retired, so there is nothing to pin")
    assert (await press(undo, USER)).startswith("This button was already used")
    clock.set(at(14, 35) + timedelta(days=7))  # the undo window is over
    forget = await press(buttons[f"Forget #{day.old[0].id}"], USER)
    assert forget.startswith("This button expired on Mon 09 Mar 14:35")
    assert (await kit.services.facts.get(USER, day.old[0].id)).active


async def test_a_button_for_a_pass_that_no_longer_exists_says_so(
    kit: Kit, clock: FakeClock
) -> None:
    callbacks = kit.services.callbacks
    async with kit.services.db.transaction() as tx:
        button = await callbacks.button(
            tx, "Undo pass 999", user_id=USER, action="digest.undo", payload={"pass": 999},
            expires_at=clock.now() + timedelta(days=1),
        )  # fmt: skip
    answer = await callbacks.press(button.data, USER)
    assert answer == "Pass 999 no longer exists; nothing was changed."


async def test_each_channel_gets_the_digest_packed_to_its_own_message_limit(
    kit: Kit, clock: FakeClock
) -> None:
    """A channel that takes long messages (Matrix) gets fewer, longer parts than one that
    takes Telegram's 4,096 units, each part within its own channel's limit; every fact's
    buttons reach both."""
    day = await a_day_of_curation(kit, clock)
    clock.set(at(14, 40))
    many = [Insert(f"Fact number {n}: " + "a long sentence of detail " * 8, 0.9) for n in range(40)]
    outcome = await kit.services.curator.apply_ops(
        USER, "projects", many, kind="curate", source_message_ids=[day.messages[0].id]
    )
    assert outcome.status == "applied", outcome.reason
    small, large = Pushes(), Pushes()
    kit.services.outbox.register("small", small)  # Telegram's limit, the default
    kit.services.outbox.register("large", large, limit=12_000)
    clock.set(at(21))
    sent = await kit.services.digest.send_now(USER)
    ((_, short_parts),) = small.pushed
    ((_, long_parts),) = large.pushed
    assert len(short_parts) > len(long_parts) >= 1
    assert sent.messages == len(short_parts) + len(long_parts) and sent.chats == 2
    assert all(len(m.text) <= 4096 for m in short_parts)
    assert all(len(m.text) <= 12_000 for m in long_parts)
    assert max(len(m.text) for m in long_parts) > 4096  # the long channel's own limit is used
    assert set(small.buttons()) == set(large.buttons())
