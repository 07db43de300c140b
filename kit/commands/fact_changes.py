"""`kit facts add|edit|pin|unpin|forget`: the owner writes long-term memory.

Each change is one pass of kind "owner" (kit/curator/owner.py): listed by `kit facts passes`,
taken back by `kit facts undo PASS_ID`, and the fact is the owner's from then on (the curator
and REM leave it alone). Like `kit chat` and `kit rem`, these go through the running daemon
when there is one (it embeds the new text at once) and run Kit in this process otherwise.
"""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date, tzinfo
from typing import TYPE_CHECKING, Any

from kit.choices import CATEGORIES
from kit.clock import resolve_timezone
from kit.commands.common import print_json
from kit.errors import InputError

if TYPE_CHECKING:
    from kit.curator.reports import OwnerChange
    from kit.surface import KitClient

_QUIET = argparse.SUPPRESS


def register_actions(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The write actions of `kit facts` (facts.py registers the rest)."""
    add = actions.add_parser(
        "add",
        help="write a fact yourself (the curator never changes it)",
        description="Write a long-term fact as the owner: confidence 1.0, and the curator and "
        "REM never rewrite or retire it. Secrets are refused.",
    )
    add.add_argument("text", nargs="+", metavar="TEXT", help="the fact, e.g. Prefers green tea")
    add.add_argument("--category", choices=CATEGORIES, default="person", help="default: person")
    add.add_argument("--subject", default="", help="who or what it is about, e.g. Ana")
    add.add_argument("--pin", action="store_true", help="pin it: always in context")
    add.add_argument("--expires", metavar="DATE", help="the last day it holds (YYYY-MM-DD)")
    _time_flags(add)
    add.add_argument("--json", action="store_true", default=_QUIET)
    add.set_defaults(func=run_add)

    edit = actions.add_parser(
        "edit",
        help="rewrite a fact (from then on it is yours: the curator never changes it)",
        description="Rewrite a fact's text, subject or expiry as the owner. What you do not "
        "give stays as it was.",
    )
    edit.add_argument("fact_id", type=int, metavar="FACT_ID")
    edit.add_argument("text", nargs="*", metavar="TEXT", help="the new text")
    edit.add_argument("--subject", help="a new subject ('' clears it)")
    expiry = edit.add_mutually_exclusive_group()
    expiry.add_argument("--expires", metavar="DATE", help="the last day it holds (YYYY-MM-DD)")
    expiry.add_argument("--no-expiry", action="store_true", help="it no longer expires")
    _time_flags(edit)
    edit.add_argument("--json", action="store_true", default=_QUIET)
    edit.set_defaults(func=run_edit)

    for name, what in (
        ("pin", "pin a fact: always in context, and the curator and REM leave it alone"),
        ("unpin", "unpin a fact"),
    ):
        pin = actions.add_parser(name, help=what, description=what[0].upper() + what[1:] + ".")
        pin.add_argument("fact_id", type=int, metavar="FACT_ID")
        pin.add_argument("--json", action="store_true", default=_QUIET)
        pin.set_defaults(func=run_pin, pinned=name == "pin")

    forget = actions.add_parser(
        "forget",
        help="retire a fact: Kit stops using it, its history keeps it (not `kit forget`)",
        description="Retire one fact: Kit stops using it, nothing is erased, its history keeps "
        "it with your reason, and `kit facts undo PASS_ID` brings it back. To erase what Kit "
        "learned (messages, facts, summaries) for good, use `kit forget` instead.",
    )
    forget.add_argument("fact_id", type=int, metavar="FACT_ID")
    forget.add_argument(
        "--reason", default="retired by the owner", help="why (kept in the fact's history)"
    )
    forget.add_argument("--json", action="store_true", default=_QUIET)
    forget.set_defaults(func=run_forget)


def _time_flags(parser: argparse.ArgumentParser) -> None:
    """Since when a fact holds, until when it held (kit/memory/fact_times.py)."""
    parser.add_argument(
        "--since", metavar="DATE", help="the day it began to hold (YYYY-MM-DD; default: now)"
    )
    parser.add_argument(
        "--until",
        metavar="DATE",
        help="the last day it held: it no longer does (YYYY-MM-DD, today at most)",
    )


def _day(text: str | None, flag: str = "--expires") -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError as exc:
        shown = repr(text) if len(text) <= 20 else "that"
        raise InputError(f"{flag} {shown} is not a date; use YYYY-MM-DD, e.g. 2026-09-30") from exc


async def run_add(args: argparse.Namespace) -> int:
    expires = _day(args.expires)
    since, until = _day(args.since, "--since"), _day(args.until, "--until")
    async with client_for(args) as client:
        change = await client.add_fact(
            " ".join(args.text),
            category=args.category,
            subject=args.subject,
            pinned=args.pin,
            expires=expires,
            since=since,
            until=until,
        )
    return _report(args, change, "Added")


async def run_edit(args: argparse.Namespace) -> int:
    expires = _day(args.expires)
    since, until = _day(args.since, "--since"), _day(args.until, "--until")
    text = " ".join(args.text) or None
    asked = (text, args.subject, expires, since, until)
    if all(v is None for v in asked) and not args.no_expiry:
        raise InputError(
            "say what to change: the new text, --subject, --expires, --no-expiry, --since or "
            f"--until (e.g. kit facts edit {args.fact_id} Lives in Porto --since 2026-03-01)"
        )
    async with client_for(args) as client:
        change = await client.edit_fact(
            args.fact_id,
            text,
            subject=args.subject,
            expires=expires,
            clear_expiry=args.no_expiry,
            since=since,
            until=until,
        )
    return _report(args, change, "Edited")


async def run_pin(args: argparse.Namespace) -> int:
    async with client_for(args) as client:
        if args.pinned:
            change = await client.pin_fact(args.fact_id)
        else:
            change = await client.unpin_fact(args.fact_id)
    return _report(args, change, "Pinned" if args.pinned else "Unpinned")


async def run_forget(args: argparse.Namespace) -> int:
    async with client_for(args) as client:
        change = await client.deactivate_fact(args.fact_id, args.reason)
    return _report(args, change, "Retired")


@asynccontextmanager
async def client_for(args: argparse.Namespace) -> AsyncIterator[KitClient]:
    """The daemon's client when one runs, else Kit in this process; sets `args.tz`."""
    from kit.config import load_settings
    from kit.daemon.connect import connect_to

    settings = load_settings(args.config, args.data_dir)
    args.tz = resolve_timezone(settings.schedule.timezone)
    async with connect_to(settings, user=args.user, background=False) as client:
        yield client


def change_dict(change: OwnerChange) -> dict[str, Any]:
    from kit.memory.fact_rows import fact_dict

    return {
        "pass_id": change.pass_id,
        "operation": change.operation,
        "fact": fact_dict(change.fact),
    }


def describe(change: OwnerChange, done: str, tz: tzinfo) -> list[str]:
    """What the owner is told: the fact as it is now, and how to take the change back."""
    from kit.curator.owner import last_day

    fact = change.fact
    subject = f"[{fact.subject}] " if fact.subject else ""
    flags = [fact.category]
    if fact.pinned:
        flags.append("pinned")
    if fact.expires_at is not None:
        flags.append(f"holds through {last_day(fact.expires_at, tz)}")
    since = fact.holds_since.astimezone(tz).date()
    if fact.valid_until is not None:
        flags.append(f"held {since} to {fact.valid_until.astimezone(tz).date()}")
    elif since < fact.created_at.astimezone(tz).date():
        flags.append(f"since {since}")
    lines = [f"{done} fact #{fact.id} ({', '.join(flags)}): {subject}{fact.content}"]
    if change.operation == "retire" or not fact.active:
        lines.append("Kit no longer uses it; its history keeps it.")
    lines.append(f"Recorded as pass {change.pass_id}; `kit facts undo {change.pass_id}` undoes it.")
    return lines


def _report(args: argparse.Namespace, change: OwnerChange, done: str) -> int:
    if args.json:
        print_json(change_dict(change))
    else:
        print("\n".join(describe(change, done, args.tz)))
    return 0
