"""Whether a clause says what is so (kit/curator/clauses.py reads each clause by it): hedged
(a question, a wish, a plan, a doubt), a supposition ("if I ever", "I'd", "maybe"), or denied
("never", "isn't", "without a map"); and the idioms whose "not" or "no" denies nothing ("can't
wait", "no worries")."""

from __future__ import annotations

import re

from kit.curator.clause_words import WORD
from kit.curator.wording import NEGATIONS

SUPPOSE = re.compile(
    r"\b(?:if|unless|in case|ever|would|could|might|i'd|we'd|maybe|perhaps|possibly|someday|dream|"
    r"dreams|dreaming|wish|wishes|wishing)\b|\bone day\b",
    re.IGNORECASE,
)
_HEDGE_WORDS = frozenset(
    """if whether would could might maybe perhaps possibly wondering wonder hope hoping
    hopefully wish wishing want wants wanna dream dreams dreaming keen interested planning
    plan plans goal goals aiming aim torn deciding decide unsure someday considering thinking
    exploring should i'd we'd you'd prospective""".split()
)
_HEDGE_PHRASES = re.compile(
    r"\bnot sure\b|\bone day\b|\bin case\b|\bwould like\b|\bthinking (?:of|about)\b|\bin mind\b"
    r"|\b(?:decision|choice)s? to make\b"  # "a decision to make about X": X is weighed
    r"|\bthinks? (?:of|about) (?!\w*thing\b)\w+ing\b"  # "I'll think about getting one"
    r"|\blooking (?:into|for|at)\b|\b(?:stuck|choosing|picking) between\b",
    re.IGNORECASE,
)
_IDIOMS = re.compile(
    r"\bcan'?t wait\b|\bcouldn'?t agree\b|\bno doubts?\b|\bnot only\b|\bnever give up\b"
    r"|\bwon'?t give up\b|\bno worries\b|\bno problem\b|\bnot gonna give up\b"
    r"|\bnot (?:so |that |too )?long (?:ago|after|before)\b"  # a time ("not so long ago")
    r"|\bnot (?:sure|certain)\b",  # a doubt (a hedge, _HEDGE_PHRASES), not a denial
    re.IGNORECASE,
)


# "wondering if I made the right choice in taking the bonus": the choice was made; only
# whether it was right is in doubt.
CHOICE_MADE = re.compile(
    r"^\W*(?:i|we)(?:'ve| have)? (?:made|took|taken|chose|picked) the right "
    r"(?:choice|decision|call|move|option|path)\b",
    re.IGNORECASE,
)
_SURE = re.compile(r"\b(?:want|wanna|wanted|need) to make sure\b|\bmake sure\b", re.IGNORECASE)


def hedges(piece: str) -> bool:
    piece = _SURE.sub(" ", piece)  # "I want to make sure I meet the deadline": a worry, no wish
    tokens = WORD.findall(piece)
    if _HEDGE_PHRASES.search(piece):
        return True
    for token in tokens:
        low = token.lower()
        if low in _HEDGE_WORDS or (low == "may" and token == "may"):
            return True
    return False


def denies(piece: str, tokens: list[str]) -> bool:
    if _IDIOMS.search(piece):
        piece = _IDIOMS.sub(" ", piece)
        tokens = WORD.findall(piece)
    if tokens and tokens[0].lower() == "without":  # "| without a map": its own clause
        return True
    return any(t.lower() in NEGATIONS or t.lower().endswith("n't") for t in tokens)
