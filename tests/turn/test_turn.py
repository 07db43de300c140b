"""One turn end to end: Kit's composition root with the real anthropic SDK against a local
Messages API server, a hashing embedder, and a real SQLite file."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.memory.fact_rows import MAX_CONTENT_CHARS
from kit.memory.fact_writer import Provenance
from kit.memory.messages import NewMessage
from kit.tools import CUT_HINT, MAX_RESULT_CHARS
from kit.untrusted.neutralise import recalled_block
from tests.servers.anthropic_api import FakeAnthropicServer

pytestmark = pytest.mark.stores


@pytest.fixture
async def server() -> AsyncIterator[FakeAnthropicServer]:
    async with FakeAnthropicServer() as running:
        yield running


@pytest.fixture
async def real_kit(
    settings: Settings,
    server: FakeAnthropicServer,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[Kit]:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-secret-key-123")
    llm = dataclasses.replace(settings.llm, base_url=server.url, max_retries=1, max_tool_rounds=2)
    configured = dataclasses.replace(settings, llm=llm)
    async with Kit.open(
        settings=configured, embedder=HashingEmbedder(), clock=clock, background=False
    ) as opened:
        yield opened


def _system_text(request_json: dict[str, object]) -> str:
    return "\n".join(block["text"] for block in request_json["system"])  # type: ignore[index, union-attr]


async def test_reply_comes_back_and_both_messages_are_stored(
    real_kit: Kit, server: FakeAnthropicServer
) -> None:
    server.queue_text("Hello, Ana!", input_tokens=120, output_tokens=4)
    result = await real_kit.send("Hi Kit")
    assert result.reply == "Hello, Ana!" and not result.failed
    window = await real_kit.services.messages.window(result.conversation_id)
    assert [(m.role, m.text) for m in window] == [("user", "Hi Kit"), ("assistant", "Hello, Ana!")]
    row = await real_kit.services.db.fetchone(
        "SELECT model, purpose, input_tokens, output_tokens FROM llm_usage"
    )
    assert tuple(row) == ("claude-sonnet-4-6", "chat", 120, 4)  # type: ignore[arg-type]


async def test_model_sees_core_and_relevant_facts_in_its_context(
    real_kit: Kit, server: FakeAnthropicServer
) -> None:
    await real_kit.remember("My name is Ana and I live in Lisbon", category="person")
    await real_kit.remember(
        "Bruno is Ana's brother; he plays the cello", category="people", subject="Bruno"
    )
    await real_kit.remember("Prefers tea over coffee", category="preferences")
    await real_kit.settle()
    await real_kit.send("What instrument does Bruno play?")
    system = _system_text(server.requests[-1].json)
    assert "My name is Ana and I live in Lisbon" in system  # core fact, always there
    assert "he plays the cello" in system  # retrieved as relevant
    assert "recalled data" in system and "<memory>" in system


async def test_remember_tool_stores_a_fact_with_provenance(
    real_kit: Kit, server: FakeAnthropicServer
) -> None:
    server.queue_tool_use(
        "remember",
        {"fact": "The owner's dentist is Dr. Silva", "category": "people", "subject": "Dr. Silva"},
    )
    server.queue_text("I'll remember that.")
    result = await real_kit.send("Remember that my dentist is Dr. Silva")
    assert result.tools_used == ("remember",)
    facts = await real_kit.facts(category="people")
    assert [f.content for f in facts] == ["The owner's dentist is Dr. Silva"]
    history = await real_kit.fact_history(facts[0].id)
    assert history[0].actor == "remember"
    assert history[0].source_message_ids == (result.user_message_id,)
    # The tool result went back to the model as a tool_result block.
    second = server.requests[-1].json["messages"]
    assert second[-1]["content"][0]["type"] == "tool_result"
    assert "Stored as fact" in second[-1]["content"][0]["content"]


async def test_remember_of_the_text_of_an_active_fact_returns_that_fact(
    real_kit: Kit, server: FakeAnthropicServer
) -> None:
    """Said twice (spacing and letter case aside), it is one fact, not two (issue 20); the
    model is told which fact already holds it. The socket's and MCP's `remember` agree."""
    server.queue_tool_use("remember", {"fact": "Ana's dentist is Dr. Silva"})
    server.queue_text("Noted.")
    await real_kit.send("Remember that Ana's dentist is Dr. Silva")
    server.queue_tool_use("remember", {"fact": "ana's dentist is  Dr. Silva "})
    server.queue_text("I already knew.")
    await real_kit.send("Remember: Ana's dentist is Dr. Silva")
    facts = await real_kit.facts()
    assert [f.content for f in facts] == ["Ana's dentist is Dr. Silva"]
    told = server.requests[-1].json["messages"][-1]["content"][0]["content"]
    assert f"Already remembered as fact #{facts[0].id}" in told

    from kit.client import LocalClient

    client = LocalClient(real_kit, real_kit.services.clock.now())
    again = await client.remember("Ana's dentist is Dr. Silva")
    assert again.id == facts[0].id and len(await real_kit.facts()) == 1
    await real_kit.services.facts.deactivate(
        again.user_id, again.id, Provenance(actor="owner", reason="moved dentists")
    )
    renewed = await client.remember("Ana's dentist is Dr. Silva")  # not active: a new fact
    assert renewed.id != again.id and renewed.active


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        # issue 29's 1.5B run: the chat model remembered these from the owner's words
        ("If I ever get a dog I'd call it Biscuit.", "I'd call my dog Biscuit."),
        ("My sister Ana lives in Porto.", "Ana moved to Porto last year and teaches maths there."),
        ("My brother is vegan, so no meat at his party.", "The owner is vegan."),
    ],
)
async def test_remember_refuses_what_the_owner_did_not_say_and_says_why(
    real_kit: Kit, server: FakeAnthropicServer, said: str, fact: str
) -> None:
    """The chat's `remember` is held against the owner's message like a curator's INSERT: a
    hypothetical, an invented detail, another person's trait is not stored; the model is told
    why in a plain note to carry on from (not an error: a small model answered those with "I
    can't assist with that"), and the message stays for the night's curation."""
    server.queue_tool_use("remember", {"fact": fact})
    server.queue_text("Noted.")
    result = await real_kit.send(said)
    assert await real_kit.facts() == []
    tool_result = server.requests[-1].json["messages"][-1]["content"][0]
    assert not tool_result.get("is_error")
    note = tool_result["content"]
    assert (
        note.startswith("Not saved to memory (") and "Answer the owner's message normally" in note
    )
    (message,) = await real_kit.services.messages.get_many("owner", [result.user_message_id])
    assert message.text == said  # kept for the night's curation


@pytest.mark.parametrize(
    ("said", "fact", "subject"),
    [
        # the chat model's own label for the fact: no word the owner must have said
        ("Remember that I'm vegan.", "The owner is vegan.", "personal"),
        (
            "Please remember: I cycle to work every day.",
            "The owner cycles to work daily.",
            "Habits",
        ),
        # the owner's self-introduction, with `owner.name` unset: Sam is the owner
        (
            "Hi! I'm Sam, I teach math at a high school.",
            "Sam teaches math at a high school.",
            "Sam",
        ),
    ],
)
async def test_remember_stores_what_the_owner_said_under_a_label_or_their_own_name(
    real_kit: Kit, server: FakeAnthropicServer, said: str, fact: str, subject: str
) -> None:
    """Issue 29's two false negatives of the chat's guard: a free `subject` such as
    "personal" was held as words the owner had to say, and "I'm Sam" did not make a fact
    about Sam one about the owner."""
    assert real_kit.services.settings.owner.name == ""
    server.queue_tool_use("remember", {"fact": fact, "subject": subject})
    server.queue_text("Noted.")
    await real_kit.send(said)
    assert [(f.content, f.subject) for f in await real_kit.facts()] == [(fact, subject)]


async def test_remember_refuses_a_subject_naming_someone_the_owner_did_not(
    real_kit: Kit, server: FakeAnthropicServer
) -> None:
    """A label is free; a name is not: "Ana" is a claim the owner's words must hold up."""
    server.queue_tool_use("remember", {"fact": "She is vegan.", "subject": "Ana"})
    server.queue_text("Noted.")
    await real_kit.send("My sister is vegan.")
    assert await real_kit.facts() == []


async def test_remember_refuses_a_password_and_says_so(
    real_kit: Kit, server: FakeAnthropicServer
) -> None:
    server.queue_tool_use("remember", {"fact": "My password is hunter2"})
    server.queue_text("I won't store passwords.")
    await real_kit.send("remember that my password is hunter2")
    assert await real_kit.facts() == []
    tool_result = server.requests[-1].json["messages"][-1]["content"][0]
    assert tool_result["is_error"] is True and "password" in tool_result["content"]


async def test_remember_refuses_a_fact_longer_than_curation_allows(
    real_kit: Kit, server: FakeAnthropicServer
) -> None:
    # Past the fact's limit, within the answer's (kit/llm/bounds.py).
    server.queue_tool_use("remember", {"fact": "Ana likes " + "very " * 500 + "long walks."})
    server.queue_text("That is too long to keep as one fact.")
    await real_kit.send("remember this whole essay")
    assert await real_kit.facts() == []
    tool_result = server.requests[-1].json["messages"][-1]["content"][0]
    assert tool_result["is_error"] is True
    assert f"at most {MAX_CONTENT_CHARS} characters (this one has 2,521)" in tool_result["content"]


async def test_a_huge_tool_result_is_cut_with_a_marker_saying_how_to_get_the_rest(
    real_kit: Kit, server: FakeAnthropicServer, clock: FakeClock
) -> None:
    """A day of four 90,000-character messages: the model gets MAX_RESULT_CHARS of it."""
    from datetime import timedelta

    day = clock.now() - timedelta(days=1)
    await real_kit.import_messages(
        NewMessage("user", f"log {i} " + "x" * 90_000, day + timedelta(minutes=i)) for i in range(4)
    )
    server.queue_tool_use("get_day_history", {"date": "yesterday"})
    server.queue_text("It was a long day.")
    await real_kit.send("what happened yesterday?")
    content = server.requests[-1].json["messages"][-1]["content"][0]["content"]
    framed, marker = content.rsplit("\n", 1)
    assert framed.startswith("<memory>") and framed.endswith("\n</memory>")  # frame kept whole
    assert "No summary yet" in framed
    assert len(framed) - len(recalled_block("")) <= MAX_RESULT_CHARS
    cut = int(marker.split()[1].replace(",", ""))
    assert marker == f"[... {cut:,} more characters cut; {CUT_HINT}]"
    assert cut > 300_000


async def test_search_memory_tool_returns_archive_hits(
    real_kit: Kit, server: FakeAnthropicServer, clock: FakeClock
) -> None:
    from datetime import timedelta

    server.queue_text("ok")
    await real_kit.send("We booked the cabin in Sintra for the 14th")
    clock.advance(timedelta(days=30))
    await real_kit.settle()
    server.queue_tool_use("search_memory", {"query": "cabin Sintra"})
    server.queue_text("You booked it for the 14th.")
    result = await real_kit.send("When is the trip?", conversation="other")
    tool_result = server.requests[-1].json["messages"][-1]["content"][0]["content"]
    assert "cabin in Sintra" in tool_result
    assert result.reply == "You booked it for the 14th."


async def test_tool_loop_is_bounded(real_kit: Kit, server: FakeAnthropicServer) -> None:
    """A model that keeps calling tools gets max_tool_rounds rounds, then must answer."""
    server.responder = lambda body: (
        "final answer"
        if not body.get("tools")
        else {
            "kind": "message",
            "content": [
                {
                    "type": "tool_use",
                    "id": f"toolu_{len(body['messages'])}",
                    "name": "search_memory",
                    "input": {"query": "x"},
                }
            ],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    )
    result = await real_kit.send("loop please")
    chat_calls = [r for r in server.requests if r.path == "/v1/messages"]
    assert len(chat_calls) == 3  # two tool rounds, then one call without tools
    assert "tools" not in chat_calls[-1].json
    assert result.reply == "final answer"


async def test_api_failure_gives_honest_reply_and_keeps_the_message(
    real_kit: Kit, server: FakeAnthropicServer
) -> None:
    for _ in range(2):
        server.queue_error(529, retry_after=0.01)
    result = await real_kit.send("Are you there?")
    assert result.failed
    assert "overloaded" in result.reply and "saved" in result.reply
    assert "sk-test-secret-key-123" not in result.reply
    window = await real_kit.services.messages.window(result.conversation_id)
    assert [(m.role, m.text) for m in window] == [("user", "Are you there?")]


async def test_streaming_reply_reaches_the_sink(real_kit: Kit, server: FakeAnthropicServer) -> None:
    server.queue_text("Streaming works fine here.")
    pieces: list[str] = []

    async def sink(text: str) -> None:
        pieces.append(text)

    result = await real_kit.send("stream please", on_text=sink)
    assert "".join(pieces) == result.reply == "Streaming works fine here."


async def test_window_is_sent_as_alternating_turns(
    real_kit: Kit, server: FakeAnthropicServer
) -> None:
    server.queue_text("first reply")
    await real_kit.send("first")
    for _ in range(2):
        server.queue_error(500, retry_after=0.01)
    await real_kit.send("second, unanswered")
    server.queue_text("third reply")
    await real_kit.send("third")
    messages = server.requests[-1].json["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert json.dumps(messages[-1]).count("second, unanswered") == 1


async def test_a_turn_the_api_refuses_is_kept_but_not_sent_with_the_next_message(
    real_kit: Kit, server: FakeAnthropicServer
) -> None:
    """A 400 says the request itself is wrong: sent again with every later message, it would
    fail them all. (A 5xx above is an outage: that message is sent again, and answered.)"""
    server.queue_text("first reply")
    await real_kit.send("first")
    server.queue_error(400)
    refused = await real_kit.send("a message the API refuses")
    assert refused.failed and refused.refused and "not sent to the model again" in refused.reply
    server.queue_text("third reply")
    third = await real_kit.send("third")
    assert third.reply == "third reply"
    messages = server.requests[-1].json["messages"]
    assert "a message the API refuses" not in json.dumps(messages)
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    history = await real_kit.services.messages.window(third.conversation_id)
    assert [m.source for m in history if m.text == "a message the API refuses"] == ["chat"]
