"""One layer's words kept in memory: postings per token, and BM25 as FTS5 computes it.

FTS5 (kit/retrieval/lexical.py) walks its index and scores every row a query word matches, on a
reader thread, per statement; at 100k messages that was 30% of a context build (issue 33,
docs/measurements.md). Here each token's postings are numpy arrays (the rows holding it and how
often, per column), so a search is a few vectorised passes over the query words' postings.

The answer is FTS5's, by construction:
- the tokens are FTS5's own (kit/retrieval/fts_tokens.py);
- BM25 is FTS5's `bm25()` (fts5_aux.c): k1 1.2, b 0.75; IDF `log((N - n + 0.5) / (n + 0.5))`,
  1e-6 where that is not positive, with N every row of the table and n the rows holding the
  word in the matched columns (any user's: FTS5's statistics are the table's); a row's length
  is its tokens in every column; each occurrence counts its column's weight; a query word
  counts once per word, even when two words share a stem;
- the common-word bound and its parts are the SQL's of `LexicalIndex.search`, step by step;
- the filters (user, time, live facts, skipped messages) are the SQL's `WHERE`, on the same
  values (times compared as the stored ISO text, as SQLite compares them).
Ties at a limit may be cut differently (SQLite's order among equal scores is its own).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

# Summed by position once the query words' postings hold this share of the rows (1/50):
# below it, a zero array over every row costs more than finding the few rows in the union.
DENSE_SHARE = 50
K1 = 1.2
B = 0.75
MERGE_AFTER = 4096  # rows added since the last merge into the arrays

Positions = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]
# Which of the given positions pass the layer's filters (user, time, ...).
Allowed = Callable[[Positions], Mask]


@dataclass(frozen=True)
class Row:
    """One row as the index keeps it: its id, its tokens per column."""

    id: int
    columns: tuple[Sequence[str], ...]


class WordIndex:
    """Postings of every row of one FTS5 table (all users), in id order."""

    def __init__(self, columns: int, merge_after: int = MERGE_AFTER) -> None:
        self.columns = columns
        self._merge_after = merge_after
        self.ids = np.zeros(0, dtype=np.int64)
        self.lengths = np.zeros(0, dtype=np.float64)  # tokens in every column
        self.totals = [0] * columns  # tokens per column, over every row
        self._terms: dict[str, int] = {}
        self._starts = np.zeros(1, dtype=np.int64)
        self._rows = np.zeros(0, dtype=np.int64)  # positions, per term (CSR)
        self._counts = np.zeros((0, columns), dtype=np.float64)
        # Rows added since the last merge: term -> [(position, counts per column)].
        self._recent: dict[int, list[tuple[int, tuple[float, ...]]]] = {}
        self._recent_rows = 0
        self._average_of, self._average_at = -1, 0.0  # tokens a row, for a size
        # Parts of a load not merged yet (`defer`): (terms, rows, counts) each.
        self._pending: list[tuple[Positions, Positions, npt.NDArray[np.float64]]] = []

    @property
    def size(self) -> int:
        return len(self.ids)

    @property
    def upto(self) -> int:
        return int(self.ids[-1]) if len(self.ids) else 0

    def add(self, rows: Sequence[Row]) -> None:
        """Rows in id order, each after every row held."""
        tokens: list[list[str]] = [[] for _ in range(self.columns)]
        sizes = np.zeros((len(rows), self.columns), dtype=np.int64)
        for offset, row in enumerate(rows):
            for column, words in enumerate(row.columns):
                sizes[offset, column] = len(words)
                tokens[column].extend(words)
        ids = np.fromiter((r.id for r in rows), dtype=np.int64, count=len(rows))
        self.add_columns(ids, tokens, sizes)

    def add_columns(
        self,
        ids: Positions,
        tokens: Sequence[Sequence[str]],
        sizes: npt.NDArray[np.int64],
        *,
        defer: bool = False,
    ) -> None:
        """Rows `ids` (in id order, each after every row held): per column, the tokens of
        every row one after the other, and per row and column how many are its own. With
        `defer` (a load in parts) the postings wait for `settle`."""
        if not len(ids):
            return
        if int(ids[0]) <= self.upto or (len(ids) > 1 and bool((np.diff(ids) <= 0).any())):
            raise ValueError("word index rows must come in id order, after the last one held")
        first = self.size
        terms = self._terms
        for column_tokens in tokens:
            for token in set(column_tokens).difference(terms):
                terms[token] = len(terms)
        flat = np.concatenate(
            [np.fromiter(map(terms.__getitem__, t), dtype=np.int64, count=len(t)) for t in tokens]
        )
        for column in range(self.columns):
            self.totals[column] += int(sizes[:, column].sum())
        self.ids = np.concatenate([self.ids, ids])
        self.lengths = np.concatenate([self.lengths, sizes.sum(axis=1).astype(np.float64)])
        where = np.arange(first, first + len(ids), dtype=np.int64)
        positions = np.concatenate([np.repeat(where, sizes[:, c]) for c in range(self.columns)])
        columns = np.repeat(np.arange(self.columns, dtype=np.int64), sizes.sum(axis=0))
        rows = ids
        found = self._entries(flat, positions, columns)
        if defer:
            self._pending.append(found)
            return
        if first == 0 or len(rows) >= self._merge_after:
            self._merge(*found)
            return
        for term, position, per in zip(*(a.tolist() for a in found), strict=True):
            self._recent.setdefault(term, []).append((position, tuple(per)))
        self._recent_rows += len(rows)
        if self._recent_rows >= self._merge_after:
            self._merge(*self._entries_of_recent())

    def settle(self) -> None:
        """Merge the parts added with `defer` into the postings, at once."""
        if not self._pending:
            return
        parts, self._pending = self._pending, []
        self._merge(*(np.concatenate([part[i] for part in parts]) for i in range(3)))

    def _entries(
        self, terms: Positions, positions: Positions, columns: Positions
    ) -> tuple[Positions, Positions, npt.NDArray[np.float64]]:
        """(term, row) pairs, sorted, with the count per column, from one entry a token."""
        if len(terms) == 0:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, np.zeros((0, self.columns), dtype=np.float64)
        # One key per (term, row, column), sorted: its count is the column's count.
        rows, width = len(self.ids) + 1, self.columns
        keys, found = np.unique((terms * rows + positions) * width + columns, return_counts=True)
        pairs = keys // width
        starts = np.flatnonzero(np.diff(pairs, prepend=-1))
        counts = np.zeros((len(starts), width), dtype=np.float64)
        counts[np.cumsum(np.diff(pairs, prepend=-1) != 0) - 1, keys % width] = found
        pairs = pairs[starts]
        return pairs // rows, pairs % rows, counts

    def _entries_of_recent(self) -> tuple[Positions, Positions, npt.NDArray[np.float64]]:
        terms = [t for t, entries in self._recent.items() for _ in entries]
        positions = [p for entries in self._recent.values() for p, _ in entries]
        counts = [c for entries in self._recent.values() for _, c in entries]
        self._recent, self._recent_rows = {}, 0
        return (
            np.asarray(terms, dtype=np.int64),
            np.asarray(positions, dtype=np.int64),
            np.asarray(counts, dtype=np.float64).reshape(-1, self.columns),
        )

    def _merge(
        self, terms: Positions, positions: Positions, counts: npt.NDArray[np.float64]
    ) -> None:
        """Fold entries into the arrays (one sort of every posting), with the recent ones."""
        if self._recent:
            more = self._entries_of_recent()
            terms = np.concatenate([terms, more[0]])
            positions = np.concatenate([positions, more[1]])
            counts = np.concatenate([counts, more[2]])
        if len(self._rows):
            terms_held = np.arange(len(self._starts) - 1, dtype=np.int64)
            held = np.repeat(terms_held, np.diff(self._starts))
            every = np.concatenate([held, terms])
            rows = np.concatenate([self._rows, positions])
            order = np.lexsort((rows, every))
            self._rows = rows[order]
            self._counts = np.concatenate([self._counts, counts])[order]
        else:
            every, self._rows, self._counts = terms, positions, counts
            key = terms * (len(self.ids) + 1) + positions
            if len(key) > 1 and not bool((np.diff(key) > 0).all()):  # parts, recent rows
                order = np.argsort(key, kind="stable")
                every, self._rows, self._counts = terms[order], positions[order], counts[order]
        self._starts = np.zeros(len(self._terms) + 1, dtype=np.int64)
        np.cumsum(np.bincount(every, minlength=len(self._terms)), out=self._starts[1:])
        # Held small: positions in 32 bits, counts (whole numbers) in the narrowest type that
        # holds the largest (at 100k messages 70 MB of arrays became ~17 MB).
        self._rows = self._rows.astype(np.int32)
        largest = int(self._counts.max()) if self._counts.size else 0
        self._counts = self._counts.astype(np.min_scalar_type(largest))

    def postings(self, token: str) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """The rows holding `token` (positions, ascending) and its count in each column."""
        term = self._terms.get(token)
        if term is None:
            return self._rows[:0], self._counts[:0]
        if term + 1 < len(self._starts):
            a, b = int(self._starts[term]), int(self._starts[term + 1])
            rows, counts = self._rows[a:b], self._counts[a:b]
        else:  # a term first seen in the recent rows
            rows, counts = self._rows[:0], self._counts[:0]
        recent = self._recent.get(term)
        if recent:
            rows = np.concatenate([rows, np.fromiter((p for p, _ in recent), np.int64)])
            more = np.asarray([c for _, c in recent], dtype=np.float64)
            counts = np.concatenate([counts, more.reshape(-1, self.columns)])
        return rows, counts

    def search(
        self,
        tokens: Sequence[str],
        weights: Sequence[float],
        matched: Sequence[bool],
        allowed: Allowed,
        limit: int,
        common_rows: int,
    ) -> list[tuple[int, float]]:
        """Ids and BM25 scores, best first: `LexicalIndex.search` over these rows. One token
        per query word (a word's phrase); `weights` per column; `matched`: the columns a
        word is matched in (FTS5's column filter); `allowed`: the filters.

        Its work is the query words' postings, never the table's every row: at 100k messages
        arrays over all rows per search (scores, masks) were most of its time (issue 33,
        round 7). Each sum adds the words in query order, as one array over all rows did."""
        n = self.size
        if n == 0 or not tokens:
            return []
        weight = np.asarray(weights, dtype=np.float64)
        columns = np.asarray(matched, dtype=np.bool_)
        average = self._average()
        # Every row of a posting holds its token in some column: only a column left out of
        # the match (a message's context) can leave a row out.
        left_out = not bool(columns.all())
        words: list[tuple[npt.NDArray[Any], npt.NDArray[np.float64]]] = []
        for token in tokens:
            rows, counts = self.postings(token)
            if left_out:
                hit = np.zeros(len(rows), dtype=np.bool_)
                for in_match in np.flatnonzero(columns).tolist():
                    hit |= counts[:, in_match] > 0
                rows, counts = rows[hit], counts[hit]
            rows = rows.astype(np.int64, copy=False)
            holding = len(rows)
            idf = math.log((n - holding + 0.5) / (holding + 0.5))
            if idf <= 0.0:
                idf = 1e-6
            # Column by column (counts are held as small integers: no BLAS for them).
            frequency = counts[:, 0] * weight[0]
            for column in range(1, self.columns):
                frequency = frequency + counts[:, column] * weight[column]
            norm = K1 * (1 - B + B * self.lengths[rows] / average)
            words.append((rows, idf * (frequency * (K1 + 1.0)) / (frequency + norm)))
        common = [common_rows > 0 and len(rows) > common_rows for rows, _ in words]
        found_rows = _union([r for r, _ in words])
        by_row = None  # each row's score, by position (0 where no word is)
        if len(words) == 1:
            score = words[0][1]
        elif sum(len(rows) for rows, _ in words) * DENSE_SHARE >= n:
            # Summed by position in one array over all rows: finding each posting's rows in
            # the union (a binary search each) cost ~5x as much for the thousands of rows
            # of common words (issue 33, round 16); a few rows are cheaper found.
            by_row = np.zeros(n, dtype=np.float64)
            for rows, part in words:
                by_row[rows] += part
            score = by_row[found_rows]
        else:
            score = np.zeros(len(found_rows), dtype=np.float64)  # per row of `found_rows`
            for rows, part in words:
                score[found_rows.searchsorted(rows)] += part
        scores = _Scores(found_rows, score, by_row)
        if not any(common):
            return self._best(found_rows, scores, allowed, limit)
        rare = [rows for (rows, _), c in zip(words, common, strict=True) if not c]
        frequent = [rows for (rows, _), c in zip(words, common, strict=True) if c]
        some = _union(frequent)
        every = frequent[0]
        for rows in frequent[1:]:
            every = every[_holds(rows, every)]
        found: dict[int, float] = {}
        with_rare = _union(rare) if rare else found_rows[:0]
        if rare:
            in_some = _holds(some, with_rare)
            found = dict(self._best(with_rare[in_some], scores, allowed, limit))
            found.update(self._best(with_rare[~in_some], scores, allowed, limit))
            if len(found) >= limit:
                return _sorted(found, limit)
        windows = [some[~_holds(with_rare, some)]]
        if len(frequent) > 1:
            windows.append(every[~_holds(with_rare, every)])
        for rows in windows:
            rows = rows[allowed(rows)][::-1][:common_rows]  # the newest that pass
            found.update(self._best(rows, scores, lambda r: np.ones(len(r), np.bool_), limit))
        return _sorted(found, limit)

    def _average(self) -> float:
        """Tokens a row, over every row (as FTS5's statistics say), kept until rows come."""
        if self._average_of != self.size:
            self._average_at = float(self.lengths.sum()) / self.size
            self._average_of = self.size
        return self._average_at

    def _best(
        self, rows: Positions, scores: _Scores, allowed: Allowed, limit: int
    ) -> list[tuple[int, float]]:
        """The best `limit` of `rows` that pass the filters (ties: the newest first)."""
        rows = rows[allowed(rows)]
        score = scores.of(rows)
        if len(rows) > limit:
            bar = np.partition(score, len(rows) - limit)[len(rows) - limit]
            keep = score >= bar
            rows, score = rows[keep], score[keep]
        order = np.lexsort((-rows, -score))[:limit]
        return list(zip(self.ids[rows[order]].tolist(), score[order].tolist(), strict=True))


@dataclass(frozen=True)
class _Scores:
    """The scores of a search's rows: `rows` ascending, `score` for each."""

    rows: Positions
    score: npt.NDArray[np.float64]
    by_row: npt.NDArray[np.float64] | None = None  # the same scores by row position, or None

    def of(self, rows: Positions) -> npt.NDArray[np.float64]:
        """The scores of `rows`, each one of `self.rows`."""
        if self.by_row is not None:
            return self.by_row[rows]
        return self.score[self.rows.searchsorted(rows)]


def _holds(sorted_rows: Positions, rows: Positions) -> Mask:
    """Which of `rows` are in `sorted_rows` (ascending, no repeats)."""
    if not len(sorted_rows):
        return np.zeros(len(rows), dtype=np.bool_)
    at = sorted_rows.searchsorted(rows)
    held: Mask = sorted_rows[np.minimum(at, len(sorted_rows) - 1)] == rows
    return held


def _union(postings: Sequence[Positions]) -> Positions:
    """The rows of any of `postings` (each ascending), ascending, once each."""
    if len(postings) == 1:
        return postings[0]
    # A stable sort merges the sorted runs (timsort) instead of sorting anew.
    every = np.sort(np.concatenate(postings), kind="stable")
    if not len(every):
        return every
    keep = np.empty(len(every), dtype=np.bool_)
    keep[0] = True
    np.not_equal(every[1:], every[:-1], out=keep[1:])
    return every[keep]


def _sorted(found: dict[int, float], limit: int) -> list[tuple[int, float]]:
    return sorted(found.items(), key=lambda h: (-h[1], -h[0]))[:limit]
