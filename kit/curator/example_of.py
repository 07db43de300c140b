"""A clause given as an example goes on about what the clause before it names (issue 29,
round 34C).

"My Kindle has been acting up, like I noticed crashing on the last chapter" says the crashing
of the Kindle: `like` (`such as`, `for example`) makes the clause after it an example of the one
before, though its own subject is the owner, who only noticed. kit/curator/holding.py `whose`
reads a clause of the owner's about self as about someone or something the fact names only
where the clause names it; this module gives it, too, the clause the example is of, so what
that one names (`Kindle`) is whom the example may be about (and `holds_up`, which wants the
owner's clause to name someone besides the owner, takes the clause before as naming them).

What it cannot tell: whether the example's act is the named one's or the owner's own ("issues
with Tom, like I yelled at him"); the owner's clause then reads as it did before, through a
pronoun (`him`) if it has one.
"""

from __future__ import annotations

from kit.curator.clauses import Clause

# What opens an example, said as a clause of its own ("..., like | I noticed ...").
_OPENERS = frozenset({"like", "such", "as", "for", "example", "instance", "e.g"})


def exemplified(clauses: tuple[Clause, ...], clause: Clause) -> Clause | None:
    """The clause `clause` is an example of: the one before a lone `like` that opens it, or
    before it when it opens with `like` itself (kit/curator/clauses.py `example`)."""
    before = [c for c in clauses if c.end <= clause.start]
    if clause.example and before:
        return before[-1]
    if len(before) >= 2 and before[-1].words and before[-1].words <= _OPENERS:
        return before[-2]
    return None
