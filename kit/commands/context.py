"""`kit context MESSAGE`: exactly what Kit would put in front of the model for a message.

Each section with its items, each item's score and why it was chosen (and what was cut, and
why), token counts per section and the time of each stage. Nothing is written (no access
counts, no embeddings) and no model is called; with a daemon running it asks the daemon, so
its caches and its view are the ones shown.
"""

from __future__ import annotations

import argparse

from kit.commands.common import print_json
from kit.context.render import render


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "context", help="show what Kit would put in front of the model for a message"
    )
    cmd.add_argument("message", nargs="+", help="the message, as you would send it")
    cmd.add_argument(
        "--conversation", default="terminal", help="whose window and summary (default: terminal)"
    )
    cmd.add_argument("--json", action="store_true", help="machine-readable output")
    cmd.add_argument("--raw", action="store_true", help="print only the system prompt, verbatim")
    cmd.add_argument("--dropped", action="store_true", help="also list what was cut, and why")
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    from kit.daemon.codec import encode
    from kit.daemon.connect import connect

    async with connect(args, background=False, settle=False) as client:
        report = await client.context(" ".join(args.message), conversation=args.conversation)
    if args.json:
        print_json(encode(report))
    elif args.raw:
        print("\n\n".join(block.text for block in report.system))
    else:
        print(render(report, dropped=args.dropped))
    return 0
