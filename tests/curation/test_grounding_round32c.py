"""The grounding guard's round 32C (issue 29): a hedge governs its clause to the clause's end,
and a phrase set between commas inside it does not end it (kit/curator/inserted.py). In `I'm
not sure if our backups, like the nightly copy we made in May, are enough`, `are enough` is
still doubted; in `I'm thinking of asking Ana, my old tutor, for a reference`, the reference is
still only planned. What the inserted phrase says, and a plain clause beside the hedge, stay
said. Messages and facts written here; each KEPT-OUT case was stored by the commit before this
reading."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

# (the fact, the owner's message): the claim after the inserted phrase is still hedged
RESUMED = [
    (
        "The owner's backups are enough to recover the shop's records.",
        "I'm not sure if our backups, like the nightly copy we made on May 2, are enough to "
        "recover the shop's records, could you take a look?",
    ),
    (
        "Priya wrote the owner a reference letter for the fellowship.",
        "I'm thinking of asking Priya, my old chemistry tutor, for a reference letter for the "
        "fellowship, what do you think?",
    ),
    (
        "The owner's savings, which sit in a money market account, cover a year of rent.",
        "I wonder whether my savings, which sit in a money market account, would cover a "
        "year of rent.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), RESUMED)
def test_an_inserted_phrase_does_not_end_a_hedge(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status != "supported", verdict.reason


# ... but what the inserted phrase says, and a plain clause after the hedge, are said
SAID = [
    (
        "On May 2 the owner set up a nightly copy of the backups.",
        "I'm not sure if our backups, like the nightly copy we set up on May 2, are enough, "
        "could you take a look?",
    ),
    (
        "Priya is the owner's old chemistry tutor.",
        "I'm thinking of asking Priya, my old chemistry tutor, for a reference letter, what "
        "do you think?",
    ),
    (
        "The owner met Priya in 2015.",
        "I'm thinking of asking Priya, my old chemistry tutor, for a reference letter, we met "
        "in 2015 and she has always been kind.",
    ),
    (
        "The owner's sister is a nurse.",
        "My sister, who lives in Lima, is a nurse, and I might visit her in June.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), SAID)
def test_what_is_said_beside_the_hedge_stays_said(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


# `think about` or `think of` before a gerund weighs the act, as `thinking about` does: `I'll
# think about getting a rain barrel` gets none; what the message says beside it is said, and
# `think about` before a person or a thing is no hedge.
WEIGHED = [
    (
        "The owner has a rain barrel.",
        "We cleaned the gutters last weekend. I'll think about getting a rain barrel too.",
        False,
    ),
    (
        "The owner cleaned the gutters.",
        "We cleaned the gutters last weekend. I'll think about getting a rain barrel too.",
        True,
    ),
    (
        "The owner thinks about their grandmother often.",
        "I think about my grandmother often.",
        True,
    ),
]


@pytest.mark.parametrize(("fact", "said", "stored"), WEIGHED)
def test_thinking_about_a_gerund_weighs_it(fact: str, said: str, stored: bool) -> None:
    verdict = check(fact, said)
    assert (verdict.status == "supported") == stored, verdict.reason


# `a decision to make about X`, `a choice to make`: the decision is still to come, so X is
# weighed, not done; a decision made is no hedge.
PENDING = [
    (
        "The owner switched the bakery ovens to gas.",
        "I've got a decision to make about switching the bakery ovens to gas, should I wait "
        "until spring?",
        False,
    ),
    (
        "The owner is switching the bakery ovens to gas.",
        "I've got a decision to make about switching the bakery ovens to gas, should I wait "
        "until spring?",
        False,
    ),
    ("The owner made a decision to move to Porto.", "I made a decision to move to Porto.", True),
    (
        "The owner runs a bakery.",
        "I run a bakery and I've got a decision to make about the ovens.",
        True,
    ),
]


@pytest.mark.parametrize(("fact", "said", "stored"), PENDING)
def test_a_decision_still_to_make_weighs_what_it_is_about(
    fact: str, said: str, stored: bool
) -> None:
    verdict = check(fact, said)
    assert (verdict.status == "supported") == stored, verdict.reason
