"""The grounding guard's rules, one by one, on messages written here (kit/curator/grounding.py):
what each clause of a message says, and of whom, against what a fact would store. The cases
are the kinds the planted set holds (bench/data/grounding-planted.json), in words of our own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from kit.curator.grounding import Grounding
from kit.curator.ops import Insert
from kit.curator.screen import self_reference
from kit.memory.messages import Message

AT = datetime(2024, 6, 3, 10, 0, tzinfo=UTC)


def verdict(fact: str, *said: str | tuple[str, str], owner: str = "", subject: str = "") -> str:
    """The guard's verdict on INSERT `fact` citing `said` (text, or (speaker, text))."""
    messages = []
    for n, line in enumerate(said, start=1):
        speaker, text = line if isinstance(line, tuple) else ("", line)
        messages.append(Message(n, "o", 1, "user", speaker, text, AT, AT.date(), None, "chat"))
    guard = Grounding(messages, [m.id for m in messages], owner)
    op = Insert(fact, 0.9, subject, sources=tuple(m.id for m in messages))
    return guard.check(op, {}).status


@pytest.mark.parametrize(
    ("fact", "expected"),
    [
        ("The owner hired a $300 photographer.", "unsupported"),
        ("The owner chose to edit the photos herself.", "supported"),
        ("The owner chose editing the photos herself over a $300 photographer.", "supported"),
    ],
)
def test_what_was_passed_over_is_not_what_was_chosen(fact: str, expected: str) -> None:
    said = "I chose editing the photos myself over hiring a $300 photographer to save money."
    assert verdict(fact, said) == expected


def test_which_side_of_a_choice_a_name_is_on() -> None:
    said = "I picked Asics Novablast over Brooks Ghost after a test run on May 2."
    assert verdict("The owner picked Brooks Ghost over Asics Novablast.", said) == "unsupported"
    assert verdict("The owner picked Asics Novablast over Brooks Ghost.", said) == "supported"


def test_over_with_no_choice_is_no_contrast() -> None:
    said = "I ran a half marathon over the weekend."
    assert verdict("The owner ran a half marathon over the weekend.", said) == "supported"


def test_should_i_asks_about_what_follows_it() -> None:
    said = "I got an offer of $72,000 a year, so should I accept it or wait until I hear more?"
    assert verdict("The owner accepted an offer of $72,000 a year.", said) == "unsupported"
    assert verdict("The owner got an offer of $72,000 a year.", said) == "supported"


def test_not_sure_is_a_doubt_not_a_denial() -> None:
    said = "I'm not sure how the move affects my budget, which includes $900 for rent."
    assert verdict("The owner's budget includes $900 for rent.", said) == "supported"


def test_a_choice_whose_rightness_is_doubted_was_still_made() -> None:
    said = "I keep wondering if I made the right choice in taking the night shift at the depot."
    assert verdict("The owner took the night shift at the depot.", said) == "supported"
    hedged = "I keep wondering if I should take the night shift at the depot."
    assert verdict("The owner took the night shift at the depot.", hedged) == "unsupported"


def test_for_when_is_not_yet() -> None:
    said = "I'm saving up for when I have a house with a garden."
    assert verdict("The owner has a house with a garden.", said) == "unsupported"
    assert verdict("The owner is saving up.", said) == "supported"


def test_ten_years_ago_is_not_five_years_ago() -> None:
    said = "I started playing the cello about five years ago."
    assert verdict("The owner started playing the cello about ten years ago.", said) == (
        "unsupported"
    )
    assert verdict("The owner started playing the cello about five years ago.", said) == (
        "supported"
    )


def test_a_clause_after_because_is_about_what_it_names() -> None:
    said = ("Dana", "We went with that clinic 'cause they treat rescue dogs for free.")
    fact = "Dana went with the clinic because it treats rescue dogs for free."
    assert verdict(fact, said, owner="Dana", subject="Dana") == "supported"


def test_someone_doing_something_for_the_owner_rests_on_the_owners_words() -> None:
    said = ("Dana", "I still have my knitted scarf. My aunt made it for my graduation.")
    fact = "An aunt made Dana a knitted scarf for her graduation."
    assert verdict(fact, said, owner="Dana", subject="Dana") == "supported"


def test_what_the_owner_did_is_not_what_someone_else_did() -> None:
    """The owner (Omar) speaks of himself; a fact gives it to the friend he talks to."""
    said = ("Omar", "Nice one, Priya! I just started volunteering at a shelter for families.")
    fact = "Priya volunteers at a shelter for families."
    assert verdict(fact, said, owner="Omar", subject="Priya") == "unsupported"
    assert verdict("Omar volunteers at a shelter for families.", said, owner="Omar") == "supported"


