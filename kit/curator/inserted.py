"""A phrase set between commas inside a hedged clause, and where that clause resumes after it
(kit/curator/clauses.py reads both; grounding round 32C).

A hedge governs its clause to the clause's end; a phrase inserted in it does not end it. In
`I'm not sure if our backups, like the nightly copy we set up in May, are enough`, the doubt
opens with `if our backups`, an example and a relative clause come between, and `are enough`
is still what the speaker is unsure of. In `I'm thinking of asking Ana, my old tutor, for a
reference`, the apposition comes between the plan and `for a reference`, which is still only
planned. What the inserted phrase itself says (the copy was set up, Ana is the tutor) stays
said: only the clause the hedge opened takes its hedge back.

Two shapes resume the clause: a predicate with no subject of its own (a finite verb opens it,
`are enough`), anywhere before the sentence ends; or, straight after the inserted phrase, the
rest of a verb phrase (a preposition opens it, `for a reference`)."""

from __future__ import annotations

import re

# What opens an inserted phrase: an example, a relative clause, or an apposition after a name
# (`Ana, | my old tutor`).
_EXAMPLE = re.compile(r"^\W*(?:like|such as|including|e\.g\.|for example|for instance)\s", re.I)
_RELATIVE = re.compile(r"^\W*(?:which|who|whose|whom)\s", re.I)
_APPOSED = re.compile(r"^\W*(?:my|our|your|his|her|their)\s", re.I)
_NAME_ENDS = re.compile(r"\b[A-Z][\w'-]*\W*$")

# A predicate whose subject came before the inserted phrase: a finite verb opens it.
_PREDICATE = re.compile(
    r"^\W*(?:is|are|was|were|has|have|had|does|do|did|will|would|can|could|should|might|"
    r"may|must)\s",
    re.I,
)
# The rest of a verb phrase: a preposition opens it.
_REST = re.compile(r"^\W*(?:for|to|about|with|on|into|from|at|of)\s", re.I)


def inserts(piece: str, previous: str) -> bool:
    """Whether `piece` is a phrase inserted after `previous` (the clause before it in its
    sentence): an example, a relative clause, or an apposition after a name."""
    if _EXAMPLE.match(piece) or _RELATIVE.match(piece):
        return True
    return bool(_APPOSED.match(piece) and _NAME_ENDS.search(previous))


def resumes(piece: str, straight_after: bool) -> bool:
    """Whether `piece` resumes the clause an inserted phrase broke: a predicate, or, when it
    follows the inserted phrase straight away, the rest of a verb phrase."""
    return bool(_PREDICATE.match(piece) or (straight_after and _REST.match(piece)))
