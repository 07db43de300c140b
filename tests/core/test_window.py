"""Working memory 50/20: the window is summarised exactly when it passes 50, keeping 20."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.errors import LLMUnavailable
from kit.llm.base import LLMReply, LLMRequest, TextBlock, Usage
from kit.llm.fake import FakeLLM
from kit.memory.messages import Conversation

pytestmark = pytest.mark.stores

LINE = re.compile(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d\] (Owner|Kit): note (\d+)\b", re.M)


async def add_notes(kit: Kit, conv: Conversation, start: int, stop: int, clock: FakeClock) -> None:
    """Messages `note start` .. `note stop-1`, alternating owner and Kit, a minute apart."""
    for i in range(start, stop):
        clock.advance(timedelta(minutes=1))
        role = "user" if i % 2 else "assistant"
        await kit.services.messages.add(conv, role, f"note {i}: topic{i} detail")


async def settle(kit: Kit, conv: Conversation) -> None:
    kit.services.background.notify(conv.id)
    await kit.settle()


def summarised_notes(request: LLMRequest) -> list[int]:
    prompt = request.messages[0].content[0].text  # type: ignore[union-attr]
    return [int(n) for _, n in LINE.findall(prompt)]


@pytest.fixture
async def conv(kit: Kit) -> Conversation:
    assert kit.settings.memory.window_max == 50 and kit.settings.memory.window_keep == 20
    return await kit.services.messages.conversation("owner", "local", "default")


async def test_fifty_messages_need_no_summary(
    kit: Kit, conv: Conversation, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    await add_notes(kit, conv, 1, 51, clock)
    await settle(kit, conv)
    assert fake_llm.requests_for("window_summary") == []
    assert len(await kit.services.messages.window(conv.id)) == 50


async def test_fifty_first_message_folds_the_31_oldest_into_the_summary(
    kit: Kit, conv: Conversation, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    await add_notes(kit, conv, 1, 52, clock)
    fake_llm.queue("- the owner went through notes 1 to 31")
    await settle(kit, conv)

    (request,) = fake_llm.requests_for("window_summary")
    assert request.model == kit.settings.llm.small_model
    assert request.user_id == "owner"
    assert summarised_notes(request) == list(range(1, 32))

    window = await kit.services.messages.window(conv.id)
    assert [m.text.split(":")[0] for m in window] == [f"note {i}" for i in range(32, 52)]
    stored = await kit.services.messages.get_conversation(conv.id)
    assert stored.window_summary == "- the owner went through notes 1 to 31"
    assert stored.window_start_id == window[0].id

    assert await kit.services.messages.count("owner") == 51  # the archive keeps everything
    hits = await kit.search("topic3", kinds=("message",))
    assert hits[0].text == "note 3: topic3 detail"
    assert hits[0].cosine is not None  # embedded too, not only found by FTS

    await settle(kit, conv)  # back at 20: nothing more to do
    assert len(fake_llm.requests_for("window_summary")) == 1


async def test_next_summary_rolls_the_previous_one_forward(
    kit: Kit, conv: Conversation, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    await add_notes(kit, conv, 1, 52, clock)
    fake_llm.queue("- FIRST SUMMARY")
    await settle(kit, conv)
    await add_notes(kit, conv, 52, 83, clock)  # 20 + 31 = 51 again
    fake_llm.queue("- SECOND SUMMARY")
    await settle(kit, conv)

    _, second = fake_llm.requests_for("window_summary")
    assert summarised_notes(second) == list(range(32, 63))
    assert "<previous_summary>\n- FIRST SUMMARY\n</previous_summary>" in (
        second.messages[0].content[0].text  # type: ignore[union-attr]
    )
    stored = await kit.services.messages.get_conversation(conv.id)
    assert stored.window_summary == "- SECOND SUMMARY"
    window = await kit.services.messages.window(conv.id)
    assert window[0].text.startswith("note 63:") and len(window) == 20


async def test_failed_summary_leaves_the_window_and_is_retried(
    kit: Kit, conv: Conversation, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    await add_notes(kit, conv, 1, 52, clock)
    fake_llm.queue(LLMUnavailable("the model is overloaded; try again later"))
    with pytest.raises(LLMUnavailable):
        await settle(kit, conv)
    stored = await kit.services.messages.get_conversation(conv.id)
    assert stored.window_summary == "" and stored.window_start_id == 0
    assert len(await kit.services.messages.window(conv.id)) == 51

    fake_llm.queue("- recovered summary")
    await kit.settle()  # no new notify: the failed conversation was kept for the retry
    assert len(fake_llm.requests_for("window_summary")) == 2
    stored = await kit.services.messages.get_conversation(conv.id)
    assert stored.window_summary == "- recovered summary"
    assert len(await kit.services.messages.window(conv.id)) == 20


async def test_failed_summary_does_not_hold_up_embeddings(
    kit: Kit, conv: Conversation, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    """Messages still get embedded while the model is down (search must not wait for it)."""
    await add_notes(kit, conv, 1, 52, clock)
    fake_llm.queue(LLMUnavailable("down"))
    with pytest.raises(LLMUnavailable):
        await settle(kit, conv)
    assert await kit.services.vectors.pending_count() == 0


async def test_empty_summary_is_not_stored(
    kit: Kit, conv: Conversation, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    """An empty reply would erase 31 messages from the window's memory: keep them instead."""
    await add_notes(kit, conv, 1, 52, clock)
    fake_llm.queue("   \n")
    assert await kit.services.window.maybe_summarize(conv.id) is False
    assert len(await kit.services.messages.window(conv.id)) == 51


