"""The grounding guard's weighing (kit/curator/weighing.py, issue 29): the word-level readings
and how close a fact stands to its sentence, weighed together by the fitted weights
(kit/curator/weights.py), store a fact the rules drop for one detail said inside a question,
and set aside as a question one the rules would store; they never overrule a missing name,
number or date, Kit's own words, or a question or a hypothetical as the fact. The real MiniLM
model; messages and facts written here."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any

import pytest

from kit.curator import weighing, weights
from kit.curator.grounding import Grounding, Verdict
from kit.curator.meaning import Meanings
from kit.curator.ops import Insert
from kit.curator.unsaid import unsaid
from kit.memory.messages import Message
from tests.support.grounding import bars, rules_only

AT = datetime(2024, 3, 30, 10, tzinfo=UTC)
PAINTING = (
    "I've decided to block 3 hours every Monday and Wednesday evening for painting, and I'm "
    "wondering if starting April 8 at 6 PM gives me enough time to settle in after work?"
)
BLOCKS = (
    "The owner blocks 3 hours every Monday and Wednesday evening for painting, starting "
    "April 8 at 6 PM."
)


def _message(said: str, role: str = "user") -> Message:
    return Message(1, "o", 1, role, "", said, AT, AT.date(), None, "chat")


async def _check(fact: str, said: str, minilm: Any, role: str = "user") -> Verdict:
    grounding = Grounding([_message(said, role)], [1], "", Meanings.calibrated(minilm))
    op = Insert(fact, 0.9, "", sources=(1,))
    await grounding.weigh([op], {})
    return grounding.check(op, {})


def test_the_fitted_weights_read_what_the_code_gives() -> None:
    assert tuple(weights.NAMES) == weighing.FEATURES
    assert len(weights.WEIGHTS) == len(weights.MEAN) == len(weights.SCALE) == len(weights.NAMES)
    assert 0.0 <= weights.DOUBT <= weights.LIFT <= 1.0


async def test_a_detail_said_inside_a_question_is_stored_when_the_rest_is_said(
    minilm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the rules alone (bars that change nothing) drop it: the start is only "wondered" about
    with monkeypatch.context() as rules:
        rules_only(rules)
        assert (await _check(BLOCKS, PAINTING, minilm)).status == "unsupported"
    assert (await _check(BLOCKS, PAINTING, minilm)).status == "supported"


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        pytest.param(
            "The owner moved to Denver.",
            "If I ever move to Denver, what neighbourhoods would you suggest?",
            id="if-i-ever",
        ),
        pytest.param(
            "The owner bought a Tesla.",
            "Should I buy a Tesla or wait for prices to drop?",
            id="should-i",
        ),
        pytest.param(
            "The owner switched to a standing desk at work.",
            "Do you think my back pain could be from switching to a standing desk at work, or "
            "is it something else?",
            id="asked-whether",
        ),
    ],
)
async def test_what_is_only_asked_or_supposed_stays_out(minilm: Any, fact: str, said: str) -> None:
    assert (await _check(fact, said, minilm)).status != "supported"


async def test_a_fact_the_weighing_doubts_is_asked_about_not_stored(
    minilm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    said = "I started swimming 2 km every Saturday at the Riverside pool in February."
    # in another order than the message's: no clause said again (kit/curator/restated.py)
    fact = "The owner swims 2 km at the Riverside pool every Saturday."
    assert (await _check(fact, said, minilm)).status == "supported"
    bars(monkeypatch, lift=1.0, doubt=1.0)  # nothing weighs enough to store unasked
    verdict = await _check(fact, said, minilm)
    assert verdict.status == "partial"
    assert "too little to store it without asking" in verdict.reason


@pytest.mark.parametrize(
    ("fact", "said", "role"),
    [
        pytest.param(  # a number the message does not have
            "The owner swims 3 km every Saturday at the Riverside pool.",
            "I started swimming 2 km every Saturday at the Riverside pool in February.",
            "user",
            id="missing-number",
        ),
        pytest.param(  # a name the message does not have
            "The owner swims every Saturday at the Lakeside pool with Dana.",
            "I started swimming every Saturday at the Riverside pool in February.",
            "user",
            id="missing-name",
        ),
        pytest.param(  # Kit's own suggestion
            "The owner swims every Saturday at the Riverside pool.",
            "You could try swimming every Saturday at the Riverside pool.",
            "assistant",
            id="kits-own-words",
        ),
        pytest.param(  # a place said only where it is denied
            "The owner went to the Riverside pool on Saturday.",
            "I never made it to the Riverside pool on Saturday, the car broke down.",
            "user",
            id="denied",
        ),
        pytest.param(  # a question written as the fact
            "Does the owner swim every Saturday at the Riverside pool?",
            "I swim every Saturday at the Riverside pool.",
            "user",
            id="a-question",
        ),
    ],
)
async def test_the_weighing_never_overrules_a_hard_check(
    minilm: Any, monkeypatch: pytest.MonkeyPatch, fact: str, said: str, role: str
) -> None:
    bars(monkeypatch, lift=0.0, doubt=0.0)  # anything it may weigh, it would store
    assert (await _check(fact, said, minilm, role)).status == "unsupported"


def test_only_what_the_word_level_judgement_read_without_a_hard_gap_is_weighable() -> None:
    read = weighing.Readings({}, 1.0, 1.0, True, False, False, {"word": 1}, 0)
    assert weighing.weighable(read)
    assert not weighing.weighable(None)
    for held in sorted(weighing.HELD):
        assert not weighing.weighable(dataclasses.replace(read, problems={held: 1}))
    assert weighing.weighable(dataclasses.replace(read, problems={"word-hedged": 2}))


async def test_what_the_owner_asked_kit_to_remember_is_never_doubted(
    minilm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a short fact plainly said weighs little (the planted sets' supported facts are longer):
    # in a curation pass it may be asked about, never when the owner said "remember that"
    said = _message("My sister Ana's birthday is on 3 May, remember that")
    bars(monkeypatch, lift=1.0, doubt=1.0)  # nothing weighs enough to store unasked

    async def model() -> Any:
        return minilm

    assert await unsaid("", model)(said, "Ana's birthday is on 3 May", "Ana") is None


def test_without_the_meaning_check_the_guard_is_the_rules_alone() -> None:
    grounding = Grounding([_message(PAINTING)], [1], "")
    assert grounding.check(Insert(BLOCKS, 0.9, "", sources=(1,)), {}).status == "unsupported"
