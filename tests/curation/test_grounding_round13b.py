"""The grounding guard's round 13b (issue 29): supported facts it held back for one word said
another way, and for names that are not names. A state said in other words ("eager" for "can't
wait"), an informal form in the plural ("faves", "fests"), a weekday in the plural ("on
Sundays" for "every Sunday"), "we" for the speaker's team, "your" for the person spoken to.
Messages and facts written here."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from kit.curator.grounding import Grounding, Verdict
from kit.curator.meaning import Meanings
from kit.curator.ops import Insert
from kit.memory.messages import Message


def message(said: str, speaker: str = "", number: int = 1) -> Message:
    at = datetime(2024, 5, 6, 10, number, tzinfo=UTC)
    return Message(number, "o", 1, "user", speaker, said, at, date(2024, 5, 6), None, "chat")


async def check(fact: str, said: str, meanings: Meanings | None = None) -> Verdict:
    grounding = Grounding([message(said)], [1], "", meanings)
    op = Insert(fact, 0.9, "", sources=(1,))
    await grounding.weigh([op], {})
    return grounding.check(op, {})


# One word of how someone is, said another way: the meaning check lifts it (an adjective or
# an adverb, the rest said, the closest sentence near the fact), never an act swapped.
POTTERY = (
    "Thanks! I spent the whole winter glazing vases for it. My first pottery exhibition opens "
    "at the Harbour Gallery next month and I honestly can't wait to show my glazed vases to "
    "everyone."
)


async def test_a_state_said_another_way_is_stored(minilm: Any) -> None:
    """ "eager to show" for "can't wait to show": one describing word unsaid, the closest
    sentence near the fact (0.56: under round 10's bar)."""
    fact = "The owner is eager to show their vases."
    meanings = Meanings.calibrated(minilm)
    assert (await check(fact, POTTERY, None)).status == "partial"
    assert (await check(fact, POTTERY, meanings)).status == "supported"


async def test_an_opposite_or_an_act_swapped_is_not_lifted_as_a_state(minilm: Any) -> None:
    """ "reluctant to show" is as near the sentence by cosine as "eager to show"; the fact with
    its word's opposite ("willing") is nearer: not lifted. "sold" is an act, not a state."""
    meanings = Meanings.calibrated(minilm)
    reluctant = "The owner is reluctant to show their vases."
    assert (await check(reluctant, POTTERY, meanings)).status == "partial"
    sold = "The owner sold their glazed vases."
    assert (await check(sold, POTTERY, meanings)).status == "partial"


async def test_a_state_word_denied_or_hedged_is_not_lifted(minilm: Any) -> None:
    """The lift reads soft words only: a denial or a wish keeps its verdict."""
    said = "My first pottery exhibition opens next month, but I'm not ready to show my vases."
    meanings = Meanings.calibrated(minilm)
    fact = "The owner is eager to show their vases at their first pottery exhibition."
    assert (await check(fact, said, meanings)).status != "supported"


async def test_an_informal_form_in_the_plural_says_its_word() -> None:
    """ "faves" is "favourite" as "fave" is; "fests" is "festivals"."""
    faves = "Honestly, sourdough baking is one of my faves these days."
    fact = "Sourdough baking is one of the owner's favourite things."
    assert (await check(fact, faves)).status == "supported"
    fests = "I went to three folk fests in Galway last summer."
    assert (await check("The owner went to folk festivals in Galway.", fests)).status == (
        "supported"
    )


async def test_a_weekday_in_the_plural_is_that_weekday() -> None:
    """ "on Tuesdays" for "every Tuesday" (or "on Tuesdays"); another weekday is not said."""
    said = "I swim at the Marlowe lido every Tuesday before work."
    assert (await check("The owner swims at the Marlowe lido on Tuesdays.", said)).status == (
        "supported"
    )
    plural = "I swim at the Marlowe lido on Tuesdays before work."
    assert (await check("The owner swims at the Marlowe lido on Tuesdays.", plural)).status == (
        "supported"
    )
    other = await check("The owner swims at the Marlowe lido on Thursdays.", said)
    assert other.status == "unsupported" and "Thursdays" in other.reason


async def test_we_is_the_speakers_team() -> None:
    """ "We migrated ..." said of the speaker's team; "I migrated ..." is no team."""
    fact = "The owner's team migrated the billing database to Postgres."
    we = "Big week: we migrated the billing database to Postgres without any downtime."
    assert (await check(fact, we)).status == "supported"
    alone = "Big week: I migrated the billing database to Postgres without any downtime."
    verdict = await check(fact, alone)
    assert verdict.status == "unsupported" and "team" in verdict.reason


THANKS = "Update: I followed your advice on the greenhouse vents and the seedlings love it."


def test_your_is_the_person_spoken_to() -> None:
    """Tomasz says "your advice" to Priya, the conversation's other speaker: Priya's advice."""
    asked = message("How did the greenhouse turn out?", "Priya", 1)
    said = message(THANKS, "Tomasz", 2)
    grounding = Grounding([asked, said], [1, 2], "Tomasz")
    fact = "Tomasz followed Priya's advice on the greenhouse vents."
    assert grounding.check(Insert(fact, 0.9, "", sources=(2,)), {}).status == "supported"
    other = grounding.check(
        Insert("Tomasz followed Ines's advice on the greenhouse vents.", 0.9, "", sources=(2,)), {}
    )
    assert other.status == "unsupported" and "Ines's" in other.reason


def test_the_person_spoken_to_from_the_turns_around_what_is_cited() -> None:
    """Only the cited turn in the batch: the turn before it (`around`) says who else speaks.
    With two others speaking, "your" is nobody's in particular."""
    said = message(THANKS, "Tomasz", 2)
    fact = Insert("Tomasz followed Priya's advice on the greenhouse vents.", 0.9, "", sources=(2,))
    alone = Grounding([said], [2], "Tomasz")
    assert alone.check(fact, {}).status == "unsupported"
    asked = message("How did the greenhouse turn out?", "Priya", 1)
    around = Grounding([said], [2], "Tomasz", around=[asked])
    assert around.check(fact, {}).status == "supported"
    crowd = [asked, message("Pics please!", "Ines", 3)]
    assert Grounding([said], [2], "Tomasz", around=crowd).check(fact, {}).status == ("unsupported")
