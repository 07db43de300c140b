"""`kit`: the command line. Each subcommand lives in kit/commands/<name>.py.

Errors a user can fix print one line naming the place and the fix, and exit 2; nothing is
half-written because every multi-row change is one transaction.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import sys
from collections.abc import Sequence

from kit.errors import KitError
from kit.logs import setup_logging

# One module per subcommand, each with register(subparsers) setting `func`.
COMMANDS = (
    "chat",
    "search",
    "context",
    "import_",
    "history",
    "facts",
    "curate",
    "summarize",
    "rem",
    "doctor",
    "eval",
    "export",
    "backup",
    "forget",
    "status",
)

# Subcommands that live outside kit/ because they wire kit to scheduler/ or tui/ (which kit
# never imports): named by module, loaded only here, at the program's entry.
EDGE_COMMANDS = ("kitd.run", "tui.command")

log = logging.getLogger("kit")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="kit", description="Kit: a memory-first personal assistant")
    top.add_argument(
        "--config", help="config file (default: $KIT_CONFIG or ~/.config/kit/config.toml)"
    )
    top.add_argument(
        "--data-dir", help="data directory (default: $KIT_DATA_DIR or ~/.local/share/kit)"
    )
    top.add_argument("--user", help="memory namespace to use (default: owner.user_id)")
    top.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"kit.commands.{name}").register(sub)
    for module in EDGE_COMMANDS:
        importlib.import_module(module).register(sub)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
