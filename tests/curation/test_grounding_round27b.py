"""The grounding guard's round 27B (issue 29): whose words a first-person message says of
someone else. A speaker's clause about `she`, `he`, `they` or `you` holds up no fact about the
speaker (a named speaker as well as the owner), `that you chose ...` after `I love` is the
listener's act, and a gerund or a thing opening a clause (`Coding is going smoothly`) is no
other person. What the speaker says of themself after `you know` or as `we` stays theirs, and a
third person's trait stays theirs. Messages and facts written here, none taken from a bench
set."""

from __future__ import annotations

import pytest

from kit.curator.grounding import Grounding
from kit.curator.ops import Insert
from kit.memory.messages import Message
from tests.support.grounding import check, message


def _said_by(speaker: str, fact: str, said: str) -> str:
    """The verdict on `fact` citing `said`, a message of `speaker` (not the owner, Sam)."""
    own = message(said)
    theirs = Message(1, "o", 1, "user", speaker, said, own.at, own.day, None, "chat")
    grounding = Grounding([theirs], [1], "Sam")
    return grounding.check(Insert(fact, 0.9, "", sources=(1,)), {}).status


SPEAKER_CASES = [
    # said by Priya, fact, stored
    (
        "My cousin has had a rough month. She had to pack up and find a new flat in a rush, "
        "which was hard on her.",
        "Priya had to find a new flat in a rush.",
        False,
    ),
    (
        "Things are better for my uncle now. He opened a bakery on the high street last spring.",
        "Priya opened a bakery on the high street.",
        False,
    ),
    (
        "Wow, you signed up for the city marathon, that is brilliant!",
        "Priya signed up for the city marathon.",
        False,
    ),
    (
        "My neighbours are lovely. They adopted a rescue greyhound in June.",
        "Priya adopted a rescue greyhound.",
        False,
    ),
    # the speaker's own act, as `I` and as `we`: hers
    (
        "Things are better now. I opened a bakery on the high street last spring.",
        "Priya opened a bakery on the high street.",
        True,
    ),
    (
        "Big news: we adopted a rescue greyhound in June.",
        "Priya adopted a rescue greyhound.",
        True,
    ),
    # a clause opened by someone else that is the speaker's all the same
    (
        "Thanks for asking, they're good- we got another puppy named Pip too.",
        "Priya got another puppy named Pip.",
        True,
    ),
    (
        "Some friends from work and I went sailing last weekend, it was a blast!",
        "Priya went sailing with friends from work.",
        True,
    ),
    (
        "I'm feeling inspired by spring so I'm planning a few. You got any garden projects coming "
        "up?",
        "Priya is planning a few garden projects.",
        True,
    ),
    (
        "Oslo?! Never had a chance to visit it. Been only to Bergen once.",
        "Priya has been to Bergen once.",
        True,
    ),
]


@pytest.mark.parametrize(("said", "fact", "stored"), SPEAKER_CASES)
def test_a_speakers_clause_about_someone_else_is_not_hers(
    said: str, fact: str, stored: bool
) -> None:
    assert (_said_by("Priya", fact, said) == "supported") is stored


OWNER_CASES = [
    # said by the owner, fact, stored
    (
        "Those mugs look great! I love that you chose ceramics for your hobby.",
        "The owner chose ceramics as a hobby.",
        False,
    ),
    (
        "I'm so glad that he took up the violin this winter.",
        "The owner took up the violin.",
        False,
    ),
    (
        "It's great that they moved to Lisbon in March.",
        "The owner moved to Lisbon.",
        False,
    ),
    # what the speaker says of themself after `you know`, after `that I`, as `we`: theirs
    ("You know I love ceramics, it calms me down.", "The owner loves ceramics.", True),
    ("I'm so glad that I took up the violin this winter.", "The owner took up the violin.", True),
    ("We moved to Lisbon in March.", "The owner moved to Lisbon.", True),
    # a third person's trait stays theirs
    ("My brother is vegan and loves cooking.", "The owner is vegan.", False),
    ("Ana is vegan, so dinner was tricky.", "The owner is vegan.", False),
]


@pytest.mark.parametrize(("said", "fact", "stored"), OWNER_CASES)
def test_a_clause_after_that_is_whose_subject_it_names(said: str, fact: str, stored: bool) -> None:
    assert (check(fact, said).status == "supported") is stored


THING_CASES = [
    # said by the owner, fact: a gerund or a thing opening a clause is no other person
    (
        "I've been sorting my travel photos into albums by year. Editing is going pretty well, "
        "but I'm still picking a cover.",
        "The owner is editing travel photos.",
    ),
    (
        "I joined a pottery class in March. Glazing has been the hardest part so far.",
        "Glazing has been the hardest part of the owner's pottery class.",
    ),
    (
        "I started a vegetable garden this spring. Weeding has taken up most of my Sundays.",
        "The owner spends Sundays weeding the vegetable garden.",
    ),
]


@pytest.mark.parametrize(("said", "fact"), THING_CASES)
def test_a_gerund_opening_a_clause_is_no_one_else(said: str, fact: str) -> None:
    assert check(fact, said).status == "supported", check(fact, said).reason


THEY_CASES = [
    # said by the owner, fact, stored: `they`, `their` after a plural thing name the things
    (
        "I'm worried about my bills, mostly since they were $640 in March, and I want a plan.",
        "The owner's bills were $640 in March.",
        True,
    ),
    (
        "I like paperbacks for their low price, but I keep hardbacks for gifts.",
        "The owner likes paperbacks for the low price.",
        True,
    ),
    # after a word for people, someone else's
    ("I cook for my friends, they are vegan.", "The owner is vegan.", False),
    (
        "I help my clients with their tight schedules.",
        "The owner has a tight schedule.",
        False,
    ),
]


@pytest.mark.parametrize(("said", "fact", "stored"), THEY_CASES)
def test_they_after_a_plural_thing_names_the_things(said: str, fact: str, stored: bool) -> None:
    assert (check(fact, said).status == "supported") is stored


def _asked(question: str, answer: str, fact: str) -> str:
    """The verdict on `fact` citing Priya's `question` and the owner's (Sam's) `answer`."""
    own = message(answer)
    asked = Message(1, "o", 1, "user", "Priya", question, own.at, own.day, None, "chat")
    answered = Message(2, "o", 1, "user", "", answer, own.at, own.day, None, "chat")
    grounding = Grounding([asked, answered], [1, 2], "Sam")
    return grounding.check(Insert(fact, 0.9, "", sources=(1, 2)), {}).status


ASKED_CASES = [
    # another speaker's question to the owner, the owner's answer, fact, stored
    (
        "That's lovely. What made you pick up the cello last winter?",
        "My grandma played it, so it felt natural.",
        "Sam picked up the cello last winter.",
        True,
    ),
    (
        "Why did you open the food bank stall on Fridays?",
        "Fridays are when most families shop, so it made sense.",
        "Sam opened a food bank stall on Fridays.",
        True,
    ),
    # a yes-or-no question, or what the asker says of their own, stays theirs
    (
        "Did you pick up the cello last winter?",
        "No, my grandma did.",
        "Sam picked up the cello.",
        False,
    ),
    (
        "What do you think of my new cello?",
        "It sounds wonderful!",
        "Sam has a new cello.",
        False,
    ),
]


@pytest.mark.parametrize(("question", "answer", "fact", "stored"), ASKED_CASES)
def test_what_a_wh_question_asks_of_the_owner_is_given_by_the_answer(
    question: str, answer: str, fact: str, stored: bool
) -> None:
    assert (_asked(question, answer, fact) == "supported") is stored
