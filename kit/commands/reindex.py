"""`kit reindex`: re-embed every memory with the configured embedding model now, with a
progress bar, and make it the model searched (a running daemon does the same in the
background after the model changed: kit/daemon/reindex.py). Killed midway, it resumes where
it stopped. With the model unchanged it embeds whatever still lacks a vector and removes the
vectors of models not in use.
"""

from __future__ import annotations

import argparse
import time

from kit.commands.common import open_kit
from kit.commands.progress import progress
from kit.errors import ConfigError
from kit.text import plural


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "reindex",
        help="re-embed every memory with the configured embedding model now",
        description="After embedding.model (or embedding.model_path) changed: embeds every "
        "fact, day summary, message and note section with the configured model, then "
        "searches use it. Until then they use the previous model's vectors (or words). A run "
        "cut short resumes where it stopped; a running daemon does the same in the "
        "background, so stop it first to run this instead.",
    )
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    from kit.embed.spec import EmbeddingModelUnavailable

    busy = (
        "would re-embed beside it; the daemon re-embeds in the background by itself "
        "(`kit status` shows how far it got), or stop it first"
    )
    async with open_kit(args, exclusive=True, busy=busy, model_later=True) as kit:
        if not kit.reindexing and not kit.embeddings_on:
            raise ConfigError(
                f"embeddings are off ({kit.embedding_problem or 'no model'}); fix "
                "embedding.model / embedding.model_path in config.toml, then run this again"
            )
        began = time.perf_counter()
        total = await kit.pending_reindex()
        try:
            with progress("Re-embedding", total=total, unit="items") as bar:
                done = await kit.reindex(on_batch=bar.advance)
        except EmbeddingModelUnavailable as exc:
            raise ConfigError(f"{exc}; nothing was changed, searches go on as before") from exc
    seconds = time.perf_counter() - began
    if done.previous is not None:
        print(
            f"Re-embedded {plural(done.embedded, 'item')} with {done.model} in {seconds:.0f} s "
            f"(was {done.previous}); searches use it now."
        )
    elif done.embedded:
        print(f"Embedded {plural(done.embedded, 'item')} that lacked a vector of {done.model}.")
    else:
        print(f"Nothing to re-embed: every item has its vector of {done.model}.")
    if done.removed:
        print(f"Removed {plural(done.removed, 'vector')} of models not in use.")
    return 0
