"""`kit forget` and the inbox: a question quotes what it asks about (the proposed text, the
facts as they were), so every question that cites a forgotten message or concerns an erased
fact is deleted with them, in the forget's own transaction. Here, not beside the inbox's
store (kit/inbox/store.py), so the forget imports nothing of the curator's."""

from __future__ import annotations

import json
from collections.abc import Sequence

from kit.store.db import Transaction


async def erase_questions(
    tx: Transaction, user_id: str, message_ids: Sequence[int], fact_ids: Sequence[int]
) -> int:
    """Delete the user's questions citing `message_ids` or concerning `fact_ids`; how many."""
    lost, erased = set(message_ids), set(fact_ids)
    if not lost and not erased:
        return 0
    rows = await tx.fetchall(
        "SELECT id, operation_json, old_json FROM inbox WHERE user_id = ?", (user_id,)
    )
    gone = []
    for question_id, operation_text, facts_text in rows:
        operation = json.loads(operation_text)
        involved = {f["id"] for f in json.loads(facts_text)}
        involved |= set(operation.get("fact_ids", ())) | {operation.get("fact_id")}
        if set(operation.get("sources", ())) & lost or involved & erased:
            gone.append((question_id,))
    await tx.executemany("DELETE FROM inbox WHERE id = ?", gone)
    return len(gone)
