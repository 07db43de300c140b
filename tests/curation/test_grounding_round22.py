"""The grounding guard's round 22 (issue 29): a verb or an adjective of a fact that its cited
message says another way ("thrilled" for "happy"), read by Kit's own model word by word and
put in the fact, which is then read again (kit/curator/stand_in.py). Messages and facts
written here."""

from __future__ import annotations

from typing import Any

import pytest

from kit.curator import stand_in
from kit.curator.grounding import Grounding, Verdict
from kit.curator.meaning import Meanings
from kit.curator.ops import Insert
from tests.support.grounding import message, rules_only

FACT = "The owner is thrilled about the new apartment."


async def check(fact: str, said: str, meanings: Meanings | None) -> Verdict:
    grounding = Grounding([message(said)], [1], "", meanings)
    op = Insert(fact, 0.9, "", sources=(1,))
    await grounding.weigh([op], {})
    return grounding.check(op, {})


async def test_an_adjective_said_another_way_is_stored(
    minilm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "thrilled" for "happy": the one word unsaid carries most of the fact's soft weight, so
    neither the word-level share nor the sentence's meaning reaches a bar; the two words alone
    do, and the fact with "happy" put in is said word by word (the rule itself: the weighing
    after it may still ask, tests/curation/test_grounding_weighing.py)."""
    rules_only(monkeypatch)
    said = "We signed for the new apartment today and I'm so happy."
    assert (await check(FACT, said, None)).status == "partial"
    assert (await check(FACT, said, Meanings.calibrated(minilm))).status == "supported"


async def test_the_word_put_in_must_be_said_as_a_fact(minilm: Any) -> None:
    """ "happy" said only after an "if" stands for "thrilled", but the fact with it put in is
    read again: a wish is no fact, so the operation stays a question."""
    said = (
        "We signed for the new apartment today. If the landlord fixes the heating I'd be so happy."
    )
    verdict = await check(FACT, said, Meanings.calibrated(minilm))
    assert verdict.status == "partial"


async def test_a_swapped_thing_is_no_reworded_word(minilm: Any) -> None:
    """A noun is a detail a swapped fact changes ("cello" for "violin"): never read this way."""
    said = "I play the violin in a quartet on weekends."
    fact = "The owner plays the cello in a quartet."
    assert (await check(fact, said, Meanings.calibrated(minilm))).status != "supported"


def test_only_verbs_and_adjectives_stand_for_each_other() -> None:
    """The unsaid word and the cited word are both only verbs or adjectives to WordNet (a
    word that may be a noun, "my next purchase", names no act); a name or a number never."""
    assert stand_in.rewordable("thrilled")
    assert not stand_in.rewordable("cello")
    assert not stand_in.rewordable("Happy")
    assert stand_in.offered("bought", ["my next sneaker purchase"]) == []
    assert stand_in.offered("picked", ["I chose the blue one"]) == ["chose"]


def test_an_opposite_never_stands_in() -> None:
    """However close the two words are to the model, WordNet's opposites are refused."""
    close = {("unsuccessful", "successful"): 0.9, ("picked", "chose"): 0.9}
    found = stand_in.stand_ins(
        ["unsuccessful", "picked"],
        ["It was successful, I chose well."],
        lambda a, b: close.get((a, b)),
    )
    assert found == {"picked": "chose"}
