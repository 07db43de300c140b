"""Whether a clause opens a question ("can you...", "should I...", "what do...", a question
word opening its sentence), as the clause reader (kit/curator/clauses.py) asks of each clause
of a sentence that ends in "?": the question runs from the clause that opens it."""

from __future__ import annotations

from kit.curator.clause_words import LEAD, WORD

QUESTION_OPENERS = frozenset(
    """can could would will should do does did is are am was were have has what how why where
    when which who whom any anything got wanna want shall may might""".split()
)


def opens_question(piece: str, first_clause: bool) -> bool:
    """Whether a clause starts a question: "can you...", "should I...", "what do...", or a
    question word opening the sentence ("Where is it?"); "who I met..." is no question."""
    tokens = [t.lower() for t in WORD.findall(piece)]
    while tokens and tokens[0] in LEAD:
        tokens = tokens[1:]
    if not tokens:
        return False
    first, second = tokens[0], tokens[1] if len(tokens) > 1 else ""
    if first in _WH:
        return first_clause or (first not in ("who", "whom", "which") and second in _AUX)
    return first in QUESTION_OPENERS and second in _ASKED


_WH = frozenset("what what's how why where when which who whom any anything got wanna".split())
_AUX = frozenset("do does did is are was were should can could would will have has am".split())
_ASKED = frozenset("you i we it there that this he she they your my anyone u ya".split())
