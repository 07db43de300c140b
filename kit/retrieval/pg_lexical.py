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

A word in more of the user's rows than `common_rows` is common, and bounds the rows scored as
on SQLite (lexical.py): BM25 here costs far more per row than FTS5's (each matching row's
tsvector is unnested and its lexemes grouped), so one common word made a search cost what the
user's archive weighs. The rows scored are then those holding a rarer word of the query and,
only when they are fewer than the limit, the newest `common_rows` holding a common word and the
newest holding every common word. They are ranked by every word of the query, the common
ones included: a word's frequency is every row of the user's holding it, as without the bound
(all the rows of a rare word are scored; a common word's are counted through the index, far
cheaper than scoring them), and the average length is that of the rows scored. Telling a
common word counts its rows through the index, at most `common_rows + 1` of them.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from kit.clock import to_iso
from kit.retrieval.kinds import Kind
from kit.retrieval.lexical import query_words
from kit.store.db import Database

K1, B = 1.2, 0.75  # FTS5's bm25() constants


def tsquery(words: list[str]) -> str:
    """`to_tsquery` text: an OR of the words (letters and digits only: nothing else parses)."""
    return " | ".join(words)


_TSQUERY = "to_tsquery('english', ?)"


def _holds(context_weight: float, query: str = _TSQUERY) -> str:
    """A row (alias t) holds the query's words: its own, or (a message at a context weight
    above 0) those of the message before it."""
    if context_weight > 0:
        return f"(t.terms @@ {query} OR t.context @@ {query})"
    return f"t.terms @@ {query}"


_FTS: dict[Kind, str] = {
    "fact": "facts_fts",
    "note": "note_chunks_fts",
    "day": "days_fts",
    "message": "messages_fts",
}


class TsvectorSearch:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def warm(self) -> None:
        """Nothing is kept in memory: the server searches its own index."""

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
        common_rows: int = 0,
        held_then: bool = False,
    ) -> list[tuple[int, float]]:
        words = query_words(text)
        if not words:
            return []
        fts = _FTS[kind]
        weight = 0.0
        if kind == "fact" and held_then:  # as of `now` (kit/memory/fact_times.py HELD_AT)
            source = "facts"
            where = (
                "s.valid_from <= ? AND (s.valid_until IS NULL OR s.valid_until > ?)"
                " AND (s.expires_at IS NULL OR s.expires_at > ?)"
            )
            params: list[object] = [to_iso(now)] * 3
        elif kind == "fact":
            source = "facts"
            where = "s.active = 1 AND (s.expires_at IS NULL OR s.expires_at > ?)"
            params = [to_iso(now)]
        elif kind == "note":
            source, where, params = "note_chunks", "1 = 1", []
        elif kind == "day":
            source, where = "days", "s.day <= ?"
            params = [now.date().isoformat()]
        else:
            source, where = "messages", "s.at <= ?"
            params = [to_iso(now)]
            if skip:
                where += f" AND s.id NOT IN ({','.join(str(int(i)) for i in skip)})"
            weight = max(context_weight, 0.0)
        # The user's rows (alias t, joined to `source` as s) passing the filters.
        mine = f"ARRAY[t.user_id] @> ARRAY[?::text] AND {where}"
        values: list[object] = [user_id, *params]
        common = await self._common(fts, user_id, words, weight, common_rows)
        if common:
            frequent = [w for w in words if w in common]
            ids, scored_values = _bounded(
                fts, source, mine, values, words, frequent, weight, limit, common_rows
            )
            # A common word's frequency is every row of the user's holding it, counted
            # through the index (the rows scored hold only some of them).
            known = " UNION ALL ".join(
                f"SELECT lexeme, (SELECT count(*) FROM {fts} t JOIN {source} s ON s.id = t.id"
                f" WHERE {_holds(weight)} AND {mine}) AS docs"
                " FROM unnest(tsvector_to_array(to_tsvector('english', ?))) AS lexeme"
                for _ in frequent
            )
            known_values = [v for w in frequent for v in (*[w] * _uses(weight), *values, w)]
            sql = _bm25(fts, source, f"t.id IN ({ids})", weight, known)
            values = [*scored_values, *known_values]
        else:
            sql = _bm25(fts, source, f"{_holds(weight, 'q.query')} AND {mine}", weight)
        rows = await self._db.fetchall(
            sql, (tsquery(words), " ".join(words), *values, user_id, limit)
        )
        return [(int(r[0]), float(r[1])) for r in rows]

    async def _common(
        self, fts: str, user_id: str, words: list[str], weight: float, common_rows: int
    ) -> set[str]:
        """The words in more than `common_rows` of the user's rows (0: no word is common),
        each counted through the index only that far."""
        if common_rows <= 0:
            return set()
        counts = ", ".join(
            f"(SELECT count(*) FROM (SELECT 1 FROM {fts} t WHERE"
            f" ARRAY[t.user_id] @> ARRAY[?::text] AND {_holds(weight)} LIMIT ?) c)"
            for _ in words
        )
        arguments = [v for w in words for v in (user_id, *[w] * _uses(weight), common_rows + 1)]
        row = await self._db.fetchone(f"SELECT {counts}", arguments)
        assert row is not None
        return {w for w, n in zip(words, tuple(row), strict=True) if int(n) > common_rows}


