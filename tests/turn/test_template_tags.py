"""A chat template's tool tags never reach the owner (issue 29, run 6: after `remember`, the
real 1.5B answered 9 turns of 10 with `<tool_response> Stored as fact #2 (preferences).
</tool_response>`, and Kit sent and stored exactly that). The real openai SDK against the local
fake in llama-cpp-python's dialect: the adapter takes the tags out, plain and streamed; the turn
says plainly when what is left is nothing but the tool's result."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from kit.api import Kit
from kit.llm.base import ChatMessage, LLMRequest, SystemBlock, TextSink, ToolSpec
from kit.llm.openai import OpenAILLM
from kit.llm.template_tags import StreamCleaner, strip_tags
from kit.turn_reply import EMPTY_REPLY, UNMADE_STORE, kits_own
from tests.servers.openai_api import FakeOpenAIServer

SCHEMA = {"type": "object", "properties": {"fact": {"type": "string"}}, "required": ["fact"]}
TOOLS = (ToolSpec("remember", "store", SCHEMA),)
ECHO = "<tool_response>\nStored as fact #2 (preferences).\n</tool_response>"


def _collected() -> tuple[list[str], TextSink]:
    """A streamed channel's sink, and the pieces it was given."""
    shown: list[str] = []

    async def sink(piece: str) -> None:
        shown.append(piece)

    return shown, sink


@pytest.fixture
async def server() -> AsyncIterator[FakeOpenAIServer]:
    async with FakeOpenAIServer(dialect="llama-cpp-python") as running:
        yield running


async def _complete(server: FakeOpenAIServer, stream: bool) -> tuple[str, list[str]]:
    llm = OpenAILLM(api_key="test-key", base_url=server.url, max_retries=0)
    shown, sink = _collected()

    request = LLMRequest(
        model="qwen-test",
        system=(SystemBlock("be brief"),),
        messages=(ChatMessage.text("user", "I prefer tea to coffee."),),
        max_tokens=100,
        tools=TOOLS,
    )
    try:
        reply = await llm.complete(request, sink if stream else None)
    finally:
        await llm.aclose()
    return reply.text, shown


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
@pytest.mark.parametrize(
    ("said", "text"),
    [
        (ECHO, ""),  # the run's reply: an echo of the tool's result, nothing else
        (" <tool_response> Stored as fact #2 (preferences). </tool_response> ", ""),
        (f"Noted: tea it is.\n{ECHO}", "Noted: tea it is."),
        (f"{ECHO}\nNoted: tea it is.", "Noted: tea it is."),
        ("<tool_response>\nStored as fact #2", ""),  # stopped inside the block
        ("Noted: tea it is.<|im_end|>", "Noted: tea it is."),
        ("<|im_start|>assistant\nNoted: tea it is.", "Noted: tea it is."),
        ("Noted.</tool_call>", "Noted."),
    ],
)
async def test_template_tags_are_taken_out_of_a_reply_at_the_edge(
    server: FakeOpenAIServer, said: str, text: str, stream: bool
) -> None:
    server.queue_text(said)
    reply, shown = await _complete(server, stream)
    assert reply == text
    if stream:
        assert "".join(shown).strip() == text
        assert not any("<" in piece for piece in shown)


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
async def test_a_reply_without_tags_is_untouched(server: FakeOpenAIServer, stream: bool) -> None:
    said = "Use a < b and b > c: <b>bold</b> is HTML, 2 < 3."
    server.queue_text(said)
    reply, shown = await _complete(server, stream)
    assert reply == said
    if stream:
        assert "".join(shown) == said


def test_a_tag_split_across_stream_pieces_is_held_until_known() -> None:
    cleaner = StreamCleaner()
    pieces = ["Noted", " <tool", "_resp", "onse>Stored as", " fact #2</tool_", "response> ok<|im"]
    pieces.append("_end|>")
    shown = [cleaner.take(p) for p in pieces] + [cleaner.end()]
    assert "".join(shown) == "Noted  ok"
    assert shown[1] == " "  # "<tool" might be a tag: held, never shown half
    assert strip_tags("".join(pieces)) == "Noted  ok"


