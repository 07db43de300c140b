"""`kit reminders [list]`, `kit reminders cancel ID`: the owner's reminders and scheduled tasks,
with their next time in the owner's zone. Through the daemon when one runs."""

from __future__ import annotations

import argparse

from kit.clock import resolve_timezone
from kit.errors import InputError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "reminders", help="list reminders and scheduled tasks, or cancel one (cancel ID)"
    )
    cmd.add_argument("action", nargs="?", choices=("list", "cancel"), default="list")
    cmd.add_argument("id", nargs="?", type=int, help="the reminder to cancel (its number)")
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    from kit.config import load_settings
    from kit.daemon.connect import connect_to
    from kit.reminders.service import describe

    settings = load_settings(args.config, args.data_dir)
    tz = resolve_timezone(settings.schedule.timezone)
    if args.action == "cancel" and args.id is None:
        raise InputError("say which: kit reminders cancel ID (kit reminders lists the ids)")
    async with connect_to(settings, user=args.user, background=False) as client:
        if args.action == "cancel":
            reminder = await client.cancel_reminder(args.id)
            print(f"Cancelled reminder #{reminder.id}: {reminder.text}")
            return 0
        active = await client.reminders()
    if not active:
        print("No reminders. Ask Kit in a chat, e.g. “remind me tomorrow at 9 to call Ana”.")
        return 0
    for reminder in active:
        print(describe(reminder, tz))
    return 0
