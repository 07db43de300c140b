"""Forget receipts in a `kit export` and back (kit/portability/): an export carries the
user's receipts (they hold no content), and a restore checks the messages it brings back
against the receipts of the memory it restores into and of the one it came from, then keeps
the export's receipts, bound to the user it restores into."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from kit.errors import InputError
from kit.forget.receipt import Receipt, from_document
from kit.forget.receipts import ForgottenCheck, ReceiptMatch, kept, save
from kit.store.db import Database, Transaction


async def exported(db: Database, user_id: str) -> list[dict[str, Any]]:
    """The user's receipts, as sealed documents."""
    rows = await db.fetchall(
        "SELECT document FROM forget_receipts WHERE user_id = ? ORDER BY at, receipt_id",
        (user_id,),
    )
    return [json.loads(r[0]) for r in rows]


def checked(document: Mapping[str, Any], source: str) -> list[Receipt]:
    """The export's receipts, each checked whole (absent in exports made before they were
    kept: none)."""
    items = document.get("forget_receipts", [])
    if not isinstance(items, list):
        raise InputError(f"{source}: forget_receipts must be a list; the export looks damaged")
    return [from_document(item, f"{source}: forget_receipts[{i}]") for i, item in enumerate(items)]


async def check_restore(
    tx: Transaction,
    document: Mapping[str, Any],
    user_id: str,
    *,
    allow_forgotten: bool,
    carried: Sequence[Receipt] = (),
) -> Sequence[ReceiptMatch]:
    """Refuse (ForgottenMessages) an export bringing back messages a forget erased, unless
    `allow_forgotten`; returns the receipts matched. `carried`: receipts of the memory the
    restore replaces (`kit restore`), checked too."""
    receipts = await kept(tx, [user_id, str(document["user_id"])])
    receipts += checked(document, "the export")
    receipts += carried
    check = ForgottenCheck(receipts)
    if check:
        for m in document["messages"]:
            check.see(m["at"], m["role"], m["speaker"], m["text"])
    refusal = None if allow_forgotten else check.refusal("this export")
    if refusal is not None:
        raise refusal
    return check.matches


async def restore_receipts(
    tx: Transaction, document: Mapping[str, Any], user_id: str, carried: Sequence[Receipt] = ()
) -> int:
    """Keep the export's receipts and the carried ones, bound to `user_id`."""
    receipts = [*checked(document, "the export"), *carried]
    for receipt in receipts:
        await save(tx, user_id, receipt.for_user(user_id))
    return len(receipts)
