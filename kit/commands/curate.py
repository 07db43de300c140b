"""`kit curate`: curate the uncurated messages now, printing what each pass did.

The daemon does this on its own once a conversation has been idle for curation.idle_minutes;
this is for doing it right away, and for retrying batches parked after repeated failures.
Exit status: 0, or 1 when the model was unreachable or every pass was rejected or failed.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections import Counter
from typing import TYPE_CHECKING

from kit.commands.common import open_kit, print_json, user_of
from kit.commands.progress import progress
from kit.text import plural

if TYPE_CHECKING:
    from kit.curator.reports import PassOutcome

_LABELS = {
    "applied": "applied",
    "noop": "no change",
    "rejected": "REJECTED",
    "failed": "FAILED",
    "skipped": "skipped",
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser("curate", help="curate long-term facts from new messages now")
    cmd.add_argument(
        "--retry-parked",
        action="store_true",
        help="retry the batches given up on after curation.max_attempts failures",
    )
    cmd.add_argument("--json", action="store_true", help="machine-readable output")
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    async with open_kit(args, with_embedder=False) as kit:
        user = user_of(args, kit)
        # Retrying parked batches, the work is known; otherwise passes are counted as they end.
        total = len(await kit.parked_batches(user=user)) if args.retry_parked else None
        with progress("Curating", total=total, unit="passes") as bar:
            outcomes = await kit.curate(
                user=user, retry_parked=args.retry_parked, on_pass=lambda _: bar.advance()
            )
        parked = len(await kit.parked_batches(user=user))
    if args.json:
        print_json({"passes": [dataclasses.asdict(o) for o in outcomes], "parked": parked})
        return 1 if _broken(outcomes) else 0
    if not outcomes:
        print("Nothing to curate." if not args.retry_parked else "No parked batches.")
    for outcome in outcomes:
        for line in _lines(outcome):
            print(line)
    if outcomes:
        counts = Counter(_LABELS[o.status] for o in outcomes)
        print(
            f"{plural(len(outcomes), 'pass', 'passes')}: "
            + ", ".join(f"{n} {s}" for s, n in counts.items())
        )
    if parked:
        print(
            f"{plural(parked, 'batch', 'batches')} parked after repeated failures; "
            "`kit curate --retry-parked`"
        )
    return 1 if _broken(outcomes) else 0


def _broken(outcomes: list[PassOutcome]) -> bool:
    """Exit 1 when the model could not be reached or a conversation crashed, and when every
    pass was rejected or failed: nothing was curated, so a script must not read success."""
    if any(o.status == "failed" and o.pass_id is None for o in outcomes):
        return True
    return bool(outcomes) and all(o.status in ("rejected", "failed") for o in outcomes)


def _lines(outcome: PassOutcome) -> list[str]:
    category = outcome.category or "-"
    head = f"{category:<11} {_LABELS[outcome.status]:<9}"
    if outcome.pass_id is not None:
        head += f" pass {outcome.pass_id}"
    if outcome.reason and outcome.status != "noop":
        head += f": {outcome.reason}"
    return [
        head,
        *(f"    {c}" for c in outcome.changes),
        *(f"    {d}" for d in outcome.dropped),
        *(f"    {a}" for a in outcome.asked),
    ]
