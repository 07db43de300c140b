"""The grounding guard's round 28B (issue 29): short supported facts the weighing asked about.
(1) A fact that is its subject's own clause said again, word for word past the small words a
person changes (`I'm` / `is`, `I've` / `has`, `my`), in a clause said as so of the speaker,
is not doubted by the weighing (kit/curator/restated.py): the weighing reads too little in a
fact of two or three words and would ask the owner about it. A worry's noun is no verb
(`worried about flight delays` says no flight was delayed), and a clause only hoped, wished
or asked keeps the weighing. (2) The name a fact gives its subject in passing (`The owner,
Priya, is ...`) is said in a clause of its own (`I'm Priya, a ...`), and a habit's -s is said
by the message's -ing (`uses` / `I'm using`). (3) A fact that its subject has what the
speaker calls `my ...`, word for word, rests on the `my` even in a clause that worries about it
(`I'm worried my dry sense of humour won't land`); not in one only supposed. The real MiniLM
model; messages and facts written here: each STORED case is asked about without the reading
(checked in the test itself)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from kit.curator import grounding
from kit.curator.grounding import Grounding, Verdict
from kit.curator.meaning import Meanings
from kit.curator.ops import Insert
from kit.curator.restated import Spoken, restated
from kit.memory.messages import Message
from tests.support.grounding import check

AT = datetime(2024, 3, 30, 10, tzinfo=UTC)


async def _check(fact: str, said: str, minilm: Any, speaker: str = "") -> Verdict:
    message = Message(1, "o", 1, "user", speaker, said, AT, AT.date(), None, "chat")
    guard = Grounding([message], [1], "", Meanings.calibrated(minilm))
    op = Insert(fact, 0.9, "", sources=(1,))
    await guard.weigh([op], {})
    return guard.check(op, {})


# (the fact, the message, who said it: "" for the owner)
STORED = [
    pytest.param(
        "The owner is an avid birder.",
        "My binoculars fog up every morning, which is annoying since I'm an avid birder, any "
        "fixes you'd suggest for cold weather?",
        "",
        id="i-am-a",
    ),
    pytest.param(
        "The owner is a night-shift nurse.",
        "I'm a night-shift nurse, so can you help me plan meals around sleeping in the day?",
        "",
        id="i-am-before-a-request",
    ),
    pytest.param(
        "The owner prefers paper planners.",
        "I prefer paper planners over apps for keeping track of things, so can you suggest a "
        "good layout?",
        "",
        id="present-s",
    ),
    pytest.param(
        "The owner has renewed a passport.",
        "Packing is sorted and I've renewed a passport this spring, so could you list what "
        "else a first trip to Japan needs?",
        "",
        id="i-have-done",
    ),
    pytest.param(
        "Nadia coached at the rink.",
        "Coaching at the rink wore me out, though I loved every minute.",
        "Nadia",
        id="named-for-i",
    ),
    pytest.param(  # (2) the name the fact gives in passing is said in a clause of its own
        "The owner, Priya, is a tile restorer.",
        "I'm Priya, a tile restorer, and I'm trying to work out how much grout a 3 by 4 metre "
        "floor needs, can you help?",
        "",
        id="name-in-passing",
    ),
    pytest.param(  # (2) a habit's -s for the message's -ing
        "The owner uses the Toggl app for invoicing.",
        "I paid the studio rent on Monday, and I'm using the Toggl app for invoicing now, so "
        "can you help me set up categories?",
        "",
        id="uses-for-using",
    ),
    pytest.param(  # (3) what "my ..." names is the owner's, whatever the clause worries about
        "The owner has a dry sense of humour.",
        "I'm worried my dry sense of humour won't land with the new team, how do I tone it "
        "down in meetings?",
        "",
        id="has-my",
    ),
]


@pytest.mark.parametrize(("fact", "said", "speaker"), STORED)
async def test_a_clause_said_again_is_stored_without_asking(
    fact: str, said: str, speaker: str, minilm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as before:  # without the reading: the weighing asks
        before.setattr(grounding, "restated", lambda *_: False)
        assert (await _check(fact, said, minilm, speaker)).status == "partial"
    verdict = await _check(fact, said, minilm, speaker)
    assert verdict.status == "supported", verdict.reason


KEPT_OUT = [
    pytest.param(
        "The owner's flight has been delayed.",
        "I've booked a cheap fare to Lisbon, but I'm worried about flight delays, can you "
        "help me plan a backup?",
        id="a-worry-s-noun",
    ),
    pytest.param(
        "The owner's poem was printed in the magazine.",
        "I'm hoping to get my poem printed in the magazine by June, can you help me edit it?",
        id="hoped",
    ),
]


@pytest.mark.parametrize(("fact", "said"), KEPT_OUT)
async def test_what_is_only_feared_or_hoped_is_not_said_again(
    fact: str, said: str, minilm: Any
) -> None:
    assert (await _check(fact, said, minilm)).status != "supported"


def test_the_fact_must_be_about_who_said_it() -> None:
    owner = Spoken("I'm an avid birder.", True, frozenset())
    nadia = Spoken("I'm an avid birder.", False, frozenset({"nadia"}))
    assert restated("The owner is an avid birder.", [owner])
    assert restated("Nadia is an avid birder.", [nadia])
    assert not restated("Omar is an avid birder.", [nadia])
    assert not restated("The owner is an avid birder.", [nadia])


def test_a_verb_s_form_is_said_by_its_other_forms_not_by_a_noun() -> None:
    using = [Spoken("Lately I'm using a paper planner.", True, frozenset())]
    assert restated("The owner uses a paper planner.", using)
    fears = [Spoken("I'm scared of train delays.", True, frozenset())]
    assert not restated("The owner's train delayed.", fears)


def test_what_my_names_is_theirs_unless_only_supposed() -> None:
    worried = [Spoken("I fear my dry sense of humour won't land.", True, frozenset())]
    assert restated("The owner has a dry sense of humour.", worried)
    supposed = [
        Spoken("If my dry sense of humour ever came back, I'd joke more.", True, frozenset())
    ]
    assert not restated("The owner has a dry sense of humour.", supposed)
    assert not restated("The owner likes a dry sense of humour.", worried)


def test_one_word_is_no_clause_said_again() -> None:
    assert not restated("The owner is tired.", [Spoken("I'm tired.", True, frozenset())])


def test_the_words_must_run_unbroken_in_one_clause() -> None:
    owner = [Spoken("I'm an avid but slow birder.", True, frozenset())]
    assert not restated("The owner is an avid birder.", owner)
    denied = [Spoken("I'm not an avid birder.", True, frozenset())]
    assert not restated("The owner is an avid birder.", denied)


# (4) a kind the fact says its thing is: the words' verdict alone (tests/support/grounding.py)
KIND_SAID = [  # each "partial" without kit/curator/category.py (its colour unsaid)
    ("The owner's favourite colour is green.", "Green's my fave, it calms me down."),
    (
        "The owner's favourite colour is purple.",
        "I love purple, it is my fave for the bedroom walls.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), KIND_SAID)
def test_a_kind_beside_its_thing_is_no_unsaid_word(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        ("The owner's favourite drink is tea.", "Honestly coffee is my fave, any tips?"),
    ],
)
def test_a_kind_does_not_say_another_thing(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"