def _uses(context_weight: float) -> int:
    """How many parameters `_holds` takes."""
    return 2 if context_weight > 0 else 1


def _bounded(
    fts: str,
    source: str,
    mine: str,
    values: list[object],
    words: list[str],
    frequent: list[str],
    weight: float,
    limit: int,
    window: int,
) -> tuple[str, list[object]]:
    """The ids of the rows a query with common words (`frequent`) scores (module note), and
    their parameters: `mine` (with `values`) is the user's rows passing the filters."""
    rare = [w for w in words if w not in frequent]
    rows = f"SELECT t.id FROM {fts} t JOIN {source} s ON s.id = t.id WHERE {_holds(weight)}"
    rows += f" AND {mine}"
    parts: list[str] = []
    arguments: list[object] = []
    scarce = [tsquery(rare)] * _uses(weight)
    newest = ""
    after: list[object] = []
    if rare:
        parts.append(rows)
        arguments += [*scarce, *values]
        # The newest rows with common words join only when the rare ones are too few.
        newest = f" AND NOT {_holds(weight)} AND (SELECT count(*) FROM ({rows} LIMIT ?) r) < ?"
        after = [*scarce, *scarce, *values, limit, limit]
    windows = [tsquery(frequent)]
    if len(frequent) > 1:
        windows.append(" & ".join(frequent))
    for expression in windows:
        parts.append(f"({rows}{newest} ORDER BY t.id DESC LIMIT ?)")
        arguments += [*[expression] * _uses(weight), *values, *after, window]
    return " UNION ".join(parts), arguments


def _bm25(fts: str, source: str, scored: str, context_weight: float, known: str = "") -> str:
    """BM25 over the rows of `fts` (alias t, joined to `source` as s) for which `scored` holds.
    A word's document frequency is the number of rows scored holding it, or where `known`
    (rows of lexeme, docs) gives one, that. Parameters: the tsquery text, the words,
    `scored`'s, `known`'s, the user, the limit."""
    counted = (
        "SELECT h.id, u.lexeme, array_length(u.positions, 1) * 1.0 AS n, h.len"
        " FROM hits h, q, unnest(h.terms) u WHERE u.lexeme = ANY(q.lexemes)"
    )
    if context_weight > 0:
        counted += (
            f" UNION ALL SELECT h.id, u.lexeme, array_length(u.positions, 1) * {context_weight!r},"
            " h.len FROM hits h, q, unnest(h.context) u WHERE u.lexeme = ANY(q.lexemes)"
        )
    context = ", t.context" if context_weight > 0 else ""
    df = "SELECT lexeme, COUNT(*) AS docs FROM per GROUP BY lexeme"
    if known:
        df = (
            "SELECT lexeme, docs FROM known UNION ALL SELECT lexeme, COUNT(*) FROM per"
            " WHERE lexeme NOT IN (SELECT lexeme FROM known) GROUP BY lexeme"
        )
    return (
        "WITH q AS (SELECT to_tsquery('english', ?) AS query,"
        " tsvector_to_array(to_tsvector('english', ?)) AS lexemes),"
        f" hits AS (SELECT t.id, t.terms{context}, (SELECT"
        " COALESCE(SUM(array_length(w.positions, 1)), 0) FROM unnest(t.terms) w) AS len"
        f" FROM q, {fts} t JOIN {source} s ON s.id = t.id WHERE {scored}),"
        f" counted AS ({counted}),"
        " per AS (SELECT id, lexeme, SUM(n) AS tf, MAX(len) AS len FROM counted"
        " GROUP BY id, lexeme),"
        + (f" known AS (SELECT DISTINCT lexeme, docs FROM ({known}) k)," if known else "")
        + f" df AS ({df}),"
        f" size AS (SELECT (SELECT COUNT(*) FROM {source} WHERE user_id = ?) AS docs,"
        " (SELECT GREATEST(AVG(len), 1) FROM hits) AS avglen)"
        " SELECT per.id, SUM(ln(1 + (size.docs - df.docs + 0.5) / (df.docs + 0.5))"
        f" * per.tf * {K1 + 1} / (per.tf + {K1} * ({1 - B} + {B} * per.len / size.avglen)))"
        " AS score FROM per JOIN df USING (lexeme), size GROUP BY per.id"
        " ORDER BY score DESC, per.id LIMIT ?"
    )
