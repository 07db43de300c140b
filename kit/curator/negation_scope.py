"""What a denial in a clause governs (kit/curator/clauses.py): readings of English negation
scope, rules of thumb, not a parser.

- Some phrases with "not", "no" or "never" deny nothing ("can't wait", "not only", "not to
  mention", "no matter how", "couldn't be happier"): the clause is not denied.
- A denial governs what follows it, not the subject before it: "Running a business isn't
  easy" denies that it is easy, not that the speaker runs a business.
- A denied verb of lacking or leaving off ("never miss", "didn't stop", "don't regret")
  asserts what it is done to: "I never miss my Sunday run" says there is a Sunday run (the
  verb itself stays denied: no "misses the run").
- A choice not yet made ("haven't decided whether", "don't know which") is a doubt, which
  clauses.py reads as a hedge, not a denial."""

from __future__ import annotations

import re
from collections.abc import Callable

from kit.curator.wording import NEGATIONS, stem

IDIOMS = re.compile(
    r"\bcan'?t wait\b|\bcouldn'?t agree\b|\bno doubts?\b|\bnot only\b|\bnever give up\b"
    r"|\bwon'?t give up\b|\bno worries\b|\bno problem\b|\bnot gonna give up\b"
    r"|\bnot (?:so |that |too )?long (?:ago|after|before)\b"  # a time ("not so long ago")
    r"|\bnot (?:sure|certain)\b"  # a doubt (a hedge, clauses._HEDGE_PHRASES), not a denial
    # what they add to, not deny: "not just for fun", "not to mention my kids"
    r"|\bnot (?:just|merely|simply)\b|\bnot to mention\b|\bnot gonna lie\b|\bno kidding\b"
    r"|\bno matter\b|\bno wonder\b|\bnothing but\b|\bcan'?t believe\b|\bcouldn'?t believe\b"
    # as much as can be: "couldn't be happier", "can't recommend it enough"
    r"|\bcouldn'?t (?:be|have been|feel) (?:happier|prouder|better|more)\b"
    r"|\bcan'?t (?:thank|recommend|praise|stress) \w+(?: \w+)? enough\b"
    # a choice not yet made is a doubt, not a denial: "haven't decided whether to ..."
    r"|\b(?:haven'?t|hasn'?t|didn'?t|don'?t|can'?t|not|couldn'?t|doesn'?t)(?: yet| really| quite)?"
    r" (?:decided|decide|know|figured out|figure out|made up my mind|settled)"
    r"(?= (?:yet |really |quite )?(?:whether|if|between|which|what|how|where|when)\b)",
    re.IGNORECASE,
)
# Verbs whose denial asserts what they are done to ("never missed a game": there were games).
_LACKING = frozenset(
    stem(w)
    for w in """miss missed misses missing fail failed fails forget forgot forgotten forgets
    stop stopped stops skip skipped skips quit quits regret regrets regretted hesitate
    hesitated lack lacked""".split()
)


def denial(piece: str, words: Callable[[str], list[str]]) -> tuple[bool, frozenset[str]]:
    """Whether the clause `piece` denies, and the stems its denial does not govern; `words`
    cuts a text into the clause's words."""
    tokens = words(IDIOMS.sub(" ", piece))
    lowered = [t.lower() for t in tokens]
    at = next((i for i, t in enumerate(lowered) if _denies(t)), None)
    if at is None:
        return False, frozenset()
    before = {stem(t) for t in lowered[:at]}
    after = [stem(t) for t in lowered[at + 1 :]]
    # "never (once) missed my ...": two words at most between the denial and the verb
    lacking = next((i for i, s in enumerate(after[:3]) if s in _LACKING), None)
    if lacking is not None:
        return True, frozenset(before | set(after[lacking + 1 :])) - {after[lacking]}
    return True, frozenset(before - set(after))


def _denies(token: str) -> bool:
    return token in NEGATIONS or token.endswith("n't")
