"""One user's turns in order across workers: a turn waits while another worker holds that
user's lock (a PostgreSQL advisory lock), and other users' turns do not."""

from __future__ import annotations

import asyncio

import pytest

from kit.api import Kit

pytestmark = pytest.mark.stores("postgres")


async def lock_waiters(kit: Kit) -> int:
    """Advisory locks some session is waiting for (the server's own view)."""
    return int(
        await kit.services.db.scalar(
            "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        )
    )


async def stored(kit: Kit) -> list[str]:
    rows = await kit.services.db.fetchall("SELECT text FROM messages ORDER BY id")
    return [str(r[0]) for r in rows]


async def until_waiting(kit: Kit, count: int) -> None:
    async with asyncio.timeout(20):
        while True:
            if await lock_waiters(kit) >= count:
                return
            await asyncio.sleep(0.02)


async def test_a_users_lock_held_by_one_worker_makes_the_other_wait_for_it(
    kit: Kit, other: Kit
) -> None:
    entered: list[str] = []

    async def take(db_kit: Kit, who: str, user: str) -> None:
        async with db_kit.services.db.user_lock(user):
            entered.append(who)

    async with kit.services.db.user_lock("ana"):
        waiting = asyncio.create_task(take(other, "b-ana", "ana"))
        await until_waiting(kit, 1)
        await take(other, "b-ben", "ben")  # another user is not held up
        assert entered == ["b-ben"]
    await asyncio.wait_for(waiting, 20)
    assert entered == ["b-ben", "b-ana"]


async def test_a_turn_waits_while_another_worker_runs_a_turn_for_the_same_user(
    kit: Kit, other: Kit
) -> None:
    async with other.services.db.user_lock("owner"):
        turn = asyncio.create_task(kit.send("hello from the second worker"))
        await until_waiting(kit, 1)
        assert await stored(kit) == []  # not even stored: it is not its turn yet
    result = await asyncio.wait_for(turn, 20)
    assert result.reply == "ok"
    assert await stored(kit) == ["hello from the second worker", "ok"]


async def test_a_cancelled_wait_leaves_no_lock_behind(kit: Kit, other: Kit) -> None:
    async with kit.services.db.user_lock("ana"):
        waiting = asyncio.create_task(other.services.db.user_lock("ana").__aenter__())
        await until_waiting(kit, 1)
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
    async with asyncio.timeout(20):
        async with other.services.db.user_lock("ana"):
            pass
