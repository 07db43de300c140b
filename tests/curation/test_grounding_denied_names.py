"""The grounding guard (issue 29): a name or a place said only where it is denied is no fact.
`I never made it to Denver` says no Denver trip; a fact that the owner went there rests on a
denial. It stays a fact where the fact denies it too, where another clause says it as so, and
where the denial only presupposes it (`I couldn't find the remote for my Sony TV`). Messages and
facts written here, none taken from a bench set."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

KEPT_OUT = [
    ("The owner went to Denver.", "I never made it to Denver last spring, flights cost too much."),
    ("The owner went to Denver.", "I didn't make it to Denver after all."),
    ("The owner visited Denver.", "Sadly I never got to Denver this year."),
    ("The owner met Priya for lunch.", "I couldn't meet Priya, she was sick all week."),
    ("The owner has been to Kyoto.", "I have never been to Kyoto, it's on my list."),
]  # fmt: skip


@pytest.mark.parametrize(("fact", "said"), KEPT_OUT)
def test_a_name_said_only_under_a_denial_is_no_fact(fact: str, said: str) -> None:
    """The Denver trips and Kyoto were stored on main: the name was taken as said in any
    clause, and `went`, `been` weigh next to nothing."""
    verdict = check(fact, said)
    assert verdict.status != "supported", verdict.reason


STORED = [
    ("The owner did not go to Denver.", "I didn't make it to Denver after all."),
    ("The owner has never been to Kyoto.", "I have never been to Kyoto, it's on my list."),
    ("The owner went to Denver.", "I didn't fly, I drove to Denver instead."),
    ("The owner went to Denver.", "I finally made it to Denver last week!"),
    ("The owner chose Nike over Adidas.", "I went with Nike, not Adidas."),
    (
        "The owner and Sam have been together for six years.",
        "I've never had an anniversary dinner with Sam, odd since we've been together six years.",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("fact", "said"), STORED)
def test_a_denied_fact_or_one_said_elsewhere_is_stored(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason
