"""After a daemon is ready it warms up in the background (kit/daemon/warm.py): each role's model
client is made (kit/llm/deferred.py: the SDK's import waits until then or a first call) and the
caches a first turn would fill are filled. A failure there is logged and ends nothing: the
first turn does the work instead, and a broken client says what to do."""

from __future__ import annotations

import gc
import logging

import pytest

from kit.api import Kit
from kit.daemon.warm import warm
from kit.errors import LLMUnavailable
from kit.llm.base import LLMReply, LLMRequest, TextSink
from kit.llm.deferred import DeferredLLM
from kit.llm.fake import FakeLLM

pytestmark = pytest.mark.stores  # the model and the warm-up read both engines


class Client:
    """A made model client: the FakeLLM's answers, and whether it was closed."""

    def __init__(self) -> None:
        self.fake = FakeLLM(default="made")
        self.closed = False

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        return await self.fake.complete(request, on_text)

    async def aclose(self) -> None:
        self.closed = True


async def test_warm_makes_each_client_once_and_fills_the_first_turns_caches(
    kit: Kit, caplog: pytest.LogCaptureFixture
) -> None:
    made: list[Client] = []

    def make() -> Client:
        made.append(Client())
        return made[-1]

    client = DeferredLLM(make)
    kit.services.llm_clients = (client,)
    await kit.remember("The boat is called Matilda", category="entities")
    owner, now = kit.services.settings.owner.user_id, kit.services.clock.now()
    caplog.set_level(logging.INFO, logger="kit.daemon.warm")

    await warm(kit.services)

    assert client.ready and len(made) == 1
    _, cached = await kit.services.context._stable_part(owner, now)
    assert cached  # the first turn's sandwich finds its stable part built
    assert any("warmed up" in r.getMessage() for r in caplog.records)
    reply = await client.complete(LLMRequest(model="m", system=(), messages=(), max_tokens=10))
    assert reply.text == "made" and len(made) == 1  # the made client, not a second
    await client.aclose()
    assert made[0].closed


async def test_warm_freezes_what_the_start_and_the_warm_up_made(kit: Kit) -> None:
    """What a daemon made before its first turn lives as long as it: out of the collector's
    later passes, which a turn would wait for (kit/heap.py, issue 33 round 9)."""
    await kit.remember("The boat is called Matilda", category="entities")
    owner, now = kit.services.settings.owner.user_id, kit.services.clock.now()
    gc.unfreeze()
    await warm(kit.services)
    assert gc.get_freeze_count() > 0
    stable, cached = await kit.services.context._stable_part(owner, now)
    assert cached
    assert gc.is_tracked(stable)
    assert not any(o is stable for o in gc.get_objects())  # frozen: no generation holds it


async def test_a_client_that_cannot_be_made_is_logged_by_warm_and_named_on_use(
    kit: Kit, caplog: pytest.LogCaptureFixture
) -> None:
    def make() -> Client:
        raise ImportError("No module named 'anthropic'")

    client = DeferredLLM(make)
    kit.services.llm_clients = (client,)
    caplog.set_level(logging.INFO, logger="kit.daemon.warm")
    await warm(kit.services)  # logged, not raised
    assert any("warming up after the start failed" in r.getMessage() for r in caplog.records)
    with pytest.raises(LLMUnavailable, match=r"cannot set up the model client \(ImportError"):
        await client.complete(LLMRequest(model="m", system=(), messages=(), max_tokens=10))
    assert not client.ready
