"""The daily digest over Telegram, with the real PTB Application against the local Bot API
server and the real scheduler job: after a curation pass, one digest message with inline
buttons reaches the owner; pressing Undo reverts exactly that pass; a stranger's tap, a second
tap and an expired button each get one line and change nothing. A question the day set aside is
in the digest, answered with its own message's buttons."""

from __future__ import annotations

from datetime import timedelta

from kit.api import Kit
from kit.clock import FakeClock
from kit.delivery.callbacks import NOT_YOURS
from kit.inbox.buttons import INTRO
from scheduler import KitScheduler
from tests.servers.telegram_api import FakeTelegramServer
from tests.support.curation import all_facts
from tests.support.digest import a_day_of_curation, a_question, at
from tests.telegram.conftest import OWNER_TG, STRANGER_TG, ChannelFactory, running, wait_until


async def test_the_days_digest_reaches_the_owner_and_undo_reverts_exactly_that_pass(
    kit: Kit, clock: FakeClock, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    day = await a_day_of_curation(kit, clock)
    assert day.curation.pass_id is not None
    applied = await all_facts(kit)
    scheduler = KitScheduler(kit.services)
    async with running(make_channel()):
        await wait_until(lambda: "telegram" in kit.services.outbox.channels)
        clock.set(at(21))
        assert (
            await scheduler.run_now("digest")
        ).detail == "1 digest sent, 0 with nothing to report"
        (digest,) = await tg.async_wait_for_sent(1)
        assert digest["chat_id"] == OWNER_TG and "parse_mode" not in digest
        assert digest["text"].startswith("Memory digest for Monday 2 March 2026 (since Sun 21:00)")
        assert "+ learned #" in digest["text"] and "from your message at 14:02" in digest["text"]
        buttons = {b["text"]: b["callback_data"] for row in tg.buttons(digest) for b in row}
        undo = buttons[f"Undo pass {day.curation.pass_id}"]
        assert all(len(data.encode()) <= 64 for data in buttons.values())

        tg.push_callback(STRANGER_TG, undo, message=digest)  # a stranger's tap
        (refused,) = await tg.async_wait_for_answers(1)
        assert refused["text"] == NOT_YOURS
        assert await all_facts(kit) == applied  # nothing changed

        tg.push_callback(OWNER_TG, undo, message=digest)
        done = (await tg.async_wait_for_answers(2))[1]
        assert done["text"].startswith(f"Undid pass {day.curation.pass_id}: restored #")
        after = await all_facts(kit)
        assert {i: after[i] for i in day.before} == day.before  # exactly as before the pass
        assert all(not after[i]["active"] for i in day.curation.inserted_fact_ids)
        await tg.async_wait_for_edits(1)  # the used button is taken off, the others stay
        left = {b["text"] for row in tg.buttons(tg.now(digest)) for b in row}
        assert left == set(buttons) - {f"Undo pass {day.curation.pass_id}"}
        assert tg.now(digest)["text"] == digest["text"]

        tg.push_callback(OWNER_TG, undo, message=digest)  # a second tap
        clock.set(at(14, 35) + timedelta(days=7, seconds=1))
        forget = buttons[f"Forget #{day.old[0].id}"]
        tg.push_callback(OWNER_TG, forget, message=digest)  # after the undo window
        answers = await tg.async_wait_for_answers(4)
        clock.set(at(21, 5))
        assert (await scheduler.run_now("digest")).detail.startswith("0 digests sent")
    assert answers[2]["text"].startswith("This button was already used")
    assert answers[3]["text"] == (
        "This button expired on Mon 09 Mar 14:35 (its undo window is over); nothing was changed."
    )
    assert await all_facts(kit) == after
    assert len(tg.sent) == 1  # one digest, however often the job looks


async def test_a_day_whose_news_is_a_question_sends_a_digest_pointing_at_its_buttons(
    kit: Kit, clock: FakeClock, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    """The question went out with its answer buttons when Kit asked; the day's digest lists it
    and says where to answer. The next day, with nothing new, no digest nags about it."""
    question = await a_question(kit, clock, at(15), "Ana lives in Lisbon", "Ana lives in Porto")
    scheduler = KitScheduler(kit.services)
    async with running(make_channel()):
        (asked,) = await tg.async_wait_for_sent(1)  # asked when Telegram came up
        assert asked["text"].startswith(INTRO)
        clock.set(at(21))
        assert (await scheduler.run_now("digest")).detail == (
            "1 digest sent, 0 with nothing to report"
        )
        digest = (await tg.async_wait_for_sent(2))[1]
        lines = digest["text"].splitlines()
        assert lines[0] == "Memory digest for Monday 2 March 2026 (since Sun 21:00)"
        assert lines[3] == (
            "Waiting for your answer (answer each with the buttons under its own message, sent "
            "when Kit asked, or `kit inbox`)"
        )
        assert lines[4].startswith(f"? question {question} · people: Kit would rewrite #")
        assert lines[4].endswith("now: [Ana] Ana lives in Lisbon → new: [Ana] Ana lives in Porto")
        assert tg.buttons(digest) == []  # the pass changed nothing: no Undo, Pin or Forget

        clock.set(at(21, day=3))
        assert (await scheduler.run_now("digest")).detail == (
            "0 digests sent, 1 with nothing to report"
        )
        take_new = {b["text"]: b["callback_data"] for row in tg.buttons(asked) for b in row}
        tg.push_callback(OWNER_TG, take_new["Take new"], message=asked)
        (answer,) = await tg.async_wait_for_answers(1)
    assert answer["text"].startswith(f"Question {question}: Take new.")
    assert len(tg.sent) == 2
    assert await kit.inbox() == []
