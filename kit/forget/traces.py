"""What a forget receipt keeps of what was erased: salted hashes, never the text.

A receipt must let `kit forget --verify` find the erased content if it is back, without
holding that content (nor anything that gives it away). So it keeps, per erased item, a keyed
hash (BLAKE2b, keyed with the receipt's own random salt) of the item's fingerprint:
  - a message: its time (to the microsecond, UTC), role, speaker and text: what `kit import`
    takes to be the same message (kit/memory/messages.py), so an import of it is recognised;
    and, since receipt version 2, the same message "near": its role, its speaker and text
    with Unicode forms, case and spaces made plain, and the hour it was said in (`near`).
    A copy of it whose time moved a little (less than an hour is always caught) or whose
    text gained a trailing space or lost a capital is then the erased message back too;
  - a text (a fact's content in any version, a day summary, the lines cut out of a summary, a
    note version, a reminder): the text whole, and for summaries each line and sentence, as
    `units` cuts them. Only pieces of at least `MIN_WORDS` words are kept: a short piece (a
    name, "Ana called.") could be found again by hashing every name in a dictionary.
The salt is the key of every hash. Receipts of version 1 carried it in the document: anyone
holding the receipt could confirm a guess of an erased text ("Sam is dating Quentin", tried
with twenty names and four phrasings). Since version 2 the salt is a secret: it is kept only
in the data directory's forget ledger (kit/forget/ledger.py), never in the database, an export
or a saved receipt file, and it also keys the receipt's seal. A receipt alone then confirms no
guess and cannot be re-sealed after an edit; whoever holds the data directory can still
confirm guesses (verifying a receipt is exactly that). A person's name is never hashed.
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
NEAR_SECONDS = 3600  # `near`: a message's time, to the hour (either neighbouring hour matches)
_CANONICAL = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$")  # to_iso's form
_BULLET = re.compile(r"^([-*•]|\d+[.)])\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def message_fingerprint(at_iso: str, role: str, speaker: str, text: str) -> str:
    """A message as import identity knows it (`at_iso`: the stored UTC form, kit/clock.py)."""
    return "\x1f".join((at_iso, role, speaker, text))


def plain(text: str) -> str:
    """A message's text (or a speaker) as the re-import check compares it: Unicode
    compatibility forms, case folded, spaces collapsed and trimmed."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _said(role: str, speaker: str, text: str) -> str:
    return "\x1f".join((role, plain(speaker), plain(text)))


def _hour(at: str) -> int:
    return int(from_iso(at).timestamp() // NEAR_SECONDS)


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

    def near(self, at: str, role: str, speaker: str, text: str) -> str:
        """The message as `plain` text in the hour it was said in (`at`: any ISO-8601 form)."""
        return self._near(_hour(at), _said(role, speaker, text))

    def near_any(self, at: str, role: str, speaker: str, text: str) -> tuple[str, ...]:
        """`near` for the message's hour and both hours beside it: a copy moved by less than an
        hour matches whichever way it moved, and one up to two hours away may."""
        hour, said = _hour(at), _said(role, speaker, text)
        return tuple(self._near(h, said) for h in (hour - 1, hour, hour + 1))

    def _near(self, hour: int, said: str) -> str:
        return self("near", f"{hour}\x1f{said}")

    def seal(self, canonical: str) -> str:
        """A keyed checksum of a receipt's body: only the salt's holder can make it."""
        data = f"seal\x00{canonical}".encode("utf-8", "surrogatepass")
        return hashlib.blake2b(data, key=self._salt, digest_size=32).hexdigest()

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
