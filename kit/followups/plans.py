"""Finding a plan with a time in the owner's message, cheaply: a first-person future phrase ("I'll",
"I'm going to", "we're meeting") and a time ahead (kit/dates/text.py: "on Friday", "tomorrow
at 9am") in the same sentence. A message that already asks for a reminder is not a plan to
offer one for: it is the request itself. English only, like the rest of the date words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kit.dates.text import time_ahead

_APOSTROPHE = "['’]"
_PLAN = re.compile(
    r"\b(?:"
    rf"i{_APOSTROPHE}ll|i will|i shall|we{_APOSTROPHE}ll|we will"
    rf"|(?:i{_APOSTROPHE}m|i am|we{_APOSTROPHE}re|we are)\s+(?:going to|gonna|planning to|about to)"
    r"|(?:i|we)\s+(?:plan|intend|need|have|hope|want|mean)\s+to"
    rf"|(?:i|we){_APOSTROPHE}ve got to|(?:i|we)\s+(?:must|should|ought to)"
    rf"|(?:i{_APOSTROPHE}m|i am|we{_APOSTROPHE}re|we are)\s+\w+ing\b"  # "I'm seeing the dentist"
    r")\b",
    re.IGNORECASE,
)  # fmt: skip
# Asking for it already: the reminder tools serve that as they always did.
_ASKS = re.compile(
    r"\b(?:remind|reminder|reminders|alarm|alert me|ping me|nudge me|notify me|wake me"
    r"|don['’]?t let me forget|schedule)\b",
    re.IGNORECASE,
)
_SENTENCES = re.compile(r"(?<=[.!?;\n])\s+|\n")


@dataclass(frozen=True)
class Plan:
    """A plan the owner mentioned: its sentence and the time it names."""

    sentence: str
    when: str


def find_plan(text: str) -> Plan | None:
    """The first sentence of `text` stating the owner's plan with a time ahead, unless the
    message asks for a reminder itself (then there is nothing to offer)."""
    if _ASKS.search(text):
        return None
    for sentence in _SENTENCES.split(text):
        if sentence.rstrip().endswith("?"):
            continue  # a question ("Should I call them on Friday?") is not a plan stated
        when = time_ahead(sentence)
        if when is not None and _PLAN.search(sentence):
            return Plan(sentence.strip(), when)
    return None
