"""A turn whose model misbehaves without failing, on both providers (the real SDKs against
local fakes): an answer that never stops is kept cut, saying so (a 30 MB answer was stored
whole); an answer that never finishes ends at the deadline with the owner's message kept; a
stream that ends without its end marker is never stored as the reply."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.bounds import BROKE_OFF_NOTE, cut_note, reply_chars
from tests.servers.providers import PROVIDERS, Endpoint

pytestmark = [pytest.mark.parametrize("provider", PROVIDERS)]

CHAT_TOKENS = 128  # the chat reply's max_tokens: an answer keeps reply_chars(128) characters


@pytest.fixture
async def endpoint(provider: str) -> AsyncIterator[Endpoint]:
    async with Endpoint.start(provider) as running:
        yield running


@pytest.fixture
def deadline() -> float:
    """Generous: a loaded machine must never turn a normal answer into a timeout. The
    trickle's test sets a short one (its server outlasts it)."""
    return 120.0


@pytest.fixture
async def real_kit(
    settings: Settings,
    endpoint: Endpoint,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    deadline: float,
) -> AsyncIterator[Kit]:
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)  # a server on this machine needs no key
    llm = endpoint.llm(timeout_seconds=60.0, deadline_seconds=deadline, max_tokens=CHAT_TOKENS)
    async with Kit.open(
        settings=dataclasses.replace(settings, llm=llm),
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as opened:
        yield opened


async def _window(kit: Kit, conversation_id: int) -> list[tuple[str, str]]:
    return [(m.role, m.text) for m in await kit.services.messages.window(conversation_id)]


@pytest.mark.parametrize("streaming", [False, True], ids=["plain", "streaming"])
async def test_an_answer_that_never_stops_is_kept_cut_and_says_so(
    real_kit: Kit, endpoint: Endpoint, streaming: bool
) -> None:
    endpoint.queue_flood(None if streaming else 100_000)
    seen: list[str] = []

    async def sink(text: str) -> None:
        seen.append(text)

    result = await real_kit.send("Tell me everything", on_text=sink if streaming else None)
    limit = reply_chars(CHAT_TOKENS)
    assert not result.failed
    assert result.reply == ("x" * limit + cut_note(limit)).strip()
    window = await _window(real_kit, result.conversation_id)
    assert window == [("user", "Tell me everything"), ("assistant", result.reply)]
    if streaming:
        assert "".join(seen).strip() == result.reply


@pytest.mark.parametrize("deadline", [1.0])
async def test_an_answer_that_never_finishes_ends_at_the_deadline(
    real_kit: Kit, endpoint: Endpoint
) -> None:
    endpoint.queue_trickle()
    result = await real_kit.send("Are you there?", on_text=_ignore)
    assert result.failed and "did not answer in time" in result.reply and "saved" in result.reply
    window = await _window(real_kit, result.conversation_id)
    assert window == [("user", "Are you there?")]  # no half reply


async def test_a_stream_without_its_end_marker_is_never_the_reply(
    real_kit: Kit, endpoint: Endpoint
) -> None:
    for _ in range(2):
        endpoint.queue_cut_stream("Your sister lives in", clean=True)
    result = await real_kit.send("Where does Ana live?", on_text=_ignore)
    assert result.failed and "broke off" in result.reply
    window = await _window(real_kit, result.conversation_id)
    assert window == [("user", "Where does Ana live?")]
    # Once is asked again, and the whole answer is what is kept.
    endpoint.queue_cut_stream("Your sister lives in", clean=True)
    endpoint.queue(endpoint.text("Your sister lives in Porto."))
    seen: list[str] = []

    async def sink(text: str) -> None:
        seen.append(text)

    again = await real_kit.send("And now?", on_text=sink)
    assert not again.failed and again.reply == "Your sister lives in Porto."
    assert "".join(seen) == "Your sister lives in" + BROKE_OFF_NOTE + again.reply
    assert (await _window(real_kit, again.conversation_id))[-1] == ("assistant", again.reply)


async def _ignore(text: str) -> None:
    pass
