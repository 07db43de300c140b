"""Whether `they` or `their` names things, not people: the word just before it is a plural
thing ("stressed about my expenses, | especially since they were $2,100": the expenses; "I
prefer e-books for their portability": the e-books'). Then the clause is no one else's
(kit/curator/clauses.py). A word for people ("my kids ... they"), a name, or a person by role
(kit/curator/persons.py) is someone's. Deterministic."""

from __future__ import annotations

from kit.curator.persons import person
from kit.curator.related import thing
from kit.curator.wording import stem

THEY = frozenset({"they", "they're", "they've", "they'd", "they'll", "their", "theirs"})
_SKIPPED = frozenset(
    """especially mostly mainly partly largely just only even since because cause 'cause and
    but for about with of on in at to from by all both""".split()
)
_WINDOW = 3  # words looked back over, past words that say nothing


def things_before(words: list[str], people: frozenset[str]) -> bool:
    """Whether the last word of `words` that says something is a plural thing (see the
    module note); `people`: the stems of the words for people (clauses.PEOPLE)."""
    for word in reversed(words[-_WINDOW:]):
        low = word.lower().rsplit("-", 1)[-1]  # "e-books": books
        if low in _SKIPPED:
            continue
        plural = low.endswith("s") and not low.endswith(("ss", "'s"))
        return (
            plural and word.islower() and thing(low) and stem(low) not in people and not person(low)
        )
    return False
