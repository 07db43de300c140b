"""`kit mcp` search round trip against a running daemon holding 10k facts.

    python bench/mcp_roundtrip.py [--quick]

The facts are written and embedded by the real MiniLM model first (when it is in
../shared/models; lexical search only otherwise), then a real `kit run` starts on them (the
real anthropic SDK against the local Messages API server; no tool calls the model) and a real
`kit mcp` subprocess is driven by the MCP SDK's own stdio client. Each round trip is one
`search_memory` call: client -> kit mcp -> control socket -> daemon (query embedding, hybrid
search) and back. The same queries straight over the control socket are the baseline, so the
difference is what MCP and the extra process add.
"""

from __future__ import annotations

import argparse
import asyncio
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


async def _mcp_round_trips(daemon: DaemonProcess, asked: list[str]) -> tuple[float, list[float]]:
    """Seconds from spawning `kit mcp` to an initialised session, and each search's seconds."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    command = daemon.kit("mcp", "--read-only")
    params = StdioServerParameters(
        command=command[0], args=command[1:], env=daemon.env, cwd=str(ROOT)
    )
    times: list[float] = []
    with (daemon.workdir / "mcp-stderr.log").open("w", encoding="utf-8") as errlog:
        began = time.perf_counter()
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            startup = time.perf_counter() - began
            for query in asked[:WARM_UP]:
                await session.call_tool("search_memory", {"query": query})
            for query in asked:
                began = time.perf_counter()
                result = await session.call_tool("search_memory", {"query": query})
                times.append(time.perf_counter() - began)
                if result.is_error:
                    raise RuntimeError(f"search_memory failed: {result.content}")
    return startup, times


async def _socket_round_trips(daemon: DaemonProcess, asked: list[str]) -> list[float]:
    client = SocketClient(daemon.socket)
    times = []
    for query in asked:
        began = time.perf_counter()
        await client.search(query)
        times.append(time.perf_counter() - began)
    return times


async def run(quick: bool = False) -> list[Row]:
    plan = QUICK if quick else FULL
    asked = queries(plan["searches"], seed=23)
    label = f"kit mcp {plan['facts'] // 1000}k" if plan["facts"] >= 1000 else "kit mcp"
    embedded = "real MiniLM" if (MODEL_DIR / "model.onnx").exists() else "no model: lexical"
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as folder, FakeAnthropicServer() as api:
        work = Path(folder)
        config = write_config(work / "config.toml", api)
        daemon = DaemonProcess(work, config)
        began = time.perf_counter()
        await _fill(config, daemon.data_dir, plan["facts"])
        filled = time.perf_counter() - began
        try:
            await asyncio.to_thread(daemon.start)
            startup, mcp = await _mcp_round_trips(daemon, asked)
            direct = await _socket_round_trips(daemon, asked)
            await asyncio.to_thread(daemon.stop)
        finally:
            daemon.close()
    mcp50, mcp95 = p50_p95([t * 1000 for t in mcp])
    sock50, sock95 = p50_p95([t * 1000 for t in direct])
    note = f"{plan['facts']:,} facts ({embedded}), {len(asked)} queries"
    return [
        Row(label, "search_memory round trip p50", mcp50, "ms", note),
        Row(label, "search_memory round trip p95", mcp95, "ms", "SDK stdio client -> daemon"),
        Row(label, "control socket search p50", sock50, "ms", "the same queries, no MCP"),
        Row(label, "control socket search p95", sock95, "ms"),
        Row(label, "start-up to initialised", startup, "s", "spawn kit mcp -> initialize done"),
        Row(label, "writing + embedding the facts", filled, "s", "before the daemon starts"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 facts, 10 searches")
    args = parser.parse_args()
    print_rows(asyncio.run(run(args.quick)))


if __name__ == "__main__":
    sys.exit(main())
