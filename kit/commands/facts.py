"""`kit facts`: list long-term facts; `history` of one fact, recent `passes`, `undo` a pass,
`expire` a category's facts past their expiry that REM held back. The owner's own changes
(`add`, `edit`, `pin`, `unpin`, `forget`) live in fact_changes.py.

`kit facts [--category C] [--all] [--json]` lists facts (also as `kit facts list`);
`--as-of DATE` lists the facts that held on that day (superseded ones included), and with
`--recorded` the facts as Kit had them written down by then (kit/memory/fact_times.py).
"""

from __future__ import annotations

import argparse
import dataclasses
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any

from kit.choices import CATEGORIES
from kit.clock import to_iso
from kit.commands.common import open_kit, print_json, user_of
from kit.commands.fact_changes import register_actions
from kit.errors import InputError
from kit.text import plural

if TYPE_CHECKING:
    from kit.curator.records import PassRecord
    from kit.memory.fact_rows import Fact, HistoryEntry

# Sub-subcommand flags repeat the parent's without a default of their own, so both
# `kit facts --json history 3` and `kit facts history 3 --json` work.
_QUIET = argparse.SUPPRESS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "facts",
        help="long-term facts: list (default), history, passes, undo, expire, add, edit, pin, "
        "unpin, forget",
        description="List long-term facts, see how they changed and undo a pass, or write "
        "them yourself (add, edit, pin, unpin, forget: each undoable).",
    )
    _list_flags(cmd, child=False)
    cmd.set_defaults(func=run_list)
    actions = cmd.add_subparsers(dest="facts_command", metavar="ACTION")

    listing = actions.add_parser("list", help="list facts (the default)")
    _list_flags(listing, child=True)
    listing.set_defaults(func=run_list)

    history = actions.add_parser("history", help="a fact's life: every change, who, why")
    history.add_argument("fact_id", type=int, metavar="FACT_ID")
    history.add_argument("--json", action="store_true", default=_QUIET)
    history.set_defaults(func=run_history)

    passes = actions.add_parser("passes", help="recent curation, REM and undo passes")
    passes.add_argument("--all", action="store_true", default=_QUIET, help="include no-ops")
    passes.add_argument("--limit", type=int, default=20, help="how many (default 20)")
    passes.add_argument("--json", action="store_true", default=_QUIET)
    passes.set_defaults(func=run_passes)

    undo = actions.add_parser(
        "undo", help="put back the facts a pass changed (curation, REM or your own change)"
    )
    undo.add_argument("pass_id", type=int, metavar="PASS_ID")
    undo.add_argument("--json", action="store_true", default=_QUIET)
    undo.set_defaults(func=run_undo)

    expire = actions.add_parser(
        "expire",
        help="retire a category's facts past their expiry now (those REM held back too)",
    )
    expire.add_argument("category", choices=CATEGORIES, metavar="CATEGORY")
    expire.add_argument("--json", action="store_true", default=_QUIET)
    expire.set_defaults(func=run_expire)

    register_actions(actions)


def _list_flags(parser: argparse.ArgumentParser, *, child: bool) -> None:
    parser.add_argument("--category", choices=CATEGORIES, default=_QUIET if child else None)
    flag = _QUIET if child else False
    parser.add_argument("--all", action="store_true", default=flag, help="include inactive")
    parser.add_argument(
        "--as-of",
        metavar="DATE",
        default=_QUIET if child else None,
        help="the facts that held on that day (YYYY-MM-DD), those since replaced included",
    )
    parser.add_argument(
        "--recorded",
        action="store_true",
        default=flag,
        help="with --as-of: the facts as Kit had them written down by then",
    )
    parser.add_argument("--json", action="store_true", default=flag, help="JSON output")


