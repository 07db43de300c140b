"""`kit import FILE`: JSON Lines of messages, all or nothing."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from kit.commands.common import embed_pending, open_kit, user_of
from kit.commands.forget_lines import flag_line, forget_lines
from kit.commands.progress import progress
from kit.text import plural

if TYPE_CHECKING:
    from kit.forget.receipts import ReceiptMatch


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "import",
        help="import messages from JSON Lines",
        description='One message per line: {"role" or "speaker", "text", "at" (ISO-8601),'
        ' optional "ref"}. The file is checked whole before anything is written. Messages the'
        " conversation already holds (same time, role, speaker and text) are not added again,"
        " so importing a file twice adds nothing. A `kit export --format json` file is restored"
        " instead, into an empty memory only, and the forgets made after it are applied to it"
        " again. Messages a `kit forget` erased (the same, or the same within the hour with"
        " other spaces or capitals) are refused (its receipt is named) unless --allow-forgotten.",
    )
    cmd.add_argument("file", type=Path)
    cmd.add_argument(
        "--conversation",
        help="conversation name (default: the file name); a message is looked for as already "
        "present in this conversation",
    )
    cmd.add_argument("--no-embed", action="store_true", help="store now, embed later (daemon)")
    cmd.add_argument(
        "--allow-forgotten",
        action="store_true",
        help="import messages a `kit forget` erased anyway (refused without it; the forget's "
        "receipt then no longer verifies); for an export, do not apply later forgets to it",
    )
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    from kit.portability.importer import check_jsonl, iter_jsonl
    from kit.portability.restore import is_export_file

    if is_export_file(args.file):
        return await restore_export(args, args.file)
    with progress(f"Checking {args.file.name}"):
        total = check_jsonl(args.file)  # every line checked before the database is opened
    flagged: list[ReceiptMatch] = []
    async with open_kit(args, with_embedder=not args.no_embed, exclusive=True) as kit:
        with progress("Importing", total=total, unit="messages") as bar:
            added = await kit.import_messages(  # read again, a batch at a time: flat memory
                bar.track(iter_jsonl(args.file)),
                user=user_of(args, kit),
                conversation=args.conversation or args.file.name,
                allow_forgotten=args.allow_forgotten,
                on_forgotten=flagged.extend,
            )
        present = total - added
        if not present:
            print(f"Imported {plural(added, 'message')} from {args.file}.")
        else:
            print(
                f"{plural(present, 'message')} from {args.file} already present, {added:,} new"
                + (" (nothing imported)." if not added else " (imported).")
            )
        if flagged:
            print(flag_line(flagged, f"{args.file}"))
        if not args.no_embed and kit.embeddings_on:
            embedded = await embed_pending(kit)
            print(f"Embedded {plural(embedded, 'item')}; they are searchable now.")
    return 0


async def restore_export(args: argparse.Namespace, file: Path) -> int:
    """A `kit export` document: restored whole, into a namespace that holds nothing yet
    (`kit import`; `kit restore` replaces one: kit/commands/restore.py)."""
    from kit.config import load_settings
    from kit.forget.ledger import Ledger
    from kit.portability.restore import read_export

    ledger = Ledger(load_settings(args.config, args.data_dir).data_dir)
    document = read_export(file, ledger.salt_of)  # checked whole before the database is opened
    embed = not getattr(args, "no_embed", False)
    async with open_kit(args, with_embedder=embed, exclusive=True) as kit:
        user = args.user or document["user_id"]
        allow = getattr(args, "allow_forgotten", False)
        result = await kit.restore(document, user=user, allow_forgotten=allow)
        print(
            f"Restored the memory of {user!r} from {file}: {plural(result.facts, 'fact')} "
            f"({plural(result.history, 'history entry', 'history entries')}), "
            f"{plural(result.days, 'day')}, {plural(result.messages, 'message')} in "
            f"{plural(result.conversations, 'conversation')}, "
            f"{plural(result.passes, 'pass', 'passes')}, {plural(result.notes, 'note')}"
            + (" (ids renumbered: they were taken here)." if result.renumbered else ".")
        )

        for line in forget_lines(result.reapplied, (), file):
            print(line)
        if result.forgotten:
            print(flag_line(list(result.forgotten), f"{file}"))
        if embed and kit.embeddings_on:
            embedded = await embed_pending(kit)
            print(f"Embedded {plural(embedded, 'item')}; they are searchable now.")
    return 0
