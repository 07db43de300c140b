"""What a speaker other than the owner says of someone else: a clause whose subject is `she`,
`he`, `they` or `you` (and the clauses that go on with it: "She had to leave | and find a new
place"), which holds up no fact about the speaker (kit/curator/judge.py). Only by a pronoun: a
capitalised word or "some friends" opening a clause may be the speaker's own (`Dance is just
me`, `Some friends from church and I went camping`), and a clause with `I` or `we` in it is the
speaker's too (`they're good - we got another cat`). A question to the listener states
nothing of them (`planning a few. You got any art projects coming up?`).

And the other way round: what another speaker asks the owner by `what`, `why`, `how` (`What
sparked your decision to start this initiative?`), answered in another cited message, takes as
given what it asks about the owner's act (not a yes-or-no question: `Did you start it?` "No")."""

from __future__ import annotations

from functools import lru_cache

from kit.curator.clause_words import SPEAKER
from kit.curator.clauses import Clause

_THEM = frozenset(
    """he she they he's she's they're they've they'd he'd she'd he'll she'll they'll you
    you're you've you'd you'll""".split()
)


@lru_cache(maxsize=4096)
def of_others(clauses: tuple[Clause, ...]) -> frozenset[int]:
    """The starts of the clauses that say something of someone else, by a pronoun."""
    found: set[int] = set()
    theirs = False
    for clause in clauses:
        if clause.own_subject:
            theirs = clause.holder == "other" and bool(clause.words & _THEM)
        theirs = theirs and clause.holder == "other" and not clause.words & SPEAKER
        theirs = theirs and not clause.asks  # "You got any art projects coming up?" asks
        if theirs:
            found.add(clause.start)
    return frozenset(found)


_WH = frozenset("what why how when where which".split())
_YOU = frozenset({"you", "your", "you've", "you're", "you'd", "ur"})


def asked_of_listener(clause: Clause, answered: bool) -> bool:
    """Whether a clause is a wh-question to the listener that another cited message answers
    (kit/curator/hedge_scope.py reads such a question as taking its act as given: no longer
    `asks`)."""
    asked = answered and bool(clause.words & _WH) and bool(clause.words & _YOU)
    return asked and not clause.words & SPEAKER  # "what did you think of my cello?": mine


def leading(clauses: tuple[Clause, ...], clause: Clause) -> Clause:
    """The clause that says whom `clause` is about: itself, or, when it goes on with the one
    before it ("Seeing your pupils learn | and thrive"), the last before it that says so."""
    if clause.own_subject:
        return clause
    before = [c for c in clauses if c.start < clause.start]
    return next((c for c in reversed(before) if c.own_subject), clause)
