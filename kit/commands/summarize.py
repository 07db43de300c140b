"""`kit summarize [--date D]`: write missing daily summaries now (the daemon writes them at
schedule.daily_summary on its own). With --date, that day's summary is written again.
Exit status: 0, or 1 when the model's answer for a day was rejected (that day stays pending).
"""

from __future__ import annotations

import argparse

from kit.commands.common import open_kit, user_of
from kit.commands.progress import progress
from kit.errors import InputError, KitError
from kit.text import plural


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser("summarize", help="write missing daily summaries now")
    cmd.add_argument(
        "--date", help="summarise this day (YYYY-MM-DD, 'today', 'yesterday'), again if it was"
    )
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    from kit.tools import parse_day

    async with open_kit(args, with_embedder=False, exclusive=True) as kit:
        today = kit.today()
        day = None
        if args.date:
            try:
                day = parse_day(args.date, today)
            except KitError as exc:
                raise InputError(f"--date: {exc}") from exc
        with progress("Summarising days", unit="days") as bar:
            run = await kit.summarize(
                day,
                user=user_of(args, kit),
                on_progress=lambda done, total: bar.update(completed=done, total=total),
            )
        for written in run.written:
            summary = await kit.day(written, user=user_of(args, kit))
            count = 0 if summary is None else summary.message_count
            split = f"; {run.split[written]}" if written in run.split else ""
            print(f"{written.isoformat()}: summary written ({plural(count, 'message')}{split})")
            for why in run.dropped.get(written, ()):
                print(f"  left out {why}")
    for rejected, why in run.rejected:
        print(f"{rejected.isoformat()}: not written, the model's answer was rejected: {why}")
    if not run.written and not run.rejected:
        print("Every day before today already has its summary.")
    return 1 if run.rejected else 0
