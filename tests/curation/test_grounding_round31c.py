"""The grounding guard's round 31C (issue 29): whose words, when the owner says them of their
own. (1) A clause about someone else whose subject only points back (`I went to Ana's talk,
| where she covered ...`, `I met some climbers | who ...`) is about whom the clause before it
names (kit/curator/referred.py): what the owner says in it holds up a fact about the owner
that names them too, as a clause of `my team ...` does. Not a fact that leaves them out (their
act is not the owner's), not a clause that only plans, not someone a later clause names.
(2) A verb of feeling with `me` or `us` right after it (`who said something that really
annoyed me`) says the speaker felt it (kit/curator/felt.py), for a fact that says the owner
felt it (`was annoyed`, `a frustrating morning`); not one that has the owner do it to them,
not someone else's feeling, not a plan or a question, and no other word of the clause.
(3) In a clause that goes on a report (`the drives I bought on March 3, which hold my
Lightroom | and Canon photos valued at $400`), a capitalised word before a plural thing is a
brand describing it, not someone the clause is about (kit/curator/reported.py); a name
before a verb or a possessive stays someone's.
Messages and facts written here; each STORED case was dropped by main's guard (9317556)."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

# (1) (the fact, the owner's message): the pronoun's one is named by the fact too
POINTED = [
    (
        "The owner went to Priya's evening seminar on restoring antique clocks.",
        "I went to Priya's evening seminar last night, where she walked us through restoring "
        "antique clocks step by step.",
    ),
    (
        "The owner tried Priya's recipe for lemon tart with thyme.",
        "I tried Priya's recipe yesterday, and she adds thyme to the lemon tart.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), POINTED)
def test_a_pointing_subject_is_whom_the_clause_before_names(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


# What must stay out: their act given to the owner alone, a plan, someone named later, a
# wrong detail
KEPT_OUT = [
    (  # the fact does not name her: her act is not the owner's
        "The owner restored antique clocks.",
        "I visited Priya last week, and she restored antique clocks all afternoon.",
    ),
    (  # a month beside the name is no one the pronoun stands for
        "On 3 May the owner restored antique clocks.",
        "I visited Priya on May 3, and she restored antique clocks all afternoon.",
    ),
    (  # only planned
        "The owner went to Priya's seminar on restoring antique clocks.",
        "I went to Priya's seminar, where she might cover restoring antique clocks.",
    ),
    (  # the pronoun stands for someone the fact does not name
        "The owner went to Priya's seminar on restoring antique clocks.",
        "I went to Priya's seminar. Later Tomas phoned, and he talked about restoring antique "
        "clocks.",
    ),
    (  # one the owner acts on, in the fact: what she did is not the owner's
        "The owner gave Priya tips on restoring antique clocks.",
        "I met Priya at the fair, and she offered tips on restoring antique clocks.",
    ),
    (  # the owner's act, where she did it
        "The owner repaired Priya's antique clock.",
        "I met Priya at the fair, and she repaired an antique clock.",
    ),
    (  # a wrong detail
        "The owner went to Priya's seminar on restoring antique radios.",
        "I went to Priya's seminar, where she walked us through restoring antique clocks.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), KEPT_OUT)
def test_what_a_pointing_subject_does_not_give_the_owner(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


# (2) (the fact, the owner's message): a feeling done to the speaker is the speaker's
FELT = [
    (
        "The owner was annoyed by some rival anglers at the lake.",
        "I bumped into some rival anglers at the lake who said something that really annoyed me.",
    ),
    (
        "The owner was frustrated by a rude cashier at the bakery.",
        "I dealt with a rude cashier at the bakery who really frustrated me.",
    ),
    (
        "The owner felt inspired by the retired teachers at the library.",
        "I met some retired teachers at the library and they inspired me so much.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), FELT)
def test_a_feeling_done_to_the_speaker_is_felt_by_the_speaker(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


NOT_FELT = [
    (  # the owner does it to them
        "The owner annoyed some rival anglers at the lake.",
        "I bumped into some rival anglers at the lake who annoyed me.",
    ),
    (  # a trait of the owner's, not a feeling
        "The owner was annoying to some rival anglers at the lake.",
        "I bumped into some rival anglers at the lake who annoyed me.",
    ),
    (  # someone else's feeling
        "The owner was annoyed by some rival anglers at the lake.",
        "I bumped into some rival anglers at the lake who really annoyed my sister.",
    ),
    (  # only feared
        "The owner was annoyed by some rival anglers at the lake.",
        "I might bump into some rival anglers at the lake who could annoy me.",
    ),
    (  # the clause's other words stay theirs
        "The owner sold a car.",
        "Ana upset me by selling her car.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), NOT_FELT)
def test_what_a_feeling_done_to_the_speaker_does_not_say(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


# (3) (the fact, the owner's message): a brand before a plural thing is no one
BRANDED = [
    (
        "On 3 March 2024 the owner bought backup drives holding their Lightroom and Canon "
        "photos, valued at $400 together.",
        "I keep thinking about the backup drives I bought on March 3, which hold my Lightroom "
        "and Canon photos valued at $400 together.",
    ),
    (
        "On 3 March 2024 the owner bought backup drives holding their Lightroom and Capture "
        "catalogues, valued at $400 together.",
        "I'm not sure whether to upgrade my laptop, or focus on the backup drives I bought on "
        "March 3, which hold my Lightroom and Capture catalogues valued at $400 together?",
    ),
]


@pytest.mark.parametrize(("fact", "said"), BRANDED)
def test_a_brand_before_a_plural_thing_is_no_one(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


NAMED = [
    (  # a possessive: someone's lenses
        "The owner spent $900 on lenses.",
        "I went to the fair, which Ana organized and Ana's lenses cost $900.",
    ),
    (  # a name before a verb: her liking
        "The owner loves the lamps.",
        "I went to the fair, which Ana organized and Ana loves the lamps.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), NAMED)
def test_a_name_before_a_verb_or_as_an_owner_stays_someones(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"
