"""What every subcommand shares: opening a Kit from the global flags, printing results.

Like every command module, this one is imported to build the parser (`kit --help`): it
loads the core (kit.api and what it brings) only when a command opens a Kit.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import TYPE_CHECKING, Any

from kit.clock import to_iso
from kit.commands.progress import progress
from kit.daemon.lock import AlreadyRunning, DataDirLock

if TYPE_CHECKING:
    from kit.api import Kit
    from kit.retrieval.hits import Hit


@asynccontextmanager
async def open_kit(
    args: argparse.Namespace,
    *,
    with_embedder: bool = True,
    background: bool = False,
    exclusive: bool = False,
    busy: str = "writes a lot at once, so stop it first",
    model_later: bool = False,
) -> AsyncIterator[Kit]:
    """An in-process Kit. `exclusive` commands write a lot at once (imports, summaries): they
    take the data-directory lock, so they never hold SQLite's write lock under a running
    daemon long enough to make its own writes time out (`busy` says why to the owner).
    `model_later`: the embedding model loads when first used, not before this yields."""
    from kit.api import Kit
    from kit.config import load_settings

    settings = load_settings(args.config, args.data_dir)
    lock = DataDirLock(settings.data_dir) if exclusive else None
    if lock is not None:
        holder = lock.try_acquire("standalone")
        if holder is not None:
            raise AlreadyRunning(
                f"{settings.data_dir}: {holder.describe()} is using this data directory; "
                f"`kit {args.command}` {busy} "
                "(e.g. systemctl --user stop kit), run this again, then restart it",
                holder,
            )
    try:
        async with AsyncExitStack() as stack:
            # Loading the embedding model takes seconds (minutes when it downloads first).
            what = "Opening Kit (loading the embedding model)" if with_embedder else "Opening Kit"
            with progress(what):
                kit = await stack.enter_async_context(
                    Kit.open(
                        settings=settings,
                        with_embedder=with_embedder,
                        background=background,
                        model_later=model_later,
                    )
                )
            yield kit
    finally:
        if lock is not None:
            lock.release()


async def embed_pending(kit: Kit) -> int:
    """Embed whatever is not embedded yet, with a progress bar (the slow part of an import:
    minutes for tens of thousands of messages on a small machine). Returns how many."""
    if not kit.embeddings_on:
        return 0
    total = await kit.pending_embeddings()
    if not total:
        return 0
    with progress("Embedding", total=total, unit="items") as bar:
        return await kit.embed_pending(on_batch=bar.advance)


def user_of(args: argparse.Namespace, kit: Kit) -> str:
    return str(args.user or kit.settings.owner.user_id)


def hit_dict(hit: Hit) -> dict[str, Any]:
    data: dict[str, Any] = {
        "kind": hit.kind,
        "id": hit.id,
        "score": round(hit.score, 4),
        "text": hit.text,
        "at": to_iso(hit.at),
        "ref": hit.ref,
        "cosine": None if hit.cosine is None else round(hit.cosine, 4),
        "vector_rank": hit.vector_rank,
        "lexical_rank": hit.lexical_rank,
    }
    if hit.fact is not None:
        data.update(
            category=hit.fact.category, subject=hit.fact.subject, confidence=hit.fact.confidence
        )
    if hit.day is not None:
        data["day"] = hit.day.day.isoformat()
    if hit.message is not None:
        data.update(role=hit.message.role, speaker=hit.message.speaker)
    if hit.note is not None:
        data.update(note=hit.note.name, start_line=hit.note.start_line, end_line=hit.note.end_line)
    return data


def print_json(value: Any) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2))
