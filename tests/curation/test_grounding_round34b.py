"""The grounding guard's round 34B (issue 29): a choice said through a particle or as `X it is`
(kit/curator/chosen.py: `went with the train`, `settled on Leeds`, `the train it is`), so that
a fact choosing the other option is kept out; and help asked for with an act (`any advice on
reaching my readers?`) says no such act done (kit/curator/intended.py). Messages and facts
written here; each KEPT_OUT case was stored by the commit before this reading."""

from __future__ import annotations

import dataclasses

import pytest

from kit.curator.chosen import chosen_words
from kit.curator.grounding import Grounding, Verdict
from kit.curator.ops import Insert
from tests.support.grounding import check, message


def check_speaker(fact: str, said: str) -> Verdict:
    """The verdict on `fact` citing `said` by Nadia, in a chat whose owner is Omar."""
    spoken = dataclasses.replace(message(said), speaker="Nadia")
    return Grounding([spoken], [1], "Omar").check(Insert(fact, 0.9, "", sources=(1,)), {})


KEPT_OUT = [
    (
        "The owner chose the ferry for the trip to the island.",
        "For the island trip I was torn between the ferry and the small plane, and in the end "
        "I went with the small plane.",
    ),
    (
        "The owner settled on Porto for the spring holiday.",
        "Porto and Seville both looked lovely for the spring holiday, but we settled on Seville.",
    ),
    (
        "The owner reaches new listeners with the podcast.",
        "I need help with the podcast - any tips on reaching new listeners and keeping the old "
        "ones?",
    ),
]


@pytest.mark.parametrize(("fact", "said"), KEPT_OUT)
def test_a_choice_of_the_other_option_or_help_asked_is_kept_out(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status != "supported"


STORED = [
    (
        "The owner chose the small plane for the trip to the island.",
        "For the island trip I was torn between the ferry and the small plane, and in the end "
        "I went with the small plane.",
    ),
    (
        "The owner settled on Seville for the spring holiday.",
        "Porto and Seville both looked lovely for the spring holiday, but we settled on Seville.",
    ),
    (
        "The owner went for a run along the canal.",
        "I went for a run along the canal this morning, lovely weather.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), STORED)
def test_the_option_chosen_is_stored(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


def test_a_light_verb_alone_chooses_nothing() -> None:
    assert chosen_words("I went to Leeds and took on a new project.") == frozenset()
    assert chosen_words("We went with the red sofa.") == {"red", "sofa"}
    assert chosen_words("Is it quick? Yes it is!") == frozenset()
    assert chosen_words("Tea or coffee? Coffee it is!") == {"coffee"}


# Another's act the speaker only weighs doing too (kit/curator/echoed.py), and a doing said
# only by how it seems (kit/curator/evaluated.py, `go` and a gerund: kit/curator/intended.py).
def test_a_speakers_thought_of_doing_another_s_act_too_is_no_act_of_theirs() -> None:
    said = "Yeah, a cousin of mine fostered a kitten over the winter. Maybe I should do it too!"
    assert check_speaker("Nadia is fostering a kitten.", said).status != "supported"
    done = "Yeah, I fostered a kitten over the winter. Maybe my cousin should do it too!"
    assert check_speaker("Nadia fostered a kitten.", done).status == "supported"
    # the fact about the cousin says the cousin's act
    assert check_speaker("A cousin of Nadia's fostered a kitten.", said).status == "supported"


KEPT_OUT_ACTS = [
    (
        "The owner goes salsa dancing.",
        "I've been busy with work lately. Salsa dancing sounds like a great way to unwind, "
        "have you tried it?",
    ),
]


@pytest.mark.parametrize(("fact", "said"), KEPT_OUT_ACTS)
def test_an_act_only_weighed_for_oneself_is_kept_out(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status != "supported"


STORED_ACTS = [
    (
        "The owner fostered a kitten.",
        "I fostered a kitten over the winter, and my cousin says she might do it too.",
    ),
    (
        "The owner went salsa dancing with friends.",
        "Last night I went salsa dancing with friends, it was a blast.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), STORED_ACTS)
def test_an_act_done_by_the_speaker_is_stored(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason
