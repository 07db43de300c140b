"""The words the clause reader (kit/curator/clauses.py) reads a clause by: how it cuts a
text into words, the filler words a clause may open with, and the words that say whom a clause
is about: the speaker ("I", "my"), someone else ("she", "your") or people ("my sister"). Kept
apart so that what reads a clause's subject, mood or question shares one lexicon with it."""

from __future__ import annotations

import re

from kit.curator.wording import stem

WORD = re.compile(
    r"\$?£?€?\d(?:[\d,]*\d)?(?:\.\d+)?(?::\d\d)?(?:k\b|%)?|[^\W\d_][\w'-]*", re.UNICODE
)

LEAD = frozenset(
    """and but so then also yeah yes yep oh well plus now just really actually because cause
    especially since kinda sorta even only recently currently finally already
    'cause though although even hey wow thanks thank ok okay sure hmm lol haha btw anyway
    honestly tbh like totally definitely absolutely cool great awesome nice""".split()
)
SELF = frozenset(
    "i i'm i've i'd i'll im ive me myself we we're we've we'd we'll us ourselves".split()
)
POSSESSIVE = frozenset({"my", "our"})
SPEAKER = SELF | POSSESSIVE  # words by which a clause is the speaker's ("I", "we", "my")
OTHER = frozenset(
    """he she they he's she's they're they've they'd he'd she'd his her their him them who
    who's whose you you're you've you'd you'll your yours ur""".split()
)
PEOPLE = frozenset(
    stem(w)
    for w in """mother father parent parents sister brother sibling siblings kid son daughter
    partner friend friends colleague colleagues coworker coworkers boss manager neighbour
    neighbor aunt uncle cousin grandmother grandfather grandparents nephew niece roommate
    mentor mentee teacher instructor student students team crew family baby girl boy guy man
    woman person teen teenager mate buddy bestie dog cat pet pets wife husband spouse
    boyfriend girlfriend fiance professor doctor coach client clients customers customer
    daughters sons kids children mom dad grandma grandpa""".split()
)


def word_key(token: str) -> str:
    low = token.casefold().strip("'-")
    return low[:-2] if low.endswith("'s") else low