def test_someone_elses_grandmother_is_not_the_owners() -> None:
    said = ("Priya", "Hi Omar! My grandfather moved into a care home last month.")
    fact = "Omar's grandfather moved into a care home."
    assert verdict(fact, said, owner="Omar", subject="Omar") == "unsupported"
    assert verdict("Priya's grandfather moved into a care home.", said, owner="Omar") == (
        "supported"
    )


def test_a_purpose_may_be_only_hoped() -> None:
    said = "I'm reading a book on pricing and hoping it gives me tips for my bakery."
    assert verdict("The owner is reading a book on pricing for bakery tips.", said) == ("supported")
    assert verdict("The owner's book on pricing gives the owner tips.", said) == "unsupported"


def test_a_word_of_a_compound_is_not_the_first_person() -> None:
    assert self_reference("Dana keeps some me-time each evening for reading.") is None
    assert self_reference("I keep some time each evening for reading.") is not None


def test_a_thing_named_only_inside_an_if_is_not_owned() -> None:
    said = "If I ever get a dog, I'd call it Biscuit."
    assert verdict("Owner has a dog named Biscuit", said) == "unsupported"
    # round 8: what the owner would do is a hypothetical, so no fact either (it was "supported"
    # until a real model stored "If the owner ever gets a dog, the owner would call it Biscuit")
    assert verdict("Owner would call a future dog Biscuit", said) == "unsupported"


def test_visiting_someone_is_what_the_owner_does() -> None:
    said = "My sister Ana lives in Porto; I'm visiting her in May."
    assert verdict("Owner is visiting sister Ana in Porto in May", said) == "supported"
    assert verdict("Owner lives in Porto", said) == "unsupported"


def test_a_name_the_next_clause_calls_my_friend_is_someone_the_owner_has() -> None:
    said = "I'm thinking of asking Priya, my friend from the choir, to read my essay."
    assert verdict("Priya is the owner's friend from the choir.", said) == "supported"
    assert verdict("The owner asked Priya to read the essay.", said) == "unsupported"


def test_what_a_who_clause_of_a_fact_says_is_about_those_people() -> None:
    said = "I just started volunteering at a clinic for families who lost their homes."
    fact = "The owner started volunteering at a clinic for families who lost their homes."
    assert verdict(fact, said) == "supported"
    assert verdict("The owner lost their home.", said) == "unsupported"


def test_what_since_explains_is_its_own_clause() -> None:
    said = "I bought the ebook for $4.99 since it's not in the library."
    assert verdict("The owner bought the ebook for $4.99.", said) == "supported"


def test_a_contrast_ends_where_after_begins() -> None:
    said = "I've already picked the Kona bike over the Trek after a test ride on April 9."
    assert verdict("The owner picked the Kona bike after a test ride on April 9.", said) == (
        "supported"
    )


def test_we_have_already_done_is_no_part_of_the_question_before_it() -> None:
    said = "Can you help me decide if it's worth it given we've already cut costs by 12%?"
    assert verdict("The owner's family cut costs by 12%.", said) == "supported"
    assert verdict("The owner decided it is worth it.", said) == "unsupported"


def test_the_owners_name_after_the_owner_is_the_owner() -> None:
    said = "I'm Dana Reyes, and I earn about $70,000 a year."
    assert verdict("The owner, Dana Reyes, earns about $70,000 a year.", said) == "supported"
    assert verdict("The owner, Dana Reyes, earns about $90,000 a year.", said) == "unsupported"


def test_a_name_s_before_my_says_is() -> None:
    said = "Green's my favourite colour, it calms me down."
    assert verdict("The owner's favourite colour is green.", said) == "supported"
    assert verdict("Lena's favourite colour is green.", said, owner="Max") != "supported"


def test_an_example_of_what_is_denied_is_denied() -> None:
    said = "I've never used a budgeting app, like Mint, so where do I start?"
    assert verdict("The owner uses Mint.", said) == "unsupported"
    assert verdict("The owner has never used a budgeting app like Mint.", said) == "supported"


def test_a_hedge_said_alone_doubts_the_clause_after_it() -> None:
    said = "I'll keep using Notion. Maybe, I'll look into Obsidian after the exams."
    assert verdict("The owner uses Notion and Obsidian.", said) == "unsupported"
    assert verdict("The owner uses Notion.", said) == "supported"


