"""The grounding guard's soft words, scored (kit/curator/grounding.py): each word of a fact
that is not a name, number, date or kin word weighs by how informative it is (WordNet's
Semantic Concordance counts: "found", "became" next to nothing, "beach" the most), a word
said only in a form WordNet relates to it counts less than one said in its own forms, and the
share said decides: stored, asked about, or dropped. Real WordNet, messages written here."""

from __future__ import annotations

from datetime import UTC, datetime

from kit.curator import related
from kit.curator.grounding import Grounding, Verdict
from kit.curator.ops import Insert
from kit.memory.messages import Message

AT = datetime(2024, 6, 3, 10, 0, tzinfo=UTC)


def check(fact: str, said: str, speaker: str = "") -> Verdict:
    message = Message(1, "o", 1, "user", speaker, said, AT, AT.date(), None, "chat")
    return Grounding([message], [1], "").check(Insert(fact, 0.9, "", sources=(1,)), {})


def test_a_common_verb_a_paraphrase_adds_costs_next_to_nothing() -> None:
    said = "The transgender stories at my support group were so inspiring."
    assert check("The owner found the stories at their support group inspiring.", said).status == (
        "supported"
    )
    assert related.weight("found") < 0.2 < 0.8 < related.weight("beach")


def test_british_and_american_spellings_are_one_word() -> None:
    verdict = check("The owner's favourite colour is green.", "My favorite color is green.")
    assert verdict.status == "supported"


def test_a_thing_the_message_does_not_name_is_not_stored() -> None:
    # "school" is a common word, but here a noun phrase's last word: a thing, weighed as one
    said = "I had a picnic with friends from church last weekend."
    assert check("The owner had a picnic with friends from school.", said).status != "supported"


def test_a_fact_resting_on_a_wordnet_relation_alone_is_asked_about() -> None:
    # "tough" is one of "difficult"'s senses: related, not said; nothing else holds it up
    verdict = check("The owner's boss is tough.", "My boss is difficult.")
    assert verdict.status == "partial"
    assert "only in other words WordNet relates to them" in verdict.reason
    assert "'tough'" in verdict.reason


def test_a_kin_word_nobody_said_is_a_hard_miss() -> None:
    verdict = check(
        "The owner moved to Porto in 2021 with her husband.", "I moved to Porto in 2021."
    )
    assert verdict == Verdict("unsupported", "it names 'husband', which its cited messages do not")


def test_one_common_word_unsaid_in_a_short_fact_is_asked_not_dropped() -> None:
    said = "I've known these friends for 4 years."
    assert check("The owner has known her close friends for 4 years.", said).status == "partial"
