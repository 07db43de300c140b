"""Kinds of things and their instances come from WordNet (kit/retrieval/wordnet.py)."""

from __future__ import annotations

from kit.retrieval.instances import kinds_named, names_an_instance
from kit.retrieval.wordnet import wordnet


def test_wordnet_finds_nouns_in_their_inflections_and_what_lies_below_them() -> None:
    net = wordnet()
    assert net.lemma("countries") == "country" and net.lemma("geese") == "goose"
    assert net.lemma("qwertyuiop") is None
    below = set().union(*(net.below(s, 3000) or set() for s in net.senses("dessert")))
    assert {"sundae", "ice cream"} <= below and "dessert" not in below
    assert "cobbler" not in below  # WordNet files it under pies: general, not fitted


def test_the_noun_a_question_asks_for_is_a_kind_with_its_instances() -> None:
    (country,) = kinds_named("Which country is Caroline from?")
    assert country.name == "country" and "sweden" in country.instances
    (music,) = kinds_named("What type of music does he like?")
    assert music.name == "music" and "jazz" in music.instances
    (dessert,) = kinds_named("What desserts did she bake?")  # a plural, the singular's kind
    assert names_an_instance("we had two sundaes after dinner", [dessert])
    assert not names_an_instance("I baked bread", [dessert])
    (rodent,) = kinds_named("What rodent does she keep?")
    assert names_an_instance("my little guinea pig Oscar", [rodent])  # a phrase


def test_too_broad_a_kind_or_none_at_all_names_nothing() -> None:
    assert kinds_named("What animal did she see?") == ()  # every creature: says nothing
    assert kinds_named("What did Caroline say?") == ()
    assert kinds_named("Where did they go last week?") == ()
    assert not names_an_instance("Sweden", ())
