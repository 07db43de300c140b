"""A turn renders a retrieved item's line only when the context shows it (issue 33, round 13):
the same system prompt and the same choices as the plan `Kit.context` explains, whose cut
items keep their lines."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.context.plan import Sandwich
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.llm.tokens import estimate_tokens
from tests.conftest import with_memory

QUESTION = "What did the owner plant in the garden beds?"


@pytest.fixture
async def tight(settings: Settings, fake_llm: FakeLLM, clock: FakeClock) -> AsyncIterator[Kit]:
    """A Kit whose budget cuts retrieved items and whose day cap cuts day summaries."""
    small = with_memory(settings, context_budget_tokens=700, context_day_hits=1)
    async with Kit.open(
        settings=small, llm=fake_llm, embedder=HashingEmbedder(), clock=clock, background=False
    ) as opened:
        s = opened.services
        for n in range(12):
            await opened.remember(
                f"The owner planted tomatoes in garden bed {n} with care", category="preferences"
            )
        start = clock.now().date() - timedelta(days=30)
        for n in range(5):
            day = start + timedelta(days=n)
            text = f"- Planted beans in the garden beds, row {n}\n- Watered the beds"
            await s.days.put_detailed("owner", day, text, 3)
        for n in range(15):
            await opened.send(f"In the garden I planted peas in bed {n} this spring")
        await opened.settle()
        yield opened


async def _plan(kit: Kit, explain: bool) -> Sandwich:
    s = kit.services
    conversation = await s.messages.conversation("owner", "repl", "owner")
    return await s.context.build(
        "owner", QUESTION, now=kit.services.clock.now(), conversation=conversation,
        explain=explain,
    )  # fmt: skip


def _cut(plan: Sandwich, section: str) -> list[tuple[str, int | None, str]]:
    found = plan.section(section)
    assert found is not None
    return [(d.kind, d.id, d.reason) for d in found.dropped]


async def test_a_turn_lists_what_was_cut_without_rendering_its_lines(tight: Kit) -> None:
    shown = await _plan(tight, explain=True)
    turn = await _plan(tight, explain=False)
    assert turn.system == shown.system
    assert [h.id for h in turn.relevant] == [h.id for h in shown.relevant]
    assert turn.trimmed == shown.trimmed > 0
    reasons = set()
    for section in ("facts", "activity"):
        assert _cut(turn, section) == _cut(shown, section)
        explained = shown.section(section)
        listed = turn.section(section)
        assert explained is not None and listed is not None
        assert listed.items == explained.items
        assert all(d.text and d.tokens for d in explained.dropped)
        assert all(d.text == "" and d.tokens == 0 for d in listed.dropped)
        reasons |= {d.reason for d in listed.dropped}
    assert reasons == {
        "cut to fit memory.context_budget_tokens",
        "over memory.context_day_hits",
    }


async def test_the_best_retrieved_items_that_fit_are_kept_and_the_rest_cut(tight: Kit) -> None:
    """The least relevant go first until the rest fit: the kept items are the best ones, and
    the best one cut would not have fitted beside them."""
    plan = await _plan(tight, explain=True)
    budget = tight.settings.memory.context_budget_tokens
    kept = [i for name in ("facts", "activity") for i in plan.section(name).items]  # type: ignore[union-attr]
    cut = [
        d
        for name in ("facts", "activity")
        for d in plan.section(name).dropped  # type: ignore[union-attr]
        if d.reason == "cut to fit memory.context_budget_tokens"
    ]
    assert kept and cut
    assert min(i.score or 0.0 for i in kept) >= max(d.score or 0.0 for d in cut)
    base = 120 + sum(s.tokens for s in plan.sections if s.name in ("index", "core", "recent"))
    used = base + sum(i.tokens + 1 for i in kept)
    first_cut = max(cut, key=lambda d: d.score or 0.0)
    assert used + first_cut.tokens + 1 > budget
    assert first_cut.tokens == estimate_tokens(first_cut.text)


async def test_a_turn_sends_the_context_kit_context_shows(tight: Kit, fake_llm: FakeLLM) -> None:
    plan = await tight.context(QUESTION, conversation="default")
    await tight.send(QUESTION)
    assert fake_llm.requests_for("chat")[-1].system == plan.system
