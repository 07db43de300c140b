"""A day summary held against the day's messages (kit/curator/summaries.py): each bullet whose
names, numbers or dates no message of the day says is dropped, with why.

A small model summarising a short day invents ("worked on a search memory application for St
James's hospital"): the summary is what later turns and REM read as the day, so an invented
name there is a false memory too. The check is the grounding guard's hard half
(kit/curator/fact_terms.py reads the bullet): names (a capitalised word not opening the
bullet, or one the day's messages capitalise), numbers written with digits (but a bare count
up to 12, which a summary may work out itself: "3 options"), and dates (absolute or relative
to the day). Each must be in some message of the day, Kit's included
(a summary tells what was said, by either side). What it cannot catch: a bullet made only of
words the day used ("the owner agreed to share the password with Kit" when Kit only asked),
who said or did what, and a summary's own ordinary words (the summary paraphrases; only the
checkable details are held to the letter). Deterministic; no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, tzinfo

from kit.curator.clause_words import word_key
from kit.curator.fact_terms import fact_terms
from kit.curator.wording import fold, number_of, tokens
from kit.dates.text import DateSpan, date_mentions
from kit.memory.messages import Message

SHOWN = 3  # details a reason names at most
SMALL_COUNT = 12  # a bare number up to this a summary may count itself ("3 options")
_BULLET = re.compile(r"^(\s*-\s+)(.*)$")
_STAMP = re.compile(r"^\[(\d\d?:\d\d)\]\s*")
_OWN = frozenset({"kit", "owner", "user"})  # who the summary may name without a message


@dataclass(frozen=True)
class Checked:
    text: str  # the summary without the dropped bullets
    dropped: tuple[str, ...]  # per dropped bullet: why (names its details, never the bullet)


@dataclass(frozen=True)
class _Said:
    words: frozenset[str]
    numbers: frozenset[str]
    capitalised: frozenset[str]
    spans: tuple[DateSpan, ...]


def check_summary(
    text: str, messages: Sequence[Message], day: date, owner: str, tz: tzinfo
) -> Checked:
    """`text` (parse_bullets' form: "## heading" and "- bullet" lines) with every bullet whose
    names, numbers or dates the day's `messages` do not say left out; a heading left with no
    bullet under it goes too. The messages' times (in `tz`, as the model saw them) count."""
    said = _read(messages, day, tz)
    owner_words = {word_key(w) for w in owner.split() if w}
    kept: list[str] = []
    dropped: list[str] = []
    for line in text.splitlines():
        bullet = _BULLET.match(line)
        if bullet is None:
            kept.append(line)
            continue
        missing = _missing(bullet.group(2), said, day, owner_words)
        if missing:
            listed = ", ".join(f"'{m}'" for m in missing[:SHOWN])
            more = f" and {len(missing) - SHOWN} more" if len(missing) > SHOWN else ""
            dropped.append(f"a line naming {listed}{more}, which no message of {day} says")
        else:
            kept.append(line)
    return Checked("\n".join(_without_empty_headings(kept)), tuple(dropped))


def _read(messages: Sequence[Message], day: date, tz: tzinfo) -> _Said:
    words: set[str] = set()
    numbers: set[str] = set()
    capitalised: set[str] = set()
    spans: list[DateSpan] = [DateSpan(day, day)]
    for message in messages:
        for token in tokens(message.text):
            word = token.group()
            words.add(word_key(word))
            if (number := number_of(word)) is not None:
                numbers.add(number)
            if word[:1].isupper():
                capitalised.add(word_key(word))
        for name in (message.speaker or "").split():
            words.add(word_key(name))
            capitalised.add(word_key(name))
        numbers.add(message.at.astimezone(tz).strftime("%H:%M"))  # the transcript's "[10:02]"
        spans += [m.span for m in date_mentions(fold(message.text), message.day)]
        spans.append(DateSpan(message.day, message.day))
    return _Said(frozenset(words), frozenset(numbers), frozenset(capitalised), tuple(spans))


def _missing(bullet: str, said: _Said, day: date, owner: set[str]) -> list[str]:
    missing = []
    stamp = _STAMP.match(bullet)  # "[10:02] Fly with TAP": a time, then the line's first word
    if stamp is not None:
        if stamp.group(1) not in said.numbers:
            missing.append(stamp.group(1))
        bullet = bullet[stamp.end() :]
    terms, _, _ = fact_terms(bullet, owner, day, said.capitalised)
    for term in terms:
        if term.kind == "name":
            if term.key not in said.words and term.key not in _OWN:
                missing.append(term.shown)
        elif term.kind == "number":
            if _counted(term.shown):
                continue
            if term.key not in said.numbers:
                missing.append(term.shown)
        elif term.kind == "date":
            assert term.span is not None
            if not any(span.overlaps(term.span) for span in said.spans):
                missing.append(term.shown)
    return list(dict.fromkeys(missing))


def _counted(shown: str) -> bool:
    """A number the summary may have worked out itself: a number word ("one idea") or a small
    bare count ("3 options", "item 2"); amounts, times, years and larger counts must be said."""
    if not any(c.isdigit() for c in shown):
        return True
    return shown.isdigit() and int(shown) <= SMALL_COUNT


def _without_empty_headings(lines: list[str]) -> list[str]:
    kept: list[str] = []
    for n, line in enumerate(lines):
        if line.startswith("#"):
            following = next((x for x in lines[n + 1 :] if x.strip()), "")
            if not following or following.startswith("#"):
                continue
        kept.append(line)
    return kept
