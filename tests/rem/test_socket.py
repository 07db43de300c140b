"""`kit rem` against a daemon: the command's logic over the real control socket (in-process
ControlServer -> LocalClient on a real Kit), `--date`, and the refusal while REM runs."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, date, timedelta
from pathlib import Path

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.commands.rem import rem_command
from kit.daemon.socket_client import SocketClient
from kit.daemon.socket_server import ControlServer
from kit.errors import KitError
from kit.llm.base import LLMReply, LLMRequest
from kit.llm.fake import FakeLLM
from tests.support.sockets import serve

SAT, SUN = date(2026, 2, 28), date(2026, 3, 1)


@pytest.fixture
async def client(kit: Kit, clock: FakeClock, tmp_path: Path) -> AsyncIterator[SocketClient]:
    async for control, _ in serve(ControlServer, kit, clock, tmp_path, up_for=timedelta(minutes=5)):
        yield SocketClient(control.path)


async def test_rem_command_over_the_socket_condenses_only_the_named_day(
    client: SocketClient, kit: Kit, fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    for day in (SAT, SUN):
        await kit.services.days.put_detailed("owner", day, "- one\n- two\n- three", 5)
    fake_llm.queue("- one and two")

    code = await rem_command(client, UTC, only_date=SUN)

    assert code == 0
    captured = capsys.readouterr()
    assert "condensed 2026-03-01 (3 -> 1 bullets)" in captured.out
    assert "condense" not in captured.err  # progress is drawn on a terminal only
    assert (await kit.day(SUN)).condensed == "- one and two"  # type: ignore[union-attr]
    assert (await kit.day(SAT)).condensed == ""  # type: ignore[union-attr]
    assert await rem_command(client, UTC, last=True) == 0
    assert "condensed 2026-03-01" in capsys.readouterr().out


async def test_a_rem_over_the_socket_while_one_runs_is_refused_with_the_reason(
    client: SocketClient, kit: Kit, fake_llm: FakeLLM
) -> None:
    await kit.services.days.put_detailed("owner", SUN, "- one\n- two", 2)
    entered, release = asyncio.Event(), asyncio.Event()
    inner = fake_llm.complete

    async def held(request: LLMRequest, on_text: object = None) -> LLMReply:
        entered.set()
        await release.wait()
        return await inner(request)

    fake_llm.complete = held  # type: ignore[method-assign]
    running = asyncio.create_task(kit.services.rem.run("owner"))
    await entered.wait()
    with pytest.raises(KitError, match="REM is already running"):
        await client.rem()
    release.set()
    await running
