"""The grounding guard's round fifteen (issue 29): below the word-level bar, the soft part is one
fitted score (kit/curator/soft_score.py) over the words' signals and the meaning check's
cosines (the real MiniLM), not a chain of a cosine bar, a margin and a one-word rule.
Messages and facts written here."""

from __future__ import annotations

from typing import Any

from kit.curator.grounding import Grounding, Verdict
from kit.curator.meaning import Meanings
from kit.curator.ops import Insert
from kit.curator.soft_score import Closeness, SoftWords, decide, features
from tests.support.grounding import message


async def verdict(fact: str, said: str, minilm: Any) -> Verdict:
    grounding = Grounding([message(said)], [1], "", Meanings.calibrated(minilm))
    op = Insert(fact, 0.9, "", sources=(1,))
    await grounding.weigh([op], {})
    return grounding.check(op, {})


BEACHES = (
    "Packed beaches are my nightmare. I hate beaches full of people. Quiet coves are more my thing."
)


async def test_a_paraphrase_said_twice_over_is_stored(minilm: Any) -> None:
    """Two sentences say it, so neither stands out by the old margin (0.35), and `dislikes` is
    unsaid: the chain asked. The score weighs how near the closest sentence and the whole
    message are."""
    fact = "The owner dislikes crowded beaches."
    assert (await verdict(fact, BEACHES, minilm)).status == "supported"


async def test_a_paraphrase_with_no_word_of_its_verb_is_stored(minilm: Any) -> None:
    said = (
        "The quilt for my niece is nearly done. I'm wrapping up the quilt this weekend. "
        "Then I'll rest."
    )
    fact = "The owner is finishing a quilt for her niece."
    assert (await verdict(fact, said, minilm)).status == "supported"


async def test_an_instrument_swapped_is_kept_out(minilm: Any) -> None:
    """The chain stored it: one sentence stands out (cosine 0.59, margin 0.51) and only
    `viola` is unsaid. The score reads the whole message's distance too."""
    said = "Rehearsal ran late. I play the cello in a string quartet. Dinner was cold."
    fact = "The owner plays the viola in a string quartet."
    assert (await verdict(fact, said, minilm)).status != "supported"


def test_two_things_unsaid_are_never_stored_by_the_score() -> None:
    """However close the sentence, two unsaid things are a thing swapped (round 10)."""
    close = Closeness(best=0.95, margin=0.5, whole=0.9, sentences=3)
    one = SoftWords(0.7, ("shelter",), (0.75,), 0, 4.0)
    two = SoftWords(0.7, ("animal", "shelter"), (0.75, 0.75), 0, 4.0)
    assert decide(one, close) == "supported"
    assert decide(two, close) != "supported"


def test_the_inputs_are_the_declared_features() -> None:
    from kit.curator.soft_score import FEATURES

    close = Closeness(best=0.6, margin=0.0, whole=0.6, sentences=1)
    words = SoftWords(0.5, ("finishing", "Lisbon"), (0.6, 1.0), 1, 3.0)
    got = dict(zip(FEATURES, features(words, close), strict=True))
    assert got["heaviest_unsaid"] == 1.0 and got["unsaid"] == 2.0
    assert got["unsaid_names"] == 1.0 and got["unsaid_verbs"] == 1.0
    assert got["one_sentence"] == 1.0 and got["log_sentences"] == 0.0
