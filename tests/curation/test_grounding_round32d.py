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

- What a fact says someone's people are to do (`wants his kids to learn ...`: "his", "her",
  "their" or "my", a word for people, `to` and a verb) is theirs, to the end of the clause
  and any "and ..." clause straight after it; not the subject's.
- A fact filed under a name (its subject label, "Rosa") whose text names that one by a
  relation to the owner ("The owner's mother ...") need not have the name said: the relation
  is what the cited messages must say; the name, the record it is filed under, comes from
  elsewhere. A name in the text itself is a term as before.

Messages and facts written here; main's guard (04f32a3) read each case of the lists below the
other way.
"""

from __future__ import annotations

import pytest

from kit.curator.grounding import Grounding, Verdict
from kit.curator.ops import Insert
from tests.support.grounding import check, message

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


def _filed_under(subject: str, fact: str, said: str) -> Verdict:
    """The guard's verdict on an INSERT of `fact` under `subject`, citing the message `said`."""
    grounding = Grounding([message(said)], [1], "")
    return grounding.check(Insert(fact, 0.9, subject, sources=(1,)), {})


def test_a_relation_of_the_owner_s_filed_under_their_name_is_stored() -> None:
    """The fact names the mother by her relation to the owner, which the message says; her
    name is the record it is filed under (`Rosa`), said in another message."""
    verdict = _filed_under(
        "Rosa",
        "The owner's mother gets anxious about paying her bills on time.",
        "My mother gets anxious about paying her bills on time, so I set up reminders for her.",
    )
    assert verdict.status == "supported", verdict.reason


@pytest.mark.parametrize(
    ("subject", "fact"),
    [
        ("Rosa", "The owner's sister gets anxious about paying her bills on time."),
        ("Rosa", "Rosa gets anxious about paying her bills on time."),  # the name in the text
        ("Rosa", "The owner's mother Rosa gets anxious about paying her bills on time."),
    ],
)
def test_a_relation_or_name_the_message_does_not_say_is_not_stored(subject: str, fact: str) -> None:
    said = "My mother gets anxious about paying her bills on time, so I set up reminders for her."
    assert _filed_under(subject, fact, said).status != "supported"


def test_what_someone_s_people_are_to_do_is_theirs() -> None:
    """`wants her kids to learn ...`: the learning is the kids', and what the grandmother
    taught them holds it up; the owner's own wish to learn does not."""
    fact = "The owner wants her kids to learn patience and kindness."
    verdict = check(
        fact, "My grandma taught us patience and kindness. I want my kids to learn that too."
    )
    assert verdict.status == "supported", verdict.reason
    assert check(fact, "I want to learn patience and kindness, my kids are great.").status != (
        "supported"
    )
