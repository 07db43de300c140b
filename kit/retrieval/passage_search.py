"""The message layer's vector ranking with the passages of long messages beside the messages.

A long message's own vector is the average meaning of everything in it (and the model reads
only its first 256 tokens or so): an owner's question about one paragraph of a long answer
finds it weakly or not at all. Each passage of a long message has a vector of its own (kind
'passage', kit/retrieval/passage_rows.py), so the message ranks by the better of its own
cosine and its best passage's, and the passage that matched is the one shown
(kit/retrieval/passages.py `best_passage`).
"""

from __future__ import annotations

from collections.abc import Collection

from kit.embed.base import Vectors
from kit.retrieval.kinds import PASSAGES
from kit.retrieval.passage_rows import PassageRow
from kit.retrieval.ready import Soon
from kit.retrieval.vectors import VectorIndex

# Passages fetched per message asked for: a long message has several, and its near ones
# come together, so more are read to fill the same number of messages.
PASSAGES_PER_MESSAGE = 3


async def message_vectors(
    vectors: VectorIndex,
    user_id: str,
    query: Vectors,
    k: int,
    threshold: float,
    skip: Collection[int] = (),
) -> tuple[list[tuple[int, float]], dict[int, PassageRow]]:
    """The `k` best messages by cosine, each the better of its own vector's and its best
    passage's, best first; and per message found through a passage, that passage."""
    # The messages' own scan, the big one, is awaited here: a scan big enough for a thread is
    # handed to it there and then, where a new task (the passages' search) starts only on the
    # loop's next turn, after whatever else the query's vector woke (issue 33, round 18).
    near = Soon(vectors.search(user_id, PASSAGES, query, k * PASSAGES_PER_MESSAGE, threshold))
    try:
        own = await vectors.search(user_id, "message", query, k, threshold, skip=skip)
        passages = await near.get()
    finally:
        near.close()  # done: kept as it is; a failed scan: the passages' search stopped
    best = dict(own)
    matched: dict[int, PassageRow] = {}
    if passages:
        rows = await vectors.passages.rows([i for i, _ in passages])
        for passage_id, score in passages:  # best first: a message's first passage is its best
            row = rows.get(passage_id)
            if row is None or row.message_id in skip or row.message_id in matched:
                continue  # its message was forgotten meanwhile, or is left out, or has one
            matched[row.message_id] = row
            if score > best.get(row.message_id, -1.0):
                best[row.message_id] = score
    ranked = sorted(best.items(), key=lambda hit: -hit[1])[:k]
    kept = {i for i, _ in ranked}
    return ranked, {i: row for i, row in matched.items() if i in kept}
