"""Text as the detectors read it, with a map back to the text as written.

A secret must not slip past by how it is written: zero-width characters inside a key
("sk_live_51Hq\\u200bLyj…"), fullwidth letters ("ｐａｓｓｗｏｒｄ"), look-alike letters of another
script inside a Latin word ("pаssword" with a Cyrillic а), leetspeak in the name ("p4ssw0rd").
So the detectors read the text normalised: invisible format characters removed, NFKC, letters
of other scripts that look like Latin ones folded to those inside words that mix the two
(Unicode's confusables, kit/secrets/homoglyphs.py; a word wholly in Cyrillic or
Greek is that language and is kept), and the leet spellings of the words that name a secret
spelled out. What they find is mapped back, so the value is withheld from the text as written.

ASCII text (most of it) needs only the leet step, which keeps every length, and pays nothing
else.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache

from kit.secrets.homoglyphs import homoglyphs

# Format characters that show as nothing: zero-width spaces and joiners, the word joiner and
# invisible operators, bidi marks and embeddings, the soft hyphen, variation selectors, the BOM.
INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0"
)
_INVISIBLE = re.compile(f"[{INVISIBLE}]")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_COMBINING_START = re.compile(
    r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"
)
_WORD_AT = re.compile(r"[^\W\d_]{2,}")
_LETTER = re.compile(r"[^\W\d_]")

# Leet spellings of the words that name a secret ("p4ssw0rd", "pa$$word", "s3cr3t"): each
# letter may be written as a digit or a symbol that stands for it. Same length, so no map.
_LEET = {"a": "a4@", "e": "e3", "i": "i1!|", "o": "o0", "s": "s5$", "t": "t7+", "l": "l1|"}
_LEET_WORDS = ("password", "passwort", "passcode", "passphrase", "passwd", "secret", "token")


def _leet_pattern(word: str) -> str:
    return "".join(f"[{re.escape(_LEET.get(ch, ch))}]" for ch in word)


_LEET_WORD = re.compile(
    r"(?<![A-Za-z0-9])(?:" + "|".join(_leet_pattern(w) for w in _LEET_WORDS) + r")(?![A-Za-z0-9])",
    re.IGNORECASE,
)
_LEET_CHAR = re.compile(r"[0-9@$!|+]")
# A word that names a secret written apart: letters one by one ("P A S S W O R D", "p.i.n"),
# or "pass" and the rest of it ("pass-word", "pass word").
_SPLIT_WORD = re.compile(
    r"(?<![A-Za-z])(?:(?:[A-Za-z][ ._-]){2,}[A-Za-z]|(?i:pass)[ ._-](?i:word|wort|phrase|code|wd))"
    r"(?![A-Za-z])"
)
_SPLIT_WORDS = frozenset((*_LEET_WORDS, "pin", "pwd", "puk", "cvv"))
_TOKEN = r"[A-Za-z0-9_\-+/=.]"
_WRAPPED = re.compile(rf"(?<!{_TOKEN}){_TOKEN}{{16,}}+\n(?={_TOKEN}{{8,}}+[ \t]*(?:\n|$))")


def _unleet(match: re.Match[str]) -> str:
    found = match.group()
    if not _LEET_CHAR.search(found):
        return found
    lowered = found.lower()
    for word in _LEET_WORDS:
        if len(word) == len(found) and all(
            c == w or c in _LEET.get(w, "") for c, w in zip(lowered, word, strict=True)
        ):
            return word
    return found


@cache
def _homoglyphs() -> dict[int, str]:
    """Letters of other scripts (never Latin ones: "ñ" is a letter, not a disguise) that
    Unicode's confusables table says look like one ASCII letter or digit."""
    return homoglyphs()


@dataclass(frozen=True)
class _Piece:
    """A stretch of the normalised text that does not map one to one onto the original."""

    start: int  # in the normalised text
    end: int
    original_start: int
    original_end: int


@dataclass(frozen=True)
class _Map:
    """From positions in a step's output back to its input."""

    pieces: tuple[_Piece, ...]
    starts: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "starts", tuple(p.start for p in self.pieces))

    def start(self, at: int) -> int:
        i = bisect.bisect_right(self.starts, at) - 1
        if i < 0:
            return at
        piece = self.pieces[i]
        if at < piece.end:
            return piece.original_start
        return piece.original_end + at - piece.end

    def end(self, at: int) -> int:
        i = bisect.bisect_left(self.starts, at) - 1
        if i < 0:
            return at
        piece = self.pieces[i]
        if at <= piece.end:
            return piece.original_end
        return piece.original_end + at - piece.end


