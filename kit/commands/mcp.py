"""`kit mcp`: Kit's memory as a Model Context Protocol server on stdin/stdout, for Claude Code,
Claude Desktop and other MCP clients; `kit mcp --http`: the same over MCP's streamable-HTTP
transport at http://127.0.0.1:8765/mcp, for clients on other machines that show a token the
owner issued (`kit tokens create`; kit/mcp/http.py). `kit run` serves it too with
`[mcp_http] enabled = true`.

Talks to the running daemon over its control socket when there is one, else runs Kit in this
process (holding the data directory, as `kit chat` does): never a second writer beside a
daemon. stdout carries the protocol only; logs go to stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import sys


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "mcp",
        help="serve Kit's memory to other AI tools (Model Context Protocol over stdio, or "
        "HTTP with --http)",
    )
    cmd.add_argument(
        "--user",
        default=argparse.SUPPRESS,  # the global --user, given here or before the command
        help="memory namespace to serve (default: owner.user_id)",
    )
    cmd.add_argument(
        "--read-only",
        action="store_true",
        help="leave out remember: the client cannot change memory (stdio; over HTTP a "
        "read-only token does this: kit tokens create --read-only)",
    )
    http = cmd.add_argument_group("over HTTP (defaults: [mcp_http] in config.toml)")
    http.add_argument(
        "--http",
        action="store_true",
        help="serve MCP's streamable-HTTP transport at /mcp instead of stdio; every request "
        "needs a token (kit tokens create)",
    )
    http.add_argument("--host", help="address to listen on (default 127.0.0.1: this machine only)")
    http.add_argument("--port", type=int, help="TCP port (default 8765; 0: any free port)")
    http.add_argument("--tls-cert", metavar="PEM", help="serve HTTPS with this certificate")
    http.add_argument("--tls-key", metavar="PEM", help="... and this private key")
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    # Imported here: the SDK (and its web stack) loads only for this command.
    from kit.clock import SystemClock, resolve_timezone
    from kit.config import load_settings
    from kit.daemon.connect import connect_to
    from kit.mcp.memory import MemoryTools
    from kit.mcp.server import serve

    if args.http:
        return await run_http(args)
    if any(getattr(args, a) is not None for a in ("host", "port", "tls_cert", "tls_key")):
        from kit.errors import InputError

        raise InputError("--host, --port, --tls-cert and --tls-key go with --http")
    if sys.stdin.isatty():
        print(
            "kit mcp speaks the Model Context Protocol on stdin/stdout: start it from an MCP "
            "client (e.g. `claude mcp add kit -- kit mcp`); see docs/mcp.md. Ctrl-D to quit.",
            file=sys.stderr,
        )
    settings = load_settings(args.config, args.data_dir)
    async with contextlib.AsyncExitStack() as stack:
        # Kit opens (the database, the model) before the SDK claims stdout: whatever might be
        # printed meanwhile goes to stderr instead of corrupting the protocol.
        # --read-only writes nothing, here either: no background work (it would embed what
        # waits to be embedded) and nothing settled on the way out.
        with contextlib.redirect_stdout(sys.stderr):
            client = await stack.enter_async_context(
                connect_to(settings, user=args.user, settle=False, background=not args.read_only)
            )
        tools = MemoryTools(
            client,
            tz=resolve_timezone(settings.schedule.timezone),
            clock=SystemClock(),
            user=args.user or settings.owner.user_id,
        )
        await serve(tools, read_only=args.read_only)
    return 0


async def run_http(args: argparse.Namespace) -> int:
    """Serve MCP over HTTP until SIGTERM or Ctrl-C."""
    import asyncio
    import signal

    from kit.clock import SystemClock, resolve_timezone
    from kit.config import load_settings
    from kit.daemon.connect import connect_to
    from kit.daemon.grace import DEFAULT_GRACE
    from kit.errors import InputError
    from kit.mcp.wiring import clients_like, listen_from, serving

    if args.read_only:
        raise InputError(
            "--read-only is for stdio; over HTTP the token decides: "
            "`kit tokens create NAME --read-only`"
        )
    if args.port is not None and not 0 <= args.port <= 65535:
        raise InputError("--port is a TCP port, 0 to 65535 (0: any free one)")
    settings = load_settings(args.config, args.data_dir)
    listen = listen_from(
        settings.mcp_http,
        host=args.host,
        port=args.port,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
    )
    async with connect_to(settings, user=args.user, settle=True) as client:
        server = serving(
            listen,
            clients_like(client),
            tz=resolve_timezone(settings.schedule.timezone),
            clock=SystemClock(),
            grace=DEFAULT_GRACE,
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        try:
            async with asyncio.TaskGroup() as group:
                serve = group.create_task(server.run(), name="mcp-http")
                # The server failing (a port in use) ends the wait too.
                stopped = group.create_task(stop.wait())
                await asyncio.wait({serve, stopped}, return_when=asyncio.FIRST_COMPLETED)
                serve.cancel()
                stopped.cancel()
        finally:
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(sig)
    return 0
