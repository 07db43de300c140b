"""The grounding guard's round fourteen (issue 29): an act that undoes, denies or reverses
what the message says (kit/curator/undoing.py). Every other word of "the owner cancelled the
beach clean-up" is in "I spearheaded a beach clean-up last Saturday": the one verb swapped
is the opposite of what was said. Such a fact holds only if a cited message says that act (a
form, a listed synonym, or the act not done said as a negation). Messages and facts written
here."""

from __future__ import annotations

from typing import Any

from kit.curator.grounding import Grounding
from kit.curator.meaning import Meanings
from kit.curator.ops import Insert
from kit.curator.undoing import unsaid_undoing
from tests.support.grounding import check, message

CLEAN_UP = "I spearheaded a beach clean-up last Saturday, around forty volunteers showed up."


def test_a_cancelled_clean_up_the_owner_led_is_kept_out() -> None:
    """The round 13b hole: stored on main (one soft verb unsaid, the rest there)."""
    verdict = check("The owner cancelled the beach clean-up.", CLEAN_UP)
    assert verdict.status == "unsupported"
    assert verdict.reason == "it says 'cancelled', an act its cited messages do not say"


async def test_skipping_a_clean_up_the_owner_led_is_kept_out(minilm: Any) -> None:
    """The word-level guard asks (`skipped` unsaid); the meaning check (the real MiniLM) lifted
    it on main: the fact stands close to the message by cosine, swapped verb and all."""
    grounding = Grounding([message(CLEAN_UP)], [1], "", Meanings.calibrated(minilm))
    op = Insert("The owner skipped the beach clean-up.", 0.9, "", sources=(1,))
    await grounding.weigh([op], {})
    assert grounding.check(op, {}).status == "unsupported"


def test_giving_up_what_the_owner_keeps_doing_is_kept_out() -> None:
    """A phrasal verb: `gave up` from a message that says the habit goes on."""
    said = "Three years of pottery on Tuesday evenings now, and my bowls finally look like bowls."
    verdict = check("The owner gave up pottery on Tuesday evenings.", said)
    assert verdict.status == "unsupported"
    assert "gave up" not in verdict.reason and "quit" in verdict.reason


def test_turning_down_an_offer_the_owner_took_is_kept_out() -> None:
    said = "I took the job offer from the Leeds bakery, starting in March!"
    verdict = check("The owner turned down the job offer from the Leeds bakery.", said)
    assert verdict.status == "unsupported"


def test_a_message_that_calls_it_off_says_cancelled() -> None:
    """Said with a listed synonym: stored."""
    said = "The storm warning came in, so we had to call off the beach clean-up on Saturday."
    assert check("The owner cancelled the beach clean-up on Saturday.", said).status == (
        "supported"
    )


def test_the_act_not_done_said_as_a_negation_holds() -> None:
    said = "I didn't make it to the beach clean-up on Saturday, my back was killing me."
    assert unsaid_undoing("The owner skipped the beach clean-up.", [said]) is None


def test_a_fact_that_denies_the_act_says_no_undoing() -> None:
    """`never gave up` says the owner kept on: not an undoing to hold back."""
    said = "Three years of pottery on Tuesday evenings now."
    assert unsaid_undoing("The owner never gave up pottery.", [said]) is None


def test_stopping_by_is_a_visit_not_an_undoing() -> None:
    assert unsaid_undoing("The owner stopped by the bakery.", ["I popped into the bakery."]) is None


def test_a_stop_sign_is_a_thing_not_an_undoing() -> None:
    said = "A van ran the stop sign on Elm Street and clipped my bumper."
    assert unsaid_undoing("A van ran a stop sign and hit the owner's car.", [said]) is None


def test_forgetting_what_the_owner_remembered_is_kept_out() -> None:
    """The widened list: `forgot` from a message that says the owner remembered."""
    said = "I remembered Nadia's birthday this time and booked us a table at Osteria Rossa."
    assert unsaid_undoing("The owner forgot Nadia's birthday.", [said]) == "forgot"
    assert unsaid_undoing("The owner forgot Nadia's birthday.", ["It slipped my mind!"]) is None


def test_a_negation_about_something_else_says_no_act() -> None:
    """`I don't think it's worth it` is no refusal of the contract the message took."""
    said = (
        "I signed Priya's contract for the autumn tour. The bigger fee would be nice, but I "
        "don't think it's worth the travel."
    )
    assert unsaid_undoing("The owner turned down Priya's contract.", [said]) == "declined"


def test_passing_up_what_the_owner_took_is_kept_out() -> None:
    """Widened by WordNet's synsets of the listed verbs: `passed up` (give up, decline)."""
    said = "I took the promotion at the Delta depot, so it's early starts from Monday."
    verdict = check("The owner passed up the promotion at the Delta depot.", said)
    assert verdict.status == "unsupported"