@dataclass(frozen=True)
class Normalised:
    text: str
    _maps: tuple[_Map, ...] = ()  # one per step that changed lengths, in the order applied

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Where `text[start:end]` came from in the original (widened to whole pieces)."""
        for step in reversed(self._maps):
            start, end = step.start(start), step.end(end)
        return start, end


def normalise(text: str) -> Normalised:
    """`text` as the detectors read it (see the module's note), with its map back."""
    maps: list[_Map] = []
    if not text.isascii():
        if _INVISIBLE.search(text) or not unicodedata.is_normalized("NFKC", text):
            text, pieces = _nfkc(text)
            maps.append(_Map(tuple(pieces)))
        text = _fold_homoglyphs(text)
    text = _LEET_WORD.sub(_unleet, text)
    if _SPLIT_WORD.search(text):
        text, pieces = _join_split(text)
        if pieces:
            maps.append(_Map(tuple(pieces)))
    if "\n" in text:
        text, pieces = _unwrap(text)
        if pieces:
            maps.append(_Map(tuple(pieces)))
    return Normalised(text, tuple(maps))


def _join_split(text: str) -> tuple[str, list[_Piece]]:
    """The words that name a secret written apart joined again: "P A S S W O R D",
    "pass-word", "p.i.n" read "password", "password", "pin"."""
    out: list[str] = []
    pieces: list[_Piece] = []
    done = size = 0  # size: characters written so far (kept, not summed: linear)
    for split in _SPLIT_WORD.finditer(text):
        joined = re.sub(r"[ ._-]", "", split.group())
        if joined.lower() not in _SPLIT_WORDS:
            continue
        out.append(text[done : split.start()])
        size += split.start() - done
        out.append(joined)
        pieces.append(_Piece(size, size + len(joined), split.start(), split.end()))
        size += len(joined)
        done = split.end()
    out.append(text[done:])
    return "".join(out), pieces


def _unwrap(text: str) -> tuple[str, list[_Piece]]:
    """A key or token wrapped over lines joined again: a line that ends in a long run of token
    characters, followed by a line that is one run of them."""
    out: list[str] = []
    pieces: list[_Piece] = []
    done = size = 0  # size: characters written so far (kept, not summed: linear)
    for wrap in _WRAPPED.finditer(text):
        at = wrap.end() - 1  # the line break
        out.append(text[done:at])
        size += at - done
        pieces.append(_Piece(size, size, at, at + 1))
        done = at + 1
    out.append(text[done:])
    return "".join(out), pieces


def _nfkc(text: str) -> tuple[str, list[_Piece]]:
    """Invisible characters out and NFKC, run by run of non-ASCII characters (ASCII is
    already NFKC); a run that changes length is mapped a character (with its marks) at a time."""
    out: list[str] = []
    pieces: list[_Piece] = []
    done = 0  # original characters consumed
    size = 0  # normalised characters written

    def keep(upto: int) -> None:
        nonlocal done, size
        out.append(text[done:upto])
        size += upto - done
        done = upto

    def replace(start: int, end: int, new: str) -> None:
        nonlocal done, size
        out.append(new)
        if len(new) != end - start:
            pieces.append(_Piece(size, size + len(new), start, end))
        size += len(new)
        done = end

    for run in _NON_ASCII.finditer(text):
        start, end = run.start(), run.end()
        if start > done and _COMBINING_START.match(text, start):
            start -= 1  # an ASCII letter and the accent after it compose
        keep(start)
        chunk = text[start:end]
        new = unicodedata.normalize("NFKC", _INVISIBLE.sub("", chunk))
        if len(new) == len(chunk) or (not new and chunk):
            replace(start, end, new)
            continue
        at = start
        while at < end:  # one character and its combining marks at a time
            stop = at + 1
            while stop < end and unicodedata.combining(text[stop]):
                stop += 1
            replace(at, stop, unicodedata.normalize("NFKC", _INVISIBLE.sub("", text[at:stop])))
            at = stop
    keep(len(text))
    return "".join(out), pieces


def _fold_homoglyphs(text: str) -> str:
    """Look-alike letters folded inside words that mix them with ASCII letters: "pаssword"
    (Cyrillic а) reads "password"; "пароль" stays Russian. Only words around a non-ASCII
    character are looked at."""
    table: dict[int, str] | None = None
    parts: list[str] = []
    done = 0
    for run in _NON_ASCII.finditer(text):
        if run.start() < done:
            continue  # inside the word folded last
        word = _WORD_AT.match(text, _word_start(text, run.start()))
        if word is None or word.end() <= run.start():
            continue
        found = word.group()
        if found.isascii() or not any(c.isascii() for c in found):
            continue
        table = table or _homoglyphs()
        folded = found.translate(table)
        if folded != found:
            parts.append(text[done : word.start()])
            parts.append(folded)
            done = word.end()
    if not parts:
        return text
    parts.append(text[done:])
    return "".join(parts)


def _word_start(text: str, at: int) -> int:
    while at > 0 and _LETTER.match(text[at - 1]):
        at -= 1
    return at
