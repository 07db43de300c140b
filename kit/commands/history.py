"""`kit history [DATE]`: list summarised days, or read one."""

from __future__ import annotations

import argparse

from kit.commands.common import open_kit, user_of
from kit.errors import NotFound
from kit.text import plural


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser("history", help="browse daily summaries")
    cmd.add_argument("date", nargs="?", help="YYYY-MM-DD, 'today' or 'yesterday'")
    cmd.add_argument("--condensed", action="store_true", help="show the condensed summary")
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    from kit.tools import parse_day

    async with open_kit(args, with_embedder=False) as kit:
        user = user_of(args, kit)
        if args.date is None:
            days = await kit.days(user=user)
            if not days:
                print("No daily summaries yet. They are written at the end of each day.")
            for day in days:
                mark = "condensed" if day.condensed else "detailed"
                print(f"{day.day.isoformat()}  ({mark})  {day.gist}")
            return 0
        today = kit.today()
        wanted = parse_day(args.date, today)  # InputError (exit 2) names the format
        summary = await kit.day(wanted, user=user)
        if summary is None:
            count = len(await kit.messages_on(wanted, user=user))
            if count and wanted < today:  # a finished day: its summary is owed, write it now
                raise NotFound(
                    f"{wanted}: {plural(count, 'message')} but no summary yet; "
                    f"`kit summarize --date {wanted}` writes it now"
                )
            if count:
                raise NotFound(
                    f"{wanted}: {plural(count, 'message')} but no summary yet; summaries are "
                    "written at the end of the day"
                )
            raise NotFound(f"{wanted}: nothing recorded that day; `kit history` lists the days")
        if args.condensed and not summary.condensed:
            raise NotFound(
                f"{wanted}: not condensed yet (the nightly REM pass does that); "
                "drop --condensed to read the detailed summary"
            )
        print(f"# {wanted.isoformat()} ({wanted.strftime('%A')})")
        print(summary.condensed if args.condensed else summary.detailed)
    return 0
