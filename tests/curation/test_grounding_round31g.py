"""The grounding guard's round 31G (issue 29): the word before a thing, swapped. A fact that
says a noun with a modifier (an adjective or a noun right before it) the cited messages do not
say, where a message says the same noun with another modifier of the same kind (`a book club`
said, `a film club` in the fact; `a blue bike` said, `a red bike` in the fact), says what
the message says is not so: held as an opposite is (kit/curator/swapped_modifier.py). Not a
synonym (`big` / `large`), not a modifier said elsewhere, not a determiner, number or
possessive before the noun, and not another kind of modifier (`weekly` beside `team`).
Messages and facts written here; main's guard (a32c261) stored or only asked about each case
of the first list."""

from __future__ import annotations

import pytest

from kit.curator.swapped_modifier import pairs, swapped
from tests.support.grounding import check

# (the fact, the message): the noun said, with another modifier
SWAPPED = [
    (
        "The owner joined a film club at the library.",
        "Last month I joined a book club at the library and I go every Tuesday.",
    ),
    (
        "The owner goes to an in-person yoga class on Mondays.",
        "I go to a virtual yoga class on Mondays, it keeps me sane.",
    ),
    (
        "The owner rides a red bike to work.",
        "I ride a blue bike to work most days.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), SWAPPED)
def test_a_swapped_modifier_is_dropped(fact: str, said: str) -> None:
    assert check(fact, said).status == "unsupported"


# What stays stored: the same modifier, a synonym, the modifier said elsewhere, no modifier
SAID = [
    (
        "The owner joined a chess club at the library.",
        "Last month I joined a chess club at the library and I go every Tuesday.",
    ),
    (
        "The owner bought a large table for the kitchen.",
        "I finally bought a big table for the kitchen, it fits perfectly.",
    ),
    (
        "The owner bought a wooden table for the kitchen.",
        "The table is wooden. I finally bought my new table for the kitchen, it fits perfectly.",
    ),
    (
        "The owner bought a table for the kitchen.",
        "I finally bought a wooden table for the kitchen, it fits perfectly.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), SAID)
def test_a_modifier_said_or_reworded_stays_stored(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


def test_what_is_no_modifier() -> None:
    """A determiner, possessive, number or name before a noun is no modifier, nor a doing."""
    assert pairs("my table, the table, three tables, Anna's table") == ()
    assert pairs("we organized drives") == ()
    assert pairs("a wooden table") == (("wooden", "table"),)


def test_the_limits_still_hold() -> None:
    """A question, a hypothetical, another person: not supported, swapped or not."""
    assert check("The owner joined a chess club.", "Should I join a chess club?").status != (
        "supported"
    )
    assert (
        check("The owner joined a chess club.", "If I had time I would join a chess club.").status
        != "supported"
    )


def test_a_graded_adjective_a_person_or_a_verb_form_is_no_swap() -> None:
    """A judgement of size or quality is reworded freely; a subject and a doing are no kind."""

    def swap(fact: str, said: str) -> list[str]:
        return swapped(pairs(fact), pairs(said), frozenset())

    assert swap("The owner threw a big party.", "We threw a fabulous party.") == []
    assert swap("The owner plans to paint.", "That sounds like a fine plan.") == []
    assert swap("The owner organized drives.", "We planned drives.") == []
    assert swap("The owner rides a red bike.", "I ride a blue bike.") == ["red"]
