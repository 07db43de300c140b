"""The grounding guard's round 17B (issue 29): an act said only as meant, tried or refused is
not done (kit/curator/intended.py). Every word but the verb of "the owner uses Notion" is in
"I'm considering using Notion": the fact's act must be said as done, not only inside
`considering`, `gonna`, `searching for`, `turned down`. Messages and facts written here."""

from __future__ import annotations

from typing import Any

from kit.curator.grounding import Grounding
from kit.curator.intended import unmet_act
from kit.curator.meaning import Meanings
from kit.curator.ops import Insert
from tests.support.grounding import check, message

NOTION = "I'm considering using Notion for my weekly planning, but the price worries me a bit."
MOVE = (
    "I'm considering a relocation to Denver for the hospital job, and I've set aside my "
    "relocation fund of $4,000 for the movers."
)
BOOK_CLUB = (
    "I had to turn down Priya's invitation to a Thursday book club at the library because of "
    "my night shifts."
)


def test_a_tool_only_considered_is_not_used() -> None:
    """Stored on main: `using Notion` said, but only inside `considering`."""
    verdict = check("The owner uses Notion for weekly planning.", NOTION)
    assert verdict.status == "unsupported"
    assert "'uses'" in verdict.reason


def test_a_move_only_considered_is_not_under_way() -> None:
    """The act named as a noun (`a relocation`), inside `considering`; `my relocation fund`
    names a fund, not the act."""
    verdict = check("The owner is relocating to Denver for a hospital job.", MOVE)
    assert verdict.status == "unsupported"


async def test_an_invitation_turned_down_is_not_joined(minilm: Any) -> None:
    """The act (`joined`) is said nowhere: what it is done to (the book club) is said only
    inside `turn down`. The word-level guard asks; the meaning check (the real MiniLM) lifted
    it on main."""
    grounding = Grounding([message(BOOK_CLUB)], [1], "", Meanings.calibrated(minilm))
    op = Insert(
        "The owner joined Priya's Thursday book club at the library.", 0.9, "", sources=(1,)
    )
    await grounding.weigh([op], {})
    assert grounding.check(op, {}).status == "unsupported"


def test_a_place_still_searched_for_is_not_found() -> None:
    """Stored on main: every word but the act is said, and `found` is lifted as `find`."""
    said = "Still searching for a rehearsal space for the band, the last two fell through."
    verdict = check("The owner has found a rehearsal space for the band.", said)
    assert verdict.status == "unsupported"
    assert "'found'" in verdict.reason


def test_a_talk_someone_is_gonna_have_has_not_happened() -> None:
    said = "I'm gonna talk with the neighbours about the fence before the weekend."
    assert check("The owner talked with the neighbours about the fence.", said).status == (
        "unsupported"
    )


def test_a_meeting_only_planned_has_not_happened() -> None:
    """The act (`met`) is said nowhere; what it is done with is said only inside `gonna`."""
    said = "I'm gonna chat with the neighbours about the fence before the weekend."
    assert check("The owner met with the neighbours about the fence.", said).status == (
        "unsupported"
    )


def test_the_plan_said_as_a_plan_stays() -> None:
    assert unmet_act("The owner is considering using Notion for weekly planning.", [NOTION]) is None
    assert check("The owner is considering using Notion.", NOTION).status == "supported"


def test_a_try_said_as_going_on_stays() -> None:
    """`trying to learn` says the learning is going on."""
    said = "I'm trying to learn Portuguese with a podcast on my commute."
    assert unmet_act("The owner is learning Portuguese.", [said]) is None


def test_an_act_said_as_done_elsewhere_stays() -> None:
    said = "I was thinking about a cat for months, and last week I finally adopted one."
    assert unmet_act("The owner adopted a cat.", [said]) is None


def test_a_frame_that_governs_another_verb_does_not_reach_the_act() -> None:
    """`trying to set boundaries by declining`: the try governs `set`."""
    said = "I'm trying to set boundaries by muting work chats after 8 PM."
    assert unmet_act("The owner mutes work chats after 8 PM.", [said]) is None


def test_a_fact_in_the_future_says_the_plan_as_one() -> None:
    """`will attend` is what `going to attend` says."""
    said = "I'm going to attend the glassblowing demo at the Harbour Arts Centre on 9 June."
    assert unmet_act("The owner will attend the glassblowing demo on 9 June.", [said]) is None


def test_a_try_the_sentence_says_came_off_is_done() -> None:
    said = (
        "I was trying to cut my screen time by deleting two apps, and I managed to bring it "
        "down from 6 hours to 3."
    )
    assert unmet_act("The owner cut their screen time by deleting two apps.", [said]) is None


def test_a_trait_only_wished_for_is_not_had() -> None:
    """A wish's own clause (`wish I was that disciplined`) holds the trait unreal."""
    said = "I skipped practice again this week. I wish I was that disciplined with my practice!"
    verdict = check("The owner is as disciplined as ever with their practice.", said)
    assert verdict.status == "unsupported"


def test_what_someone_cannot_wait_for_has_not_begun() -> None:
    said = "Can't wait 'til my bakery finally starts selling sourdough on weekends!"
    verdict = check("The owner's bakery already sells sourdough on weekends.", said)
    assert verdict.status == "unsupported"


def test_a_thing_only_inside_a_wish_leaves_the_act_open() -> None:
    """The act unsaid and its thing only inside `I'd love to grow my ...`: the wish governs
    `grow`, not whether the owner writes the newsletter (measured: such drops were supported
    facts, docs/measurements.md, round 17B)."""
    said = "I'd love to grow my newsletter about shorebirds to a thousand readers this year."
    assert unmet_act("The owner writes a newsletter about shorebirds.", [said]) is None


def test_a_grant_only_applied_for_was_not_awarded() -> None:
    """A relative clause puts the thing in the frame: `the grant I applied for`."""
    said = "The $8,000 arts grant I applied for closes on Friday. Do you think I'll get it?"
    assert check("The owner was awarded an $8,000 arts grant.", said).status == "unsupported"


def test_a_grant_won_is_said_as_done() -> None:
    said = "I finally won the $8,000 arts grant I applied for in March!"
    assert unmet_act("The owner won an $8,000 arts grant.", [said]) is None


def test_a_habit_tried_for_is_stored_as_the_habit() -> None:
    """A try at a habit, stated as the habit in the present: not held back here (measured:
    such drops were supported facts, docs/measurements.md, round 17B); a past act is."""
    said = "I'm trying to practise scales for twenty minutes every morning before work."
    assert unmet_act("The owner practises scales every morning before work.", [said]) is None
    assert unmet_act("The owner practised scales every morning.", [said]) == "practised"