@pytest.mark.stores
@pytest.mark.parametrize(
    "echo",
    [
        "<tool_response>\n{result}\n</tool_response>",  # run 6's
        "{result}",  # the same echo without its tags
    ],
)
async def test_a_reply_that_only_echoes_the_tool_says_so_plainly(
    local: tuple[Kit, FakeOpenAIServer], echo: str
) -> None:
    """The owner reads what happened (the model gave no answer; the tool stored fact #1), not
    the template's markup; the transcript keeps the same plain words."""
    kit, server = local
    server.queue_tool_call("remember", {"fact": "The owner prefers tea to coffee."})
    # the model's second answer says the tool's result again (as the 1.5B did), tags and all
    server.responder = lambda body: echo.format(
        result=next(m["content"] for m in body["messages"] if m["role"] == "tool")
    )
    result = await kit.send("Thanks! I prefer tea to coffee, by the way.")
    (fact,) = await kit.facts()
    assert "<" not in result.reply
    assert result.reply == (
        "(The model gave no answer of its own, only what its tools said. "
        f"remember: Stored as fact #{fact.id} ({fact.category}).)"
    )
    stored = await kit.services.messages.get_many("owner", [result.reply_message_id or 0])
    assert [m.text for m in stored] == [result.reply]


@pytest.mark.stores
async def test_the_models_own_words_beside_an_echo_are_the_reply(
    local: tuple[Kit, FakeOpenAIServer],
) -> None:
    kit, server = local
    server.queue_tool_call("remember", {"fact": "The owner prefers tea to coffee."})
    server.queue_text(f"{ECHO}\nTea it is, then.")
    shown, sink = _collected()

    result = await kit.send("Thanks! I prefer tea to coffee, by the way.", on_text=sink)
    assert result.reply == "Tea it is, then."
    assert "".join(shown).strip() == "Tea it is, then."


@pytest.mark.stores
async def test_an_empty_reply_with_no_tool_keeps_the_old_fallback(
    local: tuple[Kit, FakeOpenAIServer],
) -> None:
    kit, server = local
    server.queue_text("")
    result = await kit.send("Hello?")
    assert result.reply == "Sorry, I came up empty on that one; could you rephrase?"


@pytest.mark.stores
async def test_kits_note_copied_by_the_model_is_no_claim_of_a_store(
    local: tuple[Kit, FakeOpenAIServer],
) -> None:
    """Run 7 (issue 29): after one real `remember`, the 1.5B answered each later turn with
    Kit's own note from its window, the number raised ("... remember: Stored as fact #2
    (preferences).)") in one call, no tool run: the owner read of 8 stores that never were."""
    kit, server = local
    server.queue_tool_call("remember", {"fact": "The owner's sister Ana lives in Porto."})
    server.queue_text("<tool_response> Stored as fact #1 (people). </tool_response>")
    first = await kit.send("My sister Ana lives in Porto.")
    assert "remember: Stored as fact #1" in first.reply  # a real store, said plainly
    copied = first.reply.replace("#1", "#2")
    server.queue_text(copied)
    second = await kit.send("I prefer tea to coffee.")
    assert "Stored as fact" not in second.reply
    assert len(await kit.facts()) == 1


async def _stored_then_copied(kit: Kit, server: FakeOpenAIServer, before: str) -> str:
    """One real store; then the model's next answer copies its note (`before` it)."""
    server.queue_tool_call("remember", {"fact": "The owner's sister Ana lives in Porto."})
    server.queue_text("<tool_response> Stored as fact #1 (people). </tool_response>")
    first = await kit.send("My sister Ana lives in Porto.")
    server.queue_text(before + first.reply.replace("#1", "#2"))
    return first.reply


