"""`kit mcp`: Kit's memory as a Model Context Protocol server on stdin/stdout, for Claude Code,
Claude Desktop and other MCP clients.

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
        "mcp", help="serve Kit's memory to other AI tools (Model Context Protocol over stdio)"
    )
    cmd.add_argument(
        "--user",
        default=argparse.SUPPRESS,  # the global --user, given here or before the command
        help="memory namespace to serve (default: owner.user_id)",
    )
    cmd.add_argument(
        "--read-only",
        action="store_true",
        help="leave out remember: the client cannot change memory",
    )
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    # Imported here: the SDK (and its web stack) loads only for this command.
    from kit.clock import SystemClock, resolve_timezone
    from kit.config import load_settings
    from kit.daemon.connect import connect_to
    from kit.mcp.memory import MemoryTools
    from kit.mcp.server import serve

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
