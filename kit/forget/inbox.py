"""`kit forget` and the inbox: a question quotes what it asks about (the proposed text, the
facts as they were), so every question that cites a forgotten message, concerns an erased
fact, or quotes what the forget erases (an erased fact's text, the forgotten person's name:
a proposal can name someone its message and facts do not) is deleted with them, in the
forget's own transaction: an answer could write the text back, and the inbox and the digest
would show it. Here, not beside the inbox's store (kit/curator/questions.py), so the forget imports
nothing of the curator's."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from kit.forget.traces import strings_in
from kit.store.db import Transaction


async def erase_questions(
    tx: Transaction,
    user_id: str,
    message_ids: Sequence[int],
    fact_ids: Sequence[int],
    quotes: Callable[[str], bool],
) -> int:
    """Delete the user's questions citing `message_ids`, concerning `fact_ids`, or holding a
    text `quotes` finds erased; how many."""
    lost, erased = set(message_ids), set(fact_ids)
    rows = await tx.fetchall(
        "SELECT id, reason, operation_json, old_json FROM inbox WHERE user_id = ?", (user_id,)
    )
    gone = []
    for question_id, reason, operation_text, facts_text in rows:
        operation, facts = json.loads(operation_text), json.loads(facts_text)
        involved = {f["id"] for f in facts}
        involved |= set(operation.get("fact_ids", ())) | {operation.get("fact_id")}
        cited = set(operation.get("sources", ())) & lost or involved & erased
        texts = [reason, *strings_in(operation), *strings_in(facts)]
        if cited or any(quotes(text) for text in texts):
            gone.append((question_id,))
    await tx.executemany("DELETE FROM inbox WHERE id = ?", gone)
    return len(gone)
