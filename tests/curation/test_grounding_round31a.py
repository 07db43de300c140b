"""The grounding guard's round 31A (issue 29): the weighing (kit/curator/weighing.py) refitted
on today's rules with the short-fact development sets among the ones it is fitted on, and given
one more input: how near each soft word the cited messages do not say stands to the nearest
word they do say (kit/curator/nearness.py), each embedded alone by Kit's own model. A near word
is no licence: the weighing still never overrules a name, a date, a question or another
person's words. The real MiniLM model; messages and facts written here."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from kit.curator import nearness, weighing, weights
from kit.curator.grounding import Grounding, Verdict
from kit.curator.meaning import Meanings
from kit.curator.ops import Insert
from kit.memory.messages import Message
from tests.support.grounding import bars

AT = datetime(2024, 3, 30, 10, tzinfo=UTC)
SAID = "I bought a second-hand road bike from a neighbour last weekend."


async def _near(unsaid: list[str], said: str, minilm: Any) -> float:
    meanings = Meanings.calibrated(minilm)
    assert meanings is not None
    await meanings.read(nearness.to_read(unsaid, [said]))
    return nearness.nearness(unsaid, [said], meanings.cosine)


async def _check(fact: str, said: str, minilm: Any, speaker: str = "") -> Verdict:
    message = Message(1, "o", 1, "user", speaker, said, AT, AT.date(), None, "chat")
    guard = Grounding([message], [1], "", Meanings.calibrated(minilm))
    op = Insert(fact, 0.9, "", sources=(1,))
    await guard.weigh([op], {})
    return guard.check(op, {})


def test_the_fitted_weights_read_the_nearness_of_unsaid_words() -> None:
    assert "nearness" in weighing.FEATURES
    assert tuple(weights.NAMES) == weighing.FEATURES


def test_the_weighing_is_fitted_with_the_short_fact_sets_too() -> None:
    assert weights.__doc__ is not None
    assert all(name in weights.__doc__ for name in ("fresh22", "fresh23", "fresh24"))


async def test_a_paraphrased_word_stands_nearer_than_an_unrelated_one(minilm: Any) -> None:
    paraphrase = await _near(["purchased"], SAID, minilm)  # "bought"
    unrelated = await _near(["repaired"], SAID, minilm)
    assert paraphrase > unrelated


async def test_every_word_said_is_as_near_as_can_be(minilm: Any) -> None:
    assert await _near([], SAID, minilm) == nearness.SAID


def test_a_word_not_read_is_near_nothing() -> None:
    assert nearness.nearness(["purchased"], [SAID], lambda one, other: None) == 0.0
    assert nearness.to_read([], [SAID]) == []  # nothing to read when every word is said


def test_the_cited_words_leave_out_numbers() -> None:
    assert nearness.cited_words(["I paid $40 for 2 tickets"]) == ["i", "paid", "for", "tickets"]


async def test_the_judgement_reads_which_words_are_unsaid(minilm: Any) -> None:
    verdict = await _check("The owner bought a shiny road bike from a neighbour.", SAID, minilm)
    assert verdict.readings is not None
    assert verdict.readings.unsaid == ("shiny",)


@pytest.mark.parametrize(
    ("fact", "said", "speaker"),
    [
        pytest.param(  # a day swapped for a near one
            "The owner bought a road bike from a neighbour on Tuesday.",
            "I bought a road bike from a neighbour on Monday.",
            "",
            id="wrong-day",
        ),
        pytest.param(  # a name swapped
            "The owner bought a road bike from Priya.",
            "I bought a road bike from Dana last weekend.",
            "",
            id="wrong-name",
        ),
        pytest.param(  # another person's words of themself
            "Nadia purchased a road bike.",
            "Nice! I bought a road bike last weekend too.",
            "Tomas",
            id="another-person",
        ),
    ],
)
async def test_a_near_word_never_lets_a_hard_gap_in(
    minilm: Any, monkeypatch: pytest.MonkeyPatch, fact: str, said: str, speaker: str
) -> None:
    bars(monkeypatch, lift=0.0, doubt=0.0)  # anything it may weigh, it would store
    assert (await _check(fact, said, minilm, speaker)).status != "supported"


async def test_a_near_word_said_only_in_a_question_is_not_stored(minilm: Any) -> None:
    said = "Should I buy a road bike or keep taking the bus?"
    assert (await _check("The owner purchased a road bike.", said, minilm)).status != "supported"
