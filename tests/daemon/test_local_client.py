"""LocalClient: the in-process KitClient on a real Kit (FakeLLM, hashing embedder)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from kit.api import Kit
from kit.client import LocalClient
from kit.clock import FakeClock
from kit.curator.ops import Deactivate, Insert
from kit.curator.reports import REM_STEPS, RemProgress
from kit.errors import InputError, KitError
from kit.llm.fake import FakeLLM


@pytest.fixture
def client(kit: Kit, clock: FakeClock) -> LocalClient:
    return LocalClient(kit, clock.now() - timedelta(seconds=90))


async def test_send_streams_and_stores_in_the_terminal_conversation(
    client: LocalClient, kit: Kit, fake_llm: FakeLLM
) -> None:
    fake_llm.queue("Hello Ana, nice to meet you properly.")
    chunks: list[str] = []

    async def sink(text: str) -> None:
        chunks.append(text)

    result = await client.send("hi, I'm Ana", on_text=sink)
    assert "".join(chunks) == result.reply == "Hello Ana, nice to meet you properly."
    assert len(chunks) > 1
    conv = await kit.services.messages.get_conversation(result.conversation_id)
    assert (conv.channel, conv.external_id) == ("terminal", "terminal")


async def test_facts_filter_by_text_and_deactivate_keeps_history(
    client: LocalClient, kit: Kit
) -> None:
    ana = await kit.remember("Ana's birthday is on 3 May", category="people", subject="Ana")
    await kit.remember("Prefers tea over coffee", category="preferences")
    assert [f.id for f in await client.facts(text="BIRTHDAY")] == [ana.id]
    assert len(await client.facts()) == 2

    gone = await client.deactivate_fact(ana.id, "wrong date")
    assert not gone.fact.active and gone.operation == "retire"
    assert [f.id for f in await client.facts(include_inactive=True, text="birthday")] == [ana.id]
    history = await client.fact_history(ana.id)
    assert [h.operation for h in history][-1] == "deactivate"
    assert history[-1].reason == "wrong date" and history[-1].actor == "owner"
    assert history[-1].pass_id == gone.pass_id


async def test_deactivate_needs_a_reason(client: LocalClient, kit: Kit) -> None:
    fact = await kit.remember("Likes jazz", category="preferences")
    with pytest.raises(InputError, match="why"):
        await client.deactivate_fact(fact.id, "  ")


async def test_status_counts_todays_tokens_and_uptime(
    client: LocalClient, fake_llm: FakeLLM
) -> None:
    await client.send("hello")
    status = await client.status()
    assert status.mode == "standalone" and status.user_id == "owner"
    assert status.tokens_today > 0
    assert status.uptime_seconds == 90.0
    assert status.embedding_model is not None


async def test_undo_pass_puts_facts_back_and_refuses_a_second_undo(
    client: LocalClient, kit: Kit
) -> None:
    kept = await kit.remember(
        "Ana plays the cello", category="people", subject="Ana", confidence=0.8
    )
    await kit.remember("Ben runs marathons", category="people", subject="Ben")
    outcome = await kit.services.curator.apply_ops(
        "owner",
        "people",
        [Insert("Ana plays the violin", 0.8, subject="Ana"), Deactivate(kept.id, "outdated")],
        kind="curate",
        source_message_ids=[],
    )
    assert outcome.pass_id is not None
    assert [f.content for f in await client.facts()] == [
        "Ben runs marathons",
        "Ana plays the violin",
    ]

    undone = await client.undo_pass(outcome.pass_id)
    assert undone.restored_fact_ids == (kept.id,)
    assert undone.deactivated_fact_ids == outcome.inserted_fact_ids
    assert [f.content for f in await client.facts()] == [
        "Ana plays the cello",
        "Ben runs marathons",
    ]
    with pytest.raises(KitError):
        await client.undo_pass(outcome.pass_id)


async def test_rem_reports_progress_and_is_the_last_report(
    client: LocalClient, fake_llm: FakeLLM
) -> None:
    steps: list[str] = []

    async def progress(event: RemProgress) -> None:
        steps.append(f"{event.step} {event.status}")

    assert await client.last_rem() is None
    report = await client.rem(on_progress=progress)
    assert steps[0] == "condense running" and len(steps) == 2 * len(REM_STEPS)
    assert await client.last_rem() == report
    assert (await client.status()).last_rem_at == report.finished_at