async def run_list(args: argparse.Namespace) -> int:
    from kit.memory.fact_rows import fact_dict
    from kit.memory.fact_times import parse_day

    as_of = None if args.as_of is None else parse_day(args.as_of, "--as-of")
    if as_of is None and args.recorded:
        raise InputError("--recorded needs --as-of DATE: the day to look back at")
    if as_of is not None and args.all:
        raise InputError(
            "--as-of lists every fact that held that day, retired ones included; drop --all"
        )
    async with open_kit(args, with_embedder=False) as kit:
        facts = await kit.facts(
            user=user_of(args, kit),
            category=args.category,
            include_inactive=args.all,
            as_of=as_of,
            recorded=args.recorded,
        )
        now = kit.now()
        tz = kit.tz
    if args.json:
        print_json([fact_dict(f) for f in facts])
        return 0
    if as_of is not None:
        how = "as Kit had them recorded by the end of" if args.recorded else "that held on"
        print(f"Facts {how} {as_of}:" if facts else f"No facts {how} {as_of}.")
        for fact in facts:
            print(_then_line(fact, tz))
        return 0
    if not facts:
        print("No facts yet.")
    for fact in facts:
        state = "" if fact.is_live(now) else f" ({_unshown(fact, now)})"
        state += " (pinned)" if fact.pinned else " (yours)" if fact.owner_written else ""
        expiry = f" expires {fact.expires_at.date()}" if fact.expires_at else ""
        subject = f"[{fact.subject}] " if fact.subject else ""
        print(
            f"#{fact.id:<5} {fact.category:<11} {fact.confidence:.2f}{expiry}{state}  "
            f"{subject}{fact.content}"
        )
    return 0


async def run_history(args: argparse.Namespace) -> int:
    from kit.memory.fact_rows import fact_dict

    async with open_kit(args, with_embedder=False) as kit:
        user = user_of(args, kit)
        fact = await kit.fact(args.fact_id, user=user)
        entries = await kit.fact_history(args.fact_id, user=user)
        tz = kit.tz
    if args.json:
        print_json({"fact": fact_dict(fact), "history": [_entry_dict(e) for e in entries]})
        return 0
    print(_fact_line(fact))
    print(f"  {_held_line(fact, tz)}")
    for entry in entries:
        print(_entry_line(entry, tz))
        for change in _changes(entry):
            print(f"      {change}")
    return 0


async def run_passes(args: argparse.Namespace) -> int:
    if args.limit < 1:
        raise InputError(f"--limit must be at least 1 (got {args.limit})")
    async with open_kit(args, with_embedder=False) as kit:
        records = await kit.passes(user=user_of(args, kit), limit=args.limit, include_noop=args.all)
        tz = kit.tz
    if args.json:
        print_json([_pass_dict(r) for r in records])
        return 0
    if not records:
        print("No curation passes yet.")
    for record in records:
        print(_pass_line(record, tz))
    return 0


async def run_undo(args: argparse.Namespace) -> int:
    from kit.curator.reports import describe_undo

    async with open_kit(args, with_embedder=False) as kit:
        result = await kit.undo_pass(args.pass_id, user=user_of(args, kit))
    if args.json:
        print_json(dataclasses.asdict(result))
        return 0
    print(describe_undo(result))
    return 0


async def run_expire(args: argparse.Namespace) -> int:
    async with open_kit(args, with_embedder=False) as kit:
        ids = await kit.expire_facts(args.category, user=user_of(args, kit))
    if args.json:
        print_json({"category": args.category, "expired_fact_ids": ids})
    elif ids:
        print(
            f"Retired {plural(len(ids), f'expired {args.category} fact')}: "
            + ", ".join(f"#{i}" for i in ids)
        )
    else:
        print(f"No {args.category} fact is past its expiry.")
    return 0


def _then_line(fact: Fact, tz: tzinfo) -> str:
    """A fact of the past with the days it held."""
    since = fact.holds_since.astimezone(tz).date()
    span = f"since {since}" if fact.valid_until is None else f"{since} to "
    if fact.valid_until is not None:
        span += str(fact.valid_until.astimezone(tz).date())
    subject = f"[{fact.subject}] " if fact.subject else ""
    later = ""
    if fact.valid_until is not None:
        later = f" (then #{fact.replaced_by})" if fact.replaced_by else " (no longer holds)"
    return f"#{fact.id:<5} {fact.category:<11} {span:<24}  {subject}{fact.content}{later}"


