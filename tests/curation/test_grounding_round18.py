"""The grounding guard's round eighteen (issue 29), lever A: a request is no question about
what it names (kit/curator/hedge_scope.py, read by kit/curator/clauses.py). Messages and facts
written here, none taken from a bench set."""

from __future__ import annotations

from kit.curator.clauses import clauses
from kit.curator.wording import fold
from tests.support.grounding import check


def _holders(said: str) -> dict[str, str]:
    """Each clause of `said` (stripped of its edges) and whom it is about."""
    folded = fold(said)
    return {folded[c.start : c.end].strip(" .?,"): c.holder for c in clauses(said)}


def test_a_request_takes_what_it_describes_as_given() -> None:
    """`could you split the bill for the sushi dinner at Kaito`: the dinner was had; only the
    splitting is asked for."""
    said = "Could you help me split the bill for the sushi dinner at Kaito with my cousins?"
    assert check("The owner had a sushi dinner at Kaito.", said).status == "supported"


def test_what_a_request_asks_for_stays_asked() -> None:
    """The request's own act is not said: the bill was not split."""
    said = "Could you help me split the bill for the sushi dinner at Kaito with my cousins?"
    assert check("The owner split the bill for the sushi dinner.", said).status != "supported"


def test_a_question_that_asks_still_does_not_state_its_descriptions() -> None:
    """An information question is no request: `what do people say about the tasting menu at
    Kaito?` does not say the owner had it."""
    said = "What do people say about the tasting menu at Kaito?"
    assert check("The owner had the tasting menu at Kaito.", said).status != "supported"


def test_a_question_about_the_speakers_own_plan_is_no_request() -> None:
    """`should I also book my train` after someone else's booking: the speaker's train is not
    booked (a question of the speaker's own plans stays a question)."""
    said = (
        "My brother Luca has already booked his train to Porto for June 2, should I also "
        "book my train now or wait?"
    )
    assert check("The owner booked a train to Porto on 2 June.", said).status != "supported"


def test_a_request_that_names_the_speaker_is_the_speakers() -> None:
    """After a clause about someone else, `so can you help me ... my reading nook` is the
    speaker's again, not the neighbour's."""
    said = (
        "My neighbour Oskar lent me his cordless drill, so can you help me choose shelves for "
        "my reading nook in the attic?"
    )
    request = "so can you help me choose shelves for my reading nook in the attic"
    assert _holders(said)[request] == "self"
    verdict = check("The owner has a reading nook in the attic.", said)
    assert verdict.status == "supported"


def test_a_request_about_the_listeners_own_stays_with_the_clause_before() -> None:
    """`can you tell me about your trip` names the listener's trip: not the speaker's."""
    said = "My aunt Rosa just got back from Crete, can you tell me about your trip there?"
    assert _holders(said)["can you tell me about your trip there"] == "other"


def test_a_question_opened_by_a_capitalised_auxiliary_stays_one_question() -> None:
    """`Should I | tell my landlord ...?`: `Should` ends no clause, as `should` does not."""
    said = "Should I tell my landlord Marta that the boiler broke again, or fix it myself?"
    assert check("The owner told landlord Marta that the boiler broke.", said).status != (
        "supported"
    )
