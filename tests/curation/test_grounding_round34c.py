"""The grounding guard's round 34C (issue 29): supported facts read as only meant or refused, or
as the owner's own, read more narrowly. Messages and facts written here; each STORED case was
dropped or held back by the commit before its reading, and each KEPT-OUT case shows what the
rule still keeps out."""

from __future__ import annotations

import pytest

from kit.curator.intended import unmet_act
from tests.support.grounding import check

# A describing word after the act is what the act is, not a thing it is done to
# (kit/curator/intended.py _head): `stays calm` has no object a possibility governs.
DESCRIBED = [
    (
        "The owner stays focused by running every morning.",
        "Knowing I can go running every morning keeps me focused at work.",
    ),
    (
        "The owner stays motivated by helping neighbours.",
        "It has been hard, but knowing I can help my neighbours keeps me motivated.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), DESCRIBED)
def test_a_describing_word_after_the_act_is_no_thing_it_is_done_to(fact: str, said: str) -> None:
    assert unmet_act(fact, [said]) is None


# A refused thing said as coming from the fact's subject says that one offered or asked it
# (kit/curator/offered.py).
OFFERED = [
    (
        "Marcus asks the owner to cover weekend shifts.",
        "I keep declining weekend shift requests from Marcus and I feel a bit guilty about it.",
    ),
    (
        "Dana offers the owner a spare ticket to the concert.",
        "I turned down a spare ticket to the concert from Dana because of my exam.",
    ),
    (  # the act itself as the refused noun
        "Leo invites the owner to his barbecue.",
        "I had to decline Leo's barbecue invitation this weekend.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), OFFERED)
def test_a_thing_refused_from_someone_says_they_offered_it(fact: str, said: str) -> None:
    assert unmet_act(fact, [said]) is None


REFUSED = [
    (  # the owner's own act as the refused noun
        "The owner invites Leo to the barbecue.",
        "I had to decline Leo's barbecue invitation this weekend.",
    ),
    (  # the owner's own act: refused
        "The owner covers weekend shifts for Marcus.",
        "I keep declining weekend shift requests from Marcus and I feel a bit guilty about it.",
    ),
    (  # no one the refused thing came from
        "Marcus asks the owner to cover weekend shifts.",
        "I keep declining weekend shifts, so I feel a bit guilty about it.",
    ),
    (  # from someone else
        "Marcus asks the owner to cover weekend shifts.",
        "I keep declining weekend shift requests from Priya and I feel a bit guilty about it.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), REFUSED)
def test_a_refused_thing_from_no_one_or_another_stays_refused(fact: str, said: str) -> None:
    assert unmet_act(fact, [said]) is not None


# A clause after `like` is an example of the clause before it: what that one names is whom the
# example may be about (kit/curator/example_of.py, kit/curator/holding.py whose).
EXAMPLE = [
    (
        "The Kindle crashed on the last chapter, so the owner restarted it.",
        "My Kindle has been acting up lately, like I noticed crashing on the last chapter, so I "
        "restarted it twice.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), EXAMPLE)
def test_an_example_clause_goes_on_about_what_the_clause_before_names(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


def test_an_owner_clause_with_no_example_is_still_the_owners() -> None:
    """Without `like`, the owner's clause names no Kindle: the freezing stays the owner's."""
    said = (
        "My Kindle has been acting up lately. I noticed crashing on the last chapter, so I "
        "restarted it twice."
    )
    verdict = check("The Kindle crashed on the last chapter, so the owner restarted it.", said)
    assert verdict.status != "supported"
