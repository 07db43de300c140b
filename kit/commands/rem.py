"""`kit rem [--date D] [--dry-run] [--json] [--last]`: run REM (the nightly consolidation) now,
or show the last report.

`--json` prints the report of the REM it runs; `--last --json` prints the last report without
running one. A dry run changes nothing but still asks the model what it would do, so it spends
tokens: it says so before it starts.

It goes through the running daemon when there is one (so there is one engine per data
directory) and runs in this process otherwise. A REM already running, here or in the daemon's
nightly job, makes this one stop with a message saying so (exit 1); nothing waits.
Exit status: 0, or 1 when a step failed (the report says which and why).
"""

from __future__ import annotations

import argparse
import sys
from datetime import date, tzinfo
from typing import TYPE_CHECKING

from kit.clock import SystemClock, local_date, resolve_timezone
from kit.commands.common import print_json
from kit.commands.progress import Bar, progress
from kit.errors import InputError, KitError

if TYPE_CHECKING:
    from kit.curator.reports import RemProgress, RemReport
    from kit.surface import KitClient, ProgressSink


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "rem",
        help="consolidate memory now: condense days, review stale facts, retire copies, expire",
    )
    cmd.add_argument(
        "--date", help="condense only this day (YYYY-MM-DD or 'yesterday'), again if it was"
    )
    cmd.add_argument(
        "--dry-run",
        action="store_true",
        help="show what REM would do; change nothing (the model is still asked: it spends tokens)",
    )
    cmd.add_argument(
        "--json",
        action="store_true",
        help="print the report as JSON: of the REM this runs, or with --last of the last one",
    )
    cmd.add_argument(
        "--last",
        action="store_true",
        help="show the last report instead of running (`--last --json` for scripts)",
    )
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    from kit.config import load_settings
    from kit.daemon.connect import connect_to
    from kit.tools import parse_day

    settings = load_settings(args.config, args.data_dir)
    tz = resolve_timezone(settings.schedule.timezone)
    only_date = None
    if args.date:
        try:
            only_date = parse_day(args.date, local_date(SystemClock().now(), tz))
        except KitError as exc:
            raise InputError(f"--date: {exc}") from exc
    async with connect_to(settings, user=args.user, background=False) as client:
        return await rem_command(
            client, tz, dry_run=args.dry_run, only_date=only_date, as_json=args.json, last=args.last
        )


async def rem_command(
    client: KitClient,
    tz: tzinfo,
    *,
    dry_run: bool = False,
    only_date: date | None = None,
    as_json: bool = False,
    last: bool = False,
) -> int:
    """The command on any `KitClient` (in-process or the daemon's): run or fetch, then print."""
    from kit.curator.rem import report_json
    from kit.curator.reports import REM_STEPS

    if last:
        report = await client.last_rem()
        if report is None:
            print("REM has not run yet: it runs nightly at schedule.rem, or now with `kit rem`.")
            return 0
    else:
        if dry_run:
            print(DRY_RUN_NOTICE, file=sys.stderr, flush=True)
        with progress("REM", total=len(REM_STEPS), unit="steps") as bar:
            report = await client.rem(
                dry_run=dry_run, only_date=only_date, on_progress=_progress_to(bar)
            )
    if as_json:
        print_json(report_json(report))
    else:
        print("\n".join(format_report(report, tz)))
    return 1 if any(step.status == "failed" for step in report.steps) else 0


DRY_RUN_NOTICE = (
    "Dry run: nothing will be changed, but the model is asked what REM would do, "
    "so this spends tokens (about what a real REM does)."
)


def _progress_to(bar: Bar) -> ProgressSink:
    async def show(event: RemProgress) -> None:
        bar.update(description=f"REM: {event.step}")
        if event.status != "running":
            bar.advance()

    return show


def format_report(report: RemReport, tz: tzinfo) -> list[str]:
    """The report as a person reads it (the CLI; the Telegram /rem reply can use it too)."""
    start = report.started_at.astimezone(tz)
    end = report.finished_at.astimezone(tz)
    title = "REM dry run (nothing was changed)" if report.dry_run else "REM"
    lines = [f"{title}, {start:%Y-%m-%d %H:%M}-{end:%H:%M}"]
    lines += [f"  {s.step:<9}{s.status:<9}{s.detail}" for s in report.steps]
    if report.changes:
        lines.append("Changes:" if not report.dry_run else "Would change:")
        lines += [f"  - {line}" for line in report.changes]
    if report.rejected:
        lines.append("Rejected (nothing of these was applied):")
        lines += [f"  - {line}" for line in report.rejected]
    if not report.changes and not report.rejected:
        lines.append("Nothing to do.")
    lines.append(
        f"Facts reviewed: {report.reviewed_facts}. "
        f"Tokens: {report.input_tokens:,} in, {report.output_tokens:,} out."
    )
    return lines
