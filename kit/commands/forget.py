"""`kit forget`: erase a stretch of time or a person from Kit's memory, at your request."""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from kit.commands.common import open_kit, user_of
from kit.commands.forget_receipts import receipt_lines
from kit.daemon.lock import AlreadyRunning, DataDirLock
from kit.errors import InputError
from kit.text import plural

if TYPE_CHECKING:
    from kit.forget.plan import ForgetReport, Sample
    from kit.forget.receipt import Receipt
    from kit.forget.scope import ForgetScope


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "forget",
        help="erase messages, facts and summaries of a time range or about a person",
        description="Deletes the messages, erases the facts learned from them (history "
        "included) and the day summaries, in one step. A record says a forget happened "
        "and how much went, never what. Dates are excluded: --after 2026-03-01 starts on "
        "2026-03-02. A person is matched by name, as whole words and with the capitalisation "
        "you give (Will is not 'will'); give it in lowercase to match any capitalisation. "
        "Run with --dry-run first to see what would go. (To stop using one fact but keep "
        "it in its history, undoably, use `kit facts forget FACT_ID` instead.) Each forget "
        "prints and keeps a receipt: counts per kind and salted hashes of what was erased, "
        "never the content (the salt stays in the data directory's forget ledger); --verify "
        "checks that none of it is back, `kit import` refuses messages a receipt erased, and "
        "`kit restore` applies the forget again to a backup or export made before it.",
    )
    cmd.add_argument("--before", metavar="DATE", help="forget days before DATE (YYYY-MM-DD)")
    cmd.add_argument("--after", metavar="DATE", help="forget days after DATE (YYYY-MM-DD)")
    cmd.add_argument("--person", metavar="NAME", help="forget what names this person")
    cmd.add_argument(
        "--dry-run",
        action="store_true",
        help="list what would go (the first messages and facts, and the counts); change nothing",
    )
    cmd.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    cmd.add_argument(
        "--receipt-file",
        metavar="FILE",
        type=Path,
        help="also save the receipt to FILE (it holds no content and no secret: it verifies "
        "where this data directory's forget ledger is)",
    )
    cmd.add_argument(
        "--receipts", action="store_true", help="list the receipts of past forgets; change nothing"
    )
    cmd.add_argument(
        "--verify",
        metavar="RECEIPT",
        help="check that nothing a forget erased is in memory again or still (a receipt id, or "
        "a file --receipt-file saved); exit 1 if something is",
    )
    cmd.add_argument(
        "--repair",
        action="store_true",
        help="with --verify: erase the search-index entries and vectors left of erased rows "
        "(stop Kit first)",
    )
    cmd.set_defaults(func=run)


def _date(text: str | None, flag: str) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError as exc:
        raise InputError(f"{flag} {text!r} is not a date; use YYYY-MM-DD, e.g. 2026-03-01") from exc


def scope_of(args: argparse.Namespace) -> ForgetScope:
    from kit.forget.scope import ForgetScope

    if args.repair and not args.verify:
        raise InputError("--repair goes with --verify RECEIPT")
    if args.person is not None:
        if args.before or args.after:
            raise InputError("forget either a person or a time range, not both at once")
        return ForgetScope.named(args.person)
    return ForgetScope.time(
        after=_date(args.after, "--after"), before=_date(args.before, "--before")
    )


def _summary(report: ForgetReport) -> str:
    parts = [
        plural(report.messages_removed, "message"),
        plural(report.facts_forgotten, "fact"),
        plural(report.days_removed, "day summary", "day summaries"),
    ]
    if report.facts_unmerged:
        parts.append(f"{report.facts_unmerged} merged-in facts restored on their own")
    if report.days_rewritten:
        parts.append(f"{plural(report.days_rewritten, 'day summary', 'day summaries')} rewritten")
    if report.conversation_summaries_rewritten:
        parts.append(f"{report.conversation_summaries_rewritten} conversation summaries rewritten")
    if report.reminders_removed:
        parts.append(plural(report.reminders_removed, "reminder"))
    if report.note_versions_erased:
        parts.append(
            f"{report.note_versions_erased} note versions (whole documents; "
            f"{report.notes_removed} notes in use)"
        )
    return ", ".join(parts)


