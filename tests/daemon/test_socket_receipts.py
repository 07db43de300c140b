"""Forget receipts over the control socket: listed and verified from a front-end, by id only
(the daemon reads no file a client names)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.daemon.socket_client import SocketClient
from kit.daemon.socket_server import ControlServer
from kit.errors import InputError, NotFound
from kit.forget.findings import MESSAGES
from kit.forget.scope import ForgetScope
from tests.support.receipts import forget
from tests.support.small_memory import START, seed
from tests.support.sockets import serve


@pytest.fixture
async def client(kit: Kit, clock: FakeClock, tmp_path: Path) -> AsyncIterator[SocketClient]:
    async for control, _ in serve(ControlServer, kit, clock, tmp_path, up_for=timedelta(minutes=5)):
        yield SocketClient(control.path)


async def test_receipts_are_listed_and_verified_over_the_socket(
    client: SocketClient, kit: Kit, clock: FakeClock
) -> None:
    await seed(kit, clock)
    receipt = await forget(kit, ForgetScope.named("Ana"))
    [listed] = await client.forget_receipts()
    assert (listed.id, listed.erased, listed.counts) == (receipt.id, receipt.erased, receipt.counts)
    assert listed == (await kit.forget_receipts())[0]
    result = await client.verify_forget(receipt.id)
    assert result.ok and result == await kit.verify_forget(receipt.id)
    chat = await kit.services.messages.conversation("owner", "telegram", "42")
    await kit.services.messages.add(
        chat, "user", "My sister Ana is a cardiologist in Lisbon.", at=START
    )
    result = await client.verify_forget(receipt.id)
    assert not result.ok and [f.place for f in result.leftovers] == [MESSAGES]


async def test_over_the_socket_a_receipt_is_named_by_its_id_only(
    client: SocketClient, tmp_path: Path
) -> None:
    (tmp_path / "r.json").write_text("{}")
    for given in (str(tmp_path / "r.json"), "../r.json"):
        with pytest.raises(InputError, match="is not a forget receipt id"):
            await client.verify_forget(given)
    with pytest.raises(InputError, match="more than 100"):
        await client.verify_forget("x" * 500)
    with pytest.raises(NotFound, match="no forget receipt fr-aaaaaaaaaa"):
        await client.verify_forget("fr-aaaaaaaaaa")
    with pytest.raises(NotFound, match="no forget receipt fr-aaaaaaaaaa"):  # as typed, folded
        await client.verify_forget(" FR-AAAAAAAAAA ")
