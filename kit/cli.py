"""`kit`: the command line. Each subcommand lives in kit/commands/<name>.py.

Errors a user can fix print one line naming the place and the fix, and exit 2; nothing is
half-written because every multi-row change is one transaction.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import importlib
import logging
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from kit.commands import (
    backup,
    chat,
    context,
    curate,
    digest,
    doctor,
    eval,
    export,
    facts,
    forget,
    history,
    import_,
    inbox,
    init,
    mcp,
    notes,
    reindex,
    rem,
    reminders,
    restore,
    run,
    search,
    service,
    status,
    storage,
    summarize,
    tokens,
)
from kit.errors import KitError
from kit.logs import setup_logging
from kit.untrusted.terminal import BidiSafe
from kit.version import kit_version

# One module per subcommand, each with register(subparsers) setting `func`, in `kit --help`'s
# order. Each imports at its top only what its parser needs (tests/cli/test_startup.py).
COMMANDS = (
    init,
    chat,
    search,
    context,
    import_,
    history,
    facts,
    inbox,
    curate,
    summarize,
    rem,
    digest,
    reindex,
    doctor,
    eval,
    export,
    backup,
    restore,
    storage,
    forget,
    status,
    reminders,
    notes,
    mcp,
    tokens,
    service,
    run,
)

# Subcommands that live outside kit/ because they wire kit to tui/ (which kit never imports):
# named by module, loaded only here, at the program's entry.
EDGE_COMMANDS = ("tui.command",)

log = logging.getLogger("kit")

# Exit status when whoever read our output went away (`kit search ... | head -3`): what a shell
# reports for a program ended by SIGPIPE (128 + 13), without the traceback.
READER_GONE = 141


class KitParser(argparse.ArgumentParser):
    """argparse, but an unknown command gets "did you mean" instead of the list of all of them.
    (Subcommand parsers are made with the parent's class, so `kit eval retrievl` gets it too.)"""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if not isinstance(action, argparse._SubParsersAction) or value in action.choices:
            super()._check_value(action, value)
            return
        names = list(action.choices)
        close = difflib.get_close_matches(str(value), names, n=3, cutoff=0.6)
        hint = (
            "did you mean " + " or ".join(repr(c) for c in close) + "?"
            if close
            else f"`{self.prog} --help` lists the commands ({', '.join(names)})"
        )
        raise argparse.ArgumentError(action, f"unknown command {value!r}; {hint}")


def parser() -> KitParser:
    top = KitParser(prog="kit", description="Kit: a memory-first personal assistant")
    top.add_argument("--version", action="version", version=f"%(prog)s {kit_version()}")
    top.add_argument(
        "--config", help="config file (default: $KIT_CONFIG or ~/.config/kit/config.toml)"
    )
    top.add_argument(
        "--data-dir", help="data directory (default: $KIT_DATA_DIR or ~/.local/share/kit)"
    )
    top.add_argument("--user", help="memory namespace to use (default: owner.user_id)")
    top.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(sub)
    for module in EDGE_COMMANDS:
        importlib.import_module(module).register(sub)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    try:
        try:
            code = _run(argv)
        finally:
            sys.stdout.flush()  # a reader that went away shows here, not as noise at exit
    except BrokenPipeError:
        _reader_gone()
        return READER_GONE
    return code


def _run(argv: Sequence[str] | None) -> int:
    # Every line kit prints passes one place that keeps stored text from reordering the
    # terminal (bidirectional controls shown as escapes: kit/untrusted/terminal.py).
    with _terminal_safe():
        return _run_safely(argv)


@contextlib.contextmanager
def _terminal_safe() -> Iterator[None]:
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = BidiSafe(out), BidiSafe(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def _run_safely(argv: Sequence[str] | None) -> int:
    args = parser().parse_args(argv)  # --help and --version end here, before asyncio loads
    import asyncio

    setup_logging(args.verbose)
    if not args.verbose:
        logging.getLogger().setLevel(logging.WARNING)
    try:
        code: int = asyncio.run(args.func(args))
    except KitError as exc:
        print(f"kit: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    return code


def _reader_gone() -> None:
    """The standard recipe (Python docs, "Note on SIGPIPE"): point stdout at /dev/null so the
    interpreter's own flush at exit finds nothing to complain about, and end quietly."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
