"""`kit import FILE`: JSON Lines of messages, all or nothing."""

from __future__ import annotations

import argparse
from pathlib import Path

from kit.commands.common import open_kit, user_of
from kit.importer import read_jsonl


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "import",
        help="import messages from JSON Lines",
        description='One message per line: {"role" or "speaker", "text", "at" (ISO-8601),'
        ' optional "ref"}. The file is checked whole before anything is written.',
    )
    cmd.add_argument("file", type=Path)
    cmd.add_argument("--conversation", help="conversation name (default: the file name)")
    cmd.add_argument("--no-embed", action="store_true", help="store now, embed later (daemon)")
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    items = read_jsonl(args.file)  # validate everything before opening the database
    async with open_kit(args, with_embedder=not args.no_embed) as kit:
        count = await kit.import_messages(
            items, user=user_of(args, kit), conversation=args.conversation or args.file.name
        )
        print(f"Imported {count} messages from {args.file}.")
        if not args.no_embed and kit.services.vectors.available:
            embedded = await kit.services.vectors.backfill()
            print(f"Embedded {embedded} items; they are searchable now.")
    return 0
