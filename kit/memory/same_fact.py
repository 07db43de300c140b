"""When two facts say the same thing: one fact, one row.

`remember` and the curator's passes (one category at a time) may each store what an active
fact of the owner already says, in another category or worded a hair apart. The test is cheap,
deterministic and errs towards keeping: the two texts must be the same once letter case,
punctuation, spacing and how the owner is named ("The owner's" / "Owner's" / "owner's") are set
aside. A fact that adds a detail ("Ana lives in Porto with Rui") is not the same: changing what
a fact says is an UPDATE's or REPLACE's job.

A text that does not name who it is about ("Lives in Porto") leans on its subject: two such
facts are the same only with the same subject ("[Ana] Lives in Porto" is not "[Rui] Lives in
Porto", nor the owner's own "Lives in Porto").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol, TypeVar

_WORD = re.compile(r"[^\W_]+")


class Stated(Protocol):
    @property
    def subject(self) -> str: ...
    @property
    def content(self) -> str: ...


F = TypeVar("F", bound=Stated)


def words(text: str) -> tuple[str, ...]:
    """`text`'s words, letter case, punctuation and "the" before "owner" aside."""
    found = _WORD.findall(text.casefold().replace("’", "'"))
    out: list[str] = []
    for n, word in enumerate(found):
        if word == "the" and n + 1 < len(found) and found[n + 1] == "owner":
            continue
        out.append(word)
    return tuple(out)


def says_same(subject: str, content: str, other: Stated) -> bool:
    """Whether a fact of `subject` and `content` says what `other` says (see the module)."""
    mine, theirs = words(content), words(other.content)
    if not mine or mine != theirs:
        return False
    subjects = words(subject), words(other.subject)
    return subjects[0] == subjects[1] or all(_named(s, mine) for s in subjects)


def probe(content: str) -> str | None:
    """A word any fact saying the same as `content` has in its lower-cased text (the longest
    ASCII one, so SQL's `lower` on either engine finds it), to read only the facts that may:
    None when `content` has no such word."""
    lowered = content.lower()
    found = [w for w in words(content) if w.isascii() and w in lowered]
    return max(found, key=len) if found else None


def _named(subject: tuple[str, ...], content: tuple[str, ...]) -> bool:
    """The text names who it is about: no subject of its own, or one of its words in it."""
    return not subject or bool((set(subject) - {"owner", "s"}) & set(content))


def known_as(subject: str, content: str, facts: Iterable[F]) -> F | None:
    """The first of `facts` that says what `subject` and `content` say, or None."""
    return next((f for f in facts if says_same(subject, content, f)), None)


def by_words(facts: Iterable[F]) -> dict[tuple[str, ...], list[F]]:
    """`facts` by their text's words: only facts under the same key can say the same (one
    pass of many operations reads its facts' words once)."""
    out: dict[tuple[str, ...], list[F]] = {}
    for fact in facts:
        out.setdefault(words(fact.content), []).append(fact)
    return out
