"""`kit status`: whether a daemon runs and how ready it is, the models, tokens used today, the
background budget, the last REM."""

from __future__ import annotations

import argparse
from datetime import tzinfo
from typing import TYPE_CHECKING

from kit.clock import local_minute, resolve_timezone
from kit.commands.common import print_json
from kit.daemon.lock import DataDirLock
from kit.daemon.paths import log_path, socket_path

if TYPE_CHECKING:
    from kit.llm.budget import BudgetState
    from kit.retrieval.model_state import ReindexProgress
    from kit.surface import Status


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser("status", help="is the daemon running? models, tokens today, last REM")
    cmd.add_argument("--json", action="store_true", help="print JSON")
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    from kit.config import load_settings
    from kit.daemon.codec import encode
    from kit.daemon.connect import connect_to

    settings = load_settings(args.config, args.data_dir)
    async with connect_to(settings, user=args.user, background=False) as client:
        status = await client.status()
    pid = DataDirLock(settings.data_dir).holder().pid if status.mode == "daemon" else None
    if args.json:
        print_json(encode(status) | {"pid": pid, "data_dir": str(settings.data_dir)})
        return 0
    if status.mode == "daemon":
        print(f"Kit daemon running (pid {pid}), up {_duration(status.uptime_seconds)}")
        print(f"  control socket: {socket_path(settings.data_dir)}")
        print(f"  ready: {ready_line(status)}")
        print(f"  log: {log_path(settings.data_dir)}")
    else:
        print(f"No Kit daemon on {settings.data_dir}; this is Kit standalone (start it: kit run)")
    tz = resolve_timezone(settings.schedule.timezone)
    print(f"  user: {status.user_id}")
    print(f"  models: chat {status.chat_model}, small {status.small_model}")
    print(f"  embeddings: {status.embedding_model or 'off (lexical search only)'}")
    if status.reindex is not None:
        print(f"  re-embedding: {reindex_line(status.reindex, tz)}")
    print(f"  tokens today: {status.tokens_today:,}")
    if status.background is not None:
        print(f"  background budget: {budget_line(status.background, status.user_id, tz)}")
    last = (
        "never" if status.last_rem_at is None else local_minute(status.last_rem_at, tz, zone=True)
    )
    print(f"  last REM: {last}")
    return 0


def ready_line(status: Status) -> str:
    """Which of a daemon's two moments it has reached: its socket accepts (it answers, on
    words), and search by meaning serves (the embedding model and the vectors are in)."""
    if not status.vector_search:
        after = status.vector_search_after
        when = "" if after is None else f" ({after:.1f} s after the start)"
        return f"the socket accepts; search by meaning serves{when}"
    return f"the socket accepts; search by meaning not yet: {status.vector_search}"


def reindex_line(progress: ReindexProgress, tz: tzinfo) -> str:
    """How far the re-embedding with a newly configured model got, and what serves meanwhile."""
    since = "" if progress.since is None else f" since {local_minute(progress.since, tz)}"
    line = f"{progress.done:,} of {progress.total:,} items with {progress.target}{since}; "
    if progress.problem is not None:
        line += f"stopped: {progress.problem}; "
    if progress.serving_loads:
        line += f"searches use {progress.serving} until it ends"
    else:
        line += "searches use words alone until it ends (the previous model cannot be loaded)"
    return line + " (`kit reindex` finishes it now, with a progress bar)"


def budget_line(state: BudgetState, user_id: str, tz: tzinfo) -> str:
    """Today's background spending against its caps, and whether that work is paused."""
    line = f"{state.spent:,} of {state.daily_tokens:,} tokens used today"
    if state.user_daily_tokens:
        line += f" ({user_id}: {state.user_spent:,} of {state.user_daily_tokens:,})"
    if state.paused_at is not None:
        since = state.paused_at.astimezone(tz).strftime("%H:%M")
        line += f"; spent at {since}: background work that does not fit waits for midnight"
    return line


def _duration(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes}m"
    return f"{minutes}m {secs}s"
