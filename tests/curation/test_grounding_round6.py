"""The grounding guard's round-six readings (kit/curator/clauses.py, wording.py): "not so long
ago" is a time, not a denial; "work" is a word a message must say like any other ("friends from
work" is not "friends from the gym"). Real WordNet, messages written here."""

from __future__ import annotations

from datetime import UTC, datetime

from kit.curator.clauses import clauses
from kit.curator.grounding import Grounding, Verdict
from kit.curator.ops import Insert
from kit.memory.messages import Message

AT = datetime(2023, 7, 9, 10, 0, tzinfo=UTC)


def check(fact: str, said: str, speaker: str = "") -> Verdict:
    message = Message(1, "o", 1, "user", speaker, said, AT, AT.date(), None, "chat")
    return Grounding([message], [1], "").check(Insert(fact, 0.9, "", sources=(1,)), {})


def test_not_so_long_ago_is_a_time_not_a_denial() -> None:
    said = "Oh, and BTW, I started my own online clothing store not so long ago - pretty cool, huh?"
    assert not any(c.negated for c in clauses(said))
    assert check("The owner started an online clothing store.", said).status == "supported"


def test_a_real_denial_is_still_read_as_one() -> None:
    said = "I did not start the clothing store, so long story short I kept my old job."
    assert check("The owner started a clothing store.", said).status != "supported"


def test_work_is_a_word_the_message_must_say() -> None:
    said = "I had a picnic with friends from the gym last weekend."
    assert check("The owner had a picnic with friends from work.", said).status != "supported"
    said = "I had a picnic with friends from work last weekend."
    assert check("The owner had a picnic with friends from work.", said).status == "supported"
