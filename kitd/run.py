"""`kit run`: run Kit as a daemon until SIGTERM/SIGINT (see kit/daemon/runner.py), with the
scheduler as one of its components."""

from __future__ import annotations

import argparse
import asyncio
import logging

from kit.app import Services, missing_keys
from kit.config import load_settings
from kit.daemon.runner import DEFAULT_GRACE, STEP_TIMEOUT, run_daemon
from kit.errors import ConfigError, InputError
from scheduler import KitScheduler


class ScheduledJobs:
    """The scheduler as a daemon component: started in the daemon's TaskGroup, shut down
    (bounded) when the daemon cancels it."""

    name = "scheduler"

    def __init__(self, services: Services) -> None:
        self._scheduler = KitScheduler(services)

    async def run(self) -> None:
        try:
            await self._scheduler.start()
            await asyncio.Event().wait()  # until cancelled; APScheduler fires meanwhile
        finally:
            await self._scheduler.shutdown(grace_seconds=STEP_TIMEOUT)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "run",
        help="run Kit as a daemon: control socket, background work, scheduler, Telegram",
        description="Run Kit until SIGTERM/SIGINT. One daemon per data directory. "
        "`kit chat`, `kit rem`, `kit status` and `kit tui` talk to it over "
        "<data_dir>/kit.sock; logs go to stderr and <data_dir>/logs/kit.log.",
    )
    cmd.add_argument(
        "--shutdown-grace",
        type=float,
        default=DEFAULT_GRACE,
        metavar="SECONDS",
        help=f"time replies in flight get to finish on shutdown (default {DEFAULT_GRACE:g})",
    )
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    if args.shutdown_grace < 0:
        raise InputError("--shutdown-grace must be zero or more seconds")
    settings = load_settings(args.config, args.data_dir)
    for problem in missing_keys(settings):  # each model role's key (llm.key_env)
        raise ConfigError(
            f"{problem.removesuffix(' and restart Kit')}: the daemon needs it to answer (for "
            "systemd: put it in ~/.config/kit/env, see contrib/kit.service) and run `kit run` "
            "again"
        )
    logging.getLogger().setLevel(logging.DEBUG if args.verbose else logging.INFO)
    await run_daemon(settings, components=[ScheduledJobs], grace=args.shutdown_grace)
    return 0