@pytest.mark.stores
async def test_kits_note_copied_by_the_model_is_never_streamed(
    local: tuple[Kit, FakeOpenAIServer],
) -> None:
    """On a streamed channel (`kit chat` prints each piece; a terminal cannot take it back) the
    copied note's false store is not shown before the fallback follows it: the owner sees
    what Kit stored."""
    kit, server = local
    await _stored_then_copied(kit, server, "")
    shown, sink = _collected()

    second = await kit.send("I prefer tea to coffee.", on_text=sink)
    assert second.reply == UNMADE_STORE  # the copy claims a store no tool made
    assert "".join(shown) == second.reply


@pytest.mark.stores
async def test_the_models_words_before_a_copied_note_stream_and_the_note_does_not(
    local: tuple[Kit, FakeOpenAIServer],
) -> None:
    kit, server = local
    await _stored_then_copied(kit, server, "Sure thing. ")
    shown, sink = _collected()

    second = await kit.send("I prefer tea to coffee.", on_text=sink)
    assert "Stored as fact" not in "".join(shown)
    assert "".join(shown) == f"Sure thing. \n\n{UNMADE_STORE}"
    assert second.reply == UNMADE_STORE


@pytest.mark.stores
async def test_a_store_the_model_claims_but_no_tool_made_is_not_shown(
    local: tuple[Kit, FakeOpenAIServer],
) -> None:
    """Issue 29's real run with Kit's note kept out of the window: the 1.5B answered 8 turns
    with "I stored the fact ... as fact #3 in my memory." and called no tool. The owner is told
    that nothing was stored, not the false store; a real store's own number still stands."""
    kit, server = local
    server.queue_tool_call("remember", {"fact": "The owner's sister Ana lives in Porto."})
    server.queue_text("I stored that as fact #1 in my memory.")
    first = await kit.send("My sister Ana lives in Porto.")
    assert first.reply == "I stored that as fact #1 in my memory."
    server.queue_text('I stored the fact "The owner has a dog called Biscuit." as fact #2.')
    second = await kit.send("If I ever get a dog, I'd call it Biscuit.")
    assert second.reply == UNMADE_STORE
    assert [f.content for f in await kit.facts()] == ["The owner's sister Ana lives in Porto."]


@pytest.mark.stores
async def test_kits_own_replies_stay_out_of_the_models_window(
    local: tuple[Kit, FakeOpenAIServer],
) -> None:
    """A reply Kit wrote because the model gave none (its note, the fallback) is not sent back
    as the model's words, nor the message it answered: the 1.5B copied them into every later
    turn (runs 7 and 8). What the tool stored is in the memory the model is shown."""
    kit, server = local
    note = await _stored_then_copied(kit, server, "")
    assert note.startswith("(The model gave no answer of its own")
    second = await kit.send("I prefer tea to coffee.")
    assert second.reply == UNMADE_STORE
    server.queue_text("Noted, tea it is.")
    await kit.send("And I take it with milk.")
    sent = server.completions()[-1]["messages"]
    said = [m.get("content") for m in sent if m["role"] in ("user", "assistant")]
    assert not any(
        isinstance(text, str) and ("nothing was stored" in text or "no answer of its own" in text)
        for text in said
    )
    assert not any(isinstance(text, str) and "I prefer tea" in text for text in said)
    assert any(isinstance(text, str) and "And I take it with milk." in text for text in said)


@pytest.mark.parametrize(
    ("text", "own"),
    [
        (EMPTY_REPLY, True),
        (UNMADE_STORE, True),
        ("(The model gave no answer of its own, only what its tools said. remember: ...)", True),
        ("Sorry to hear that; I stored it as fact #3.", False),
        ("Noted, tea it is.", False),
    ],
)
def test_kits_own_replies_are_known_by_their_words(text: str, own: bool) -> None:
    assert kits_own(text) is own
