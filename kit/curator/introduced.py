"""The owner's name as the owner gave it in a message ("Hi! I'm Sam", "my name is Sam", "call
me Sam"), for the grounding guard (kit/curator/grounding.py) when Kit was not told it
(`owner.name` unset): then a fact about Sam is a fact about the owner."""

from __future__ import annotations

import re
from collections.abc import Iterable

from kit.curator.clause_words import word_key
from kit.curator.related import tagged
from kit.memory.messages import Message


def introduced(messages: Iterable[Message]) -> set[str]:
    """The owner's name as the owner gave it ("Hi! I'm Sam", "my name is Sam"), when Kit was
    not told it (`owner.name` unset): then a fact about Sam is a fact about the owner. "I'm"
    introduces a name only at the start of a sentence and a word WordNet never saw in use
    ("I'm Happy to" is no name)."""
    names: set[str] = set()
    for message in messages:
        for match in _INTRODUCTION.finditer(message.text):
            if match.group("given"):
                names.update(word_key(w) for w in match.group("given").split())
            elif not tagged(match.group("name")):
                names.add(word_key(match.group("name")))
    return names


_INTRODUCTION = re.compile(
    r"(?:^|[.!?,;:]\s*|\b(?i:hi|hey|hello|hiya)\W+)(?i:i'm|i am|im)\s+(?P<name>[A-Z][\w'-]+)"
    r"|\b(?i:my name is|my name's|call me)\s+(?P<given>[A-Z][\w'-]+(?: [A-Z][\w'-]+)?)"
)