@pytest.mark.parametrize(
    "reply",
    [
        "I'm sorry, but I can't help with summarising this conversation.",
        LLMReply((TextBlock("- the owner went through notes 1 to"),), "max_tokens", Usage(1, 600)),
        "The owner and Kit went through many notes.",  # no bullets: not what was asked
    ],
    ids=["refusal", "cut-off", "no-bullets"],
)
async def test_an_unusable_summary_keeps_the_previous_one_and_the_window(
    kit: Kit, conv: Conversation, fake_llm: FakeLLM, clock: FakeClock, reply: str | LLMReply
) -> None:
    """Checked like a day summary: a refusal or a cut-off answer never replaces the summary."""
    await add_notes(kit, conv, 1, 52, clock)
    fake_llm.queue("- FIRST SUMMARY")
    await settle(kit, conv)
    await add_notes(kit, conv, 52, 83, clock)
    fake_llm.queue(reply)
    assert await kit.services.window.maybe_summarize(conv.id) is False
    stored = await kit.services.messages.get_conversation(conv.id)
    assert stored.window_summary == "- FIRST SUMMARY"
    assert len(await kit.services.messages.window(conv.id)) == 51  # retried on the next message


async def test_window_moves_only_from_the_start_it_was_computed_for(
    kit: Kit, conv: Conversation, clock: FakeClock
) -> None:
    """Two summarisers racing: the second one's stale advance is refused."""
    await add_notes(kit, conv, 1, 4, clock)
    messages = kit.services.messages
    first = (await messages.window(conv.id))[1].id
    assert await messages.advance_window(
        conv.id, expected_start_id=0, new_start_id=first, summary="a"
    )
    assert not await messages.advance_window(
        conv.id, expected_start_id=0, new_start_id=first + 1, summary="b"
    )
    stored = await messages.get_conversation(conv.id)
    assert (stored.window_start_id, stored.window_summary) == (first, "a")


async def test_windows_of_two_conversations_are_separate(
    kit: Kit, conv: Conversation, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    other = await kit.services.messages.conversation("owner", "telegram", "42")
    await add_notes(kit, conv, 1, 30, clock)
    await add_notes(kit, other, 100, 130, clock)
    kit.services.background.notify(other.id)
    await settle(kit, conv)
    assert fake_llm.requests_for("window_summary") == []  # 29 each, not 58 together
    assert [int(m.text.split()[1][:-1]) for m in await kit.services.messages.window(other.id)] == (
        list(range(100, 130))
    )


async def test_the_rolling_summary_is_told_whose_words_forwarded_text_is(
    kit: Kit, conv: Conversation, clock: FakeClock, fake_llm: FakeLLM
) -> None:
    await kit.services.messages.add(
        conv, "user", "note 0: I'm allergic to nuts", forwarded_from="Bob"
    )
    await add_notes(kit, conv, 1, 51, clock)
    await settle(kit, conv)
    (request,) = fake_llm.requests_for("window")
    prompt = request.messages[0].content[0].text  # type: ignore[union-attr]
    assert "] Owner (forwarded from Bob): note 0: I'm allergic to nuts" in prompt
