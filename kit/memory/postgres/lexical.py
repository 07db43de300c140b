"""Lexical matching on PostgreSQL: tsvector lexical units with a GIN index, English stemming.

The units are SQLite's (postgres/migrations.py writes them): a fact's subject and content, a
note section's name, heading and text, a day's two summaries, a message's speaker, text and
day in words, and apart from those the words of the message before it (`context`). The query
is the same OR of content words as on SQLite (lexical.py: `query_words`); ranking is
`ts_rank` with its length normalisation (rank / (1 + log length)) where SQLite uses BM25 —
measured side by side in the README (`kit eval retrieval --store`). A message's context adds
`context_weight` times its own rank, as SQLite's column weight does, and at 0 it is not
matched at all.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from kit.clock import to_iso
from kit.memory.db import Database
from kit.memory.lexical import query_words
from kit.memory.vectors import Kind

NORMALISATION = 1  # ts_rank: divide by 1 + log(length), like BM25's length term


def tsquery(words: list[str]) -> str:
    """`to_tsquery` text: an OR of the words (letters and digits only: nothing else parses)."""
    return " | ".join(words)


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
        elif kind == "note":
            sql = (
                f"SELECT c.id, ts_rank(t.terms, q, {NORMALISATION}) AS score"
                " FROM to_tsquery('english', ?) q, note_chunks_fts t"
                " JOIN note_chunks c ON c.id = t.id"
                " WHERE t.terms @@ q AND c.user_id = ? ORDER BY score DESC, c.id LIMIT ?"
            )
            params = (tsquery(words), user_id, limit)
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
            score = f"ts_rank(t.terms, q, {NORMALISATION})"
            match = "t.terms @@ q"
            if weight > 0:
                score += f" + {weight!r} * ts_rank(t.context, q, {NORMALISATION})"
                match = "(t.terms @@ q OR t.context @@ q)"
            sql = (
                f"SELECT m.id, {score} AS score"
                " FROM to_tsquery('english', ?) q, messages_fts t JOIN messages m ON m.id = t.id"
                f" WHERE {match} AND m.user_id = ? AND m.at <= ?"
                + (f" AND m.id NOT IN ({skipped})" if skipped else "")
                + " ORDER BY score DESC, m.id LIMIT ?"
            )
            params = (tsquery(words), user_id, to_iso(now), limit)
        rows = await self._db.fetchall(sql, params)
        return [(int(r[0]), float(r[1])) for r in rows]
