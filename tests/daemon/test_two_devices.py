"""Two devices at once on one daemon: the laptop's MCP client over HTTP (`[mcp_http]`, the
official SDK's client) and the phone's Telegram (the real python-telegram-bot against the local
Bot API server), in the same second of the daemon's clock. What each sends lands once, in the
order it was sent; and a client that drops mid-stream leaves the daemon serving the others."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from kit.api import Kit
from kit.app import Services
from kit.clock import FakeClock
from kit.config import McpHttpSettings, Settings
from kit.daemon.runner import ComponentFactory
from kit.daemon.socket_client import SocketClient
from kit.embed.hashing import HashingEmbedder
from kit.llm.base import LLMRequest
from kit.llm.fake import FakeLLM
from kit.mcp.http import McpHttp
from kit.mcp.wiring import daemon_component
from kit.memory.fact_rows import Fact
from tests.mcp.http_support import mcp_client, url_of
from tests.servers.telegram_api import FakeTelegramServer
from tests.support.inprocess_daemon import running_daemon
from tests.telegram.conftest import OWNER_TG, telegram_settings

pytestmark = pytest.mark.slow


def kept(factory: ComponentFactory, parts: list[McpHttp]) -> Callable[[Services], Any]:
    """`factory`, noting the component it makes (the test reads the port it got)."""

    def make(services: Services) -> Any:
        part = factory(services)
        assert isinstance(part, McpHttp)
        parts.append(part)
        return part

    return make


def both(settings: Settings, tg: FakeTelegramServer) -> tuple[Settings, list[McpHttp], Any]:
    """Settings with Telegram on the local Bot API server and MCP over HTTP on a free port."""
    served = dataclasses.replace(
        telegram_settings(settings, tg), mcp_http=McpHttpSettings(enabled=True, port=0)
    )
    parts: list[McpHttp] = []
    return served, parts, kept(daemon_component(served.mcp_http, grace=2.0), parts)


def answering(request: LLMRequest) -> str:
    """The phone's turn answers from what its prompt recalls."""
    prompt = str(request.system) + str(request.messages)
    return "Ana's birthday: 4 May." if "4 May" in prompt else "I do not know that yet."


async def test_the_laptops_remember_and_a_telegram_message_in_the_same_second_land_in_order_once(
    settings: Settings,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with FakeTelegramServer() as tg:
        monkeypatch.setenv("TELEGRAM_BOT_TOKEN", tg.token)
        served, parts, mcp_http = both(settings, tg)
        llm = FakeLLM(default=answering)
        async with running_daemon(served, clock, llm, monkeypatch, components=[mcp_http]):
            (http,) = parts
            await http.listening.wait()
            owner = SocketClient(served.data_dir / "kit.sock")  # type: ignore[abstract]
            made = await owner.create_access_token("laptop")  # the owner, through the daemon
            second = clock.now()
            async with mcp_client(url_of(http), made.token) as laptop:
                # The laptop stores a fact; then, in the same second, the phone asks about it
                # while the laptop stores another.
                first = await laptop.call_tool(
                    "remember", {"fact": "Ana's birthday is on 4 May", "category": "people"}
                )
                tg.push_text(OWNER_TG, "When is Ana's birthday?")
                again = await laptop.call_tool(
                    "remember", {"fact": "Ana prefers tulips to roses", "category": "people"}
                )
                (reply,) = await tg.async_wait_for_sent(1)
            assert clock.now() == second  # all of it in one second of the daemon's clock
        assert not first.is_error and not again.is_error
        assert reply["text"] == "Ana's birthday: 4 May."  # the phone's turn saw the laptop's fact
        assert len(tg.sent) == 1
    facts, messages = await stored(served, clock)
    assert [f.content for f in facts] == [
        "Ana's birthday is on 4 May",
        "Ana prefers tulips to roses",
    ]
    assert facts[0].id < facts[1].id
    assert messages == [
        ("user", "When is Ana's birthday?"),
        ("assistant", "Ana's birthday: 4 May."),
    ]


async def test_a_client_that_drops_mid_stream_leaves_the_daemon_serving_the_others(
    settings: Settings,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with FakeTelegramServer() as tg:
        monkeypatch.setenv("TELEGRAM_BOT_TOKEN", tg.token)
        served, parts, mcp_http = both(settings, tg)
        llm = FakeLLM(default=answering)
        async with running_daemon(served, clock, llm, monkeypatch, components=[mcp_http]):
            (http,) = parts
            await http.listening.wait()
            owner = SocketClient(served.data_dir / "kit.sock")  # type: ignore[abstract]
            made = await owner.create_access_token("laptop")
            await dropped_mid_stream(url_of(http), made.token)
            # The others are served as before: the phone, the laptop, the terminal.
            tg.push_text(OWNER_TG, "Still there?")
            (reply,) = await tg.async_wait_for_sent(1)
            async with mcp_client(url_of(http), made.token) as laptop:
                kept_fact = await laptop.call_tool(
                    "remember", {"fact": "Ben's flat is on the 3rd floor", "category": "people"}
                )
                tools = await laptop.list_tools()
            assert (await owner.status()).mode == "daemon"
        # ...and it still stopped cleanly (running_daemon awaited its end).
    assert reply["text"] == "I do not know that yet."
    assert not kept_fact.is_error and len(tools.tools) == 7
    facts, _ = await stored(served, clock)
    assert [f.content for f in facts] == ["Ben's flat is on the 3rd floor"]


async def dropped_mid_stream(url: str, token: str) -> None:
    """A client that opens a session and its server-sent event stream, and a call whose answer
    streams, and goes away in the middle of both: the connections close under the server."""
    auth = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"}
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "flaky", "version": "0"},
        },
    }
    async with httpx.AsyncClient(timeout=60.0) as http:
        opened = await http.post(url, json=init, headers=auth)
        assert opened.status_code == 200
        session = {
            **auth,
            "mcp-session-id": opened.headers["mcp-session-id"],
            "mcp-protocol-version": "2025-06-18",
        }
        done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert (await http.post(url, json=done, headers=session)).status_code == 202
        async with http.stream("GET", url, headers=session) as stream:
            assert stream.status_code == 200  # the stream is open; the client leaves it
        call = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "search_memory", "arguments": {"query": "Ana"}},
        }
        async with http.stream("POST", url, json=call, headers=session) as answer:
            assert answer.status_code == 200
            async for _ in answer.aiter_bytes():
                break  # the first bytes of the answer, then gone


async def stored(settings: Settings, clock: FakeClock) -> tuple[list[Fact], list[tuple[str, str]]]:
    """What the store holds once the daemon has stopped: the facts and the messages."""
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        rows = await kit.services.db.fetchall("SELECT role, text FROM messages ORDER BY id")
        return await kit.facts(), [(str(r[0]), str(r[1])) for r in rows]
