"""A doubt or a request copied into a fact, cut off before the grounding guard reads it.

A small model asked for facts often copies the owner's whole message, rewritten in the third
person (issue 29, run 7): "The owner is kinda worried about the owner's budget, the owner met
Heather at the Montserrat Film Festival in February 2023 and she gave the owner some advice on
budgeting basics, but the owner is not sure if the owner is doing it right." Every word is the
owner's, so the guard stores it, and the owner's memory now holds a passing doubt ("not sure if
the owner is doing it right") and, as often, the request that ended the message ("can you help
the owner make a budget?") as though they were facts.

What a person expects is the statement kept and the doubt left out: the meeting, the advice
and the worry are what the owner said is so; whether they are doing it right is what they asked.
So a clause of doubt ("but the owner is not sure if ...", "and is wondering whether ...",
"Maria doesn't know how ...") or of request (", can you help ...", "any advice ...") that
follows a statement in the same sentence is cut, with the rest of that sentence (what the doubt
or the request is about). The worry stays: "worried about the budget" is how the owner said
they feel. A text that is all doubt or request is left whole: the guard holds it (a question
or a hypothetical is no fact, kit/curator/no_fact.py), and "the owner is wondering whether to
move" may be stored as just that.

The pass record says which operations were cut (never the text: it may hold a secret).
"""

from __future__ import annotations

import re
from dataclasses import replace

from kit.curator.ops import Insert, Operation, Replace, Update

_WHO = r"(?:the owner|(?-i:[A-Z][\w'-]+(?: [A-Z][\w'-]+)?)|he|she|they)"
_DOUBT = (
    r"(?:(?:is|are|was|were|'s|'re)\s+(?:still\s+|also\s+|just\s+|really\s+|kinda\s+|a bit\s+)?"
    r"(?:not (?:sure|certain)|unsure|uncertain|wondering|torn)"
    r"|(?:wonders|doubts|does(?:n't| not) know|did(?:n't| not) know|is(?:n't| not) sure))"
)
_REQUEST = (
    r"(?:can|could|would|will) you\b|any (?:advice|tips|ideas|suggestions)\b"
    r"|what do you (?:think|suggest|recommend)\b|(?:please )?help (?:the owner|him|her|them)\b"
    r"|(?:how|what|which|where|when|why) (?:can|could|should|do|does|would|will) " + _WHO + r"\b"
)
# The cut opens at a clause boundary (a comma, a semicolon, a dash, or "but"/"and"/"so"), after
# some statement: a doubt or a request said first is the whole text's (left to the guard).
_CUT = re.compile(
    r"(?:\s*[,;]\s*|\s+[-–—]\s+|\s+)(?:(?:but|and|so|yet|though)\s+)?"
    r"(?:(?:" + _WHO + r")\s+" + _DOUBT + r"|(?<=but |and |yet )" + _DOUBT + r"|" + _REQUEST + r")",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")
_STATEMENT_WORDS = 3  # fewer words before the cut are no statement of their own


def without_doubt(text: str) -> str | None:
    """`text` with each clause of doubt or request after a statement cut to its sentence's
    end; None when there is none (or nothing of a statement would be left)."""
    out: list[str] = []
    last = 0
    changed = False
    for match in _CUT.finditer(text):
        if match.start() < last:
            continue
        start_of_sentence = max(
            (m.end() for m in _SENTENCE_END.finditer(text, last, match.start())), default=last
        )
        before = text[start_of_sentence : match.start()]
        if len(re.findall(r"\w+", before)) < _STATEMENT_WORDS:
            continue  # the sentence opens with the doubt: no statement before it
        end = _SENTENCE_END.search(text, match.end())
        kept = text[last : match.start()].rstrip(" ,;-–—")
        if end is not None and text[end.start()] == "?":  # the request's "?": a statement now
            out.append(kept + ".")
            last = end.start() + 1
        else:
            out.append(kept)
            last = end.start() if end is not None else len(text)
        changed = True
    if not changed:
        return None
    out.append(text[last:])
    trimmed = "".join(out).strip()
    if not trimmed.endswith((".", "!", "?")):
        trimmed += "."
    return trimmed


def trim_doubt(op: Operation) -> Operation | None:
    """`op` with its new text's doubt or request cut (`without_doubt`), or None if it has none."""
    if isinstance(op, Insert | Replace):
        content = without_doubt(op.content)
        return None if content is None else replace(op, content=content)
    if isinstance(op, Update) and op.content is not None:
        content = without_doubt(op.content)
        return None if content is None else replace(op, content=content)
    return None
