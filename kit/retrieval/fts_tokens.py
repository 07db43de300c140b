"""Words as SQLite's FTS5 tokenizer makes them ('porter unicode61 remove_diacritics 2', the
tokenizer of every FTS5 table of Kit: kit/store/sqlite_schema.py), for the word index kept in
memory (kit/retrieval/word_index.py), so that its stemming agrees with FTS5's by construction.

The tokens come from SQLite itself: a private in-memory FTS5 table with the same tokenizer,
read back through `fts5vocab`. Splitting a long text there and reading every token back costs
~0.6 µs a token in Python, so texts are split into words here, at the characters FTS5 parts
tokens at (each character outside ASCII asked of FTS5 once), and each distinct word is turned
into its tokens once, by FTS5 (folding, diacritics, stemming), and remembered. What FTS5 keeps
of a row (its `_docsize` entry, the table's averages record) checks the counts against the
real index (kit/retrieval/kept_words.py).
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

TOKENIZER = "porter unicode61 remove_diacritics 2"
_NOT_ASCII = re.compile(r"[^\x00-\x7f]")
_WORDS_KEPT = 1_000_000  # distinct words remembered (~100 bytes each); past it, start over


class Fts5Tokens:
    """Each word's tokens as FTS5 makes them (usually one: the word folded and stemmed)."""

    def __init__(self, loader: Fts5Tokens | None = None) -> None:
        # Words another instance split already (the word index's load, on a worker thread):
        # looked up before asking FTS5 (a question's words are mostly the archive's).
        self._loader = loader
        self._con = sqlite3.connect(":memory:", check_same_thread=False)
        self._con.execute(f"CREATE VIRTUAL TABLE words USING fts5(word, tokenize='{TOKENIZER}')")
        self._con.execute("CREATE VIRTUAL TABLE tokens USING fts5vocab(words, instance)")
        self._lock = threading.Lock()  # loads run on worker threads
        self._known: dict[str, tuple[str, ...]] = {}
        self._inside: dict[str, bool] = {}  # character -> kept inside a token?

    def of_words(self, words: Iterable[str]) -> dict[str, tuple[str, ...]]:
        """The tokens of each of `words` (already lower-cased words of `words_of`)."""
        wanted = set(words)
        with self._lock:
            missing = [w for w in wanted if w not in self._known]
            if missing and self._loader is not None:
                missing = self._learn(missing, self._loader._known)
            if missing:
                if len(self._known) + len(missing) > _WORDS_KEPT:
                    self._known.clear()
                self._known.update(self._ask(missing))
            return {w: self._known[w] for w in wanted}

    def _learn(self, words: list[str], known: dict[str, tuple[str, ...]]) -> list[str]:
        """Take the tokens of `words` that `known` holds; the words it does not hold.
        (`known` is read without its owner's lock: an entry never changes once written, and
        one dictionary read is atomic.)"""
        missing = []
        for word in words:
            tokens = known.get(word)
            if tokens is None:
                missing.append(word)
            else:
                self._known[word] = tokens
        return missing

    def _ask(self, words: Sequence[str]) -> dict[str, tuple[str, ...]]:
        found: dict[int, list[str]] = {i: [] for i in range(1, len(words) + 1)}
        with self._con:
            self._con.executemany(
                "INSERT INTO words(rowid, word) VALUES (?, ?)", enumerate(words, 1)
            )
            for doc, term in self._con.execute("SELECT doc, term FROM tokens ORDER BY doc, offset"):
                found[int(doc)].append(str(term))
            self._con.execute("DELETE FROM words")
        return {w: tuple(found[i]) for i, w in enumerate(words, 1)}

    def token_characters(self, characters: Iterable[str]) -> set[str]:
        """Those of `characters` that unicode61 keeps inside a token (letters, digits, marks,
        and some symbols, such as many emoji), the others parting tokens."""
        wanted = set(characters)
        with self._lock:
            missing = [c for c in wanted if c not in self._inside]
            if missing:
                found = self._ask([f"a{c}a" for c in missing])
                self._inside.update({c: len(found[f"a{c}a"]) == 1 for c in missing})
            return {c for c in wanted if self._inside[c]}

    def exact(self, text: str) -> list[str]:
        """The tokens of a text split by FTS5 itself (what `split_rows` must agree with)."""
        with self._lock, self._con:
            self._con.execute("INSERT INTO words(rowid, word) VALUES (1, ?)", (text,))
            rows = self._con.execute("SELECT term FROM tokens ORDER BY offset").fetchall()
            self._con.execute("DELETE FROM words")
        return [str(r[0]) for r in rows]


