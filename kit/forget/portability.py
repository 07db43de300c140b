"""Forget receipts in a `kit export` and back (kit/portability/): an export carries the
user's receipts (they hold no content, and no salt: receipt.py), and a restore answers to two
kinds of receipts:
  - the export's own: forgets made before it was written. Messages they erased should not be
    in it; if they are, the restore is refused unless `allow_forgotten`. They are kept, bound
    to the user restored into;
  - later ones: receipts of the user (and of the user the export came from) that the export
    does not hold, from the data directory's ledger, the database and the memory the restore
    replaces. Forgets made after the export: re-applied to what it restores (reapply.py), or,
    with `allow_forgotten`, only counted (what they erased comes back, and they no longer
    verify). Kept either way.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from typing import Any

from kit.errors import InputError
from kit.forget.ledger import Ledger
from kit.forget.receipt import Receipt, SaltOf, from_document
from kit.forget.receipts import ForgottenCheck, ReceiptMatch, kept, save
from kit.store.db import Database, Transaction


async def exported(db: Database, user_id: str) -> list[dict[str, Any]]:
    """The user's receipts, as sealed documents."""
    rows = await db.fetchall(
        "SELECT document FROM forget_receipts WHERE user_id = ? ORDER BY at, receipt_id",
        (user_id,),
    )
    return [json.loads(r[0]) for r in rows]


def checked(
    document: Mapping[str, Any], source: str, salt_of: SaltOf | None = None
) -> list[Receipt]:
    """The export's receipts, each checked whole (absent in exports made before they were
    kept: none). One whose salt is not in this data directory is read, not `usable`."""
    items = document.get("forget_receipts", [])
    if not isinstance(items, list):
        raise InputError(f"{source}: forget_receipts must be a list; the export looks damaged")
    return [
        from_document(item, f"{source}: forget_receipts[{i}]", salt_of)
        for i, item in enumerate(items)
    ]


def refuse_forgotten(
    own: Sequence[Receipt], document: Mapping[str, Any], *, allow_forgotten: bool
) -> list[ReceiptMatch]:
    """Refuse (ForgottenMessages) an export holding messages its own receipts erased, unless
    `allow_forgotten`; returns the receipts matched."""
    return _matches(own, document, allow_forgotten=allow_forgotten)


async def later_forgets(
    tx: Transaction,
    document: Mapping[str, Any],
    user_id: str,
    own: Sequence[Receipt],
    ledger: Ledger | None,
    carried: Sequence[Receipt] = (),
) -> list[Receipt]:
    """The receipts made after the export (see the module docstring), oldest first, each once
    (the ledger's copy preferred); `carried`: those of the memory the restore replaces."""
    users = list(dict.fromkeys([user_id, str(document["user_id"])]))
    salt_of = None if ledger is None else ledger.salt_of
    found: dict[str, Receipt] = {}
    for receipt in [*await kept(tx, users, salt_of), *carried]:
        found.setdefault(receipt.id, receipt)
    if ledger is not None:
        for _, receipt in await asyncio.to_thread(ledger.of_users, users):
            found[receipt.id] = receipt
    held = {r.id for r in own}
    return sorted((r for r in found.values() if r.id not in held), key=lambda r: (r.at, r.id))


def counted(later: Sequence[Receipt], document: Mapping[str, Any]) -> list[ReceiptMatch]:
    """The later receipts whose erased messages the export brings back (with
    `allow_forgotten`, which re-applies none of them)."""
    return _matches(later, document, allow_forgotten=True)


def _matches(
    receipts: Sequence[Receipt], document: Mapping[str, Any], *, allow_forgotten: bool
) -> list[ReceiptMatch]:
    check = ForgottenCheck(receipts)
    if check:
        for m in document["messages"]:
            check.see(m["at"], m["role"], m["speaker"], m["text"])
    refusal = None if allow_forgotten else check.refusal("this export")
    if refusal is not None:
        raise refusal
    return check.matches


async def keep_receipts(tx: Transaction, user_id: str, receipts: Sequence[Receipt]) -> int:
    """Keep `receipts` in `user_id`'s memory (re-bound to it where their salt is here)."""
    for receipt in receipts:
        await save(tx, user_id, receipt.for_user(user_id))
    return len(receipts)
