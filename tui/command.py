"""`kit tui`: the terminal UI on the daemon when one runs, else on Kit in this process.

Registered through kit/cli.py's EDGE_COMMANDS (loaded by module name at the program's entry),
so `kit` itself never imports `tui`.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import tzinfo
from pathlib import Path

from kit.commands.chat import add_remote_arguments


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "tui",
        help="the terminal UI: chat, days, facts, REM (uses the daemon when it runs)",
        description="Open Kit's terminal UI. It talks to the daemon (`kit run`) over its control "
        "socket when one runs, and runs Kit in this process otherwise; when the daemon stops "
        "under it, it reconnects if the daemon comes back, or runs Kit itself. Logs go to "
        "<data_dir>/logs/tui.log while it is open.",
    )
    cmd.add_argument("--conversation", default="terminal", help="conversation name")
    add_remote_arguments(cmd)
    cmd.set_defaults(func=run)


def tui_log_path(data_dir: Path) -> Path:
    return data_dir / "logs" / "tui.log"


@contextmanager
def logs_to_file(path: Path) -> Iterator[None]:
    """While the UI owns the terminal, log lines go to a file instead of over the screen."""
    from kit.daemon.logfile import add_file_log, remove_file_log

    root = logging.getLogger()
    terminal = [
        h
        for h in root.handlers
        if isinstance(h, logging.StreamHandler) and not isinstance(h, logging.FileHandler)
    ]
    for handler in terminal:
        root.removeHandler(handler)
    file_handler = add_file_log(path)
    try:
        yield
    finally:
        remove_file_log(file_handler)
        for handler in terminal:
            root.addHandler(handler)


async def run(args: argparse.Namespace) -> int:
    # Textual and the core load only when the UI is asked for (not for kit --help).
    from kit.clock import resolve_timezone
    from kit.config import load_settings
    from kit.daemon.follow import Follower
    from tui.app import KitApp

    settings = load_settings(args.config, args.data_dir)
    tz = resolve_timezone(settings.schedule.timezone)
    log_file = tui_log_path(settings.data_dir)
    if args.remote:
        return await _remote(args, tz, log_file)
    if args.remote_data_dir:
        from kit.errors import InputError

        raise InputError("--remote-data-dir goes with --remote [USER@]HOST")
    with logs_to_file(log_file):
        async with Follower.open(settings, user=args.user, background=True) as client:
            app = KitApp(client, tz=tz, conversation=args.conversation, log_file=log_file)
            await app.run_async()
    return app.return_code or 0


async def _remote(args: argparse.Namespace, tz: tzinfo, log_file: Path) -> int:
    """The UI on another machine's daemon, through ssh (kit/daemon/remote.py): connected
    before the UI takes the terminal, so ssh can ask for a passphrase and a failure is one
    line. It does not follow that daemon through restarts: open it again."""
    from kit.daemon.remote import remote_client
    from tui.app import KitApp

    async with remote_client(args.remote, user=args.user, data_dir=args.remote_data_dir) as client:
        with logs_to_file(log_file):
            app = KitApp(client, tz=tz, conversation=args.conversation, log_file=log_file)
            await app.run_async()
    return app.return_code or 0
