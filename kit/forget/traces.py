"""What a forget receipt keeps of what was erased: salted hashes, never the text.

A receipt must let `kit forget --verify` find the erased content if it is back, without
holding that content (nor anything that gives it away). So it keeps, per erased item, a keyed
hash (BLAKE2b, keyed with the receipt's own random salt) of the item's fingerprint:
  - a message: its time (to the microsecond, UTC), role, speaker and text: what `kit import`
    takes to be the same message (kit/memory/messages.py), so an import of it is recognised;
  - a text (a fact's content in any version, a day summary, the lines cut out of a summary, a
    note version, a reminder): the text whole, and for summaries each line and sentence, as
    `units` cuts them. Only pieces of at least `MIN_WORDS` words are kept: a short piece (a
    name, "Ana called.") could be found again by hashing every name in a dictionary.
The salt is not a secret: it only makes one receipt's hashes useless for another receipt, or
for a table of precomputed hashes. Someone who reads a receipt and guesses an erased text word
for word (or a message with its time to the microsecond) can confirm the guess; nothing else
can be learned from it. A person's name is never hashed at all.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from kit.clock import from_iso, to_iso

MIN_WORDS = 4
HASH_BYTES = 16  # 128 bits: no two erased items share one by chance
QUOTABLE = 40  # words: a piece this short may be quoted inside a longer text (`windows`)

_WORD = re.compile(r"\w+")
_CANONICAL = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$")  # to_iso's form
_BULLET = re.compile(r"^([-*•]|\d+[.)])\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def message_fingerprint(at_iso: str, role: str, speaker: str, text: str) -> str:
    """A message as import identity knows it (`at_iso`: the stored UTC form, kit/clock.py)."""
    return "\x1f".join((at_iso, role, speaker, text))


def _normal(piece: str) -> str:
    return _BULLET.sub("", " ".join(unicodedata.normalize("NFC", piece).split()))


def units(text: str, *, pieces: bool = True) -> set[str]:
    """The pieces of `text` a receipt hashes: the whole text and, with `pieces`, each line
    and each sentence of a line; spaces collapsed, a bullet mark dropped, NFC. Pieces under
    MIN_WORDS words are left out (see the module docstring)."""
    found = {_normal(text)}
    if pieces:
        for line in text.splitlines():
            found.add(_normal(line))
            found.update(_normal(s) for s in _SENTENCE_END.split(line))
    return {p for p in found if len(_WORD.findall(p)) >= MIN_WORDS}


def lengths(pieces: Iterable[str]) -> tuple[int, ...]:
    """The word counts of the quotable pieces (at most QUOTABLE words), sorted."""
    return tuple(sorted({n for p in pieces if (n := len(p.split())) <= QUOTABLE}))


def windows(text: str, sizes: Iterable[int]) -> set[str]:
    """Every run of `sizes` consecutive words of `text`, normalised as `units` does: where a
    piece quoted inside a longer text ("rejected: <the fact>") is found."""
    words = unicodedata.normalize("NFC", text).split()
    return {" ".join(words[i : i + n]) for n in sizes for i in range(len(words) - n + 1)}


def units_of(texts: Iterable[str | None], *, pieces: bool = True) -> set[str]:
    found: set[str] = set()
    for text in texts:
        if text:
            found |= units(text, pieces=pieces)
    return found


class Hasher:
    """Keyed hashes with one receipt's salt."""

    def __init__(self, salt: bytes) -> None:
        self._salt = salt

    def __call__(self, kind: str, value: str) -> str:
        data = f"{kind}\x00{value}".encode("utf-8", "surrogatepass")
        return hashlib.blake2b(data, key=self._salt, digest_size=HASH_BYTES).hexdigest()

    def message(self, at: str, role: str, speaker: str, text: str) -> str:
        """`at`: the message's time in any ISO-8601 form with an offset (made canonical)."""
        if not _CANONICAL.match(at):  # stored times are canonical already: parsed only if not
            at = to_iso(from_iso(at))
        return self("message", message_fingerprint(at, role, speaker, text))

    def texts(self, pieces: Iterable[str]) -> set[str]:
        return {self("text", p) for p in pieces}

    def user(self, user_id: str) -> str:
        """Whose memory the receipt is of, without naming them."""
        return self("user", user_id)


def strings_in(value: Any) -> list[str]:
    """Every string inside a decoded JSON value (a pass's detail, an inbox question's
    operation): where an erased text could be quoted."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in strings_in(v)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings_in(v)]
    return []
