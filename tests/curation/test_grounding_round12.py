"""The grounding guard's round twelve (issue 29): whose number, whose act. A number set off
after a name is that person's ("Priya, 31, and Tomas, 36": Tomas is not 31); the verb after
a name and its apposition is that person's ("Ingrid, my landlady, fixed the boiler": the owner
fixed nothing). Messages and facts written here."""

from __future__ import annotations

from kit.curator.clauses import clauses
from kit.curator.whose_number import bindings, misbound
from kit.curator.wording import fold
from tests.support.grounding import check

TRIP = "My cousins Priya, 31, and Tomas, 36, are joining the sailing trip in August."


def test_a_number_set_off_after_a_name_is_not_given_to_another() -> None:
    """Every word of "Tomas is 31" is in the message; 31 is Priya's."""
    verdict = check("Tomas is 31 and is joining the sailing trip in August.", TRIP)
    assert verdict.status == "unsupported"
    assert "31" in verdict.reason and "Priya" in verdict.reason


def test_the_number_with_its_own_name_is_still_stored() -> None:
    assert check("Tomas is 36 and is joining the sailing trip in August.", TRIP).status == (
        "supported"
    )


def test_the_forms_a_number_is_set_off_in() -> None:
    said = "Lena (9) and Oskar, who's 12, both swim; and Mia, aged 7."
    assert bindings(said) == {"9": {"lena"}, "12": {"oskar"}, "7": {"mia"}}
    assert misbound("Oskar is 9", [said]) is not None
    assert misbound("Lena is 9", [said]) is None
    assert bindings("We moved in June, 2021, and Ravi, 40, helped.") == {"40": {"ravi"}}


def test_an_age_set_off_after_a_name_in_a_plan_is_said_and_not_swapped() -> None:
    """The plan hedges the party, not the ages: "Marco is 52" is said; "Ines is 52" is not."""
    said = "I'm thinking of inviting Marco, 52, and Ines, 47, to the housewarming."
    assert check("Marco is 52.", said).status == "supported"
    assert check("Ines is 52.", said).status == "unsupported"


APPOSED = "Ingrid, my landlady, fixed the boiler in the flat on Monday."


def test_the_verb_after_a_name_and_its_apposition_is_the_names() -> None:
    """Ingrid fixed the boiler; the owner did not."""
    assert check("The owner fixed the boiler in the flat on Monday.", APPOSED).status != (
        "supported"
    )
    assert check("Ingrid fixed the boiler in the owner's flat on Monday.", APPOSED).status == (
        "supported"
    )


def test_a_word_said_first_is_no_name_with_an_apposition() -> None:
    """ "Yeah, the course got me thinking ...": no one is set off; the speaker is the one
    thinking (the apposition rule read "Yeah" as a name: a dev set's supported fact asked)."""
    said = "Yeah, the course got me thinking about opening a small and cosy bakery."
    folded = fold(said)
    cosy = [c for c in clauses(said) if "cosy" in folded[c.start : c.end]]
    assert [c.holder for c in cosy] != ["other"]
    apposed = "Ingrid, my landlady, fixed the boiler."
    assert [c.holder for c in clauses(apposed)][-1] == "other"
