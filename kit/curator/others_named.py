"""Whom and what a fact names besides the owner (kit/curator/judge.py): a word the owner said of
someone or something else holds up a fact about the owner that names that one too."""

from __future__ import annotations

import re

from kit.curator.clause_words import PEOPLE, word_key
from kit.curator.related import thing
from kit.curator.wording import stem, tokens


def others_named(text: str, owner: set[str]) -> tuple[frozenset[str], frozenset[str]]:
    """Whom and what a fact names besides the owner, as stems: the people ("John finds his
    team encouraging": team), and the things, none if the fact gives anything as the owner's
    ("the Ortholite insole"; not "the owner's favourite jazz nights"). None at all when it
    joins the owner to them ("the owner and Ana are vegan": there the owner is said to be)."""
    if _JOINT.search(text):
        return frozenset(), frozenset()
    listed = [t.group() for t in tokens(text)]
    people, things = set(), set()
    for i, token in enumerate(listed):
        if (key := stem(token)) in PEOPLE:
            people.add(key)
        elif thing(token) or (i and token[:1].isupper()):
            things.add(key)
    owned = any(t.lower() in ("owner's", "user's") or _owners(t, owner) for t in listed)
    return frozenset(people), frozenset() if owned else frozenset(things)


def _owners(token: str, owner: set[str]) -> bool:
    return token.lower().endswith("'s") and word_key(token) in owner


_JOINT = re.compile(r"\b(?:owner|user)\s+and\b|\band\s+(?:the\s+)?(?:owner|user)\b", re.I)
