"""`kit mcp` search round trip against a running daemon holding 10k facts: over stdio, and
over MCP's HTTP transport (`[mcp_http]` in the same daemon, with a token).

    python bench/mcp_roundtrip.py [--quick] [--facts N] [--searches N]

The facts are written and embedded by the real MiniLM model first (when it is in
../shared/models; lexical search only otherwise), then a real `kit run` starts on them (the
real anthropic SDK against the local Messages API server; no tool calls the model) and a real
`kit mcp` subprocess is driven by the MCP SDK's own stdio client. Each round trip is one
`search_memory` call: client -> kit mcp -> control socket -> daemon (query embedding, hybrid
search) and back. The same daemon serves MCP over HTTP too (`[mcp_http]` on 127.0.0.1), driven
by the SDK's streamable-HTTP client with an access token: client -> HTTP -> token check and
audit row -> daemon. The two clients take turns, query by query, so a change in the machine's
load falls on both alike. The same queries straight over the control socket are the baseline,
so the difference is what MCP and the extra process add.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
import tempfile
import time
from pathlib import Path

from common import MODEL_DIR, ROOT, Row, fill_memory, p50_p95, print_rows, queries

from kit.api import Kit
from kit.config import load_settings
from kit.daemon.socket_client import SocketClient
from tests.servers.anthropic_api import FakeAnthropicServer
from tests.support.daemon_process import DaemonProcess, write_config

FULL = {"facts": 10_000, "searches": 300}
QUICK = {"facts": 200, "searches": 10}
WARM_UP = 5  # the daemon's first searches load its vectors


async def _fill(config: Path, data: Path, facts: int) -> None:
    """`facts` facts, embedded by the configured model, before the daemon starts."""
    async with Kit.open(settings=load_settings(config, data), background=False) as kit:
        await fill_memory(kit, facts=facts, archived=0, days=0)
        await kit.settle()


async def _mcp_round_trips(
    daemon: DaemonProcess, asked: list[str], port: int
) -> tuple[float, list[float], list[float]]:
    """Seconds from spawning `kit mcp` to an initialised session, and each search's seconds
    over stdio and over HTTP (taking turns)."""
    import httpx2
    from mcp import Client, ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.client.streamable_http import streamable_http_client

    owner = SocketClient(daemon.socket)  # type: ignore[abstract]
    token = (await owner.create_access_token("bench", read_only=True)).token
    command = daemon.kit("mcp", "--read-only")
    params = StdioServerParameters(
        command=command[0], args=command[1:], env=daemon.env, cwd=str(ROOT)
    )
    stdio: list[float] = []
    http: list[float] = []
    headers = {"Authorization": f"Bearer {token}"}
    url = f"http://127.0.0.1:{port}/mcp"
    with (daemon.workdir / "mcp-stderr.log").open("w", encoding="utf-8") as errlog:
        began = time.perf_counter()
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            startup = time.perf_counter() - began
            async with (
                httpx2.AsyncClient(headers=headers, timeout=120.0) as web,
                Client(streamable_http_client(url, http_client=web)) as remote,
            ):
                for query in asked[:WARM_UP]:
                    await session.call_tool("search_memory", {"query": query})
                    await remote.call_tool("search_memory", {"query": query})
                for query in asked:
                    began = time.perf_counter()
                    result = await session.call_tool("search_memory", {"query": query})
                    stdio.append(time.perf_counter() - began)
                    began = time.perf_counter()
                    over_http = await remote.call_tool("search_memory", {"query": query})
                    http.append(time.perf_counter() - began)
                    if result.is_error or over_http.is_error:
                        raise RuntimeError(f"search_memory failed: {result.content}")
    return startup, stdio, http


async def _socket_round_trips(daemon: DaemonProcess, asked: list[str]) -> list[float]:
    client = SocketClient(daemon.socket)
    times = []
    for query in asked:
        began = time.perf_counter()
        await client.search(query)
        times.append(time.perf_counter() - began)
    return times


async def run(quick: bool = False, **sizes: int | None) -> list[Row]:
    plan = dict(QUICK if quick else FULL)
    plan.update({k: v for k, v in sizes.items() if v})
    asked = queries(plan["searches"], seed=23)
    label = f"kit mcp {plan['facts'] // 1000}k" if plan["facts"] >= 1000 else "kit mcp"
    embedded = "real MiniLM" if (MODEL_DIR / "model.onnx").exists() else "no model: lexical"
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as folder, FakeAnthropicServer() as api:
        work = Path(folder)
        port = _free_port()
        # The limiter is not what is measured: a quiet host asks faster than 120 a minute.
        serve_http = f"[mcp_http]\nenabled = true\nport = {port}\nrate_per_minute = 100000\n"
        config = write_config(work / "config.toml", api, serve_http)
        # a loaded machine may take long to start a daemon on a large memory
        daemon = DaemonProcess(work, config, start_timeout=600.0)
        began = time.perf_counter()
        await _fill(config, daemon.data_dir, plan["facts"])
        filled = time.perf_counter() - began
        try:
            await asyncio.to_thread(daemon.start)
            startup, mcp, http = await _mcp_round_trips(daemon, asked, port)
            direct = await _socket_round_trips(daemon, asked)
            try:
                await asyncio.to_thread(daemon.stop)
            except AssertionError as exc:  # a slow stop on a loaded machine: the rows stand
                print(f"note: {str(exc).splitlines()[0]}", file=sys.stderr)
        finally:
            daemon.close()
    mcp50, mcp95 = p50_p95([t * 1000 for t in mcp])
    sock50, sock95 = p50_p95([t * 1000 for t in direct])
    http50, http95 = p50_p95([t * 1000 for t in http])
    note = f"{plan['facts']:,} facts ({embedded}), {len(asked)} queries"
    return [
        Row(label, "search_memory round trip p50", mcp50, "ms", note),
        Row(label, "search_memory round trip p95", mcp95, "ms", "SDK stdio client -> daemon"),
        Row(label, "over HTTP: search_memory round trip p50", http50, "ms", "token, 127.0.0.1"),
        Row(label, "over HTTP: search_memory round trip p95", http95, "ms", "SDK HTTP -> daemon"),
        Row(label, "HTTP p95 / stdio p95", http95 / mcp95, "x", "the issue asks at most 2"),
        Row(label, "control socket search p50", sock50, "ms", "the same queries, no MCP"),
        Row(label, "control socket search p95", sock95, "ms"),
        Row(label, "start-up to initialised", startup, "s", "spawn kit mcp -> initialize done"),
        Row(label, "writing + embedding the facts", filled, "s", "before the daemon starts"),
    ]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 facts, 10 searches")
    parser.add_argument("--facts", type=int, help=f"facts in memory (default {FULL['facts']:,})")
    parser.add_argument("--searches", type=int, help=f"queries (default {FULL['searches']})")
    args = parser.parse_args()
    print_rows(asyncio.run(run(args.quick, facts=args.facts, searches=args.searches)))


if __name__ == "__main__":
    sys.exit(main())
