"""The grounding guard's round 31E (issue 29): a doing weighed by a modal is no doing done.
A gerund that is the subject of `can be` / `must have been` (`Signing up for a choir can be
so uplifting`), or comes after `it` + such a modal + a weighing word (`it must have been hard
giving up the flat`), names the doing: it says no one did it (kit/curator/evaluated.py, read
as "generic" by kit/curator/intended.py). And `had to` + a verb is read as that verb done, so
the same reading reaches it (`had to give up the flat`). Not a gerund weighed without a modal
(`was the best thing`: it happened), nor one the message also says was done.
Messages and facts written here; each KEPT-OUT case of the first list was stored by main's
guard (cb07dd2)."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

# (the fact, the message): the doing only weighed, by a modal
WEIGHED = [
    (
        "The owner signed up for a choir.",
        "Signing up for a choir can be so uplifting. How are your kids doing these days?",
    ),
    (
        "The owner had to give up the flat in Leith.",
        "Oh no, I'm sorry. It must have been hard giving up the flat in Leith. Shall we talk?",
    ),
    (
        "The owner adopted a greyhound.",
        "Adopting a greyhound could be wonderful for your family, you know.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), WEIGHED)
def test_a_doing_only_weighed_by_a_modal_is_not_done(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


# What stays stored: weighed with no modal (it happened), said as done too, a subject of its own
DONE = [
    (
        "The owner signed up for a choir.",
        "Signing up for a choir was the best thing I did this year.",
    ),
    (
        "The owner signed up for a choir.",
        "Signing up for a choir can be scary, but I signed up for one last spring.",
    ),
    (
        "The owner had to give up the flat in Leith.",
        "It was hard, but I had to give up the flat in Leith last month.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), DONE)
def test_a_doing_said_as_done_stays_stored(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


# The rule's limits: it must not let in what was kept out before
KEPT_OUT = [
    (  # a wrong detail
        "The owner signed up for a choir.",
        "I signed up for a pottery class last spring, and it has been so uplifting.",
    ),
    (  # a question
        "The owner signed up for a choir.",
        "Should I sign up for a choir?",
    ),
    (  # another person's act
        "The owner gave up the flat in Leith.",
        "My sister gave up the flat in Leith; it must have been hard for her.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), KEPT_OUT)
def test_what_stays_kept_out(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


# Lever 2 (kit/curator/swapped_sides.py): a preference whose two sides the fact turns round
TURNED = [
    (  # the side not chosen said again on its own: main stored it
        "The owner chose the wool coat over the rain jacket for the trip.",
        "I chose the rain jacket over the wool coat for the trip, and the wool coat stays home.",
    ),
    (  # (already kept out before: `over` denies what follows it)
        "The owner picked the night bus over the sleeper train to Inverness.",
        "I picked the sleeper train over the night bus to Inverness.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), TURNED)
def test_a_preference_turned_round_is_kept_out(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


# What stays stored: the preference the message's way round, `over` of no preference
AS_SAID = [
    (
        "The owner picked the sleeper train over the night bus to Inverness.",
        "I picked the sleeper train over the night bus to Inverness.",
    ),
    (
        "The owner hosted over 40 guests at the barn dance.",
        "I hosted over 40 guests at the barn dance on Saturday.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), AS_SAID)
def test_a_preference_as_said_stays_stored(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason
