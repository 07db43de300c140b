"""The daily token budget for background model work: what it admits, what it refuses, that the
refused work waits for the owner's next local day, and that chat is never paused."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from kit.api import Kit
from kit.client import LocalClient
from kit.clock import FakeClock
from kit.commands.status import budget_line
from kit.config import BudgetSettings, ScheduleSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.errors import BudgetSpent, TooLargeForBudget
from kit.llm.base import ChatMessage, LLMReply, LLMRequest, SystemBlock, TextBlock, ToolSpec, Usage
from kit.llm.budget import CURATION_SHARE
from kit.llm.fake import FakeLLM
from kit.llm.tokens import estimate_request
from tests.core.test_window import add_notes
from tests.support.curation import by_category, say
from tests.support.rem import bullets, chat_on

pytestmark = pytest.mark.stores

CAP = 100_000
MONDAY = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # the conftest clock's start
SUNDAY = MONDAY.date() - timedelta(days=1)


def capped(settings: Settings, **budget: int) -> Settings:
    return dataclasses.replace(settings, budget=BudgetSettings(**({"daily_tokens": CAP} | budget)))


@pytest.fixture
def fake_llm() -> FakeLLM:
    return FakeLLM(default=by_category({}))


@pytest.fixture
async def kit(settings: Settings, fake_llm: FakeLLM, clock: FakeClock) -> AsyncIterator[Kit]:
    async with Kit.open(
        settings=capped(settings),
        llm=fake_llm,
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as opened:
        yield opened


async def spend(
    kit: Kit, tokens: int, *, user: str = "owner", purpose: str = "curate:people"
) -> None:
    """Background spending already done today (as if earlier calls had used it)."""
    await kit.services.usage.record(
        model="claude-haiku-4-5", purpose=purpose, usage=Usage(tokens, 0), user_id=user
    )


def request(
    purpose: str = "daily_summary", *, max_tokens: int = 1000, user: str = "owner"
) -> LLMRequest:
    return LLMRequest(
        model="claude-haiku-4-5",
        system=(SystemBlock("s" * 400),),
        messages=(ChatMessage.text("user", "m" * 400),),
        max_tokens=max_tokens,
        purpose=purpose,
        user_id=user,
    )


def test_the_estimate_counts_all_that_is_sent_and_the_most_that_may_come_back() -> None:
    tools = (ToolSpec("t", "d" * 40, {"type": "object"}),)
    base = request(max_tokens=500)
    assert estimate_request(base) == 100 + 100 + 500
    assert estimate_request(dataclasses.replace(base, tools=tools)) > 700


async def test_a_background_call_that_does_not_fit_is_refused_before_it_is_made(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    await chat_on(kit, SUNDAY, "We planted the beans", "Good!")
    await spend(kit, CAP - 500)

    with pytest.raises(BudgetSpent) as refused:
        await kit.services.summarizer.summarize_day("owner", SUNDAY)

    assert fake_llm.requests_for("daily_summary") == []  # never sent: nothing billed
    message = str(refused.value)
    assert "budget.daily_tokens" in message and "waits for midnight" in message
    assert refused.value.user_id is None
    assert refused.value.resumes_at == datetime(2026, 3, 3, tzinfo=UTC)
    state = await kit.services.budget.state("owner")
    assert state.paused and state.spent == CAP - 500
    (pause,) = await kit.services.budget.recent_pauses()
    assert (pause.scope, pause.refused, pause.budget) == ("*", 1, CAP)


async def test_spending_stays_under_the_cap_even_with_the_last_call_of_the_day(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    """Calls are admitted on their worst case (request + max_tokens), so what is billed
    never passes the cap."""
    line = "a line of the day, long enough to make the day's transcript weigh something"
    for day in range(16):
        await chat_on(kit, SUNDAY - timedelta(days=day), *(f"{n} {line}" for n in range(300)))
    fake_llm.default = lambda r: bullets(3)

    with pytest.raises(BudgetSpent):
        await kit.services.summarizer.summarize_pending("owner", MONDAY.date())

    waiting = await kit.services.summarizer.pending("owner", MONDAY.date())
    assert 0 < len(waiting) < 16  # days written before the budget stopped the round stay
    state = await kit.services.budget.state("owner")
    assert CAP * 0.8 < state.spent <= CAP and state.paused


async def test_chat_is_never_paused_and_counts_in_tokens_today(
    kit: Kit, clock: FakeClock, fake_llm: FakeLLM
) -> None:
    await spend(kit, CAP)
    client = LocalClient(kit, clock.now())
    before = (await client.status()).tokens_today

    result = await kit.send("Are you still there?")

    assert not result.failed and result.reply == "ok"
    status = await client.status()
    assert status.tokens_today > before
    assert status.background is not None and status.background.spent == CAP  # chat not in it


async def test_the_budget_day_is_the_owners_local_day(
    settings: Settings, clock: FakeClock, fake_llm: FakeLLM
) -> None:
    """In Auckland (UTC+13 in March) the budget turns over at 11:00 UTC, not at 00:00 UTC."""
    auckland = dataclasses.replace(
        capped(settings), schedule=ScheduleSettings(timezone="Pacific/Auckland")
    )
    clock.set(datetime(2026, 3, 2, 10, 0, tzinfo=UTC))  # 23:00 in Auckland
    async with Kit.open(
        settings=auckland, llm=fake_llm, embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        await spend(kit, CAP)
        budget = kit.services.budget
        with pytest.raises(BudgetSpent) as refused:
            async with budget.admit(request()):
                pass
        assert refused.value.resumes_at == datetime(2026, 3, 2, 11, 0, tzinfo=UTC)
        clock.set(datetime(2026, 3, 2, 11, 1, tzinfo=UTC))  # 00:01 the next day there
        async with budget.admit(request()):
            pass
        assert not (await budget.state("owner")).paused


async def test_calls_in_flight_are_reserved_so_two_cannot_overshoot_together(kit: Kit) -> None:
    budget = kit.services.budget
    big = request(max_tokens=60_000)
    inside = asyncio.Event()
    release = asyncio.Event()

    async def first() -> None:
        async with budget.admit(big):
            inside.set()
            await release.wait()

    task = asyncio.create_task(first())
    await inside.wait()
    with pytest.raises(BudgetSpent):
        async with budget.admit(big):
            pass
    release.set()
    await task


async def test_a_call_larger_than_the_whole_budget_fails_instead_of_pausing_everything(
    kit: Kit,
) -> None:
    """It could never run: counted as a failure of its work (so it is held), not a pause."""
    with pytest.raises(TooLargeForBudget, match=r"raise budget\.daily_tokens"):
        async with kit.services.budget.admit(request(max_tokens=CAP + 1)):
            pass
    assert not (await kit.services.budget.state("owner")).paused


async def test_curation_leaves_a_quarter_of_the_budget_to_summaries_and_rem(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    await spend(kit, int(CAP * CURATION_SHARE) - 2_000)
    await say(kit, "I moved to Porto last spring", at=clock.now() - timedelta(hours=2))

    assert await kit.services.curator.sweep_idle(clock.now()) == 0
    assert fake_llm.requests_for("curate:") == []
    state = await kit.services.curator.progress.pending()
    assert len(state) == 1  # still waiting, no failed attempt counted
    retrying = await kit.services.db.scalar(
        "SELECT COUNT(*) FROM curation_state WHERE attempts > 0"
    )
    assert retrying == 0

    await chat_on(kit, SUNDAY, "We planted the beans", "Good!")
    fake_llm.default = lambda r: bullets(2) if r.purpose == "daily_summary" else "ok"
    assert await kit.services.summarizer.summarize_pending("owner", MONDAY.date()) == [SUNDAY]


async def test_curation_paused_by_the_budget_goes_on_after_midnight(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    await spend(kit, CAP)
    await say(kit, "I moved to Porto last spring", at=clock.now() - timedelta(hours=2))
    assert await kit.services.curator.sweep_idle(clock.now()) == 0

    clock.set(datetime(2026, 3, 3, 0, 5, tzinfo=UTC))
    assert await kit.services.curator.sweep_idle(clock.now()) == 7
    assert await kit.services.curator.progress.pending() == []


async def test_a_user_over_their_own_cap_waits_while_the_others_go_on(
    settings: Settings, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    per_user = capped(settings, daily_tokens=500_000, user_daily_tokens=CAP)
    async with Kit.open(
        settings=per_user, llm=fake_llm, embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        await spend(kit, CAP, user="ana")
        earlier = clock.now() - timedelta(hours=2)
        await say(kit, "I play the cello", at=earlier, user="ana")
        await say(kit, "I play the piano", at=earlier)

        await kit.services.curator.sweep_idle(clock.now())

        assert {r.user_id for r in fake_llm.requests_for("curate:")} == {"owner"}
        assert [p.user_id for p in await kit.services.curator.progress.pending()] == ["ana"]
        ana = await kit.services.budget.state("ana")
        owner = await kit.services.budget.state("owner")
        assert ana.paused and ana.user_spent == CAP and not owner.paused
        line = budget_line(ana, "ana", UTC)
        assert f"ana: {CAP:,} of {CAP:,}" in line and "waits for midnight" in line


async def test_a_window_fold_refused_by_the_budget_waits_quietly_and_folds_after_midnight(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    conv = await kit.services.messages.conversation("owner", "local", "default")
    await add_notes(kit, conv, 0, 52, clock)
    await spend(kit, CAP)
    kit.services.background.notify(conv.id)
    await kit.settle()  # no error: the budget logged the pause once
    assert fake_llm.requests_for("window_summary") == []

    clock.set(datetime(2026, 3, 3, 0, 1, tzinfo=UTC))
    fake_llm.default = lambda r: "- the first notes"
    await kit.settle()  # kept from before: no new turn needed
    stored = await kit.services.messages.get_conversation(conv.id)
    assert stored.window_summary == "- the first notes"


async def test_rem_keeps_the_days_condensed_before_the_budget_ran_out(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    for back in (2, 1):
        await kit.services.days.put_detailed("owner", SUNDAY - timedelta(days=back), bullets(4), 4)
    expensive = LLMReply((TextBlock(bullets(2)),), "end_turn", Usage(CAP - 1_000, 10))
    fake_llm.queue(expensive)  # the first condense spends nearly all of today's budget

    report = await kit.services.rem.run("owner")

    assert report.condensed_days == (SUNDAY - timedelta(days=2),)
    condense = report.steps[0]
    assert condense.status == "done" and "paused until midnight" in condense.detail
    assert (await kit.day(SUNDAY - timedelta(days=2))).condensed  # type: ignore[union-attr]
    assert await kit.services.attempts.held() == []  # waiting is not failing
