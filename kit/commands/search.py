"""`kit search QUERY`: hybrid search over facts, day summaries, the message archive and notes."""

from __future__ import annotations

import argparse
from datetime import datetime

from kit.clock import check_time
from kit.commands.common import embed_pending, hit_dict, open_kit, print_json, user_of
from kit.errors import InputError

NOTE_CLIP = 200


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser("search", help="search memory (facts, days, messages, notes)")
    cmd.add_argument("query", nargs="+", help="what to look for")
    cmd.add_argument("--k", type=int, default=None, help="results per layer (default memory.top_k)")
    cmd.add_argument("--json", action="store_true", help="machine-readable output")
    cmd.add_argument("--now", help="search as of this ISO-8601 time (default: now)")
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    from kit.retrieval.kinds import KINDS, NOTES

    now = None
    if args.now:
        try:
            now = datetime.fromisoformat(args.now)
        except ValueError as exc:
            raise InputError(f"--now {args.now!r} is not an ISO-8601 time") from exc
        if now.tzinfo is None:
            raise InputError(f"--now {args.now!r} needs a timezone, e.g. +00:00")
        check_time(now, "--now")
    if args.k is not None and args.k < 1:
        raise InputError("--k must be at least 1")
    async with open_kit(args) as kit:
        await embed_pending(kit)  # anything stored but not yet embedded (after import --no-embed)
        await kit.settle()  # and the window summaries still owed
        hits = await kit.search(
            " ".join(args.query), user=user_of(args, kit), now=now, k=args.k, kinds=(*KINDS, NOTES)
        )
    if args.json:
        print_json([hit_dict(h) for h in hits])
        return 0
    if not hits:
        print("Nothing found.")
    for hit in hits:
        label = {"fact": f"fact #{hit.id}", "day": "day", "message": "message"}.get(hit.kind, "")
        when = hit.at.date().isoformat() if hit.kind in ("day", "message") else ""
        if hit.note is not None:
            label = f"note {hit.note.name} lines {hit.note.start_line}-{hit.note.end_line}"
        ref = f" ref={hit.ref}" if hit.ref else ""
        who = f"{hit.message.speaker or hit.message.role}: " if hit.message else ""
        text = hit.text
        if hit.note is not None:  # a section of a document: a taste, on one line
            text = " ".join(text.split())
            text = text if len(text) <= NOTE_CLIP else text[: NOTE_CLIP - 1] + "…"
        print(f"{hit.score:.3f}  [{label} {when}{ref}] {who}{text}".replace(" ]", "]"))
    return 0
