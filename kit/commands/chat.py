"""`kit chat`: a plain line REPL. Works with piped stdin (one message per line). A line that
starts with a command (/help, /facts, /search ...) gets the same answer as on Telegram
(kit/chat_commands.py); nothing else is sent to the model.

Talks to the daemon over its control socket when one runs, else runs Kit in this process
(kit/daemon/connect.py): the same conversation either way.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from contextlib import AbstractAsyncContextManager

    from kit.surface import KitClient

EXIT_WORDS = {"/quit", "/exit", ":q"}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser("chat", help="chat with Kit in the terminal (reads stdin)")
    cmd.add_argument("--conversation", default="terminal", help="conversation name")
    add_remote_arguments(cmd)
    cmd.set_defaults(func=run)


def add_remote_arguments(cmd: argparse.ArgumentParser) -> None:
    """--remote and --remote-data-dir (kit chat, kit tui): the daemon of another machine."""
    cmd.add_argument(
        "--remote",
        metavar="[USER@]HOST",
        help="talk to the daemon on another machine, through ssh (its control socket "
        "forwarded; your SSH keys decide; KIT_SSH sets the ssh command)",
    )
    cmd.add_argument(
        "--remote-data-dir",
        default="",
        metavar="DIR",
        help="the data directory on that machine (default: its $KIT_DATA_DIR or "
        "~/.local/share/kit)",
    )


async def run(args: argparse.Namespace) -> int:
    import asyncio

    from kit.chat_commands import command_name
    from kit.daemon.connect import connect
    from kit.errors import InputError, KitError

    interactive = sys.stdin.isatty()
    engine: AbstractAsyncContextManager[KitClient]
    if args.remote:
        from kit.daemon.remote import remote_client

        engine = remote_client(args.remote, user=args.user, data_dir=args.remote_data_dir)
    else:
        if args.remote_data_dir:
            raise InputError("--remote-data-dir goes with --remote [USER@]HOST")
        engine = connect(args)
    async with engine as client:
        if interactive and args.remote:
            print(f"Connected to the Kit daemon on {args.remote} (through ssh).")
        if interactive:
            print("Kit is listening. Type a message; /help lists commands, /quit or Ctrl-D leaves.")
        await show_reminders(client, args.conversation)
        while True:
            if interactive:
                print("you> ", end="", flush=True)
            line = await asyncio.to_thread(sys.stdin.readline)
            if not line:
                break
            text = line.strip()
            if not text:
                continue
            if text in EXIT_WORDS:
                break
            if command_name(text) is not None:
                try:
                    print(await client.command(text, conversation=args.conversation), flush=True)
                except KitError as exc:  # a bad id, an unknown category: say so, carry on
                    print(f"kit: {exc}", file=sys.stderr, flush=True)
                continue

            async def show(chunk: str) -> None:
                sys.stdout.write(chunk)
                sys.stdout.flush()

            if interactive:
                sys.stdout.write("kit> ")
            try:
                result = await client.send(text, conversation=args.conversation, on_text=show)
            except InputError as exc:
                print(f"kit: {exc}", file=sys.stderr)
                continue
            if result.failed:
                sys.stdout.write(result.reply)
            sys.stdout.write("\n")
            sys.stdout.flush()
            await show_reminders(client, args.conversation)
    return 0


async def show_reminders(client: KitClient, conversation: str) -> None:
    """Reminders delivered to this conversation since it was last open (or during the last
    reply), each shown once."""
    for notice in await client.reminder_notices(conversation):
        print(f"kit> {notice.text}", flush=True)
