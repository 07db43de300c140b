"""What a denial governs in a cited clause (kit/curator/judge.py reads it): not what it
presupposes ("I couldn't find the remote for my old projector": there is a projector), unless it
denies having ("I don't have my car anymore"); and a name said only under a denial is no fact
("I never made it to Denver")."""

from __future__ import annotations

import dataclasses

from kit.curator.clauses import Clause
from kit.curator.fact_terms import Term
from kit.curator.wording import stem, tokens


def spared(clause: Clause, term: Term) -> Clause:
    """A denied clause, as it holds a term its "my ..." names: a denial does not govern what
    it presupposes ("I couldn't find the remote for my old projector": the projector is so,
    the remote was not found), as a hedge does not (holding.py as_given); but a denial of having
    does ("I don't have my car anymore")."""
    if not clause.negated or clause.asks or _denies_having(clause.words):
        return clause  # a question's descriptions: the hedge's reading (as_given) alone
    keys = {term.key} if term.kind != "date" else _date_keys(term.shown)
    return dataclasses.replace(clause, negated=False) if keys <= clause.given else clause


def _date_keys(shown: str) -> set[str]:
    """A date's stems but its year, which a comma may set off into a clause of its own
    ("won't be ready by April 10, | 2024"); the year alone if that is all it is."""
    said = [t.group() for t in tokens(shown)]
    days = {stem(t) for t in said if not (t.isdigit() and len(t) == 4)}
    return days or {stem(t) for t in said}


def denied_only(term: Term, fits: list[Clause], negated: bool) -> bool:
    """Whether a name of a fact that denies nothing is said only in clauses that deny it
    (what a denial presupposes aside: spared)."""
    if term.kind != "name" or negated or term.passed_over or not fits:
        return False
    return all(spared(c, term).negated for c in fits)


def _denies_having(words: frozenset[str]) -> bool:
    """A denial of having, or of having still, governs "my ...": "I don't have my car
    anymore", "no longer own my bike"; not "might not have liked my draft" (`have` there
    helps another verb: it is a verb of having only with do-support)."""
    return bool(words & _HAVING or (words & _HAVE and words & _DO))


_HAVING = frozenset("own owns owned keep keeps kept got anymore longer".split())
_HAVE = frozenset({"have", "has", "had"})
_DO = frozenset("do does did don't doesn't didn't dont doesnt didnt".split())