def varints(blob: bytes) -> list[int]:
    """The integers of an FTS5 record (SQLite's varint: 7 bits a byte, high bit set on all
    but the last; a 9th byte gives 8 bits), e.g. the averages record: rows, then tokens per
    column."""
    out: list[int] = []
    i = 0
    while i < len(blob):
        value = 0
        for n in range(9):
            byte = blob[i]
            i += 1
            if n == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if not byte & 0x80:
                break
        out.append(value)
    return out


def split_rows(
    tokens: Fts5Tokens, texts: Sequence[Sequence[str]], sizes: npt.NDArray[np.int64]
) -> tuple[list[list[str]], npt.NDArray[np.int64], int]:
    """Many rows' texts as FTS5 tokens (`texts[column][row]`), for the word index: per column,
    every row's tokens one after the other, how many are each row's, and how many rows were
    split by FTS5 itself, text by text: those whose counts are not `sizes` (FTS5's own, from
    `_docsize`; -1: unknown) and those with a word FTS5 makes more or less than one token of.

    One regular expression over all the texts of a column at once, rows parted by a word
    no text holds: ~0.1 µs a token where a row at a time took ~1 µs."""
    out: list[list[str]] = []
    mine = np.zeros_like(sizes)
    redo: set[int] = set()
    for column, column_texts in enumerate(texts):
        joined = "\n".join(column_texts)
        mark = _absent_word(joined)
        # Words as unicode61 parts them: ASCII letters and digits, and the other characters
        # FTS5 keeps inside a token (asked of FTS5, each once). Not lower-cased here: FTS5
        # folds each word itself.
        inside = tokens.token_characters(_NOT_ASCII.findall(joined))
        word = re.compile("[0-9A-Za-z" + "".join(re.escape(c) for c in sorted(inside)) + "]+")
        words = word.findall(f" {mark} ".join(column_texts))
        known = tokens.of_words(set(words).difference((mark,)))
        single = {w: t[0] for w, t in known.items() if len(t) == 1}
        single[mark] = mark
        flat = np.asarray(list(map(single.get, words, words)), dtype=object)
        parts = np.flatnonzero(flat == mark)
        mine[:, column] = np.diff(np.concatenate([[-1], parts, [len(flat)]])) - 1
        others = [w for w, t in known.items() if len(t) != 1]
        if others:  # a word of several tokens (or none): its rows are split by FTS5
            row_of = np.cumsum(flat == mark)
            odd = np.isin(flat, np.asarray(others, dtype=object))
            redo.update(row_of[odd].tolist())
        out.append(flat[flat != mark].tolist())
    redo.update(np.flatnonzero((mine != sizes).any(axis=1)).tolist())
    if redo:
        out, mine = _resplit(tokens, texts, out, mine, sorted(redo))
    return out, mine, len(redo)


def _resplit(
    tokens: Fts5Tokens,
    texts: Sequence[Sequence[str]],
    flat: list[list[str]],
    sizes: npt.NDArray[np.int64],
    rows: Sequence[int],
) -> tuple[list[list[str]], npt.NDArray[np.int64]]:
    """`flat` with the tokens of `rows` replaced by FTS5's own split of their texts."""
    sizes = sizes.copy()
    out: list[list[str]] = []
    for column, column_flat in enumerate(flat):
        ends = np.cumsum(sizes[:, column])
        pieces: list[str] = []
        done = 0
        exact = {row: tokens.exact(texts[column][row]) for row in rows}
        for row in rows:
            pieces.extend(column_flat[done : int(ends[row] - sizes[row, column])])
            pieces.extend(exact[row])
            done = int(ends[row])
        pieces.extend(column_flat[done:])
        for row in rows:
            sizes[row, column] = len(exact[row])
        out.append(pieces)
    return out, sizes


def _absent_word(text: str) -> str:
    """A word that `text` does not hold (to part rows)."""
    n = 0
    while f"kitrow{n}" in text.lower():
        n += 1
    return f"kitrow{n}"
