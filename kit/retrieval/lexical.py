"""Lexical matching: names, dates and rare words. On SQLite with FTS5 (porter stemming,
BM25, here); on PostgreSQL with tsvector (kit/retrieval/pg_lexical.py). Both take the same
query words (`query_words`) and answer the same question (`LexicalSearch`).

On SQLite, FTS5 scores every row a query matches (BM25, about a microsecond a row here), so one word
found in half the archive would make a search cost what the archive weighs, however few rows
it returns. A word in more than `common_rows` rows of a layer is therefore *common*:
- rows with a rarer word of the query are ranked by the BM25 of all its words, common ones
  included, exactly as the whole query ranks them (same scores), and when they fill the
  limit the search stops there: the rare words say what the query is about;
- otherwise rows with only common words are ranked with them: the newest `common_rows` of
  them, and the newest of those with every common word (a conjunction is rare even when
  its words are not).
The rows scored are then the rare words' rows plus at most twice `common_rows`; telling a
common word is a walk over its first `common_rows` rows (~30 ns a row). The trade-off,
measured on LoCoMo and at 100k rows, is in docs/retrieval-quality.md and docs/measurements.md.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from kit.clock import to_iso
from kit.store.db import Database

if TYPE_CHECKING:  # vectors.py imports the passages, which read words with this module
    from kit.retrieval.kinds import Kind

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
    """The text's distinct content words, in order, at most 32: what a lexical search looks for."""
    words: list[str] = []
    for token in words_of(text):
        if token not in STOPWORDS and token not in words and (len(token) > 1 or token.isdigit()):
            words.append(token)
    return words[:32]


def any_of(words: Sequence[str]) -> str:
    """An FTS5 OR-query of the words, each quoted (no FTS syntax leaks)."""
    return " OR ".join(f'"{w}"' for w in words)


def fts_query(text: str) -> str | None:
    """An OR-query of the text's distinct content words, each quoted (no FTS syntax leaks)."""
    words = query_words(text)
    return any_of(words) if words else None


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
        common_rows: int = 0,
        held_then: bool = False,
    ) -> list[tuple[int, float]]:
        """Ids and relevance scores (higher is better), best first. Facts: live ones only
        (with `held_then`: those that held at `now`, superseded ones included).
        Messages: none of those in `skip` (they take no rank); words of the message before
        one (its lexical unit's context, m010) count `context_weight` as much as its own, and
        at 0 they are not matched at all. `common_rows`: a bound on the rows a word common in
        the layer makes the engine score (0: none; an engine may rank every match anyway)."""
        ...

    async def warm(self) -> None:
        """Load what searches keep in memory, if the engine keeps anything there (a daemon,
        after its start; searches meanwhile ask the database)."""
        ...


@dataclass(frozen=True)
class _Layer:
    """One layer's FTS5 table, the rows it joins, the filters a match must pass, and its BM25
    (named parameters: :user, :now, :today, :context, :limit)."""

    fts: str
    join: str
    id: str
    where: str
    bm25: str
    columns: str = ""  # an FTS5 column filter every match is restricted to

    def match(self, expression: str) -> str:
        return f"{self.columns} : ({expression})" if self.columns else expression

    def select(self, match: str, newest: bool = False) -> str:
        """Matching rows that pass the filters, best BM25 first; with `newest`, only the
        newest :window of them are scored (the index hands them out newest first)."""
        rows = f"SELECT {self.id}, -{self.bm25} FROM {self.fts} JOIN {self.join}"
        rows += f" WHERE {self.fts} MATCH :{match} AND {self.where}"
        if not newest:
            return f"{rows} ORDER BY {self.bm25} LIMIT :limit"
        return (
            f"SELECT * FROM ({rows} ORDER BY {self.fts}.rowid DESC LIMIT :window)"
            " ORDER BY 2 DESC LIMIT :limit"
        )


# Facts that held at :now, whether or not they still do (kit/memory/fact_times.py HELD_AT).
FACTS_HELD = (
    "f.user_id = :user AND f.valid_from <= :now AND (f.valid_until IS NULL OR f.valid_until > :now)"
    " AND (f.expires_at IS NULL OR f.expires_at > :now)"
)


