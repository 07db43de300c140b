"""`kit run`: run Kit as a daemon until SIGTERM/SIGINT (see kit/daemon/runner.py), with the
scheduler as one of its components (scheduler/component.py).

The daemon process as a whole is kit's core + the scheduler + the channels, so this is the one
module of kit/ that imports scheduler/ (inside `run`, so `kit --help` loads neither; the rule is
in tests/test_quality.py): the process that wires them together is the command that runs it."""

from __future__ import annotations

import argparse
import logging
import sys

from kit.daemon.grace import DEFAULT_GRACE
from kit.errors import ConfigError, InputError, KitError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "run",
        help="run Kit as a daemon: control socket, background work, scheduler, Telegram, Matrix",
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
    # The core and the scheduler load here, not when the parser is built (kit --help).
    from kit.app_models import missing_keys
    from kit.config import load_settings
    from kit.daemon.grace import STEP_TIMEOUT
    from kit.daemon.runner import ComponentFactory, run_daemon
    from kit.daemon.threads import WorkerThreads
    from scheduler.component import ScheduledJobs

    if args.shutdown_grace < 0:
        raise InputError("--shutdown-grace must be zero or more seconds")
    settings = load_settings(args.config, args.data_dir)
    for problem in missing_keys(settings):  # each model role's key (llm.key_env)
        raise ConfigError(
            f"{problem.removesuffix(' and restart Kit')}: the daemon needs it to answer "
            "(`kit init` sets Kit up; for systemd the key goes in ~/.config/kit/env, see "
            "`kit service install`) and run `kit run` again"
        )
    logging.getLogger().setLevel(logging.DEBUG if args.verbose else logging.INFO)
    # A worker thread cannot be cancelled: one still loading the embedding model must not
    # hold the exit once the daemon has stopped (kit/daemon/threads.py).
    threads = WorkerThreads.install()
    try:
        components: list[ComponentFactory] = [ScheduledJobs]
        if settings.mcp_http.enabled:  # the MCP server over HTTP (kit/mcp/http.py)
            from kit.mcp.wiring import daemon_component

            components.append(daemon_component(settings.mcp_http, grace=args.shutdown_grace))
        await run_daemon(settings, components=components, grace=args.shutdown_grace)
    except KitError as exc:
        if not await threads.stop(STEP_TIMEOUT):
            print(f"kit: {exc}", file=sys.stderr)  # what kit/cli.py would say
            threads.exit_without_them(exc.exit_code)
        raise
    if not await threads.stop(STEP_TIMEOUT):
        threads.exit_without_them(0)
    return 0
