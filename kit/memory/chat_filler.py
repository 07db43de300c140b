"""A remembered statement without the chat around it.

A small model lists or remembers the owner's words as they were said (issue 29's 1.5B stored
"Thanks! the owner prefers tea to coffee, by the way."). The thanks, the greeting and the
"by the way" were said to Kit, not about the owner: a person reading their memory expects
"The owner prefers tea to coffee." So Kit drops them where it rewrites a model's fact (the
extract style, kit/curator/extract.py; the chat's `remember`, kit/tools.py). Only words set
off by punctuation go ("Thanks to the owner's sister ..." stays), and a text that would be
left empty stays as it was.
"""

from __future__ import annotations

import re

_OPENERS = (
    r"thanks(?: a lot| so much)?|thank you(?: so much)?|thx|ty|cheers|hi|hello|hey|hiya|"
    r"ok|okay|oh|ah|well|great|cool|awesome|nice|sure|yes|yeah|yep|no worries|got it|"
    r"by the way|btw|anyway|fyi|just so you know|for the record|oh and|and also|also"
)
_LEADING = re.compile(rf"^\s*(?:and )?(?:{_OPENERS})(?:\s*[!,.:;]|\s+[\u2014\u2013-])+\s*", re.I)
# The thanks put in the third person with the rest ("The owner thanks! The owner prefers tea",
# run 9 of issue 29): a sentence that only says who thanks or greets, ended by "!" or ".".
_WHO_THANKS = re.compile(
    r"^\s*(?:[Tt]he owner|I|[A-Z][\w'\u2019-]*)\s+(?i:(?:says\s+)?(?:thanks|thank you|hi|hello))"
    r"\s*[!.]+\s*"
)
_TRAILING = re.compile(
    r"\s*[,;\u2014\u2013-]\s*(?:by the way|btw|anyway|fyi|lol|haha|thanks|thank you|"
    r"just so you know|for the record)\s*([.!]*)\s*$",
    re.I,
)


def without_filler(text: str) -> str:
    """`text` without leading thanks, greetings or "by the way" set off by punctuation (or a
    first sentence that only says who thanks or greets), nor a trailing ", by the way" (its
    end punctuation kept)."""
    out = text.strip()
    while (lead := _LEADING.match(out) or _WHO_THANKS.match(out)) and lead.end() < len(out):
        out = out[lead.end() :]
    trail = _TRAILING.search(out)
    if trail is not None and trail.start() > 0:
        out = out[: trail.start()] + (trail.group(1)[:1] or ".")
    if not out.strip() or out == text.strip():
        return text  # nothing said to Kit: the words as they came (the secret screen reads them)
    return out[:1].upper() + out[1:]