def _unshown(fact: Fact, now: datetime) -> str:
    """Why a listed fact is not shown to the model."""
    from kit.memory.fact_rows import MIN_SHOWN_CONFIDENCE

    if not fact.active:
        return "inactive"
    if fact.expires_at is not None and fact.expires_at <= now:
        return "expired"
    return f"hidden: confidence below {MIN_SHOWN_CONFIDENCE}"


def _held_line(fact: Fact, tz: tzinfo) -> str:
    """When the fact held in the world (kit/memory/fact_times.py)."""
    since = fact.holds_since.astimezone(tz).date()
    if fact.valid_until is None:
        return f"holds since {since}"
    until = fact.valid_until.astimezone(tz).date()
    if fact.valid_until <= fact.holds_since:
        return f"never held (retracted; written {since})"
    return f"held from {since} to {until}"


def _fact_line(fact: Fact) -> str:
    state = "active" if fact.active else "inactive"
    if fact.pinned:
        state += ", pinned"
    elif fact.owner_written:
        state += ", written by you"
    if fact.replaced_by is not None:
        state += f", merged into #{fact.replaced_by}"
    subject = f"[{fact.subject}] " if fact.subject else ""
    return f"Fact #{fact.id} ({fact.category}, {state}): {subject}{fact.content}"


def _entry_line(entry: HistoryEntry, tz: tzinfo) -> str:
    at = entry.at.astimezone(tz).strftime("%Y-%m-%d %H:%M")
    via = f"pass {entry.pass_id}" if entry.pass_id is not None else "-"
    line = f"  {at}  {entry.operation:<10} {entry.actor:<8} {via:<9}"
    if entry.reason:
        line += f" {entry.reason}"
    if entry.source_message_ids:
        where = "in a batch of messages" if entry.sources_are_batch else "from messages"
        line += f" ({where} {', '.join(str(i) for i in entry.source_message_ids)})"
    return line.rstrip()


# What a fact says first (all an insert shows), then its state.
_SHOWN = (
    "subject",
    "content",
    "confidence",
    "expires_at",
    "active",
    "replaced_by",
    "pinned",
    "owner_written",
    "valid_from",
    "valid_until",
)


def _changes(entry: HistoryEntry) -> list[str]:
    """What the change did, field by field (the whole fact for an insert)."""
    before, after = entry.before or {}, entry.after or {}
    if not before:
        return [f"{key}: {after[key]!r}" for key in _SHOWN[:4] if after.get(key) not in (None, "")]
    return [
        f"{key}: {before.get(key)!r} -> {after.get(key)!r}"
        for key in _SHOWN
        if before.get(key) != after.get(key)
    ]


def _entry_dict(entry: HistoryEntry) -> dict[str, Any]:
    data = dataclasses.asdict(entry)
    data["at"] = to_iso(entry.at)
    data["source_message_ids"] = list(entry.source_message_ids)
    return data


def _pass_line(record: PassRecord, tz: tzinfo) -> str:
    at = record.started_at.astimezone(tz).strftime("%Y-%m-%d %H:%M")
    dropped_all = record.status == "noop" and bool(record.detail.get("dropped"))
    if (record.status in ("applied", "undone") or dropped_all) and record.kind not in (
        "undo",
        "owner",
    ):
        count = record.change_count
        note = f"{count} change{'s' if count != 1 else ''}"
        if record.detail.get("dropped"):
            note += f", {len(record.detail['dropped'])} dropped"
        if record.asked_count:
            note += f", {record.asked_count} asked (kit inbox)"
    else:
        note = record.reason
    category = record.category or "-"
    return f"#{record.id:<5} {at}  {record.kind:<10} {category:<11} {record.status:<9} {note}"


def _pass_dict(record: PassRecord) -> dict[str, Any]:
    data = dataclasses.asdict(record)
    data["started_at"] = to_iso(record.started_at)
    data["finished_at"] = None if record.finished_at is None else to_iso(record.finished_at)
    return data
