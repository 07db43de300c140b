"""The grounding guard's round 32A (issue 29): a word said by its definition. A message's
noun or verb says the content words at the head of its definition in its most common senses
(kit/curator/related.py `defines`: "joined" is "become part of; become a member of a group"),
one step and one way: a fact may say "became a member" where the message says "joined".
Details stay strict: the thing joined, a word for people, and a word only wished for.
Messages and facts written here; each STORED case was held back by the commit before it."""

from __future__ import annotations

import pytest

from kit.curator.clipped import clipped_said
from kit.curator.related import defines
from tests.support.grounding import check

STORED = [
    (
        "The owner became a member of a hiking club.",
        "I joined a hiking club last month and the people there are lovely.",
    ),
    (
        "The owner is a member of a choir.",
        "I joined a choir in March, rehearsals are on Thursdays.",
    ),
    (
        "The owner prepared a meal for her neighbours.",
        "I cooked for my neighbours on Sunday, they loved it.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), STORED)
def test_a_word_said_by_its_definition_is_said(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


NOT_STORED = [
    # another thing joined: the definition says the joining, not what was joined
    (
        "The owner became a member of a chess club.",
        "I joined a hiking club last month and the people there are lovely.",
    ),
    # a word for people keeps its own reading: an uncle is defined by a brother, not one
    ("The owner's brother visited on Sunday.", "My uncle visited on Sunday and we had lunch."),
    # said only as a wish
    (
        "The owner became a member of a hiking club.",
        "I'm thinking about whether to join a hiking club.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), NOT_STORED)
def test_a_definition_does_not_store_another_detail(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status != "supported", verdict.reason


def test_only_a_definitions_head_and_no_light_word() -> None:
    joined = defines("joined")
    assert {"become", "member"} <= joined
    assert "group" not in joined  # "of a group or organization" says more of the member
    assert "make" not in defines("allowed")  # a light word says almost anything


# (2) A word said by its clipped form (kit/curator/clipped.py): a message's word WordNet does
# not know, at least four letters, that begins the fact's word and leaves three or more off.
def test_a_clipped_word_says_its_long_form() -> None:
    verdict = check(
        "The owner went to a jazz festival with her sister in July.",
        "Went to a jazz fest with my sister in July, the music was unreal!",
    )
    assert verdict.status == "supported", verdict.reason


@pytest.mark.parametrize(
    ("word", "said", "clips"),
    [
        ("festival", "fest", True),
        ("festivals", "fests", True),
        ("melody", "mel", False),  # three letters: a name more often than a word cut short
        ("photograph", "photo", False),  # a word WordNet knows is read as itself
        ("festivals", "festivalz", False),  # not a beginning of the word
    ],
)
def test_only_an_unknown_beginning_of_four_letters_clips(word: str, said: str, clips: bool) -> None:
    assert clipped_said(word, frozenset({said})) is clips