def _layer(
    kind: Kind, skip: Collection[int], context_weight: float, held_then: bool = False
) -> _Layer:
    if kind == "fact":
        return _Layer(
            "facts_fts",
            "facts f ON f.id = facts_fts.rowid",
            "f.id",
            FACTS_HELD
            if held_then
            else "f.user_id = :user AND f.active = 1"
            " AND (f.expires_at IS NULL OR f.expires_at > :now)",
            "bm25(facts_fts)",
        )
    if kind == "note":
        return _Layer(
            "note_chunks_fts",
            "note_chunks c ON c.id = note_chunks_fts.rowid",
            "c.id",
            "c.user_id = :user",
            "bm25(note_chunks_fts)",
        )
    if kind == "day":
        return _Layer(
            "days_fts",
            "days d ON d.id = days_fts.rowid",
            "d.id",
            "d.user_id = :user AND d.day <= :today",
            "bm25(days_fts)",
        )
    skipped = ",".join(str(int(i)) for i in skip)
    return _Layer(
        "messages_fts",
        "messages m ON m.id = messages_fts.rowid",
        "m.id",
        "m.user_id = :user AND m.at <= :now" + (f" AND m.id NOT IN ({skipped})" if skipped else ""),
        "bm25(messages_fts, 1.0, 1.0, :context)",
        # At weight 0 the previous turn's words are not matched at all.
        "" if context_weight > 0 else "{speaker text}",
    )


def _best(scores: dict[int, float], limit: int) -> list[tuple[int, float]]:
    return sorted(scores.items(), key=lambda h: (-h[1], -h[0]))[:limit]


class LexicalIndex:
    """SQLite's FTS5 tables, ranked by BM25."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def warm(self) -> None:
        """Nothing is kept in memory: every search asks FTS5."""

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
        """Ids and BM25 scores (higher is better), best first. Facts: live ones only (with
        `held_then`: those that held at `now`).
        Messages: none of those in `skip` (they take no rank); words of the message before
        one (its `context` column, m010) count `context_weight` as much as its own, and at
        0 they are not matched at all.

        A word in more than `common_rows` rows (0: no limit) is common: rows with a rarer
        word of the query are ranked as always, by the BM25 of every word, common ones
        included; only when they are fewer than `limit` are rows with only common words
        ranked too, the newest `common_rows` of them (module note)."""
        words = query_words(text)
        if not words:
            return []
        layer = _layer(kind, skip, context_weight, held_then)
        common = await self._common(layer, words, common_rows) if common_rows > 0 else set()
        rare = [w for w in words if w not in common]
        params: dict[str, object] = {
            "user": user_id,
            "now": to_iso(now),
            "today": now.date().isoformat(),
            "context": max(context_weight, 0.0),
            "limit": limit,
        }
        if not common:
            params["q0"] = layer.match(any_of(words))
            rows = await self._db.fetchall(layer.select("q0"), params)
            return [(int(r[0]), float(r[1])) for r in rows]
        frequent = [w for w in words if w in common]
        some, every = f"({any_of(frequent)})", f"({' AND '.join(any_of([w]) for w in frequent)})"
        windows: list[tuple[str, bool]] = [(some, True)]
        if len(frequent) > 1:
            windows.append((every, True))
        found: dict[int, float] = {}
        if rare:
            scarce = f"({any_of(rare)})"
            ranked = [(f"{scarce} AND {some}", False), (f"{scarce} NOT {some}", False)]
            found = await self._union(layer, ranked, params)
            if len(found) >= limit:  # enough rows with a rare word: stop there
                return _best(found, limit)
            windows = [(f"{p} NOT {scarce}", newest) for p, newest in windows]
        params["window"] = common_rows
        found.update(await self._union(layer, windows, params))
        return _best(found, limit)

    async def _union(
        self, layer: _Layer, parts: Sequence[tuple[str, bool]], params: dict[str, object]
    ) -> dict[int, float]:
        """Rows of every part (match expression, newest only?) in one statement."""
        selects = []
        for i, (expression, newest) in enumerate(parts):
            params[f"q{i}"] = layer.match(expression)
            selects.append(f"SELECT * FROM ({layer.select(f'q{i}', newest)})")
        rows = await self._db.fetchall(" UNION ALL ".join(selects), params)
        return {int(r[0]): float(r[1]) for r in rows}

    async def _common(self, layer: _Layer, words: Sequence[str], common_rows: int) -> set[str]:
        """The words in more than `common_rows` rows of the layer's index (any user's: it
        is the index's work that is bounded), each counted only that far."""
        counts = ", ".join(
            f"(SELECT count(*) FROM (SELECT 1 FROM {layer.fts} WHERE {layer.fts} MATCH :w{i}"
            " LIMIT :cap))"
            for i in range(len(words))
        )
        params: dict[str, object] = {f"w{i}": layer.match(any_of([w])) for i, w in enumerate(words)}
        params["cap"] = common_rows + 1
        row = await self._db.fetchone(f"SELECT {counts}", params)
        assert row is not None
        return {w for w, n in zip(words, tuple(row), strict=True) if int(n) > common_rows}
