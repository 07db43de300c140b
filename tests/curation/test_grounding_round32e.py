"""The grounding guard's round 32E (issue 29): what a denial denies, both ways.

- A denial attaches to the word right after it, not to the subject its clause opens with:
  "Cooking for a crowd isn't easy" says the cooking, and denies only "easy"; and a denied
  opposite says the fact's word ("isn't easy" says "hard": WordNet's opposites of the word's
  most common senses) (kit/curator/denial_scope.py).
- A clause that denies the fact's very act with what it is done to ("I have never practiced
  any chess openings") holds the fact out, though another clause says the act with other
  words; a fact that denies ("never enjoyed ...") is not held up by messages that say its
  denied word as so and deny nothing of it; a speaker who says others did the act and "I
  missed it" did not do it (kit/curator/denied_act.py).
Messages and facts written here; main's guard (04f32a3) got each case of the first lists
wrong."""

from __future__ import annotations

import pytest

from kit.curator.denial_scope import denied_head, subject_given
from kit.curator.wording import stem, tokens
from tests.support.grounding import check

# (the fact, the message): a denied predicate beside a subject that is so
SCOPED = [
    (
        "The owner finds cooking for a crowd hard but keeps hosting dinners.",
        "Cooking for a crowd isn't easy, but I keep hosting dinners every month.",
    ),
    (
        "The owner finds training for a marathon hard.",
        "Training for a marathon is not easy when you work full time, I run every morning.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), SCOPED)
def test_a_denied_predicate_leaves_its_subject_said(fact: str, said: str) -> None:
    assert check(fact, said).status == "supported", check(fact, said).reason


# (the fact, the message): the messages deny the fact's act, or say what its denial denies
DENIED = [
    (
        "The owner has practiced many chess openings.",
        "I have never practiced any chess openings, odd given how I love reading about chess "
        "openings, and I spent 3 hours practicing chess puzzles yesterday.",
    ),
    (
        "The owner never enjoyed swimming lessons.",
        "Oh I remember those swimming lessons! I used to love spending time in the pool.",
    ),
    (
        "The owner finds the commute easy.",
        "The commute isn't easy, it takes me an hour each way.",
    ),
    (
        "The owner ran in the city marathon last Sunday.",
        "Last Sunday our city held its marathon! Thousands of people ran through downtown. "
        "I missed it, but the photos were inspiring.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), DENIED)
def test_a_denied_act_is_not_stored(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


# What stays stored: a fact said plainly beside a denial, a denial said as the fact says it
KEPT = [
    (
        "The owner practiced chess endgames for 3 hours.",
        "I have never practiced any chess openings before, but I spent 3 hours practicing "
        "endgames with chess puzzles yesterday.",
    ),
    (
        "The owner never enjoyed swimming lessons.",
        "I never enjoyed swimming lessons, though I used to love the pool itself.",
    ),
    (
        "The owner ran in the city marathon last Sunday.",
        "Last Sunday I ran in our city marathon! I nearly missed it because of the traffic.",
    ),
    (
        "The owner bakes bread every Sunday.",
        "Baking bread isn't hard at all, I bake bread every Sunday.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), KEPT)
def test_a_fact_said_beside_a_denial_is_stored(fact: str, said: str) -> None:
    assert check(fact, said).status == "supported", check(fact, said).reason


def _words(text: str) -> list[tuple[str, int, int]]:
    return [(t.group(), t.start(), t.end()) for t in tokens(text)]


def test_the_denied_word_is_the_one_after_the_negation() -> None:
    assert denied_head(_words("I have never really practiced any openings")) == "practiced"
    assert denied_head(_words("it isn't always that easy")) == "easy"
    assert denied_head(_words("I went there")) == ""


def test_only_a_denied_be_and_its_adjective_spare_the_subject() -> None:
    stems, _ = subject_given(_words("Running a business isn't easy"))
    assert stem("business") in stems
    assert subject_given(_words("Running a business didn't work out"))[0] == frozenset()
