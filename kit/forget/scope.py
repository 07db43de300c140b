"""What `kit forget` takes: a stretch of days, or a person named as a name.

A name is matched as a name, not as letters: whole words only ("Al" is not in "al dente"),
with the capitalisation the owner wrote ("Will" matches "Will" and "Will's", never "I will
go"; "May" is not "may"). A name written all in lowercase matches any capitalisation, for an
owner who types names that way. Several words match with any spacing between them; accented
and non-Latin letters are letters (Zoë, José, Łukasz), and a name written without accents
("Jose") also matches it with them ("José"), as the search index does. A name that is also a
month ("May", "June") is not matched where the month is plainly meant: after "in", "since",
"until", "mid-", ... or next to a day number ("We met in May", "May 3"). The speaker of a
message is a name field, so it matches in any case.

What cannot be told apart is kept as a match: a name that starts a sentence in another sense
("Will you come?"), or a month after words like "of" or "to". `--dry-run` lists what would go.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal, Protocol

from kit.errors import InputError

_BULLET = re.compile(r"^\s*([-*•]|\d+[.)])\s")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_MONTHS = frozenset(
    "january february march april may june july august september october november december".split()
)
_MONTH_BEFORE = re.compile(
    r"(?:(?<!\w)(?:in|since|until|till|during|early|late|mid|next|last|this|every)"
    r"|\d(?:st|nd|rd|th)?)[\s-]+$",
    re.IGNORECASE,
)
_MONTH_AFTER = re.compile(r"[\s,]+\d")


@dataclass(frozen=True)
class ForgetScope:
    kind: Literal["time", "person"]
    after: date | None = None  # exclusive: days strictly after this one
    before: date | None = None  # exclusive: days strictly before this one
    person: str = ""

    @classmethod
    def time(cls, *, after: date | None = None, before: date | None = None) -> ForgetScope:
        if after is None and before is None:
            raise InputError("say what to forget: --before DATE, --after DATE or --person NAME")
        if after is not None and before is not None and before - after < timedelta(days=2):
            raise InputError(
                f"no day lies strictly after {after} and before {before}; both ends are "
                "excluded, so widen the range"
            )
        return cls("time", after=after, before=before)

    @classmethod
    def named(cls, name: str) -> ForgetScope:
        cleaned = " ".join(unicodedata.normalize("NFC", name).split())
        if len(cleaned) < 2 or not re.search(r"\w", cleaned):
            raise InputError(
                f"{name!r} is too short to forget by; give the person's name as it appears "
                "in your messages, e.g. --person Ana"
            )
        if len(cleaned) > 200:
            raise InputError("the name is too long (over 200 characters); give just the name")
        return cls("person", person=cleaned)

    def describe(self) -> str:
        """For the owner's terminal only: never stored (the log keeps no content)."""
        if self.kind == "person":
            return f"everything that names {self.person!r}"
        if self.after and self.before:
            first, last = self.after + timedelta(days=1), self.before - timedelta(days=1)
            return f"everything from {first} to {last}"
        if self.before:
            return f"everything before {self.before}"
        return f"everything after {self.after}"

    def names(self) -> Names:
        return Names(self.person)


class Finder(Protocol):
    """What a forget's plan asks of what it looks for in text: a person's name (`Names`), or
    what a receipt erased (kit/forget/reapply.py)."""

    def in_text(self, *texts: str | None) -> bool: ...

    def in_speaker(self, speaker: str) -> bool: ...


class Names:
    """Finds a person's name in text (see the module's docstring for how)."""

    def __init__(self, name: str) -> None:
        self._fold = not _has_marks(name)
        words = [re.escape(self._prepare(w)) for w in name.split()]
        spaced = r"\s+".join(words)
        body = rf"(?<!\w){spaced}(?!\w)"
        self._in_text = re.compile(body, re.IGNORECASE if name == name.lower() else 0)
        self._in_speaker = re.compile(body, re.IGNORECASE)
        self._month = name.lower() in _MONTHS

    def in_text(self, *texts: str | None) -> bool:
        return any(t and self._found(self._prepare(t)) for t in texts)

    def _found(self, text: str) -> bool:
        for match in self._in_text.finditer(text):
            start, end = match.span()
            if not self._month or not (
                _MONTH_BEFORE.search(text, max(0, start - 20), start)
                or _MONTH_AFTER.match(text, end)
            ):
                return True
        return False

    def in_speaker(self, speaker: str) -> bool:
        return bool(speaker) and bool(self._in_speaker.search(self._prepare(speaker)))

    def _prepare(self, text: str) -> str:
        text = unicodedata.normalize("NFC", text)
        return _without_marks(text) if self._fold else text


def _has_marks(text: str) -> bool:
    return any(unicodedata.combining(c) for c in unicodedata.normalize("NFD", text))


def _without_marks(text: str) -> str:
    bare = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", bare)


def scrub_text(text: str, names: Finder) -> str:
    """`text` without what names the person: whole bullet lines, else the sentences."""
    kept: list[str] = []
    for line in text.splitlines():
        if not names.in_text(line):
            kept.append(line)
        elif not _BULLET.match(line):
            rest = [s for s in _SENTENCE_END.split(line) if not names.in_text(s)]
            if any(s.strip() for s in rest):
                kept.append(" ".join(rest))
    return "\n".join(kept).strip()
