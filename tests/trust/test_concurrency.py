"""Many conversations at once in one Kit: every turn shows the model the message it has just
stored (reads never see an older snapshot than the turn's own commit), and each conversation's
transcript alternates message, reply, in the order sent."""

from __future__ import annotations

import asyncio

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.base import LLMRequest, TextBlock
from kit.llm.fake import FakeLLM

pytestmark = pytest.mark.stores


def _echo(request: LLMRequest) -> str:
    if request.purpose != "chat":
        return "- earlier messages"
    last = request.messages[-1]
    assert last.role == "user"
    return "re: " + "".join(b.text for b in last.content if isinstance(b, TextBlock))


async def test_twenty_concurrent_conversations_each_see_their_newest_message(
    settings: Settings, clock: FakeClock
) -> None:
    """As in the daemon: the background worker embeds and summarises while turns run."""
    wrong: list[str] = []
    async with Kit.open(
        settings=settings,
        llm=FakeLLM(default=_echo),
        embedder=HashingEmbedder(),
        clock=clock,
        background=True,
    ) as kit:

        async def conversation(c: int) -> None:
            for i in range(30):
                text = f"load {c} {i}"
                result = await kit.send(text, conversation=f"c{c}")
                if result.reply != f"re: {text}":
                    wrong.append(f"{text!r} answered {result.reply!r}")

        async with asyncio.TaskGroup() as group:
            for c in range(20):
                group.create_task(conversation(c))
        assert wrong == []
        for c in range(20):
            conv = await kit.services.messages.conversation("owner", "api", f"c{c}")
            rows = await kit.services.db.fetchall(
                "SELECT role, text FROM messages WHERE conversation_id = ? ORDER BY id", (conv.id,)
            )
            expected = [
                pair
                for i in range(30)
                for pair in (("user", f"load {c} {i}"), ("assistant", f"re: load {c} {i}"))
            ]
            assert [tuple(r) for r in rows] == expected
