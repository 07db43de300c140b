"""Several people at once: the real PTB Application against the local Bot API server. One
person's slow turn holds up nobody else; each chat's own messages are answered in order, once."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator

import pytest

from kit.api import Kit
from kit.channels.in_order import InOrderPerKey
from kit.channels.telegram.channel import TelegramChannel
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.base import LLMReply, LLMRequest, TextBlock, TextSink
from kit.llm.fake import FakeLLM
from tests.servers.telegram_api import FakeTelegramServer
from tests.telegram.conftest import (
    ANA_TG,
    OWNER_TG,
    Sleeps,
    running,
    telegram_settings,
    wait_until,
)


class GatePerUser:
    """Answers "re: <the last message>", but a user's turns wait until the test opens that
    user's gate: a turn lasts exactly as long as the test needs, no timing involved."""

    def __init__(self, *open_for: str) -> None:
        self.gates: defaultdict[str, asyncio.Event] = defaultdict(asyncio.Event)
        for user in open_for:
            self.gates[user].set()
        self.waiting: list[str] = []
        self.inner = FakeLLM(default=self.echo)

    @staticmethod
    def echo(request: LLMRequest) -> str:
        block = request.messages[-1].content[-1]
        assert isinstance(block, TextBlock)
        return "re: " + block.text.rsplit("\n\n", 1)[-1]

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        user = request.user_id or ""
        self.waiting.append(user)
        await self.gates[user].wait()
        return await self.inner.complete(request, on_text)


@pytest.fixture
async def gated(
    settings: Settings, clock: FakeClock, tg: FakeTelegramServer, sleeps: Sleeps
) -> AsyncIterator[tuple[GatePerUser, TelegramChannel, Kit]]:
    llm = GatePerUser("ana")
    async with Kit.open(
        settings=settings, llm=llm, embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        channel = TelegramChannel(
            kit.services,
            tg.token,
            settings=telegram_settings(settings, tg),
            poll_timeout=1.0,
            stop_timeout=2.0,
            typing_every=0.2,
            sleep=sleeps,
        )
        yield llm, channel, kit


def _fetched(tg: FakeTelegramServer, update_id: int) -> bool:
    """PTB confirmed the update (asked for the ones after it): it is in PTB's hands."""
    return any(m == "getUpdates" and (p.get("offset") or 0) > update_id for m, p in tg.calls)


def _replies(tg: FakeTelegramServer, chat: int) -> list[str]:
    return [s["text"] for s in tg.sent if s["chat_id"] == chat]


async def test_a_slow_turn_for_one_user_does_not_delay_another_users_reply(
    gated: tuple[GatePerUser, TelegramChannel, Kit], tg: FakeTelegramServer
) -> None:
    llm, channel, kit = gated
    async with running(channel):
        tg.push_text(OWNER_TG, "first")
        await wait_until(lambda: llm.waiting == ["owner"])  # the owner's turn is stuck
        tg.push_text(OWNER_TG, "second")
        tg.push_text(ANA_TG, "hello")
        await wait_until(lambda: _replies(tg, ANA_TG) == ["re: hello"])
        assert _replies(tg, OWNER_TG) == []  # Ana was answered while the owner's turn waited
        assert llm.waiting == ["owner", "ana"]  # "second" waits for "first" to finish
        llm.gates["owner"].set()
        await wait_until(lambda: len(_replies(tg, OWNER_TG)) == 2)
    assert _replies(tg, OWNER_TG) == ["re: first", "re: second"]
    assert len(tg.sent) == 3  # each message answered exactly once
    stored = await kit.services.db.fetchall(
        "SELECT user_id, role, text FROM messages WHERE user_id = 'owner' ORDER BY id"
    )
    assert [tuple(r) for r in stored] == [
        ("owner", "user", "first"),
        ("owner", "assistant", "re: first"),
        ("owner", "user", "second"),
        ("owner", "assistant", "re: second"),
    ]


async def test_many_messages_from_two_users_are_each_answered_once_in_order(
    gated: tuple[GatePerUser, TelegramChannel, Kit], tg: FakeTelegramServer
) -> None:
    llm, channel, _ = gated
    llm.gates["owner"].set()
    async with running(channel):
        for n in range(8):
            tg.push_text(OWNER_TG, f"owner {n}")
            tg.push_text(ANA_TG, f"ana {n}")
        await wait_until(lambda: len(tg.sent) == 16)
    assert _replies(tg, OWNER_TG) == [f"re: owner {n}" for n in range(8)]
    assert _replies(tg, ANA_TG) == [f"re: ana {n}" for n in range(8)]


async def test_stopping_cancels_turns_still_waiting_and_leaves_no_task_behind(
    gated: tuple[GatePerUser, TelegramChannel, Kit], tg: FakeTelegramServer
) -> None:
    """The owner's turn never finishes and a second message waits behind it: stopping the
    channel (its stop timeout is 2 s) cancels both instead of hanging, and no update task
    outlives the channel."""
    llm, channel, kit = gated
    async with running(channel):
        tg.push_text(OWNER_TG, "first")
        await wait_until(lambda: llm.waiting == ["owner"])
        second = tg.push_text(OWNER_TG, "second")["update_id"]
        await wait_until(lambda: _fetched(tg, second))
    leftovers = [t for t in asyncio.all_tasks() if "process_concurrent_update" in t.get_name()]
    assert leftovers == [] and kit.services.agent.in_flight == 0
    texts = [r[0] for r in await kit.services.db.fetchall("SELECT text FROM messages")]
    assert texts[0] == "first" and "Kit was shut down" in texts[1]  # marked interrupted


async def test_in_order_per_key_runs_one_key_in_order_and_keys_side_by_side() -> None:
    order = InOrderPerKey()
    done: list[str] = []
    release = asyncio.Event()

    async def work(name: str, wait: bool = False) -> str:
        if wait:
            await release.wait()
        done.append(name)
        return name

    async with asyncio.TaskGroup() as group:
        a1 = group.create_task(order.run("a", work("a1", wait=True)))
        a2 = group.create_task(order.run("a", work("a2")))
        b1 = group.create_task(order.run("b", work("b1")))
        await b1  # b did not wait for a
        assert done == ["b1"] and order.running == 2
        release.set()
    assert done == ["b1", "a1", "a2"] and (a1.result(), a2.result()) == ("a1", "a2")
    assert order.running == 0


async def test_in_order_per_key_cancel_all_closes_work_that_never_started() -> None:
    """A work cancelled while waiting its turn is closed, not left unawaited (that would be a
    RuntimeWarning, an error under this suite's filterwarnings)."""
    order = InOrderPerKey()
    started: list[str] = []

    async def forever(name: str) -> None:
        started.append(name)
        await asyncio.Event().wait()

    first = asyncio.create_task(order.run("a", forever("first")))
    second = asyncio.create_task(order.run("a", forever("second")))
    await wait_until(lambda: started == ["first"] and order.running == 2)
    assert await order.cancel_all() == 2
    assert first.cancelled() and second.cancelled() and started == ["first"]
