"""`kit forget --receipts` and `kit forget --verify RECEIPT`: what each forget erased, by
count and hash, and whether any of it is back (kit/forget/verify.py). Both only read,
so they run beside a daemon too."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TYPE_CHECKING

from kit.commands.common import open_kit, user_of
from kit.text import plural

if TYPE_CHECKING:
    from kit.forget.findings import Verification
    from kit.forget.receipt import Receipt
    from kit.forget.receipts import ReceiptInfo


def counts_line(counts: Mapping[str, int]) -> str:
    """A receipt's counts per kind, in words."""
    c = {k: int(v) for k, v in counts.items()}
    derived = (
        c.get("days_rewritten", 0)
        + c.get("conversation_summaries_rewritten", 0)
        + c.get("records_scrubbed", 0)
    )
    parts = [
        plural(c.get("messages_removed", 0), "message"),
        plural(c.get("facts_forgotten", 0), "fact"),
        plural(c.get("days_removed", 0), "day summary", "day summaries"),
        plural(c.get("note_versions_erased", 0), "note version"),
        plural(c.get("vectors_erased", 0), "vector"),
        plural(c.get("index_entries_erased", 0), "search-index entry", "search-index entries"),
        f"{derived:,} summaries and records rewritten",
    ]
    if c.get("reminders_removed"):
        parts.append(plural(c["reminders_removed"], "reminder"))
    return ", ".join(parts)


def receipt_lines(receipt: Receipt, saved_to: str | None = None) -> list[str]:
    """What `kit forget` prints about the receipt it just made."""
    lines = [
        f"Receipt {receipt.id} ({receipt.at:%Y-%m-%d %H:%M} UTC, {receipt.describe()}): "
        f"{counts_line(receipt.counts)}; hash of what was erased {receipt.erased[:16]}.",
    ]
    if saved_to:
        lines.append(f"A copy is in {saved_to} (it holds no content).")
    lines.append(f"Check at any time that none of it is back: kit forget --verify {receipt.id}")
    return lines


def _listing(receipts: list[ReceiptInfo]) -> str:
    if not receipts:
        return "No forget receipts: nothing was forgotten with `kit forget` in this memory."
    return "\n".join(
        f"{r.id}  {r.at:%Y-%m-%d %H:%M}  {r.scope}: {counts_line(r.counts)}  #{r.erased[:16]}"
        for r in receipts
    )


def report(result: Verification) -> str:
    from kit.forget.findings import DERIVED

    r = result.receipt
    head = f"Receipt {r.id} ({r.at:%Y-%m-%d}, {r.scope})"
    if result.ok:
        return (
            f"{head} verifies: nothing it erased is in memory "
            f"({len(result.places)} places checked: {', '.join(result.places)})."
        )
    places = len({f.place for f in result.leftovers})
    where = plural(places, "place")
    lines = [f"{head} does NOT verify: what it erased is back or left in {where}:"]
    lines += [f"  {f.line()}" for f in result.leftovers]
    if any(f.place not in DERIVED for f in result.leftovers):
        lines.append(
            "Run the same forget again to erase what came back (for a person, give the name "
            "again: the receipt does not keep it), then verify again."
        )
    if any(f.place in DERIVED for f in result.leftovers):
        lines.append(
            "Search-index entries and vectors are derived from rows: stop Kit and run "
            f"`kit forget --verify {r.id} --repair` to erase the ones left."
        )
    return "\n".join(lines)


async def run_receipts(args: argparse.Namespace) -> int:
    async with open_kit(args, with_embedder=False) as kit:
        receipts = await kit.forget_receipts(user=user_of(args, kit))
    print(_listing(receipts))
    return 0


async def run_verify(args: argparse.Namespace) -> int:
    if args.repair:
        return await _repair(args)
    async with open_kit(args, with_embedder=False) as kit:
        result = await kit.verify_forget(args.verify, user=user_of(args, kit))
    print(report(result))
    return 0 if result.ok else 1


async def _repair(args: argparse.Namespace) -> int:
    """Like a forget, a repair changes what a running Kit holds in memory: it takes the data
    directory (`exclusive`), and refuses while a daemon or `kit chat` holds it."""
    async with open_kit(args, with_embedder=False, exclusive=True) as kit:
        user = user_of(args, kit)
        before = await kit.verify_forget(args.verify, user=user)
        result = await kit.repair_forget(args.verify, user=user) if not before.ok else before
    repaired = len(before.leftovers) - len(result.leftovers)
    if repaired:
        print(f"Repaired: {plural(repaired, 'leftover')} in derived state erased.")
    print(report(result))
    return 0 if result.ok else 1
