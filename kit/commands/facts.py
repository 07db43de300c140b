"""`kit facts`: list long-term facts."""

from __future__ import annotations

import argparse

from kit.commands.common import open_kit, print_json, user_of
from kit.config import CATEGORIES
from kit.memory.facts import fact_dict


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser("facts", help="list long-term facts")
    cmd.add_argument("--category", choices=CATEGORIES)
    cmd.add_argument("--all", action="store_true", help="include inactive facts")
    cmd.add_argument("--json", action="store_true", help="machine-readable output")
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    async with open_kit(args, with_embedder=False) as kit:
        facts = await kit.facts(
            user=user_of(args, kit), category=args.category, include_inactive=args.all
        )
        now = kit.services.clock.now()
    if args.json:
        print_json([fact_dict(f) for f in facts])
        return 0
    if not facts:
        print("No facts yet.")
    for fact in facts:
        state = "" if fact.is_live(now) else (" (expired)" if fact.active else " (inactive)")
        expiry = f" expires {fact.expires_at.date()}" if fact.expires_at else ""
        subject = f"[{fact.subject}] " if fact.subject else ""
        print(
            f"#{fact.id:<5} {fact.category:<11} {fact.confidence:.2f}{expiry}{state}  "
            f"{subject}{fact.content}"
        )
    return 0
