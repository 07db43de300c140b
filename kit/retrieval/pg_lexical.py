"""Lexical matching on PostgreSQL: tsvector lexical units with a GIN index, English stemming.

The units are SQLite's (kit/store/postgres/fts_schema.py writes them): a fact's subject and content,
a note section's name, heading and text, a day's two summaries, a message's speaker, text and
day in words, and apart from those the words of the message before it (`context`). The query
is the same OR of content words as on SQLite (lexical.py: `query_words`), and so is the
ranking: BM25 (k1 1.2, b 0.75), computed here in SQL from the matching rows' tsvectors
(term counts from their positions) because PostgreSQL's own `ts_rank` has no inverse document
frequency: a word every message holds (a speaker's name) would count as much as a rare one
(measured: recall@15 0.740 with ts_rank, 0.820 with this, docs/retrieval-quality.md). Document
frequencies are
the user's own, among the rows that match (a word's df is the rows holding it); the collection
size is the user's rows of that kind. A row's length is its words (positions, stopwords left
out); the average length is the matching rows' (averaging every row of the user's would read
all their tsvectors per query). The rows are looked up by user and words together
(`ARRAY[user_id]` beside the tsvectors in one GIN index, kit/store/postgres/fts_schema.py), never
every user's rows holding a word. A message's context counts `context_weight` times its own words in
the term count, as SQLite's column weight does, and at 0 it is not matched at all.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from kit.clock import to_iso
from kit.retrieval.lexical import query_words
from kit.retrieval.vectors import Kind
from kit.store.db import Database

K1, B = 1.2, 0.75  # FTS5's bm25() constants


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
        common_rows: int = 0,  # not bounded here: every match is ranked (GIN finds them all)
        held_then: bool = False,
    ) -> list[tuple[int, float]]:
        words = query_words(text)
        if not words:
            return []
        weight = 0.0
        if kind == "fact" and held_then:  # as of `now` (kit/memory/fact_times.py HELD_AT)
            fts, source = "facts_fts", "facts"
            where = (
                "s.valid_from <= ? AND (s.valid_until IS NULL OR s.valid_until > ?)"
                " AND (s.expires_at IS NULL OR s.expires_at > ?)"
            )
            params: list[object] = [to_iso(now)] * 3
        elif kind == "fact":
            fts, source = "facts_fts", "facts"
            where = "s.active = 1 AND (s.expires_at IS NULL OR s.expires_at > ?)"
            params = [to_iso(now)]
        elif kind == "note":
            fts, source, where, params = "note_chunks_fts", "note_chunks", "1 = 1", []
        elif kind == "day":
            fts, source, where = "days_fts", "days", "s.day <= ?"
            params = [now.date().isoformat()]
        else:
            fts, source, where = "messages_fts", "messages", "s.at <= ?"
            params = [to_iso(now)]
            if skip:
                where += f" AND s.id NOT IN ({','.join(str(int(i)) for i in skip)})"
            weight = max(context_weight, 0.0)
        sql = _bm25(fts, source, where, weight)
        rows = await self._db.fetchall(
            sql, (tsquery(words), " ".join(words), user_id, *params, user_id, limit)
        )
        return [(int(r[0]), float(r[1])) for r in rows]


def _bm25(fts: str, source: str, where: str, context_weight: float) -> str:
    """BM25 over the rows of `source` (alias s) matching the query, one user's, `where` holding.
    Parameters: the tsquery text, the words, the user, `where`'s, the user again, the limit."""
    match = "t.terms @@ q.query"
    counted = (
        "SELECT h.id, u.lexeme, array_length(u.positions, 1) * 1.0 AS n, h.len"
        " FROM hits h, q, unnest(h.terms) u WHERE u.lexeme = ANY(q.lexemes)"
    )
    if context_weight > 0:
        match = "(t.terms @@ q.query OR t.context @@ q.query)"
        counted += (
            f" UNION ALL SELECT h.id, u.lexeme, array_length(u.positions, 1) * {context_weight!r},"
            " h.len FROM hits h, q, unnest(h.context) u WHERE u.lexeme = ANY(q.lexemes)"
        )
    context = ", t.context" if context_weight > 0 else ""
    return (
        "WITH q AS (SELECT to_tsquery('english', ?) AS query,"
        " tsvector_to_array(to_tsvector('english', ?)) AS lexemes),"
        f" hits AS (SELECT t.id, t.terms{context}, (SELECT"
        " COALESCE(SUM(array_length(w.positions, 1)), 0) FROM unnest(t.terms) w) AS len"
        f" FROM q, {fts} t JOIN {source} s ON s.id = t.id"
        f" WHERE ARRAY[t.user_id] @> ARRAY[?::text] AND {match} AND {where}),"
        f" counted AS ({counted}),"
        " per AS (SELECT id, lexeme, SUM(n) AS tf, MAX(len) AS len FROM counted"
        " GROUP BY id, lexeme),"
        " df AS (SELECT lexeme, COUNT(*) AS docs FROM per GROUP BY lexeme),"
        f" size AS (SELECT (SELECT COUNT(*) FROM {source} WHERE user_id = ?) AS docs,"
        " (SELECT GREATEST(AVG(len), 1) FROM hits) AS avglen)"
        " SELECT per.id, SUM(ln(1 + (size.docs - df.docs + 0.5) / (df.docs + 0.5))"
        f" * per.tf * {K1 + 1} / (per.tf + {K1} * ({1 - B} + {B} * per.len / size.avglen)))"
        " AS score FROM per JOIN df USING (lexeme), size GROUP BY per.id"
        " ORDER BY score DESC, per.id LIMIT ?"
    )
