"""The grounding guard's round 29A (issue 29): short supported facts still dropped or asked.
(1) A clause that goes on with the one before it ("Watching your pupils learn | and thrive
...") is about whom that one says: a friend's `your pupils ... and thrive` holds up the
owner's `pupils are thriving`, as the first clause's `learn` already did. (2) An ordinal in
letters (`first`) is said by its adjective's own words (`initial`), not a count or another
ordinal. (3) A clause said again runs on past a `what` that opens the next clause. (4) `one` before
an occasion (`one weekend`) is no count. Messages
and facts written here, in our own words; (1) and (2) by the rules alone (no weighing)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from kit.curator.grounding import Grounding, Verdict
from kit.curator.ops import Insert
from kit.curator.restated import Spoken, restated
from kit.memory.messages import Message
from tests.support.grounding import check, rules_only


def _said_by(speaker: str, text: str) -> Message:
    at = datetime(2024, 5, 6, 10, tzinfo=UTC)
    return Message(1, "o", 1, "user", speaker, text, at, date(2024, 5, 6), None, "chat")


def _checked(fact: str, speaker: str, text: str) -> Verdict:
    grounding = Grounding([_said_by(speaker, text)], [1], "Ada")
    return grounding.check(Insert(fact, 0.9, "", sources=(1,)), {})


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        (
            "Ada's pupils are learning and thriving.",
            "Lovely news, Ada! Watching your pupils learn and thrive must feel wonderful.",
        ),
        (
            "Ada's sons are swimming and diving.",
            "Great photos, Ada. Seeing your sons swim and dive like that is such a treat.",
        ),
    ],
)
def test_a_clause_going_on_with_your_is_about_the_listener(
    fact: str, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules_only(monkeypatch)
    verdict = _checked(fact, "Bo", text)
    assert verdict.status == "supported", verdict.reason


def test_a_clause_going_on_with_the_speakers_own_is_not_the_listeners(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules_only(monkeypatch)
    verdict = _checked(
        "Ada's pupils are learning and thriving.",
        "Bo",
        "Lovely news, Ada! Watching my pupils learn and thrive feels wonderful too.",
    )
    assert verdict.status != "supported"


# (2) An ordinal in letters is said by its adjective's own words: "the first try" by "my
# initial try"; a count is not ("three tries" by "initial tries"), nor another ordinal.
@pytest.mark.parametrize(
    ("fact", "said", "stored"),
    [
        (
            "The owner scored 40 points on the first attempt.",
            "My initial attempt scored 40 points.",
            True,
        ),
        (
            "The owner scored 40 points on the second attempt.",
            "My initial attempt scored 40 points.",
            False,
        ),
        ("The owner made three attempts.", "I made some initial attempts.", False),
    ],
)
def test_an_ordinal_in_letters_is_said_by_its_adjectives_words(
    fact: str, said: str, stored: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules_only(monkeypatch)
    verdict = check(fact, said)
    assert (verdict.status == "supported") is stored, verdict.reason


# (3) A fact said again across a clause the speaker's words open with `what` ("proud of
# what | I achieved"): the two clauses run on as one, when both are said as so.
def test_a_clause_said_again_runs_on_past_what() -> None:
    owner = Spoken(
        "It was hard going, but I'm grateful for what I learned there.", True, frozenset()
    )
    assert restated("The owner is grateful for what he has learned there.", [owner])
    wished = Spoken("I'm grateful for what I might learn there.", True, frozenset())
    assert not restated("The owner is grateful for what he has learned there.", [wished])
    denied = Spoken("I'm grateful for what I never learned there.", True, frozenset())
    assert not restated("The owner is grateful for what he has learned there.", [denied])


# (4) "one" before an occasion ("one weekend") is some morning, no count; a count of
# occasions ("for one night", "spent one night", "one day a week") stays a number.
@pytest.mark.parametrize(
    ("fact", "said", "stored"),
    [
        (
            "The owner went fishing with his uncle one weekend in June.",
            "Went fishing with my uncle over a weekend in June, so peaceful.",
            True,
        ),
        ("The owner spent one night in Lisbon.", "I spent two nights in Lisbon.", False),
        ("The owner swims one day a week.", "I swim two days a week.", False),
        ("The owner stayed for one night in Lisbon.", "I stayed for two nights in Lisbon.", False),
    ],
)
def test_one_before_an_occasion_is_no_count(
    fact: str, said: str, stored: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules_only(monkeypatch)
    verdict = check(fact, said)
    assert (verdict.status == "supported") is stored, verdict.reason
