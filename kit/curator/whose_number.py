"""Whose number: a number set off after a name is that person's.

"I'm thinking of inviting Christopher, 44, and Emily, 48" says Christopher is 44 and Emily
48: "Emily is 44" uses words that are all there, and the word-level check finds them all. A
number set off after a name ("Name, N," / "Name (N)" / "Name, who's N") is bound to that
name; a fact that gives it to another name the messages also name, or to the owner (round
28A: "close friends like Natalie, 41" does not say "the owner is 41"), without naming its own,
is not supported. Cheap and deterministic, like the rest of the guard (kit/curator/grounding.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kit.curator.clause_words import word_key
from kit.curator.related import unknown
from kit.curator.wording import number_of
from kit.dates.words import MONTHS, WEEKDAYS

__all__ = ["misbound"]

_NAME = r"([A-Z][a-z]+(?:'s)?)"
_NUMBER = r"(\d+|[a-z]+(?:-[a-z]+)?)"
# "Christopher, 44," / "Christopher, 44." / "Emily (48)" / "Emily, who's 48" / "Emily, aged 48"
_BOUND = re.compile(
    _NAME
    + r"(?:,\s*(?:who(?:'s|\s+is|\s+turned|\s+just\s+turned)\s+|aged\s+)?"
    + _NUMBER
    + r"(?=\s*(?:[,.;)!?]|$|\s+and\b|\s+years?\b))|\s*\(\s*"
    + _NUMBER
    + r"\s*\))"
)
_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?|\d+")
# A fact about the owner names them so (round 28A); a number bound to another is not theirs.
_OWNER = frozenset({"owner", "user", "owner's", "user's"})


def bindings(text: str) -> dict[str, set[str]]:
    """Each number set off after a name in `text`: the number's value -> the names it is
    bound to ("44" -> {"christopher"})."""
    bound: dict[str, set[str]] = {}
    for match in _BOUND.finditer(text):
        said = match.group(2) or match.group(3)
        value = number_of(said)
        name = match.group(1)
        if value is None or name.lower() in MONTHS or name.lower() in WEEKDAYS:
            continue  # "June, 2024": a date, not a person's number
        bound.setdefault(value, set()).add(word_key(name))
    return bound


def misbound(text: str, cited: Iterable[str]) -> str | None:
    """Why `text` gives a number to the wrong person, or None: it says a number the cited
    messages set off after one name, names another person they name, and not that one."""
    messages = list(cited)
    bound: dict[str, set[str]] = {}
    for message in messages:
        for value, names in bindings(message).items():
            bound.setdefault(value, set()).update(names)
    if not bound:
        return None
    named = {word_key(w) for m in messages for w in _WORD.findall(m) if w[:1].isupper()}
    words = _WORD.findall(text)
    in_fact = {word_key(w) for w in words if w[:1].isupper()}
    for word in words:
        owners = bound.get(number_of(word) or "")
        if not owners or owners & in_fact:
            continue
        others = sorted((in_fact & named) - owners - {"i"})
        if not others and _OWNER & {w.lower() for w in words} and any(map(_person, owners)):
            others = ["the owner"]  # "close friends like Natalie, 41" for "the owner is 41"
        if others:
            whom = others[0] if others[0] == "the owner" else others[0].capitalize()
            return (
                f"it gives {word} to {whom}, but the message says it of "
                f"{sorted(owners)[0].capitalize()}"
            )
    return None


def _person(name: str) -> bool:
    """Whether a bound name is a person's: no word WordNet knows ("Natalie"; not "Data, 300")."""
    return unknown(name)
