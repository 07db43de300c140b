"""Whom a clause about someone else stands for when its subject is only a pronoun: "I went to
Ana's talk, | where she covered ...", "I ran into some cyclists | who ...": the people the
clause before it names (a word for people, a person by role, a name). A word the owner said
in it holds up a fact about the owner that has them as the one something is of or comes
from, and says the word after them ("went to Ana's talk on ...": kit/curator/judge.py
_theirs_named), as one said of "my team" does; never one the owner acts on ("gave Ana tips"),
nor the owner's own act ("repaired Ana's clock" where she repaired one). Deterministic."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kit.curator.clause_words import PEOPLE
from kit.curator.clauses import Clause
from kit.curator.persons import common, person
from kit.curator.wording import stem, tokens
from kit.dates.words import MONTHS, WEEKDAYS

# A subject that only points back: "she covered ...", "who said ..."
_POINTING = frozenset(
    """he she they who he's she's they're they've he'd she'd they'd he'll she'll they'll""".split()
)
# Words that open a clause and say nothing of whom it is about
_OPENING = frozenset(
    """and but so then also where when which while whereas because since as really just
    actually""".split()
)


def referred(folded: str, cut: Sequence[Clause]) -> tuple[frozenset[str], ...]:
    """For each clause of `cut` (offsets into `folded`): the stems of whom its pronoun
    subject stands for (see the module note); empty for any other clause."""
    found: list[frozenset[str]] = []
    for n, clause in enumerate(cut):
        words = _words(folded, clause)
        first = next((w for w in words if w.lower() not in _OPENING), "")
        if clause.holder != "other" or clause.whom or first.lower() not in _POINTING:
            found.append(frozenset())
            continue
        found.append(_named_before(folded, cut[:n]))
    return tuple(found)


def _named_before(folded: str, earlier: Sequence[Clause]) -> frozenset[str]:
    """Whom the nearest earlier clause that says anything names (none: no one to point to)."""
    for clause in reversed(earlier):
        words = _words(folded, clause)
        if all(w.lower() in _OPENING for w in words):
            continue
        return frozenset(stem(w) for w in words if _someone(w))
    return frozenset()


def _someone(word: str) -> bool:
    """A word for people, a person by role, or a name (not a month, a day, a common word)."""
    low = word.lower()
    return stem(low) in PEOPLE or person(low) or _named(word)


def _named(word: str) -> bool:
    low = word.lower().removesuffix("'s")
    return (
        word[:1].isupper()
        and word != "I"
        and not word.startswith("I'")
        and low not in MONTHS
        and low not in WEEKDAYS
        and not common(low)
    )


def _words(folded: str, clause: Clause) -> list[str]:
    return [t.group() for t in tokens(folded[clause.start : clause.end])]


@dataclass(frozen=True)
class Sided:
    """Whom a fact names as the one something is of or comes from ("Ana's talk", "tips from
    Ana", "a warning by the wardens"), and the words it says after them (what is theirs)."""

    whom: frozenset[str] = frozenset()
    after: frozenset[str] = frozenset()


def on_their_side(text: str) -> Sided:
    """See Sided. Not one the owner acts on ("gave Ana tips", "shared it with Ana"): a word
    said of her there is no act of the owner's."""
    words = [t.group() for t in tokens(text)]
    for n, word in enumerate(words):
        mine = word.lower().endswith(("'s", "s'")) and _someone(word.removesuffix("'s"))
        if mine:
            return Sided(frozenset({stem(word)}), frozenset(stem(w) for w in words[n + 1 :]))
        if word.lower() in _SOURCE:
            following = words[n + 1 : n + 1 + _PHRASE]
            whom = frozenset(stem(w) for w in following if _someone(w))
            if whom:
                return Sided(whom, frozenset(stem(w) for w in words[n + 1 :]))
    return Sided()


_SOURCE = frozenset({"from", "by"})  # the one a thing comes from or is done by
_PHRASE = 4  # words after "from" that may name them ("from some rival anglers")
NO_ONE = Sided()
