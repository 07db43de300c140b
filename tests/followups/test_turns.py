"""Follow-ups through real turns: a plan with a time lets the model offer a reminder (an
instruction in that turn only), at most `followups.per_day` times a local day, counted in the
database; an offer alone creates nothing, the schedule tool refuses on the plan itself, and the
owner's yes in a later message schedules it. Off, nothing of this happens."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import FollowupSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.base import LLMRequest, ToolResult, ToolUse
from kit.llm.fake import FakeLLM
from kit.reminders.tools import UNASKED
from kit.turn import Inbound

pytestmark = pytest.mark.stores

PLAN = "I'll call the plumber on Friday"
OFFER = "Good luck with it! Want me to remind you on Friday morning?"


def instruction(request: LLMRequest) -> str:
    """The turn's follow-up instruction, if it got one (it comes last, after the memory)."""
    last = request.system[-1].text
    return last if last.startswith("[Follow-up:") else ""


async def test_a_plan_with_a_time_lets_the_model_offer_and_the_offer_creates_nothing(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    fake_llm.queue(OFFER)
    result = await kit.send(PLAN)
    assert result.followup_offered and result.reply == OFFER
    note = instruction(fake_llm.requests[-1])
    assert note.startswith("[Follow-up: your owner just mentioned a plan with a time (on Friday).")
    assert "Only offer: do not call schedule_reminder now." in note
    assert await kit.services.reminders.active("owner") == []  # an offer is not a reminder
    assert fake_llm.requests[-1].system[0].cache  # the cached prompt comes first, as ever
    fake_llm.queue("Anything else?")
    later = await kit.send("thanks")
    assert not later.followup_offered and instruction(fake_llm.requests[-1]) == ""


async def test_the_schedule_tool_refuses_on_the_plan_and_acts_on_the_owners_yes(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    """A model that schedules unasked is refused; after "yes" it is the owner's request."""
    fields = {"text": "call the plumber", "at": "2026-03-06T09:00"}
    fake_llm.queue(ToolUse("c1", "schedule_reminder", fields), OFFER)
    await kit.send(PLAN)
    (refused,) = [
        b for b in fake_llm.requests[-1].messages[-1].content if isinstance(b, ToolResult)
    ]
    assert refused.is_error and refused.content == f"Not done: {UNASKED}."
    assert await kit.services.reminders.active("owner") == []
    fake_llm.queue(ToolUse("c2", "schedule_reminder", fields), "Done: Friday at 9.")
    await kit.send("yes please, at 9")
    (stored,) = await kit.services.reminders.active("owner")
    assert stored.text == "call the plumber"


async def test_at_most_per_day_offers_a_local_day_counted_in_the_database(
    kit: Kit, other: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    offered = [
        (await kit.send(f"I'll water the plants in {n} days")).followup_offered for n in (2, 3)
    ]
    third = await other.send("I'm going to repaint the shed next week")  # another worker
    assert offered == [True, True] and not third.followup_offered
    day = clock.now().date()
    assert await kit.services.followups.offers.count("owner", day) == 2
    clock.advance(timedelta(days=1))
    assert (await kit.send("I'll call Ana tomorrow")).followup_offered  # a new day


async def test_not_the_owners_own_words_get_no_offer(kit: Kit, fake_llm: FakeLLM) -> None:
    agent = kit.services.agent
    forwarded = Inbound("owner", PLAN, "telegram", "1", forwarded_from="Rui")
    in_group = Inbound("family", PLAN, "telegram", "-100", speaker="Rui")
    task = Inbound("owner", PLAN, "telegram", "1", source="job")
    for inbound in (forwarded, in_group, task):
        assert not (await agent.turn(inbound)).followup_offered
    assert await kit.services.followups.offers.count("owner", kit.services.clock.now().date()) == 0


async def test_off_by_default_nothing_is_added_and_the_tool_works_as_before(
    settings: Settings, clock: FakeClock
) -> None:
    off = dataclasses.replace(settings, followups=FollowupSettings())
    llm = FakeLLM()
    async with Kit.open(
        settings=off, llm=llm, embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        fields = {"text": "call the plumber", "at": "2026-03-06T09:00"}
        llm.queue(ToolUse("c1", "schedule_reminder", fields), "Scheduled.")
        result = await kit.send(PLAN)
        assert not result.followup_offered
        assert all(instruction(r) == "" for r in llm.requests)
        assert len(await kit.services.reminders.active("owner")) == 1  # as before follow-ups
