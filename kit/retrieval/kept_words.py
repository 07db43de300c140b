"""The word search on SQLite from an index kept in memory (kit/retrieval/word_index.py), with
FTS5 as the source of truth and the fallback (kit/retrieval/lexical.py).

Loaded by `warm` (a daemon does it after the vectors and the embedding model:
kit/daemon/warm.py); until then, for notes, for facts as they held at a past moment, and for
a query word FTS5 splits in more than one token, FTS5 answers. Each search first asks the
database, in one small statement, whether the layer changed since it was read:
- messages are only ever added (by id) or removed (`kit forget`): rows with a higher id are
  read and added (on the loop: a search never sees a layer half-updated; an import of more
  than `APPENDED_IN_PLACE` rows reads the layer anew, off the loop), their words tokenized
  by FTS5 (kit/retrieval/fts_tokens.py); then the row count and the tokens per
  column must equal FTS5's own (its averages record, read in the same statement), or the
  layer is read anew (a removal, a restore of old ids);
- facts and day summaries change in place (an edit, a flag, a rewrite): `memory_versions`
  (bumped by triggers, in any process) and FTS5's averages record say when, and the layer
  is read anew (11,000 facts: ~0.2 s).
So a row another process adds, edits or removes is seen by the next search.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from kit.clock import to_iso
from kit.retrieval.fts_tokens import Fts5Tokens, split_rows, varints
from kit.retrieval.lexical import LexicalIndex, query_words
from kit.retrieval.word_index import Mask, Positions, WordIndex
from kit.store.db import Database

if TYPE_CHECKING:
    from kit.retrieval.kinds import Kind

log = logging.getLogger(__name__)

APPENDED_IN_PLACE = 2048  # new rows added on the loop; more (an import) read the layer anew
LOAD_PART = 8192  # rows split and indexed at a time


@dataclass(frozen=True)
class _Source:
    """Where a layer's rows and its FTS5 statistics are read."""

    fts: str
    columns: int
    # id, FTS5's token counts (`_docsize`), one text per column, user_id, then the filter's
    # values; ORDER BY id
    rows: str
    changed: str  # what says the layer changed, besides FTS5's averages record
    appended: bool  # rows are only added by id (or the layer is read anew)
    width: int  # columns `rows` selects


_SOURCES: dict[str, _Source] = {
    "message": _Source(
        "messages_fts",
        3,
        "SELECT i.id, s.sz, i.speaker, i.text, i.context, m.user_id, m.at FROM messages m"
        " JOIN messages_indexed i ON i.id = m.id"
        " LEFT JOIN messages_fts_docsize s ON s.id = m.id WHERE m.id > ? ORDER BY m.id",
        "SELECT max(id) FROM messages",
        True,
        7,
    ),
    "fact": _Source(
        "facts_fts",
        2,
        "SELECT f.id, s.sz, subject, content, user_id, active, expires_at FROM facts f"
        " LEFT JOIN facts_fts_docsize s ON s.id = f.id WHERE f.id > ? ORDER BY f.id",
        "SELECT total(facts) FROM memory_versions",
        False,
        7,
    ),
    "day": _Source(
        "days_fts",
        2,
        "SELECT d.id, s.sz, detailed, condensed, user_id, day FROM days d"
        " LEFT JOIN days_fts_docsize s ON s.id = d.id WHERE d.id > ? ORDER BY d.id",
        "SELECT total(days) FROM memory_versions",
        False,
        6,
    ),
}


@dataclass
class _Kept:
    """One layer: its words, each row's user and filter values, and what it was read at."""

    words: WordIndex
    users: dict[str, int] = field(default_factory=dict)
    user_of: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, np.int32))
    # Per row: the time (messages), the day (days) or the expiry (facts) as stored text,
    # compared as SQLite compares it; facts: whether active, and whether it expires.
    text: npt.NDArray[np.bytes_] = field(default_factory=lambda: np.zeros(0, "S1"))
    flag: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, np.bool_))
    expires: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, np.bool_))
    signature: tuple[object, ...] = ()

    def reset(self, columns: int) -> None:
        """Empty again (before the rows are read anew)."""
        fresh = _Kept(WordIndex(columns))
        self.words, self.users, self.user_of = fresh.words, fresh.users, fresh.user_of
        self.text, self.flag, self.expires = fresh.text, fresh.flag, fresh.expires

    def add(
        self,
        kind: str,
        ids: Positions,
        tokens: Sequence[Sequence[str]],
        sizes: npt.NDArray[np.int64],
        values: Sequence[tuple[object, ...]],
        *,
        defer: bool = False,
    ) -> None:
        """Rows `ids` (`WordIndex.add_columns`) and, per row, its user and filter values."""
        self.words.add_columns(ids, tokens, sizes, defer=defer)
        codes = [self.users.setdefault(str(v[0]), len(self.users)) for v in values]
        self.user_of = np.concatenate([self.user_of, np.asarray(codes, np.int32)])
        if kind == "fact":  # active, expires_at
            self.flag = np.concatenate([self.flag, np.asarray([bool(v[1]) for v in values])])
            expires = np.asarray([v[2] is not None for v in values], np.bool_)
            self.expires = np.concatenate([self.expires, expires])
            text = [b"" if v[2] is None else str(v[2]).encode() for v in values]
        else:  # the message's time, the day
            text = [str(v[1]).encode() for v in values]
        if text:
            self.text = np.concatenate([self.text, np.asarray(text, np.bytes_)])


