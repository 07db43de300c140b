"""The grounding guard's round seventeen (issue 29), lever A: whose is it. A word the fact
itself gives to another person, or that the message says of a thing or of no one, is held
against what the message says of them, not checked as the owner's: "the owner's landlord"
(a person by WordNet, kit/curator/persons.py), "her cousin Priya, 31" (the number is
Priya's), "his comments" after a name; and "Let's", "you know", "Painting's great", "over 10
miles" after no choice are read as what they are (kit/curator/clauses.py). Another person's
trait given to the owner stays out. Messages and facts written here."""

from __future__ import annotations

from kit.curator.clauses import clauses
from kit.curator.wording import fold
from tests.support.grounding import check


def _holders(said: str) -> dict[str, str]:
    folded = fold(said)
    return {folded[c.start : c.end].strip(" .!"): c.holder for c in clauses(said)}


def test_what_the_owners_landlord_did_rests_on_what_the_message_says_he_did() -> None:
    said = "My landlord is being difficult again, he raised the rent to $1,800 last week."
    assert check("The owner's landlord raised the rent to $1,800.", said).status == "supported"


def test_a_number_set_off_after_a_name_in_the_fact_is_that_persons() -> None:
    said = "I went hiking in Yosemite with my cousin Priya, who's 31, over the long weekend."
    fact = "The owner went hiking in Yosemite with her cousin Priya, 31."
    assert check(fact, said).status == "supported"


def test_the_persons_number_given_to_the_owner_stays_out() -> None:
    said = "I went hiking in Yosemite with my cousin Priya, who's 31, over the long weekend."
    assert check("The owner, 31, went hiking in Yosemite.", said).status != "supported"


def test_his_after_a_name_in_the_fact_gives_the_thing_to_that_person() -> None:
    said = "I sent my essay to Marco yesterday and I'm waiting on his comments before Friday."
    fact = "The owner sent her essay to Marco and is waiting on his comments."
    assert check(fact, said).status == "supported"


def test_lets_is_the_speaker_and_a_common_word_before_s_is_no_one() -> None:
    read = _holders("Let's grab dinner after the gallery opening! Painting's great for me.")
    assert read["Let's grab dinner after the gallery opening"] == "self"
    assert read["Painting's great for me"] == "neutral"
    assert _holders("Michael's promotion came through.")["Michael's promotion came through"] == (
        "other"
    )


def test_painting_said_as_a_thing_holds_up_the_owners_painting() -> None:
    said = "Painting's great for unwinding after work, I did a small landscape yesterday."
    fact = "The owner finds painting great for unwinding after work."
    assert check(fact, said).status == "supported"


def test_you_know_and_over_after_no_choice_leave_the_owners_limit_said() -> None:
    said = "I tend to skip long hikes, you know, over 10 miles, because my knee acts up."
    assert check("The owner skips hikes over 10 miles.", said).status == "supported"


def test_over_after_a_choice_still_passes_it_over() -> None:
    said = "I chose the night train, over the 10 am flight, because it was cheaper."
    assert check("The owner took the 10 am flight.", said).status != "supported"
