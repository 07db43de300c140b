"""The grounding guard's round-six readings (kit/curator/clauses.py, kit/curator/wording.py,
kit/curator/related.py): "not so long ago" is a time, not a denial; "work" is a word a message
must say like any other; a message saying a fact word's WordNet opposite drops the fact; the bar
to store is 80% of the soft words' weight. Real WordNet, messages written here."""

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


def test_a_message_saying_the_opposite_word_drops_the_fact() -> None:
    # WordNet's antonyms: "failed" is the opposite of "passed", "decline" of "accepted"
    said = "Especially after I failed the military aptitude test recently, I've been stressed."
    verdict = check("The owner passed the military aptitude test.", said)
    assert verdict.status == "unsupported"
    assert "say the opposite of 'passed'" in verdict.reason
    said = "I'm frustrated that I had to decline a $2,000 freelance video project on April 4."
    verdict = check("The owner accepted a $2,000 freelance video project on April 4.", said)
    assert verdict.status == "unsupported"
    assert "'accepted'" in verdict.reason


def test_an_opposite_the_message_denies_is_no_opposite() -> None:
    # a boundary of the rule above: "didn't fail" is no "failed"
    said = "I didn't fail my driving test."
    assert "opposite" not in check("The owner passed the driving test.", said).reason


def test_one_attribute_word_unsaid_in_a_longer_fact_is_stored() -> None:
    # "schedule" unsaid: its share of the fact's weight is under 1 - STORE (0.8)
    said = "The yoga session and dinner date with James are exactly what I needed this week."
    fact = "The owner has a yoga session and a dinner date with James in her schedule."
    assert check(fact, said).status == "supported"
