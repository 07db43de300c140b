"""The grounding guard's round 25B (issue 29): a choice or a commitment said in other words. A
fact's frame verb of choosing or committing (`chose`, `picked`, `is willing to`, `agreed`) is
said where the speaker commits, in their own first person, to what the fact names (`I'll go
with`, `let's go with`, `I'm fine with`, `count me in`), and only there; a phrasal verb of the
fact (`turned down`) is said by a word it means (`declined`). Messages and facts written here,
none taken from a bench set."""

from __future__ import annotations

import pytest

from kit.curator.grounding import Grounding
from kit.curator.ops import Insert
from kit.memory.messages import Message
from tests.support.grounding import check, message


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        ("The owner chose the blue tiles.", "Right, I'll go with the blue tiles for the bathroom."),
        ("The owner picked the blue tiles.", "Ok, let's go with the blue tiles!"),
        ("The owner settled on the walnut desk.", "I think I'll just take the walnut desk."),
        (
            "The owner is willing to host the reunion.",
            "Honestly I'm fine with hosting the reunion at my house.",
        ),
        ("The owner opted for the walnut desk.", "In the end I picked the walnut desk."),
    ],
)
def test_a_commitment_says_the_frame_verb(fact: str, said: str) -> None:
    """`chose the blue tiles` from `I'll go with the blue tiles`: the choice is said."""
    assert check(fact, said).status == "supported"


def test_a_commitment_with_nothing_after_it_names_its_sentence() -> None:
    """`the charity run sounds fun, count me in!`: what the owner agreed to is in the sentence
    (asked about, not dropped: `join` is still unsaid)."""
    said = "The charity run sounds fun, count me in!"
    assert check("The owner agreed to join the charity run.", said).status == "partial"


@pytest.mark.parametrize(
    "said",
    [
        "Should I go with the blue tiles for the bathroom?",  # a question
        "I'm thinking of going with the blue tiles for the bathroom.",  # a plan
        "I might go with the blue tiles for the bathroom.",
        "If they are cheap, I'll go with the blue tiles for the bathroom.",  # a supposition
        "Kelly went with the blue tiles for her bathroom.",  # someone else's choice
        "I won't go with the blue tiles for the bathroom.",  # a denial
        "I'll never pick the blue tiles for the bathroom.",
        "The blue tiles look nice, but I'll go with the green ones.",  # another thing chosen
        "I'll go with either the blue tiles or the green ones.",  # still between two
    ],
)
def test_no_commitment_leaves_the_frame_verb_unsaid(said: str) -> None:
    """A question, a plan, a supposition, someone else's choice, a denial or another thing
    chosen does not say the owner chose the blue tiles."""
    assert check("The owner chose the blue tiles.", said).status != "supported"


def test_a_denied_commitment_says_no_willingness() -> None:
    said = "Honestly I'm not okay with hosting the reunion at my house."
    assert check("The owner is willing to host the reunion.", said).status != "supported"


def _said_by(speaker: str, fact: str, said: str) -> str:
    """The verdict on `fact` citing `said`, a message of `speaker` (not the owner)."""
    own = message(said)
    theirs = Message(1, "o", 1, "user", speaker, said, own.at, own.day, None, "chat")
    grounding = Grounding([theirs], [1], "Sam")
    return grounding.check(Insert(fact, 0.9, "", sources=(1,)), {}).status


def test_a_commitment_is_the_speakers_own() -> None:
    """Maya's `I'll go with the walnut desk` says Maya chose it, never the owner."""
    said = "Thanks! I'll go with the walnut desk for the studio."
    assert _said_by("Maya", "Maya chose the walnut desk.", said) == "supported"
    assert _said_by("Maya", "The owner chose the walnut desk.", said) != "supported"


@pytest.mark.parametrize(
    "said",
    ["I declined the Acme offer last week.", "I rejected the Acme offer last week."],
)
def test_a_phrasal_verb_is_said_by_a_word_it_means(said: str) -> None:
    """`turned down` is said by `declined` or `rejected` (WordNet's turn_down), and the
    message's refusal is what the fact says (not a denial of the offer)."""
    assert check("The owner turned down the Acme offer.", said).status == "supported"


def test_a_phrasal_verb_is_not_said_by_its_opposite() -> None:
    said = "I accepted the Acme offer last week."
    assert check("The owner turned down the Acme offer.", said).status != "supported"
