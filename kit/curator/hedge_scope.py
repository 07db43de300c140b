"""Where a hedge reaches less far than its word (kit/curator/clauses.py reads it; grounding
rounds 16B, 18A, 20, 24, 25 and 25D):

- **A doubt whether a past act was right takes the act as done**: in `wondering if choosing
  Leslie's event over the April 15 session was the right call`, the choosing is said; whether
  it was right stays in doubt, and `is the right decision` (present) is still being weighed.
  So is the act after a past `the right decision to` (round 25D, round 24's reading again:
  `wondering if that was the right decision to focus on my thesis`). And a hedge noun someone
  has with nothing it aims at is a thing (`living my dream by having my own studio`, `my
  goals`; not `my goal to`, `my plans for`).
- **A request is no question about what it names** (round 18A): `could you convert the
  meeting time to these time zones?`, `can you help me figure out how to use the $2,000
  emergency fund I received ...?` ask the listener to act; what they describe is given, as in
  a plan (an information question's descriptions stay asked: `were the games a hit at the
  game night?`). And a request that names the speaker (`me`, `my`) is the speaker's, not
  whoever the clause before it was about (`... and Ashlee's suggestion to add a drawing, | so
  can you help me understand how it will affect my patent application?`).
- **`considering` that opens a clause is `given`** (round 20): in `..., considering the events
  are independent`, `considering my income`, what follows is what the speaker takes as so; it
  is a hedge only as a verb (`I'm considering a move`) or before what is weighed (`considering
  a`, `considering moving`, `considering whether`).
- **A wh-question in the past or the perfect, or one that asks why, takes what it asks about
  as so** (round 24): `when did I last service the boiler?` says it was serviced; `why
  should I ...?`, `what would happen if ...?` and a yes/no question still ask whether.

- **A past-tense clause inside a hedge is said** (round 25, kit/curator/reported.py): `ideas
  like Michelle's craft session that lasted 45 minutes?`, `especially since I just attended
  ...`: a clause a relative or adverbial word opens, in the past or the perfect, with no hedge
  of its own.

What it cannot tell: a request in other words (`I'd appreciate some tips on ...`), a
question the speaker asks of their own plans (`should I book my flight now?`: measured, read
as given it stored a planted false fact), an act a doubt takes as done in other words
(`wondering if I was wise to ...`), or in an earlier sentence (`that was the right call`).
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


# ... and "wondering if that was the right decision to focus on my thesis": the act after the
# decision's `to` was done (round 24).
_RIGHT_TO = re.compile(
    r"\b(?:wondering|wonder|not sure|unsure|doubting|questioning)\s+(?:if|whether)\s+"
    r"(?:that|it|this)\s+(?:was|were)\s+(?:really\s+|actually\s+)?(?:the\s+)?(?:right|best|"
    r"wise|smart|correct)\s+(?:call|choice|decision|move|thing to do)\s+(?P<act>to\s[^,;.?!]+)",
    re.IGNORECASE,
)


def right_call(sentence: str, offset: int) -> tuple[int, int] | None:
    """Where the act a doubt takes as done is said in `sentence` (`_RIGHT_CALL`,
    `_RIGHT_TO`), if any."""
    found = _RIGHT_TO.search(sentence) or _RIGHT_CALL.search(sentence)
    return (offset + found.start("act"), offset + found.end("act")) if found else None


def cut_around(parts: list[tuple[int, int]], span: tuple[int, int]) -> list[tuple[int, int]]:
    """`parts` with a clause boundary at each end of `span`."""
    pieces: list[tuple[int, int]] = []
    for start, end in parts:
        inner = sorted({start, end, *(p for p in span if start < p < end)})
        pieces.extend(itertools.pairwise(inner))
    return pieces


# A request to the listener ("can you help me ...", "could you convert the meeting time ...",
# "please ..."), not a question about what it names.
_REQUEST = re.compile(
    r"^\W*(?:(?:and|so|but|also|then|now|ok|okay|well|yeah)\W+)*"
    r"(?:(?:can|could|would|will)\s+(?:you|u)\b|please\b|help\s+me\b)",
    re.IGNORECASE,
)
_SPEAKER = frozenset("me my i i'm i've us our we".split())
_YOURS = frozenset({"your", "yours", "ur"})  # "can you tell me about your trip": yours


def request(piece: str) -> bool:
    """Whether a clause opens a request to the listener (`_REQUEST`)."""
    return bool(_REQUEST.match(piece))


def requester(piece: str, words: list[str]) -> bool:
    """Whether a request names the speaker and not the listener's own (`words`: its words):
    then it is the speaker's, whoever the clause before it was about."""
    said = {w.lower() for w in words}
    return request(piece) and bool(said & _SPEAKER) and not said & _YOURS


# "..., considering the events are independent": `considering` as a preposition (given that).
_GIVEN_THAT = re.compile(
    r"^\W*(?:(?:and|but|so|especially|also|even|just|though)\s+)*considering\s+"
    r"(?!(?:a|an|to|whether|if|getting|\w+ing)\b)",
    re.IGNORECASE,
)


def given_that(piece: str) -> bool:
    """Whether a clause opens with a `considering` that means given: a clause of its own, no
    hedge carried into it from the clause before (`I might drop a class, | considering ...`)."""
    return bool(_GIVEN_THAT.match(piece))


# "highlighting my goals", "how it fits our financial plans": a hedge noun someone has, with
# nothing after it that it aims at (`my goal to`, `my plan of`, `my dream is`), is a thing
# (round 24).
_OWN_AIM = re.compile(
    r"\b(?:my|our|your|his|her|their)\s+(?:[a-z-]+\s+)?(?:goals?|plans?|aims?|dreams?|"
    r"ideas?|options?)\b(?!\s+(?:to|of|for|is|are|was|were|would|will)\b)",
    re.IGNORECASE,
)


# "I had to decide against X", "we finally managed to decide": a decision someone had to make,
# or managed to, in the past, was made (the obligation met), not one still weighed.
_DECIDED = re.compile(r"\b(?:had|managed)\s+to\s+decide\b", re.IGNORECASE)


def unhedged(piece: str) -> str:
    """`piece` without a `considering` that means given, a hedge noun someone has as a thing
    and a decision made in the past (module note): no hedge there."""
    piece = _DECIDED.sub(" decided", piece)
    return _OWN_AIM.sub(" ", _GIVEN_THAT.sub(" ", piece, count=1))


# A wh-question in the past or the perfect, or one that asks why, takes what it asks about as
# so (round 24): `when did I last service the boiler?` says the boiler was serviced, `what
# sparked your decision to volunteer?` that there was a decision, `why do I keep missing the
# 7 AM class?` that the class is missed. A modal or an `if` (`why should I`, `what would
# happen if`) and a yes/no question (`did I lock the door?`) ask whether.
_PRESUPPOSING = re.compile(
    r"^\W*(?:(?:and|so|but|also|then|now|ok|okay|well|yeah|hmm|honestly)\W+)*"
    r"(?:(?:why|how|what|when|where|who)\s+(?:did|was|were|have|has|had)\b"
    r"|why\s+(?:do|does|am|is|are)\b"
    r"|(?:what|who)\s+(?:made|sparked|led|caused|inspired|prompted|motivated)\b)",
    re.IGNORECASE,
)
_WHETHER = re.compile(r"\b(?:should|would|could|might|may|can|if|whether)\b", re.IGNORECASE)


def presupposing(piece: str) -> bool:
    """Whether a question's clause takes what it asks about as so (`_PRESUPPOSING`)."""
    return bool(_PRESUPPOSING.match(piece)) and not _WHETHER.search(piece)
