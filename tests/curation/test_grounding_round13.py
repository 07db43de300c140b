"""The grounding guard's round thirteen (issue 29): what a hedged sentence still states. A hedge
governs its own verb, not what the clause takes as given: a definite description
(`thinking of joining the May 4 choir rehearsal at St Anne's Hall`: the rehearsal, its day,
its place), the subject a modal is said of (`the spare $300 would help`), and what is named
inside an embedded question (`wondering if I should mention my quarrel with landlord Pietro
from May 2`). The verb the hedge governs stays unsaid. Messages and facts written here."""

from __future__ import annotations

from kit.curator.clauses import clauses
from kit.curator.wording import fold
from tests.support.grounding import check

REHEARSAL = (
    "I'm thinking of joining the May 4 choir rehearsal at St Anne's Hall, but I'm not sure "
    "my voice is ready."
)


def test_a_definite_description_in_a_plan_is_said() -> None:
    """The plan is to join; the rehearsal on May 4 at St Anne's Hall is so."""
    assert check("There is a choir rehearsal on May 4 at St Anne's Hall.", REHEARSAL).status == (
        "supported"
    )


def test_the_verb_a_plan_governs_stays_unsaid() -> None:
    """Joined is not thinking of joining: kept out, on the old code and the new."""
    assert check(
        "The owner joined the choir rehearsal at St Anne's Hall on May 4.", REHEARSAL
    ).status != ("supported")


def test_a_supposition_presupposes_nothing() -> None:
    """An "if" does not say there is a grant, nor that one was got."""
    said = "If I get the $5,000 arts grant in June, I'll buy a kiln."
    assert check("The owner got a $5,000 arts grant in June.", said).status != "supported"
    assert check("There is a $5,000 arts grant in June.", said).status != "supported"


def test_the_subject_a_modal_is_said_of_is_said() -> None:
    """`The spare $300 would help`: the $300 is there; what it would do is not."""
    said = "The spare $300 from my tax refund would help with the car repair, honestly."
    assert check("The owner has a spare $300 from their tax refund.", said).status == "supported"
    assert check("The spare $300 helped with the car repair.", said).status != "supported"


def test_an_embedded_question_is_no_supposition() -> None:
    """ "wondering if I should mention ..." asks whether to mention the quarrel; the quarrel
    with Pietro on May 2 is so (a phrase after "my" goes on through "with" and "from" to a
    name or a day)."""
    said = (
        "I'm wondering if I should mention my quarrel with landlord Pietro from May 2 about "
        "the heating when I call the agency."
    )
    assert check("The owner had a quarrel with landlord Pietro on May 2.", said).status == (
        "supported"
    )
    assert check("The owner mentioned the quarrel with Pietro to the agency.", said).status != (
        "supported"
    )


def test_a_request_is_no_supposition() -> None:
    """ "Could you ..." asks for something, it supposes nothing: the book club meeting is
    there; the conversion is not done."""
    said = "Could you convert the book club meeting time to Lisbon time for me."
    club = [c for c in clauses(said) if "club" in fold(said)[c.start : c.end]]
    assert club and all("club" in c.given and c.supposed for c in club)


def test_a_questions_descriptions_are_not_given() -> None:
    """A fact that answers a question says its words ("were the games a hit at the Friday
    game night?"): what a question names stays asked (measured: read as given, it stored
    false facts on the unseen sets and no supported one more)."""
    said = "Which games did Omar bring to the Friday game night, and were they a hit?"
    assert all("night" not in c.given for c in clauses(said))
    assert check("Omar's games were a hit at the Friday game night.", said).status != ("supported")


def test_a_determiner_before_a_pronoun_opens_no_description() -> None:
    """ "Is this your own bike?": `this` is the subject; nothing is given as the owner's."""
    said = "Is this your own bike?"
    assert all("bike" not in c.given for c in clauses(said))
    assert check("The owner rides their own bike.", said).status != "supported"


def test_an_inverted_question_after_and_stays_a_question() -> None:
    """ "..., and were they happy with the menu?": `were` never ends a clause, so `they happy
    with the menu` is asked, not said."""
    said = "Which dishes did Omar cook for the dinner party, and were they happy with the menu?"
    folded = fold(said)
    menu = [c for c in clauses(said) if "menu" in folded[c.start : c.end]]
    assert menu and all(c.hedged for c in menu)


def test_a_dot_inside_a_word_ends_no_sentence() -> None:
    """ "... my build scripts on Fly.io?": one question, not a sentence ending at `Fly.`."""
    said = "Once I have SSL set up, should I change my build scripts on Fly.io?"
    folded = fold(said)
    fly = [folded[c.start : c.end] for c in clauses(said) if "Fly" in folded[c.start : c.end]]
    assert fly and all("io" in piece for piece in fly)
