"""The grounding guard's round 29B (issue 29): supported facts its rules dropped, by the
general shape of language that fooled them. (1) A comparison with something that happened
(`like the one Priya ran`, `like Omar suggested`, `like Priya's ... workshop`) takes as so
the phrase it points back to, whatever the clause before only plans or asks
(kit/curator/compared.py), of whom it is about, not of the planner; and a fact that opens with
a day (`In 2023 the owner ...`) is about whom it names after the day (kit/curator/fact_terms.py).
(2) A day the fact says was passed over (`instead of going to
the 14 June fair`) is held up by a message that passes it over too (`over attending the June
14 fair`): the contrast goes on through a verb in -ing and its `to`
(kit/curator/contrast.py), and a day in it is passed over as a word is; so is what
`prefers <doing X> to <doing Y>` puts second (kit/curator/fact_terms.py). (4) `one` after a
verb, with no noun after it, says again the `a <thing>` just before it (`a sewing machine,
since I've never owned one`; kit/curator/compared.py). Messages and facts
written here; each STORED case was dropped by main's guard (0f2dabf)."""

from __future__ import annotations

from datetime import date

import pytest

from kit.curator.clauses import clauses
from kit.curator.fact_terms import fact_terms
from kit.curator.wording import fold
from tests.support.grounding import check

# (1) (the fact, the owner's message): the phrase compared with is given
COMPARED = [
    (
        "Priya ran a weekend pottery course for beginners.",
        "I've been thinking of taking a weekend pottery course, like the one Priya ran for "
        "beginners last spring.",
    ),
    (
        "Omar suggested a paper expense ledger to the owner.",
        "I was wondering if keeping a paper expense ledger like Omar suggested could help me "
        "save more.",
    ),
    (
        "Nadia held a rooftop sketching workshop.",
        "Can you suggest outdoor ideas like Nadia's rooftop sketching workshop for my street?",
    ),
]


@pytest.mark.parametrize(("fact", "said"), COMPARED)
def test_what_a_comparison_points_back_to_is_given(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


# ... but the plan's or question's own verb stays a plan: the owner took no course, kept no
# ledger, ran none (the comparison's words are Priya's, not the planner's, even where the fact
# opens with a day); and `like Omar` alone (an example, no act) gives nothing.
NOT_DONE = [
    ("The owner took a weekend pottery course.", COMPARED[0][1]),
    ("The owner keeps a paper expense ledger.", COMPARED[1][1]),
    ("The owner ran a weekend pottery course for beginners.", COMPARED[0][1]),
    ("In 2023 the owner ran a weekend pottery course for beginners.", COMPARED[0][1]),
    (
        "The owner joined a chess club.",
        "I'm thinking of joining a chess club, with people like Omar.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), NOT_DONE)
def test_the_planned_act_stays_planned(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


def test_a_comparison_with_no_act_gives_nothing() -> None:
    said = "I'm thinking of joining a chess club, with people like Omar."
    plan = next(c for c in clauses(said) if "chess" in fold(said)[c.start : c.end])
    assert plan.hedged
    assert "chess" not in plan.given


# (2) (the fact, the owner's message): a day passed over in both
PASSED_OVER = [
    (
        "The owner chose to finish the essay instead of going to the 14 June 2024 book fair.",
        "I chose to finish my essay over attending the June 14 book fair, what else can I "
        "skip like that?",
    ),
    (
        "The owner stayed home rather than going to the 3 May 2024 street party.",
        "I stayed home instead of the May 3 street party, I needed the rest.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), PASSED_OVER)
def test_a_day_passed_over_in_both_is_held_up(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


def test_a_day_passed_over_is_not_one_gone_to() -> None:
    fact = "The owner went to the 14 June 2024 book fair."
    assert check(fact, PASSED_OVER[0][1]).status != "supported"


def test_a_fact_opening_with_a_day_is_about_whom_it_names_next() -> None:
    terms, _, _ = fact_terms(
        "On 3 May 2024 Priya moved to Leeds.", {"owner"}, date(2024, 6, 1), frozenset({"priya"})
    )
    assert {(t.holder, t.who) for t in terms if t.kind == "word"} == {("other", "priya")}
    terms, _, _ = fact_terms(
        "In June the owner ran 5 km.", {"owner"}, date(2024, 7, 1), frozenset()
    )
    assert {t.holder for t in terms if t.kind != "date"} == {"owner"}


# (3) "prefers <doing X> to <doing Y>": Y is passed over, as after "over"
def test_what_a_preference_puts_second_is_passed_over() -> None:
    fact = "The owner prefers walking to work to taking the crowded bus."
    said = "I prefer walking to work over taking the crowded bus, it clears my head."
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason
    assert check("The owner takes the crowded bus.", said).status != "supported"


# (4) "one" standing for a thing named just before, in a clause of its own
ONE = [
    (
        "The owner has never owned a sewing machine.",
        "Which brand is best for a sewing machine, since I've never owned one before?",
    ),
    (
        "The owner's neighbour has a pizza oven.",
        "I'd love to build a pizza oven in the garden; my neighbour has one already.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), ONE)
def test_one_says_again_what_it_stands_for(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


def test_one_as_a_number_or_with_its_noun_says_nothing_again() -> None:
    said = "Which brand is best for a sewing machine? I bought one book on it."
    assert check("The owner bought a sewing machine.", said).status != "supported"
