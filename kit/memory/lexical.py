"""Lexical matching: names, dates and rare words. On SQLite with FTS5 (porter stemming,
BM25, here); on PostgreSQL with tsvector (kit/memory/postgres/lexical.py). Both take the same
query words (`query_words`) and answer the same question (`LexicalSearch`)."""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import datetime
from typing import Protocol

from kit.clock import to_iso
from kit.memory.db import Database
from kit.memory.vectors import Kind

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)

# Words that carry no topic: matching on them only adds noise to BM25.
STOPWORDS = frozenset(
    """a about above after again all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is
    it its itself just me more most my myself no nor not now of off on once only or other our
    ours ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we
    were what when where which while who whom why will with would you your yours yourself
    yourselves tell know remember kit please thing things ever also get got one""".split()
)


def words_of(text: str) -> list[str]:
    """The text's words, lower-cased, as FTS5's tokenizer splits them (before stemming)."""
    return _TOKEN.findall(text.lower())


def query_words(text: str) -> list[str]:
    """The text's distinct content words, at most 32: what a lexical search looks for."""
    words: list[str] = []
    for token in words_of(text):
        if token not in STOPWORDS and token not in words and (len(token) > 1 or token.isdigit()):
            words.append(token)
    return words[:32]


def fts_query(text: str) -> str | None:
    """An OR-query of the text's distinct content words, each quoted (no FTS syntax leaks)."""
    words = query_words(text)
    if not words:
        return None
    return " OR ".join(f'"{w}"' for w in words)


class LexicalSearch(Protocol):
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
        """Ids and relevance scores (higher is better), best first. Facts: live ones only.
        Messages: none of those in `skip` (they take no rank); words of the message before
        one (its lexical unit's context, m010) count `context_weight` as much as its own, and
        at 0 they are not matched at all."""
        ...


class LexicalIndex:
    """SQLite's FTS5 tables, ranked by BM25."""

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
        """Ids and BM25 scores (higher is better), best first. Facts: live ones only.
        Messages: none of those in `skip` (they take no rank); words of the message before
        one (its `context` column, m010) count `context_weight` as much as its own, and at
        0 they are not matched at all."""
        query = fts_query(text)
        if query is None:
            return []
        if kind == "fact":
            sql = (
                "SELECT f.id, -bm25(facts_fts) FROM facts_fts"
                " JOIN facts f ON f.id = facts_fts.rowid"
                " WHERE facts_fts MATCH ? AND f.user_id = ? AND f.active = 1"
                " AND (f.expires_at IS NULL OR f.expires_at > ?)"
                " ORDER BY bm25(facts_fts) LIMIT ?"
            )
            params: tuple[object, ...] = (query, user_id, to_iso(now), limit)
        elif kind == "note":
            sql = (
                "SELECT c.id, -bm25(note_chunks_fts) FROM note_chunks_fts"
                " JOIN note_chunks c ON c.id = note_chunks_fts.rowid"
                " WHERE note_chunks_fts MATCH ? AND c.user_id = ?"
                " ORDER BY bm25(note_chunks_fts) LIMIT ?"
            )
            params = (query, user_id, limit)
        elif kind == "day":
            sql = (
                "SELECT d.id, -bm25(days_fts) FROM days_fts JOIN days d ON d.id = days_fts.rowid"
                " WHERE days_fts MATCH ? AND d.user_id = ? AND d.day <= ?"
                " ORDER BY bm25(days_fts) LIMIT ?"
            )
            params = (query, user_id, now.date().isoformat(), limit)
        else:
            skipped = ",".join(str(int(i)) for i in skip)
            if context_weight <= 0:
                query = f"{{speaker text}} : ({query})"
            bm25 = "bm25(messages_fts, 1.0, 1.0, ?)"
            sql = (
                f"SELECT m.id, -{bm25} FROM messages_fts"
                " JOIN messages m ON m.id = messages_fts.rowid"
                " WHERE messages_fts MATCH ? AND m.user_id = ? AND m.at <= ?"
                + (f" AND m.id NOT IN ({skipped})" if skipped else "")
                + f" ORDER BY {bm25} LIMIT ?"
            )
            weight = max(context_weight, 0.0)
            params = (weight, query, user_id, to_iso(now), weight, limit)
        rows = await self._db.fetchall(sql, params)
        return [(int(r[0]), float(r[1])) for r in rows]