def test_a_plan_about_someone_says_they_exist_a_dream_of_them_does_not() -> None:
    said = "I'm planning to ask my neighbour Tomas to water the plants, he's always home."
    assert verdict("Tomas is the owner's neighbour.", said) == "supported"
    dream = "It's been my dream to have a daughter and teach her to sail."
    assert verdict("The owner has a daughter.", dream) == "unsupported"
    assert verdict("The owner dreams of having a daughter.", dream) == "supported"


def test_their_names_what_is_theirs_not_what_the_speaker_does() -> None:
    said = "I've started tutoring refugee kids and improving their reading skills."
    fact = "The owner started tutoring refugee kids and improving their reading skills."
    assert verdict(fact, said) == "supported"
    assert verdict("The owner improved her reading skills.", said) == "unsupported"
    assert verdict("The owner loves cooking.", "I love her cooking.") == "unsupported"


def test_stuck_between_two_is_no_choice_yet() -> None:
    said = "I'm stuck between two laptops for my studio, the Aero 14 and the Zen 15."
    assert verdict("The owner's laptop for the studio is the Aero 14.", said) == "unsupported"
    assert verdict("The owner is deciding between two laptops for the studio.", said) == (
        "supported"
    )


def test_the_owners_self_introduction_names_the_owner_when_kit_was_not_told() -> None:
    """With `owner.name` unset, "Hi! I'm Sam" makes a fact about Sam one about the owner; "I'm
    Happy to ..." introduces no one, and a name Kit was told is not overridden."""
    said = "Hi! I'm Sam, I teach math at a high school."
    assert verdict("Sam teaches math at a high school.", said) == "supported"
    assert verdict("Sam is a math teacher.", said) == "supported"
    assert verdict("Sam teaches physics.", said) == "unsupported"
    assert verdict("Sam teaches math.", "My name is Sam and I teach math.") == "supported"
    assert verdict("Sam teaches math.", "I'm Happy to say I teach math.") != "supported"
    assert verdict("Sam teaches math.", said, owner="Dana") != "supported"


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        # a real 1.5B model's `remember` calls (bench/real_model.py --full, 2026-11-29)
        (
            "Should the owner take up running or swimming this spring?",
            "Should I take up running or swimming this spring?",
        ),
        (
            "Remind the owner: where does the owner's sister live?",
            "Remind me: where does my sister live?",
        ),
    ],
)
def test_a_fact_worded_as_a_question_is_no_fact(fact: str, said: str) -> None:
    assert verdict(fact, said) == "unsupported"


# A real 1.5B model's curation (bench/real_model.py --full, 2026-11-29, round 8): the extract
# style listed the owner's words, Kit put them in the third person, and the guard stored these.
@pytest.mark.parametrize(
    ("fact", "said"),
    [
        (
            "If the owner ever gets a dog, the owner would call it Biscuit.",
            "If I ever get a dog, I'd call it Biscuit.",
        ),
        (
            "The owner would call their dog Biscuit if they got one.",
            "If I ever get a dog, I'd call it Biscuit.",
        ),
        ("The owner would call a dog Biscuit.", "If I ever get a dog, I'd call it Biscuit."),
        (
            "If the owner moved to Berlin, they might learn German.",
            "If I moved to Berlin I might learn German.",
        ),
    ],
)
def test_a_hypothetical_is_no_fact_even_with_its_condition_kept(fact: str, said: str) -> None:
    assert verdict(fact, said) == "unsupported"


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        ("The owner would like to visit Japan.", "I'd like to visit Japan someday."),
        ("The owner would rather have tea.", "I'd rather have tea, honestly."),
        ("The owner takes the bus if it rains.", "If it rains I take the bus."),
    ],
)
def test_a_wish_or_a_habit_with_if_is_still_a_fact(fact: str, said: str) -> None:
    assert verdict(fact, said) == "supported"


def test_a_chain_of_kin_must_be_said_as_a_chain() -> None:
    said = "My sister Ana moved to Porto last year; she teaches maths there."
    chain = "The owner's sister's sister lives in Porto last year; she teaches maths there."
    assert verdict(chain, said) == "unsupported"
    assert verdict("The owner's sister Ana moved to Porto last year.", said) == "supported"
    for message in (
        "My sister's husband lives in Porto.",
        "The husband of my sister lives in Porto.",
        "My sister and her husband live in Porto.",
    ):
        assert verdict("The owner's sister's husband lives in Porto.", message) == "supported"
