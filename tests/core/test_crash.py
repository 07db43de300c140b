"""Durability: a process killed with SIGKILL loses nothing it committed and half of nothing."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage

pytestmark = pytest.mark.stores

pytestmark = pytest.mark.integration

# Runs in a child process through the public API; prints a line once its writes are done (or,
# in "inside" mode, while a big import transaction is still open), then waits to be killed.
CHILD = """
import asyncio, sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from kit.api import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage

async def main(data_dir: str, mode: str) -> None:
    settings = Settings(data_dir=Path(data_dir), schedule=ScheduleSettings(timezone="UTC"))
    clock = FakeClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    async with Kit.open(settings=settings, llm=FakeLLM(default="noted"), embedder=HashingEmbedder(),
                        clock=clock, background=False) as kit:
        if mode == "committed":
            for word in ("aubergine", "bergamot", "cardamom"):
                await kit.send(f"Please note the {word} order")
            lines = [f"imported line {i} about quince" for i in range(5)]
            await kit.import_messages([NewMessage("user", t, clock.now()) for t in lines])
            print("stored", flush=True)
        else:
            conv = await kit.services.messages.conversation("owner", "import", "big")
            items = [NewMessage("user", f"half import {i} durian", clock.now()) for i in range(500)]
            async with kit.services.db.transaction() as tx:
                await kit.services.messages.insert_many(tx, conv, items, "import")
                print("inside", flush=True)
                await asyncio.Event().wait()
        await asyncio.Event().wait()

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


async def run_and_kill(data_dir: Path, mode: str, ready: str) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        CHILD,
        str(data_dir),
        mode,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        async with asyncio.timeout(60):
            line = await proc.stdout.readline()
        if line.decode().strip() != ready:
            error = await proc.stderr.read()
            pytest.fail(f"child did not get ready: {line!r} {error.decode()[-2000:]}")
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGKILL)
        await proc.wait()
    assert proc.returncode == -signal.SIGKILL


@asynccontextmanager
async def reopen(settings: Settings, clock: FakeClock) -> AsyncIterator[Kit]:
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        yield kit


async def test_killed_before_backfill_loses_no_message(
    settings: Settings, clock: FakeClock
) -> None:
    await run_and_kill(settings.data_dir, "committed", "stored")
    async with reopen(settings, clock) as kit:
        assert await kit.services.messages.count("owner") == 3 * 2 + 5  # turns: message + reply
        assert await kit.services.vectors.pending_count() == 11
        for word in ("aubergine", "bergamot", "cardamom", "quince"):
            assert await kit.search(word, kinds=("message",)), word  # words work at once
        assert await kit.services.vectors.backfill() == 11
        assert await kit.services.vectors.pending_count() == 0
        hits = await kit.search("aubergine order", kinds=("message",))
        assert hits[0].text == "Please note the aubergine order" and hits[0].cosine is not None
        quince = await kit.search("quince", kinds=("message",))
        assert len(quince) == 5 and all(h.cosine is not None for h in quince)
        async with kit.services.db.transaction() as tx:
            await tx.execute("INSERT INTO messages_fts(messages_fts) VALUES ('integrity-check')")


async def test_killed_inside_an_import_leaves_nothing_half_written(
    settings: Settings, clock: FakeClock
) -> None:
    await run_and_kill(settings.data_dir, "inside", "inside")
    async with reopen(settings, clock) as kit:
        assert await kit.services.messages.count("owner") == 0
        assert await kit.search("durian") == []
        assert await kit.services.vectors.pending_count() == 0
        # the file is healthy and writable after the crash
        assert await kit.import_messages([NewMessage("user", "after the crash", clock.now())]) == 1
        assert await kit.services.db.scalar("PRAGMA integrity_check") == "ok"


async def test_failed_import_writes_nothing(kit: Kit, clock: FakeClock) -> None:
    """One bad item (here a naive time) rolls back the whole import, FTS rows included."""
    now = clock.now()
    items = [
        NewMessage("user", f"batch line {i} persimmon", now - timedelta(minutes=i))
        for i in range(3)
    ]
    items.append(NewMessage("user", "no zone persimmon", datetime(2026, 3, 1, 12, 0)))
    with pytest.raises(ValueError, match="naive"):
        await kit.import_messages(items)
    assert await kit.services.messages.count("owner") == 0
    assert await kit.search("persimmon") == []
    assert await kit.services.db.scalar("SELECT COUNT(*) FROM messages_fts") == 0
    assert await kit.services.vectors.pending_count() == 0

    ok = [NewMessage("user", "a good line persimmon", datetime(2026, 3, 1, 12, 0, tzinfo=UTC))]
    assert await kit.import_messages(ok) == 1
    await kit.settle()
    assert [h.text for h in await kit.search("persimmon")] == ["a good line persimmon"]
