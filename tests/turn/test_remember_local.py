"""`remember` refused by the grounding guard, on a local server (the real openai SDK against
the fake in llama-cpp-python's dialect): the model is handed a plain note to carry on from,
not an "Error: ...", which issue 29's 1.5B answered with "I'm sorry, but I can't assist with
that." in 9 turns of 10."""

from __future__ import annotations

import pytest

from kit.api import Kit
from tests.servers.openai_api import FakeOpenAIServer

pytestmark = pytest.mark.stores


async def test_a_refused_remember_is_a_note_to_answer_the_owner_from(
    local: tuple[Kit, FakeOpenAIServer],
) -> None:
    kit, server = local
    server.queue_tool_call("remember", {"fact": "I'd call my dog Biscuit."})
    server.queue_text("Biscuit is a lovely name for a dog!")
    reply = await kit.send("If I ever get a dog, I'd call it Biscuit.")
    assert reply.reply == "Biscuit is a lovely name for a dog!"
    assert await kit.facts() == []
    (result,) = [m for m in server.completions()[-1]["messages"] if m["role"] == "tool"]
    assert result["content"].startswith("Not saved to memory (")  # no "Error: " before it
    assert "Nothing went wrong. Answer the owner's message normally" in result["content"]


async def test_a_remember_the_message_supports_is_stored_as_before(
    local: tuple[Kit, FakeOpenAIServer],
) -> None:
    kit, server = local
    server.queue_tool_call("remember", {"fact": "The owner's sister Ana lives in Porto."})
    server.queue_text("Noted.")
    await kit.send("Remember: my sister Ana lives in Porto.")
    (fact,) = await kit.facts()
    (result,) = [m for m in server.completions()[-1]["messages"] if m["role"] == "tool"]
    assert result["content"] == f"Stored as fact #{fact.id} ({fact.category})."


async def test_the_thanks_and_by_the_way_said_to_kit_are_not_remembered(
    local: tuple[Kit, FakeOpenAIServer],
) -> None:
    """A real 1.5B model's `remember` (round 8): the owner's words with their chat around."""
    kit, server = local
    said = "Thanks! The owner prefers tea to coffee, by the way."
    server.queue_tool_call("remember", {"fact": said})
    server.queue_text("Noted.")
    await kit.send("Thanks! I prefer tea to coffee, by the way.")
    assert [f.content for f in await kit.facts()] == ["The owner prefers tea to coffee."]


async def test_a_hypothetical_with_its_condition_is_not_remembered(
    local: tuple[Kit, FakeOpenAIServer],
) -> None:
    kit, server = local
    server.queue_tool_call(
        "remember", {"fact": "If the owner ever gets a dog, the owner would call it Biscuit."}
    )
    server.queue_text("Biscuit is a lovely name.")
    await kit.send("If I ever get a dog, I'd call it Biscuit.")
    assert await kit.facts() == []