CLIP = 72


def _clip(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= CLIP else line[: CLIP - 1] + "…"


def _listing(title: str, total: int, samples: tuple[Sample, ...]) -> list[str]:
    if not samples:
        return []
    head = (
        f"{title} ({total}):"
        if total == len(samples)
        else f"{title} (first {len(samples)} of {total}):"
    )
    return [head] + [f"  #{s.id}  {s.day}  {s.label}: {_clip(s.text)}" for s in samples]


def _preview(report: ForgetReport) -> str:
    lines = _listing("Messages", report.messages_removed, report.messages)
    lines += _listing("Facts", report.facts_forgotten, report.facts)
    lines += _listing("Notes (whole versions)", report.note_versions_erased, report.notes)
    return "\n".join(lines)


async def run(args: argparse.Namespace) -> int:
    from kit.config import load_settings

    if args.receipts or args.verify:
        return await _receipts(args)
    scope = scope_of(args)  # bad flags fail before the database is opened
    if args.receipt_file is not None:
        from kit.portability.target import check_target

        if args.dry_run:
            raise InputError("a dry run erases nothing and makes no receipt; drop --receipt-file")
        check_target(args.receipt_file, force=False)  # before the forget, not after it
    if args.dry_run:  # a read: fine beside a running daemon
        async with open_kit(args, with_embedder=False) as kit:
            plan = await kit.forget_preview(scope, user=user_of(args, kit))
        _print_plan(scope, plan)
        print("Nothing was changed (dry run).")
        return 0
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
    import asyncio

    async with open_kit(args, with_embedder=False) as kit:
        user = user_of(args, kit)
        plan = await kit.forget_preview(scope, user=user)
        _print_plan(scope, plan)
        if plan.total == 0:
            print("Nothing to forget.")
            return 0
        if not args.yes:
            if not sys.stdin.isatty():
                raise InputError("add --yes to confirm (nothing was changed)")
            answer = await asyncio.to_thread(input, "This cannot be undone. Forget it? [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                print("Nothing was changed.")
                return 0
        report = await kit.forget(scope, user=user)
        print(
            f"Forgotten: {_summary(report)}; {report.history_rows_erased} history entries "
            "erased. A record that a forget happened (counts only) was kept."
        )
        assert report.receipt is not None
        if args.receipt_file is not None:
            _save(report.receipt, args.receipt_file)
        saved = None if args.receipt_file is None else str(args.receipt_file)
        print("\n".join(receipt_lines(report.receipt, saved)))
    return 0


async def _receipts(args: argparse.Namespace) -> int:
    from kit.commands.forget_receipts import run_receipts, run_verify

    given = [
        flag
        for flag, value in (
            ("--before", args.before),
            ("--after", args.after),
            ("--person", args.person),
            ("--dry-run", args.dry_run),
            ("--yes", args.yes),
            ("--receipt-file", args.receipt_file),
            ("--receipts", args.receipts and args.verify),
        )
        if value
    ]
    if given:
        raise InputError(
            f"{given[0]} does not go with {'--verify' if args.verify else '--receipts'}; "
            "verifying or listing receipts forgets nothing"
        )
    if args.verify:
        return await run_verify(args)
    if args.repair:
        raise InputError("--repair goes with --verify RECEIPT")
    return await run_receipts(args)


def _save(receipt: Receipt, path: Path) -> None:
    from kit.forget.receipt import to_json
    from kit.portability.target import private_file

    with private_file(path, force=False) as fd, open(fd, "w", closefd=False) as out:
        out.write(to_json(receipt))


def _print_plan(scope: ForgetScope, plan: ForgetReport) -> None:
    print(f"Forget {scope.describe()}: {_summary(plan)}.")
    if listing := _preview(plan):
        print(listing)
