"""The grounding guard's round 28A (issue 29): unsupported operations it still stored, by the
general shape of language that fooled it. (1) A place taken, a date set or an invitation
(`enrolled in`, `scheduled`, `signed up for`, `invited ... to`) says the act going on or to
come, not done (kit/curator/intended.py). (2) An act's own noun that another's possessive
opens (`Omar's recommendation`) is that one's act (kit/curator/whose_act.py). (3) How often
is a hard part: `daily` is no `three times a week` (kit/curator/how_often.py). (4) A fact
about one person of a chat resting only on another's words of themself
(kit/curator/other_speaker.py). (5) `look into` means an act, `I'll start by` arranges it, and
a phrasal verb's particle tells two acts apart (kit/curator/intended.py). Messages and facts
written here; each DROPPED case was stored by main's guard (8776196)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from kit.curator.grounding import Grounding, Verdict
from kit.curator.how_often import unsaid_frequency
from kit.curator.intended import unmet_act
from kit.curator.ops import Insert
from kit.curator.whose_amount import misgiven
from kit.curator.whose_number import misbound
from kit.curator.whose_role import misroled
from kit.memory.messages import Message
from tests.support.grounding import check

# (1) and (5): (the fact, the owner's message, the act said only as to come or meant)
SET_OR_MEANT = [
    (
        "The owner completed a pottery workshop on glazing.",
        "I've enrolled in a weekend pottery workshop on glazing, hoping to learn a lot.",
        "completed",
    ),
    (
        "The owner has interviewed two nannies.",
        "I've scheduled interviews with two nannies for Friday; what should I ask in these "
        "interviews?",
        "interviewed",
    ),
    (
        "The owner ran the city half marathon.",
        "I signed up for the city half marathon in October and I'm nervous.",
        "ran",
    ),
    (
        "The owner attended the neighbourhood quiz night.",
        "I got invited by Priya to a neighbourhood quiz night on Friday, not sure yet.",
        "attended",
    ),
    (  # (5) a frame of its own: looking into it
        "The owner has set up a standing order for the rent.",
        "I'll also look into setting up a standing order for the rent next month.",
        "set",
    ),
    (  # (5) "start by" arranges, and "setting aside" is another act than "set up"
        "The owner has set up a savings pot.",
        "I'll start by setting up a savings pot. Setting aside money each week is hard.",
        "set",
    ),
]


@pytest.mark.parametrize(("fact", "said", "act"), SET_OR_MEANT)
def test_an_act_set_or_looked_into_is_not_done(fact: str, said: str, act: str) -> None:
    assert unmet_act(fact, [said]) == act
    assert check(fact, said).status != "supported"


# A place taken says the act going on or to come; said as done elsewhere, it is done.
SET_LEFT = [
    (
        "The owner holds monthly team retrospectives.",
        "I've scheduled monthly team retrospectives for the rest of the year.",
    ),
    ("The owner is taking a pottery workshop.", "I've enrolled in a weekend pottery workshop."),
    (
        "The owner attended the quiz night.",
        "Priya invited me to the quiz night and I attended it with two friends.",
    ),
    ("The owner set up a budget.", "I set aside some money and set up a budget."),
    (  # an invitation the owner's part follows in other words is read as before
        "The owner attended the book club meeting.",
        "Ana invited me to the book club meeting, which was lovely.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), SET_LEFT)
def test_a_place_taken_or_an_act_said_elsewhere_is_left_alone(fact: str, said: str) -> None:
    assert unmet_act(fact, [said]) is None


# (2) another's act: (the fact, the owner's message, the act)
THEIRS = [
    (
        "The owner recommended the podcast to Omar.",
        "I binged the whole podcast last week thanks to Omar's recommendation.",
        "recommended",
    ),
    (
        "The owner recommended the hiking boots to Nadia.",
        "I bought the hiking boots on Nadia's recommendation and they fit well.",
        "recommended",
    ),
]


@pytest.mark.parametrize(("fact", "said", "act"), THEIRS)
def test_an_act_another_possesses_is_not_the_owners(fact: str, said: str, act: str) -> None:
    assert unmet_act(fact, [said]) == act
    assert check(fact, said).status != "supported"


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        ("Omar recommended the podcast to the owner.", THEIRS[0][1]),  # the possessor's own
        (
            "The owner recommended the podcast to Omar.",
            "I recommended the podcast to Omar after Omar's recommendation of a book.",
        ),
    ],
)
def test_the_possessors_own_act_or_one_said_as_done_is_left_alone(fact: str, said: str) -> None:
    assert unmet_act(fact, [said]) is None


# (3) how often
OFTEN = [
    ("The owner swims every day.", "I swim three times a week at the leisure centre.", "every day"),
    (
        "The owner volunteers at the food bank every week.",
        "I volunteer at the food bank once a month.",
        "every week",
    ),
    (
        "The owner saves $30 a month by cycling to work.",
        "Cycling to work saves me $30 weekly.",
        "30 a month",
    ),
]


@pytest.mark.parametrize(("fact", "said", "often"), OFTEN)
def test_how_often_another_unit_says_is_no_fact(fact: str, said: str, often: str) -> None:
    assert unsaid_frequency(fact, [said]) == often
    verdict = check(fact, said)
    assert verdict.status == "unsupported"  # main: stored or asked about
    assert f"'{often}'" in verdict.reason


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        ("The owner pays $90 a month for the gym.", "My gym is $90/month."),
        ("The owner walks the dog daily.", "I walk the dog every day before work."),
        ("The owner takes a 6-week evening course.", "It's a 6-week course, 2 evenings a week."),
        ("The owner swims every week.", "I go swimming at the lido."),  # no frequency said
    ],
)
def test_the_same_unit_or_none_said_is_left_alone(fact: str, said: str) -> None:
    assert unsaid_frequency(fact, [said]) is None


# (4) a chat of several people: the owner Ada, her friend Bea
def _said_by(speaker: str, text: str) -> Message:
    at = datetime(2024, 5, 6, 10, tzinfo=UTC)
    return Message(1, "o", 1, "user", speaker, text, at, date(2024, 5, 6), None, "chat")


def _checked(fact: str, speaker: str, text: str) -> Verdict:
    grounding = Grounding([_said_by(speaker, text)], [1], "Ada")
    return grounding.check(Insert(fact, 0.9, "", sources=(1,)), {})


OTHERS_OWN = [
    (
        "Ada got a cat named Pip.",
        "Bea",
        "Thanks for asking, they're good. We got another cat named Pip too.",
    ),
    ("Ada got a puppy named Pip.", "Bea", "We got a puppy named Pip last week!"),
    (
        "Bea feels that painting gives her a sense of calm.",
        "Ada",
        "Thanks, Bea. Painting gives me a sense of calm, and so do my friends.",
    ),
    ("Bea finds that painting gives her calm.", "", "Hey Bea! Painting gives me calm."),
]


@pytest.mark.parametrize(("fact", "speaker", "text"), OTHERS_OWN)
def test_a_speakers_words_of_themself_are_no_fact_of_another(
    fact: str, speaker: str, text: str
) -> None:
    verdict = _checked(fact, speaker, text)
    assert verdict.status == "unsupported"
    assert "someone else's words of themself" in verdict.reason


@pytest.mark.parametrize(
    ("fact", "speaker", "text"),
    [
        ("Ada adopted a rescue greyhound.", "Bea", "Congrats on adopting your greyhound, Ada!"),
        ("Ada adopted a rescue greyhound.", "Bea", "I heard Ada adopted a rescue greyhound."),
        ("Ada adopted a rescue greyhound.", "Ada", "I adopted a rescue greyhound last month!"),
        ("Ada adopted a rescue greyhound.", "", "I adopted a rescue greyhound last month!"),
        (  # a name an apposition follows is whom the sentence is about
            "Bea fixed the boiler in the owner's flat.",
            "",
            "Bea, my landlady, fixed the boiler in the flat on Monday.",
        ),
        (  # a name set off inside a sentence is whom it is about, not whom it addresses
            "Bea recommended a knife-skills class.",
            "",
            "I've got a friend, Bea, who recommended a knife-skills class.",
        ),
    ],
)
def test_words_to_or_of_the_person_or_their_own_are_left_to_the_guard(
    fact: str, speaker: str, text: str
) -> None:
    assert "words of themself" not in _checked(fact, speaker, text).reason


# (6) a number set off after another's name is theirs (kit/curator/whose_number.py)
NEIGHBOUR = "I have neighbours such as Farida, 52, whom I help on Sundays."


def test_a_number_bound_to_another_is_not_the_owners() -> None:
    assert misbound("The owner is 52.", [NEIGHBOUR]) is not None
    assert check("The owner is 52.", NEIGHBOUR).status == "unsupported"


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        ("The owner's neighbour Farida is 52.", NEIGHBOUR),
        ("The owner is 38.", "I'm 38 and my neighbour Farida, 52, helps me on Sundays."),
        (  # a word WordNet knows set off before a number is no person
            "The owner's app answers in 300 ms.",
            "My dashboard shows Latency, 300, and Errors, 2, for the app.",
        ),
    ],
)
def test_a_number_of_its_own_name_or_the_owners_own_is_left_alone(fact: str, said: str) -> None:
    assert misbound(fact, [said]) is None


# (7) a name that opens a fact is a name though no cited message says it
# (kit/curator/fact_terms.py): "Priya" is no word WordNet knows
UNSAID_NAME = [
    ("Priya lent the owner her camping stove.", "Joanne lent me her camping stove for the trip."),
    ("Priya's advice helped the owner choose a bike.", "Joanne's advice helped me choose a bike."),
]


@pytest.mark.parametrize(("fact", "said"), UNSAID_NAME)
def test_a_name_opening_a_fact_must_be_said(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "unsupported"
    assert "'Priya" in verdict.reason


def test_a_name_opening_a_fact_that_is_said_is_stored() -> None:
    said = "Priya lent me her camping stove for the trip."
    assert check("Priya lent the owner her camping stove.", said).status == "supported"


# (8) a person word set next to a name is that one's role (kit/curator/whose_role.py)
ROLES = [
    (
        "Kofi, the owner's electrician, fixed the leak under the sink.",
        "The leak under the sink is fixed, which plumber Kofi sorted out on Tuesday.",
    ),
    (
        "The owner's new dentist Mirela moved the check-up to Friday.",
        "I just heard from my new hygienist Mirela that the check-up moved to Friday.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), ROLES)
def test_a_name_given_another_role_is_no_fact(fact: str, said: str) -> None:
    assert misroled(fact, [said]) is not None
    assert check(fact, said).status == "unsupported"  # main: asked about


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        ("The owner's plumber Kofi fixed the leak.", "Kofi, my plumber, fixed the leak."),
        ("Kofi fixed the leak.", "My plumber Kofi fixed the leak."),
        ("The owner's plumber Kofi fixed the leak.", "Kofi fixed the leak."),  # no role said
    ],
)
def test_the_same_role_or_none_is_left_alone(fact: str, said: str) -> None:
    assert misroled(fact, [said]) is None


# (9) a number said of one thing is not said of another (kit/curator/whose_amount.py);
# each stored by main
SPLITS = "For the move I set aside $900 for the van hire and $400 for packing boxes."
AMOUNTS = [
    ("The owner set aside $900 for packing boxes.", SPLITS),
    (
        "The owner's will leaves 30% of the estate to their nephew.",
        "I've split my estate: 30% to Marguerite, 15% to my nephew, and the rest to charity.",
    ),
    (
        "The owner's party food budget is $60.",
        "I'm bringing a $60 bottle of wine as a gift, and my food budget of $200 for the "
        "party is already tight.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), AMOUNTS)
def test_a_number_given_to_another_thing_is_no_fact(fact: str, said: str) -> None:
    assert misgiven(fact, [said]) is not None
    assert check(fact, said).status == "unsupported"


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        ("The owner set aside $400 for packing boxes.", SPLITS),
        ("The owner's rent is $1,200.", "My rent was $1,100 and went up to $1,200 this month."),
        ("The owner pays $1,100 for rent.", "My rent is $1,100, and $90 for the gym."),
        (  # counts of one thing are no swap
            "The owner plans to read 900 pages by June, about 40 pages a day.",
            "My goal is to finish 900 pages by June, averaging 40 pages daily.",
        ),
    ],
)
def test_a_number_of_its_own_thing_or_a_change_is_left_alone(fact: str, said: str) -> None:
    assert misgiven(fact, [said]) is None


# (10) a name written in mixed case is a name (kit/curator/fact_terms.py); main asked
def test_a_mixed_case_name_must_be_said() -> None:
    verdict = check("The owner sold the bike on eBay.", "I sold the bike on Gumtree last week.")
    assert verdict.status == "unsupported"
    assert "'eBay'" in verdict.reason
    assert check("The owner sold the bike on eBay.", "I sold the bike on eBay.").status == (
        "supported"
    )


# (11) `that` right after a frame points at what it governs (kit/curator/intended.py); main
# stored the first
@pytest.mark.parametrize(
    ("fact", "said", "act"),
    [
        (
            "The owner took the consulting job in Leeds.",
            "I keep thinking about turning down that offer for the consulting job in Leeds.",
            "took",
        ),
        (
            "The owner joined the rowing club.",
            "I regret declining that invitation to the rowing club.",
            "joined",
        ),
    ],
)
def test_a_frame_reaches_through_that(fact: str, said: str, act: str) -> None:
    assert unmet_act(fact, [said]) == act
    assert check(fact, said).status != "supported"


def test_that_opening_a_clause_still_ends_what_a_frame_governs() -> None:
    said = "I turned down that offer from Leeds, but I accepted the job in York."
    assert unmet_act("The owner accepted the job in York.", [said]) is None


# (12) a verb whose subject is another's name is that one's act (kit/curator/whose_act.py);
# main stored the first
@pytest.mark.parametrize(
    ("fact", "said", "act"),
    [
        (
            "The owner recommended the 'Deep Cuts' podcast to their colleague Yusuf.",
            "I'm looking for a new podcast to try, and my old colleague Yusuf recommended the "
            '"Deep Cuts" podcast on Monday, so I\'m considering that',
            "recommended",
        ),
        (
            "The owner suggested moving the stand-up to 10am.",
            "Our team lead Rafa suggested moving the stand-up to 10am, and it works for me.",
            "suggested",
        ),
    ],
)
def test_an_act_another_named_does_is_not_the_owners(fact: str, said: str, act: str) -> None:
    assert unmet_act(fact, [said]) == act
    verdict = check(fact, said)
    assert verdict.status == "unsupported"


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        (
            "Rafa suggested moving the stand-up to 10am.",
            "Our team lead Rafa suggested moving the stand-up to 10am.",
        ),
        ("The owner was hired by Northwind in May.", "Back in May Northwind hired me."),
        (
            "The owner and Megan recommended the series to the club.",
            "Megan and I recommended the series to the club.",
        ),
    ],
)
def test_the_doers_own_act_or_one_done_by_them_is_left_alone(fact: str, said: str) -> None:
    assert unmet_act(fact, [said]) is None


def test_a_month_or_a_word_before_the_act_is_no_one_doing_it() -> None:
    said = "Ines shared notes from her June 3 meeting with Harbour Trust's board, very useful."
    assert unmet_act("Ines met Harbour Trust's board on 3 June.", [said]) is None
