"""`kit digest [--date D] [--send] [--json]`: the daily memory digest, what Kit learned, changed,
merged, expired and refused in a digest day (since the day before's digest.time), pass by pass,
each fact with where it came from, and the inbox questions still waiting for an answer (those
asked that day listed, older ones counted). Without --date, the day now open (what the next
digest reports). `--send` sends it now through the running daemon's Telegram, with its buttons.

Reading goes through the daemon when one runs and reads the data directory here otherwise;
it changes nothing. Exit status 0; 2 for a bad date or when there is nothing to send it on.
"""

from __future__ import annotations

import argparse
from datetime import date, tzinfo
from typing import TYPE_CHECKING

from kit.clock import SystemClock, local_date, resolve_timezone
from kit.commands.common import print_json
from kit.errors import InputError, KitError

if TYPE_CHECKING:
    from kit.client import KitClient


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "digest",
        help="what Kit learned, changed, merged, expired and refused in a day (--send: Telegram)",
        description="The daily memory digest: each pass of the day with the facts it changed "
        "and where they came from, and the questions waiting in `kit inbox` (the day's listed, "
        "older ones counted). Sent on Telegram at digest.time when something changed or a "
        "question asked that day waits.",
    )
    cmd.add_argument("--date", help="the digest day: YYYY-MM-DD, 'today' or 'yesterday'")
    cmd.add_argument(
        "--send",
        action="store_true",
        help="send it now through the running daemon's Telegram, with its buttons",
    )
    cmd.add_argument("--json", action="store_true", help="print the digest as JSON")
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    from kit.config import load_settings
    from kit.daemon.connect import connect_to
    from kit.tools import parse_day

    settings = load_settings(args.config, args.data_dir)
    tz = resolve_timezone(settings.schedule.timezone)
    day = None
    if args.date:
        try:
            day = parse_day(args.date, local_date(SystemClock().now(), tz))
        except KitError as exc:
            raise InputError(f"--date: {exc}") from exc
    async with connect_to(settings, user=args.user, background=False, settle=False) as client:
        return await digest_command(client, tz, day=day, send=args.send, as_json=args.json)


async def digest_command(
    client: KitClient, tz: tzinfo, *, day: date | None, send: bool, as_json: bool
) -> int:
    """The command on any `KitClient` (in-process or the daemon's)."""
    from kit.daemon.codec import encode
    from kit.digest.render import render_text

    if send:
        sent = await client.send_digest(day)
        if as_json:
            print_json(encode(sent))
            return 0
        when = f"{sent.day:%A} {sent.day.day} {sent.day:%B %Y}"
        if sent.status == "empty":
            print(
                f"Nothing changed in memory for {when} and no question asked that day waits; "
                "nothing was sent."
            )
        elif sent.status == "no chat":
            print(
                f"The digest for {when} reached no chat: no one in telegram.allowed_user_ids "
                f"owns the memory {sent.user_id!r}."
            )
        else:
            messages = "message" if sent.messages == 1 else "messages"
            chats = "chat" if sent.chats == 1 else "chats"
            print(
                f"Sent the digest for {when}: {sent.messages} {messages} to {sent.chats} {chats}."
            )
        return 0
    digest = await client.digest(day)
    if as_json:
        print_json(encode(digest))
        return 0
    print(render_text(digest, tz))
    return 0
