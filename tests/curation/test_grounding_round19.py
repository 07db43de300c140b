"""The grounding guard's round nineteen (issue 29): what a denial governs
(kit/curator/negation_scope.py, read by kit/curator/clauses.py and kit/curator/judge.py).
Messages and facts written here, none taken from a bench set."""

from __future__ import annotations

from kit.curator.clauses import clauses
from kit.curator.wording import fold
from tests.support.grounding import check


def _denials(said: str) -> dict[str, bool]:
    folded = fold(said)
    return {folded[c.start : c.end].strip(" .?,!"): c.negated for c in clauses(said)}


def test_a_denial_does_not_govern_its_subject() -> None:
    """`Keeping a sourdough starter alive isn't simple`: the starter is kept; only its being
    simple is denied."""
    said = "Keeping a sourdough starter alive isn't simple in my tiny kitchen."
    assert check("The owner keeps a sourdough starter.", said).status == "supported"


def test_what_follows_the_denial_stays_denied() -> None:
    """`I don't keep a sourdough starter`: no starter (a denial turned into a fact stays out)."""
    said = "I don't keep a sourdough starter in my tiny kitchen."
    assert check("The owner keeps a sourdough starter.", said).status != "supported"


def test_a_denied_verb_of_lacking_asserts_its_object() -> None:
    """`I never miss my Thursday pottery class`: there is a Thursday pottery class."""
    said = "I never miss my Thursday pottery class at the community center."
    assert check("The owner takes a Thursday pottery class.", said).status == "supported"


def test_the_denied_verb_of_lacking_itself_stays_denied() -> None:
    """... but the owner does not miss it."""
    said = "I never miss my Thursday pottery class at the community center."
    assert check("The owner misses the Thursday pottery class.", said).status != "supported"


def test_phrases_that_add_rather_than_deny() -> None:
    """`not to mention`, `not just`, `couldn't be happier`, `can't believe`, `no matter`: no
    denial of what they say."""
    said = (
        "I couldn't be happier with the new bike, not to mention the saddle. "
        "It's not just for commuting. No matter the weather, I ride it. "
        "I can't believe I rode 80 km on Sunday."
    )
    found = _denials(said)
    assert not any(found.values()), found
    assert check("The owner rode 80 km on Sunday.", said).status == "supported"


def test_a_plain_denial_is_still_a_denial() -> None:
    said = "I didn't ride 80 km on Sunday, not even close."
    assert check("The owner rode 80 km on Sunday.", said).status != "supported"


def test_a_denial_governs_the_related_forms_of_its_words() -> None:
    """`This jacket isn't for sale`: the jacket is said, but not that anyone sells it (the
    subject spared, the denied predicate still holds a related form of the fact's verb)."""
    said = "Thanks! This leather jacket isn't for sale, it's from my own wardrobe."
    assert check("The owner sells the leather jacket.", said).status != "supported"


def test_what_my_names_is_so_under_a_denial() -> None:
    """`I couldn't find the remote for my old projector`: there is an old projector; the
    remote was not found."""
    said = "I couldn't find the remote for my old projector anywhere this morning."
    assert check("The owner has an old projector.", said).status == "supported"
    assert check("The owner found the remote.", said).status != "supported"


def test_a_choice_not_yet_made_is_a_doubt_not_a_denial() -> None:
    """`haven't decided whether to take the job in Lyon`: the owner is weighing it, so a fact
    that says so is supported; that the job was taken is not."""
    said = "I haven't decided whether to take the job offer in Lyon."
    assert check("The owner is considering a job offer in Lyon.", said).status == "supported"
    assert check("The owner took the job offer in Lyon.", said).status != "supported"
