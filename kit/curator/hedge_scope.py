"""Where a hedge reaches less far than its word (kit/curator/clauses.py reads it; grounding
round 16B):

- **A doubt whether a past act was right takes the act as done**: in `wondering if choosing
  Leslie's event over the April 15 session was the right call`, the choosing is said; whether
  it was right stays in doubt, and `is the right decision` (present) is still being weighed.

What it cannot tell: an act a doubt takes as done in other words (`wondering if I was wise to
...`), or in an earlier sentence (`that was the right call`).
"""

from __future__ import annotations

import itertools
import re

# "wondering if choosing Leslie's event over the April 15 session was the right call": the
# choice was made; only whether it was right is in doubt (a past "was": "is the right
# decision" is still being weighed).
_RIGHT_CALL = re.compile(
    r"\b(?:wondering|wonder|not sure|unsure|doubting|questioning)\s+(?:if|whether)\s+"
    r"(?P<act>.+?)\s+(?:was|were)\s+(?:really\s+|actually\s+)?(?:the\s+)?(?:right|best|wise|"
    r"smart|correct)\s+(?:call|choice|decision|move|option|path|approach|thing to do)\b",
    re.IGNORECASE,
)


def right_call(sentence: str, offset: int) -> tuple[int, int] | None:
    """Where the act a doubt takes as done is said in `sentence` (`_RIGHT_CALL`), if any."""
    found = _RIGHT_CALL.search(sentence)
    return (offset + found.start("act"), offset + found.end("act")) if found else None


def cut_around(parts: list[tuple[int, int]], span: tuple[int, int]) -> list[tuple[int, int]]:
    """`parts` with a clause boundary at each end of `span`."""
    pieces: list[tuple[int, int]] = []
    for start, end in parts:
        inner = sorted({start, end, *(p for p in span if start < p < end)})
        pieces.extend(itertools.pairwise(inner))
    return pieces


import os  # noqa: E402  (round 18 measurement toggles; removed before commit)

_OFF = set(os.environ.get("KIT_R18_OFF", "").split(","))

# A request to the listener ("can you help me ...", "could you convert the meeting time ...",
# "please ..."): no question about what it names; what it describes is given, as in a plan.
_REQUEST = re.compile(
    r"^\W*(?:(?:and|so|but|also|then|now|ok|okay|well|yeah)\W+)*"
    r"(?:(?:can|could|would|will)\s+(?:you|u)\b|please\b|help\s+me\b)",
    re.IGNORECASE,
)
_ME = frozenset("me my i i'm i've us our we".split())
_YOURS = frozenset({"your", "yours", "ur"})  # "can you tell me about your trip": yours


def request(piece: str) -> bool:
    """Whether a clause opens a request to the listener (`_REQUEST`)."""
    return "request" not in _OFF and bool(_REQUEST.match(piece))


def requester(piece: str, tokens: list[str]) -> bool:
    """Whether a request names the speaker ("so can you help me with my patent application"):
    the speaker's, not whoever the clause before was about."""
    said = {t.lower() for t in tokens}
    return "holder" not in _OFF and request(piece) and bool(said & _ME) and not said & _YOURS


# A reason or a circumstance with its own subject and a verb that says what is or was
# ("given that I've researched the climate", "as I just bought a laptop", "now that my
# sister has moved"): said, whatever the clause before it plans or wonders; a clause of
# its own.
_REASON = re.compile(
    r"(?<=\s)(?:especially\s+)?(?:(?:given|now|considering|seeing) that|since|because)\s+"
    r"(?=(?:i|i'm|i've|we|we've|we're|my|our|he|she|they|he's|she's|they've|they're|it|it's)\s)"
    r"|(?<=\s)as\s+(?=(?:i|we)(?:'ve|'m| have| just| already| recently)\s)",
    re.IGNORECASE,
)


def reason_cuts(sentence: str, offset: int) -> list[int]:
    """Where a reason clause begins in `sentence` (`_REASON`): a clause boundary."""
    if "reason" in _OFF:
        return []
    return [offset + m.start() for m in _REASON.finditer(sentence)]


_REASON_OPENS = re.compile(
    r"^\W*(?:especially\s+)?(?:as|(?:given|now|considering|seeing) that)\s+",
    re.IGNORECASE,
)


def reason_opener(piece: str) -> int:
    """How many characters of `piece` open a reason (`_REASON_OPENS`), to read past them."""
    if "reason" in _OFF:
        return 0
    found = _REASON_OPENS.match(piece)
    return found.end() if found else 0


# A hedge word inside a title or a name ("that "Estate Tax Planning" workshop", "The Last
# Wish"): capitalised after a clause's first word, or inside quotation marks; no hedge.
_QUOTED = re.compile(r"\"[^\"]{1,80}\"")
_CAPITAL = re.compile(r"(?<=\w )(?=[A-Z][a-z])([A-Z][a-z]+)")


def unhedged(piece: str, hedges: frozenset[str]) -> str:
    """`piece` with its titles' hedge words blanked (module note)."""
    if "title" in _OFF:
        return piece
    piece = _QUOTED.sub(lambda m: " " * len(m.group()), piece)

    def blank(m: re.Match[str]) -> str:
        return " " * len(m.group()) if m.group().lower() in hedges else m.group()

    return _CAPITAL.sub(blank, piece)


# A day's year after its comma ("by May 1, 2024, ..."): the clause goes on through it; cut
# there, the year and what follows fell out of the description they end.
_DAY_BEFORE = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?$",
    re.IGNORECASE,
)
_YEAR = re.compile(r"\s*(?:19|20)\d\d\b")


def year_after(sentence: str, begin: int, cut: re.Match[str]) -> bool:
    """Whether the clause boundary `cut` (from `begin`) only sets off a day's year."""
    if "year" in _OFF:
        return False
    return bool(
        _YEAR.match(sentence, cut.end()) and _DAY_BEFORE.search(sentence, begin, cut.start())
    )


# A question's subject follows its auxiliary ("how can I fit my budget ...", "should we
# move the party ..."): whose the clause is, whatever the clause before was about.
_OPENING = frozenset("and so but also then now ok okay well yeah especially".split())
_WH_WORDS = frozenset("what how why where when which".split())
_AUXILIARIES = frozenset("can could should would will do does did shall may must".split())
_SUBJECTS = {"i": "self", "we": "self", "he": "other", "she": "other", "they": "other"}


def asker(tokens: list[str]) -> str | None:
    """Whose a question is by the subject after its auxiliary (`_SUBJECTS`), if it says."""
    if "asker" in _OFF:
        return None
    words = [t.lower() for t in tokens]
    while words and words[0] in _OPENING:
        words = words[1:]
    if words[:1] and words[0] in _WH_WORDS:
        words = words[1:]
    if len(words) < 2 or words[0] not in _AUXILIARIES:
        return None
    return _SUBJECTS.get(words[1])