class KeptWords:
    """`LexicalSearch` on SQLite: FTS5's answers, from memory once loaded (module note)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._fts = LexicalIndex(db)
        self._loading = Fts5Tokens()  # on a worker thread, one load at a time (the lock)
        # on the loop: query words, a turn's new rows (words the load split: known already)
        self._tokens = Fts5Tokens(self._loading)
        self._kept: dict[str, _Kept | None] = {}
        self._loaded = False
        self._lock = asyncio.Lock()

    @property
    def loaded(self) -> bool:
        return self._loaded

    def answers(self, kind: str) -> bool:
        """Whether the kept words answer searches of `kind` (as last read: not FTS5)."""
        return self._loaded and self._kept.get(kind) is not None

    async def warm(self) -> None:
        """Read every layer's words into memory (then searches use them)."""
        async with self._lock:
            for kind in _SOURCES:
                await self._refresh(kind, await self._signature(kind))
            self._loaded = True

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
        """`LexicalIndex.search`'s answer (kit/retrieval/lexical.py)."""
        words = query_words(text)
        tokens = self._tokens.of_words(words) if words else {}
        if (
            not self._loaded
            or held_then
            or kind not in _SOURCES
            or any(len(tokens[w]) != 1 for w in words)
        ):
            return await self._fts.search(
                user_id,
                kind,
                text,
                limit,
                now=now,
                skip=skip,
                context_weight=context_weight,
                common_rows=common_rows,
                held_then=held_then,
            )
        if not words:
            return []
        kept = await self._current(kind)
        if kept is None:  # the index disagreed with FTS5 (logged): FTS5 answers
            return await self._fts.search(
                user_id, kind, text, limit, now=now, skip=skip,
                context_weight=context_weight, common_rows=common_rows,
            )  # fmt: skip
        code = kept.users.get(user_id)
        if code is None:
            return []
        context = max(context_weight, 0.0)
        if kind == "message":
            weights: tuple[float, ...] = (1.0, 1.0, context)
            matched: tuple[bool, ...] = (True, True, context_weight > 0)
        else:
            weights, matched = (1.0, 1.0), (True, True)
        allowed = _filter(kind, kept, code, now, skip)
        return kept.words.search(
            [tokens[w][0] for w in words], weights, matched, allowed, limit, common_rows
        )

    async def _signature(self, kind: str) -> tuple[object, ...]:
        source = _SOURCES[kind]
        row = await self._db.fetchone(
            f"SELECT (SELECT block FROM {source.fts}_data WHERE id = 1), ({source.changed})"
        )
        assert row is not None
        return (row[0], row[1])

    async def _current(self, kind: str) -> _Kept | None:
        """The layer, brought up to date with the database."""
        signature = await self._signature(kind)
        kept = self._kept.get(kind)
        if kept is not None and kept.signature == signature:
            return kept
        async with self._lock:
            signature = await self._signature(kind)
            return await self._refresh(kind, signature)

    async def _refresh(self, kind: str, signature: tuple[object, ...]) -> _Kept | None:
        source = _SOURCES[kind]
        kept = self._kept.get(kind)
        if kept is not None and kept.signature == signature:
            return kept
        newest = int(signature[1] or 0)  # type: ignore[call-overload]
        if kept is not None and source.appended and newest > kept.words.upto:
            if await self._read(kind, kept, kept.words.upto):
                return kept
        kept = _Kept(WordIndex(source.columns))
        self._kept[kind] = kept if await self._read(kind, kept, 0) else None
        return self._kept[kind]

    async def _read(self, kind: str, kept: _Kept, after: int) -> bool:
        """Add the rows after id `after`; whether the layer then agrees with FTS5 (its row
        count and tokens per column, read in the same statement as the rows)."""
        source = _SOURCES[kind]
        stats = f"(SELECT block FROM {source.fts}_data WHERE id = 1), ({source.changed})"
        nulls = ", ".join(["NULL"] * source.width)
        rows = await self._db.fetchall(
            f"SELECT 1, {stats}, {nulls} UNION ALL SELECT 0, {stats}, r.* FROM ({source.rows}) r",
            (after,),
        )
        head = next(r for r in rows if r[0] == 1)
        block, changed = head[1], head[2]
        data = sorted((tuple(r)[3:] for r in rows if r[0] == 0), key=lambda r: int(r[0]))
        fts = varints(block) if block else [0] * (source.columns + 1)
        if after == 0:
            # Splitting and indexing ~2.3 million tokens (100k messages) takes ~1 s: off the
            # loop, into arrays no search sees before they are whole.
            await asyncio.to_thread(self._add, kind, kept, data, self._loading)
        elif len(data) <= APPENDED_IN_PLACE:
            # The rows of a turn or two (~0.1 ms a row), on the loop: a search on another
            # task never sees the layer half-updated.
            self._add(kind, kept, data, self._tokens)
        else:  # an import: read anew, off the loop
            return False
        agrees = [kept.words.size, *kept.words.totals] == fts
        if not agrees:
            log.warning(
                "the word index of %ss disagrees with FTS5 (rows and tokens per column:"
                " %s against %s); FTS5 answers until they change",
                kind,
                [kept.words.size, *kept.words.totals],
                fts,
            )
        kept.signature = (block, changed)
        return agrees

    def _add(
        self, kind: str, kept: _Kept, data: Sequence[tuple[object, ...]], tokens: Fts5Tokens
    ) -> None:
        """Add rows (id, FTS5's counts, texts per column, then user and filter values), a
        part at a time: the words of 100k messages split at once are ~2 million short
        strings, and the heap they leave behind stayed with the process (+200 MB RSS)."""
        for start in range(0, len(data), LOAD_PART):
            self._add_part(kind, kept, data[start : start + LOAD_PART], tokens)
        kept.words.settle()

    def _add_part(
        self, kind: str, kept: _Kept, data: Sequence[tuple[object, ...]], tokens: Fts5Tokens
    ) -> None:
        columns = kept.words.columns
        sizes = np.zeros((len(data), columns), dtype=np.int64)
        for row, r in enumerate(data):
            size = bytes(r[1]) if r[1] is not None else b""  # type: ignore[call-overload]
            counts = list(size) if size and max(size) < 0x80 else varints(size)
            if len(counts) == columns:
                sizes[row] = counts
            else:  # not in FTS5's index (yet): split by FTS5 itself
                sizes[row] = -1
        texts = [[str(r[2 + c] or "") for r in data] for c in range(columns)]
        split, sizes, _ = split_rows(tokens, texts, sizes)
        ids = np.fromiter((int(r[0]) for r in data), dtype=np.int64, count=len(data))  # type: ignore[call-overload]
        kept.add(kind, ids, split, sizes, [tuple(r[columns + 2 :]) for r in data], defer=True)


def _filter(
    kind: str, kept: _Kept, code: int, now: datetime, skip: Collection[int]
) -> Callable[[Positions], Mask]:
    """The layer's `WHERE` (kit/retrieval/lexical.py `_layer`) over row positions."""
    users, text, words = kept.user_of, kept.text, kept.words
    if kind == "message":
        moment = to_iso(now).encode()
        skipped = np.fromiter((int(i) for i in skip), np.int64, len(skip))

        def allowed(rows: Positions) -> Mask:
            ok: Mask = (users[rows] == code) & (text[rows] <= moment)
            if len(skipped):
                ok &= ~np.isin(words.ids[rows], skipped)
            return ok

    elif kind == "day":
        today = now.date().isoformat().encode()

        def allowed(rows: Positions) -> Mask:
            ok: Mask = (users[rows] == code) & (text[rows] <= today)
            return ok

    else:
        moment = to_iso(now).encode()
        flag, expires = kept.flag, kept.expires

        def allowed(rows: Positions) -> Mask:
            live = ~expires[rows] | (text[rows] > moment)
            ok: Mask = (users[rows] == code) & flag[rows] & live
            return ok

    return allowed
