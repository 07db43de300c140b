"""The grounding guard's round 32D (issue 29): whom a fact's clause is about, on the supported
side (kit/curator/fact_terms.py).

- A clause that only adds a noun phrase to the one before ("... helped the owner calm her
  mind | and her restless hands") stands where that one stands: it is about whom that clause
  was, and where that clause joins a thing or someone to the owner ("Pottery has helped the
  owner ..."), no telling; not about the thing alone. A clause that goes on with a verb
  ("| and bought a sofa") goes on with the subject, as before.
- A clause (as the fact's clauses are cut, kit/curator/clauses.py) opened by "after",
  "before", "when" or "once" whose subject is a word for people
  ("after the kids go to bed") is about them, not about the owner: what the owner said of
  self does not hold it up, what was said of them does.

Messages and facts written here; main's guard (04f32a3) read each case of the lists below the
other way.
"""

from __future__ import annotations

import pytest

from tests.support.grounding import check

# (the fact, the message): stored
STORED = [
    (  # the thing did it to the owner: the owner's mind and hands, in the owner's words
        "Pottery has helped the owner calm her busy mind and her restless hands.",
        "Pottery has let me slow down and calm my busy mind and my restless hands.",
    ),
    (
        "Gardening has helped the owner manage her stress and her sleepless nights.",
        "Gardening has really helped me manage my stress and my sleepless nights.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), STORED)
def test_a_noun_phrase_added_to_a_thing_s_clause_is_stored(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


# (the fact, the message): not stored
KEPT_OUT = [
    (  # the kids' early night said of the owner, the film said of the kids
        "The owner and Tom will watch a film on Friday, after the kids go to sleep early.",
        "On Friday the kids can watch a film and Tom and I can go to sleep early.",
    ),
    (
        "The owner cooks dinner at six, once the children come home hungry.",
        "I come home hungry at six and the children cook dinner.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), KEPT_OUT)
def test_a_clause_about_people_after_a_link_is_theirs(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


def test_a_clause_about_people_after_a_link_said_of_them_is_stored() -> None:
    verdict = check(
        "The owner and Tom will watch a film on Friday, after the kids go to sleep early.",
        "On Friday the kids can go to sleep early and Tom and I can watch a film.",
    )
    assert verdict.status == "supported", verdict.reason


def test_a_verb_after_and_goes_on_with_the_subject() -> None:
    verdict = check(
        "Ana helped the owner move house and bought a new sofa.",
        "Ana helped me move house. I bought a new sofa.",
    )
    assert verdict.status != "supported"
