"""Lexical matching on PostgreSQL: tsvector lexical units with a GIN index, English stemming.

The units are SQLite's (postgres/migrations.py writes them): a fact's subject and content, a
day's two summaries, a message's speaker, text and day in words at weight A and the words of
the message before it at weight D. The query is the same OR of content words as on SQLite
(lexical.py: `query_words`); ranking is `ts_rank` with its length normalisation (rank / (1 +
log length)) where SQLite uses BM25 — measured side by side in the README (`kit eval
retrieval --store`). The previous message's words count `context_weight` as much as a
message's own (the D weight of the rank), and at 0 they are not matched at all (`word:A`).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from kit.clock import to_iso
from kit.memory.db import Database
from kit.memory.lexical import query_words
from kit.memory.vectors import Kind

NORMALISATION = 1  # ts_rank: divide by 1 + log(length), like BM25's length term


def tsquery(words: list[str], *, own_words_only: bool = False) -> str:
    """`to_tsquery` text: an OR of the words (letters and digits only: nothing else parses)."""
    label = ":A" if own_words_only else ""
    return " | ".join(f"{w}{label}" for w in words)


class TsvectorSearch:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def search(
        self,
        user_id: str,
        kind: Kind,
        text: str,
        limit: int,
        *,
        now: datetime,
        skip: Collection[int] = (),
        context_weight: float = 0.0,
    ) -> list[tuple[int, float]]:
        words = query_words(text)
        if not words:
            return []
        if kind == "fact":
            sql = (
                f"SELECT f.id, ts_rank(t.terms, q, {NORMALISATION}) AS score"
                " FROM to_tsquery('english', ?) q, facts_fts t JOIN facts f ON f.id = t.id"
                " WHERE t.terms @@ q AND f.user_id = ? AND f.active = 1"
                " AND (f.expires_at IS NULL OR f.expires_at > ?)"
                " ORDER BY score DESC, f.id LIMIT ?"
            )
            params: tuple[object, ...] = (tsquery(words), user_id, to_iso(now), limit)
        elif kind == "day":
            sql = (
                f"SELECT d.id, ts_rank(t.terms, q, {NORMALISATION}) AS score"
                " FROM to_tsquery('english', ?) q, days_fts t JOIN days d ON d.id = t.id"
                " WHERE t.terms @@ q AND d.user_id = ? AND d.day <= ?"
                " ORDER BY score DESC, d.id LIMIT ?"
            )
            params = (tsquery(words), user_id, now.date().isoformat(), limit)
        else:
            skipped = ",".join(str(int(i)) for i in skip)
            weight = max(context_weight, 0.0)
            # ts_rank's weights are {D, C, B, A}: a message's own words are A, context D.
            sql = (
                f"SELECT m.id, ts_rank(CAST(? AS real[]), t.terms, q, {NORMALISATION}) AS score"
                " FROM to_tsquery('english', ?) q, messages_fts t JOIN messages m ON m.id = t.id"
                " WHERE t.terms @@ q AND m.user_id = ? AND m.at <= ?"
                + (f" AND m.id NOT IN ({skipped})" if skipped else "")
                + " ORDER BY score DESC, m.id LIMIT ?"
            )
            params = (
                [weight, 0.0, 0.0, 1.0],
                tsquery(words, own_words_only=weight <= 0),
                user_id,
                to_iso(now),
                limit,
            )
        rows = await self._db.fetchall(sql, params)
        return [(int(r[0]), float(r[1])) for r in rows]
