"""Finding a plan with a time in the owner's words: a first-person future phrase and a time
ahead in one sentence; not a question, not the past, not someone else's plan, and not a message
that already asks for a reminder (that is the request itself)."""

from __future__ import annotations

import pytest

from kit.followups.plans import Plan, find_plan


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("I'll call the plumber on Friday", "on Friday"),
        ("I’ll call the plumber on Friday.", "on Friday"),  # a typographic apostrophe
        ("Tomorrow I'm going to renew my passport", "Tomorrow"),
        ("I need to send the invoice by next week, ugh", "next week"),
        ("We're meeting Ana at 7pm", "at 7pm"),
        ("I'm seeing the dentist on 3 June", "on 3 June"),
        ("Long day. I have to pick up Rui in two days. Anyway.", "in two days"),
        ("i will water the plants this evening", "this evening"),
    ],
)
def test_a_plan_with_a_time_is_found(text: str, when: str) -> None:
    plan = find_plan(text)
    assert plan is not None and plan.when == when


@pytest.mark.parametrize(
    "text",
    [
        "I called the plumber on Friday",  # done, not planned
        "I'll call the plumber",  # no time
        "Should I call the plumber on Friday?",  # a question
        "Ana will call the plumber on Friday",  # someone else's plan
        "I'll tell you what happened yesterday",  # a time, but behind us
        "I'll call the plumber on Friday, remind me on Thursday",  # asks already
        "Remind me to call the plumber on Friday",
        "I'm going to the dentist tomorrow, set an alarm please",
        "I'll call the plumber. Friday was a mess.",  # the time is in another sentence
        "",
    ],
)
def test_no_plan_to_offer_for(text: str) -> None:
    assert find_plan(text) is None


def test_the_plan_is_its_sentence() -> None:
    found = find_plan("Busy week! I'll call the plumber on Friday. Then rest.")
    assert found == Plan("I'll call the plumber on Friday.", "on Friday")
