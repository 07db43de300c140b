"""The grounding guard's round 24C (issue 29): where a hedge's scope ends. A clause with no
subject of its own that `and` or `but` opens with a verb in the past or the perfect tells what
was done, not what the clause before weighs; after an `if` it is still supposed. And a word
and its inflections stem alike (`enter`, `entered`), so an act asked about is not read as one
the message leaves unsaid. And the grounds a doubt whether a past act was right gives
(`was the right decision as ...`) are said as so. Messages and facts written here, none taken
from a bench set."""

from __future__ import annotations

import pytest

from kit.curator.wording import stem
from tests.support.grounding import check

_BIKE = "I'm thinking about a new road bike, and already booked a fitting at Spokes on June 3."
_PUMPKIN = (
    "I've already spent $40 on seeds this month, so I'm wondering if I can afford to enter "
    "the pumpkin contest at the Hollis fair"
)

CASES = [
    # said, fact, stored
    (_BIKE, "The owner booked a fitting at Spokes on 3 June.", True),
    (_BIKE, "The owner bought a new road bike.", False),
    (
        "If I quit my job and moved to Lisbon, I would open a bakery.",
        "The owner moved to Lisbon.",
        False,
    ),
    (
        "I'm considering a sabbatical, and wanted to ask my boss about unpaid leave in March.",
        "The owner asked their boss about unpaid leave in March.",
        False,
    ),
    (
        "I keep wondering if selling the kayak was the right decision as Lena is rowing at "
        "Harbor Club since June",
        "Lena has been rowing at Harbor Club since June.",
        True,
    ),
    (_PUMPKIN, "The owner entered the pumpkin contest at the Hollis fair.", False),
    (_PUMPKIN, "The owner spent $40 on seeds this month.", True),
]


@pytest.mark.parametrize(("said", "fact", "stored"), CASES)
def test_where_a_hedge_ends(said: str, fact: str, stored: bool) -> None:
    assert (check(fact, said).status == "supported") is stored


@pytest.mark.parametrize("word", ["entered", "entering", "enters"])
def test_an_inflection_stems_as_its_word(word: str) -> None:
    assert stem(word) == stem("enter")
