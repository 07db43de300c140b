"""`kit forget`: erase a stretch of time or a person from Kit's memory, at your request."""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import date

from kit.commands.common import open_kit, user_of
from kit.config import load_settings
from kit.daemon.lock import AlreadyRunning, DataDirLock
from kit.errors import InputError
from kit.memory.forget import ForgetReport, ForgetScope, Forgetter


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "forget",
        help="erase messages, facts and summaries of a time range or about a person",
        description="Deletes the messages, erases the facts learned from them (history "
        "included) and the day summaries, in one step. A record says a forget happened "
        "and how much went, never what. Dates are excluded: --after 2026-03-01 starts on "
        "2026-03-02. A person is matched by name as a whole word.",
    )
    cmd.add_argument("--before", metavar="DATE", help="forget days before DATE (YYYY-MM-DD)")
    cmd.add_argument("--after", metavar="DATE", help="forget days after DATE (YYYY-MM-DD)")
    cmd.add_argument("--person", metavar="NAME", help="forget what names this person")
    cmd.add_argument("--dry-run", action="store_true", help="only count what would go")
    cmd.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    cmd.set_defaults(func=run)


def _date(text: str | None, flag: str) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError as exc:
        raise InputError(f"{flag} {text!r} is not a date; use YYYY-MM-DD, e.g. 2026-03-01") from exc


def scope_of(args: argparse.Namespace) -> ForgetScope:
    if args.person is not None:
        if args.before or args.after:
            raise InputError("forget either a person or a time range, not both at once")
        return ForgetScope.named(args.person)
    return ForgetScope.time(
        after=_date(args.after, "--after"), before=_date(args.before, "--before")
    )


def _summary(report: ForgetReport) -> str:
    parts = [
        f"{report.messages_removed} messages",
        f"{report.facts_forgotten} facts",
        f"{report.days_removed} day summaries",
    ]
    if report.days_rewritten:
        parts.append(f"{report.days_rewritten} day summaries rewritten")
    if report.conversation_summaries_rewritten:
        parts.append(f"{report.conversation_summaries_rewritten} conversation summaries rewritten")
    return ", ".join(parts)


async def run(args: argparse.Namespace) -> int:
    scope = scope_of(args)  # bad flags fail before the database is opened
    # A running daemon (or kit chat / kit tui) would keep what is erased in its memory (its
    # vector index, a conversation it is in): forget only while no other engine is up.
    data_dir = load_settings(args.config, args.data_dir).data_dir
    lock = DataDirLock(data_dir)
    holder = lock.try_acquire("standalone")
    if holder is not None:
        raise AlreadyRunning(
            f"{data_dir}: {holder.describe()} is using this data directory; stop it first "
            "(what it holds in memory must be forgotten too), then run kit forget again",
            holder,
        )
    try:
        return await _forget(args, scope)
    finally:
        lock.release()


async def _forget(args: argparse.Namespace, scope: ForgetScope) -> int:
    async with open_kit(args, with_embedder=False) as kit:
        s = kit.services
        user = user_of(args, kit)
        forgetter = Forgetter(s.db, s.tz)
        plan = await forgetter.forget(user, scope, now=s.clock.now(), dry_run=True)
        print(f"Forget {scope.describe()}: {_summary(plan)}.")
        if args.dry_run or plan.total == 0:
            print("Nothing was changed." if args.dry_run else "Nothing to forget.")
            return 0
        if not args.yes:
            if not sys.stdin.isatty():
                raise InputError("add --yes to confirm (nothing was changed)")
            answer = await asyncio.to_thread(input, "This cannot be undone. Forget it? [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                print("Nothing was changed.")
                return 0
        report = await forgetter.forget(user, scope, now=s.clock.now())
        s.vectors.forget_cache(user)
        print(
            f"Forgotten: {_summary(report)}; {report.history_rows_erased} history entries "
            "erased. A record that a forget happened (counts only) was kept."
        )
    return 0
