"""The grounding guard's round nineteen (issue 29): a denial does not govern what "my ..."
presupposes (kit/curator/denied.py `spared`, reading kit/curator/clauses.py's `given`).
Messages and facts written here, none taken from a bench set."""

from __future__ import annotations

from tests.support.grounding import check


def test_what_follows_the_denial_stays_denied() -> None:
    """`I don't keep a sourdough starter`: no starter (a denial turned into a fact stays out)."""
    said = "I don't keep a sourdough starter in my tiny kitchen."
    assert check("The owner keeps a sourdough starter.", said).status != "supported"


def test_a_plain_denial_is_still_a_denial() -> None:
    said = "I didn't ride 80 km on Sunday, not even close."
    assert check("The owner rode 80 km on Sunday.", said).status != "supported"


def test_what_my_names_is_so_under_a_denial() -> None:
    """`I couldn't find the remote for my old projector`: there is an old projector; the
    remote was not found."""
    said = "I couldn't find the remote for my old projector anywhere this morning."
    assert check("The owner has an old projector.", said).status == "supported"
    assert check("The owner found the remote.", said).status != "supported"


def test_a_denial_of_having_governs_what_my_names() -> None:
    """`I don't have my old van anymore`: no van now."""
    said = "I don't have my old van anymore."
    assert check("The owner has an old van.", said).status != "supported"


def test_have_that_helps_another_verb_is_no_denial_of_having() -> None:
    """`might not have liked my final draft`: the draft is so (`have` helps `liked`)."""
    said = "I worry my editor might not have liked my final draft of the novel."
    assert check("The owner has a final draft of the novel.", said).status == "supported"
