"""The grounding guard's round 22C (issue 29): whose act a clause tells, and a detail changed.

- A person named (or "my <kin>") as the subject of a clause inside the owner's sentence ("...
  when Priya hosted a lunch", "since Tomas agreed to ...") did that, not the owner; a name's
  thing ("Marta's talk") is hers, not something the owner gave (kit/curator/named_subject.py).
- A word before a thing the message names with another word ("a coat drive" where it said "a
  boot drive") changes which one: dropped (kit/curator/swapped.py).
- A word with a capital inside it ("edX", "iPad") is a name, which the message must say.

Messages and facts written here; each case of KEPT_OUT was stored by main's guard; each case
of STORED pins that the reading takes nothing the messages do say."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

KEPT_OUT = [
    pytest.param(
        "The owner hosted a birthday lunch at the harbour cafe.",
        "We had a lovely afternoon at the harbour cafe when Priya hosted a birthday lunch.",
        id="a-named-subject-after-when",
    ),
    pytest.param(
        "The owner agreed to review the grant proposal before Friday.",
        "I'm relieved about the deadline, since Tomas agreed to review the grant proposal "
        "before Friday.",
        id="a-named-subject-after-since",
    ),
    pytest.param(
        "The owner repainted the garden shed last weekend.",
        "Last weekend was busy, especially after my older brother repainted the garden shed.",
        id="a-kin-subject-after-after",
    ),
    pytest.param(
        "The owner recommended the podcast about urban beekeeping.",
        "I've been hooked on the podcast about urban beekeeping, thanks to Marta's recommendation.",
        id="a-names-thing-is-hers",
    ),
    pytest.param(
        "The owner volunteered at a winter coat drive for families at the community centre.",
        "I volunteered at a winter boot drive for families at the community centre.",
        id="a-detail-swapped-on-a-thing",
    ),
    pytest.param(
        "The owner joined a weekly online reading circle about climate fiction at the library.",
        "I joined a weekly in-person reading circle about climate fiction at the library.",
        id="an-adjective-swapped-on-a-thing",
    ),
    pytest.param(
        "The owner finished a six-week data visualisation course on edX in the spring.",
        "I finished a six-week data visualisation course in the spring, it was great.",
        id="a-name-with-a-capital-inside",
    ),
]

STORED = [
    pytest.param(
        "Priya hosted a birthday lunch.",
        "We had a lovely afternoon at the harbour cafe when Priya hosted a birthday lunch.",
        id="the-named-subjects-act-is-hers",
    ),
    pytest.param(
        "The owner had a lovely afternoon at the harbour cafe.",
        "We had a lovely afternoon at the harbour cafe when Priya hosted a birthday lunch.",
        id="the-clause-before-stays-the-owners",
    ),
    pytest.param(
        "The owner went to Marta's talk on soil health.",
        "I went to Marta's talk on soil health at the allotment society.",
        id="a-names-thing-the-fact-gives-her",
    ),
    pytest.param(
        "The owner picked a 6 PM work call over Omar's 6:30 PM pottery class.",
        "I had to pick between Omar's 6:30 PM pottery class or a 6 PM work call: the call.",
        id="a-names-thing-with-a-time-in-it",
    ),
    pytest.param(
        "The owner volunteered at a winter boot drive for families.",
        "I volunteered at a winter boot drive for families at the community centre.",
        id="the-same-detail",
    ),
    pytest.param(
        "The owner finished a data visualisation course on edX.",
        "I finished a data visualisation course on edX in the spring.",
        id="a-name-with-a-capital-inside-said",
    ),
]


@pytest.mark.parametrize(("fact", "said"), KEPT_OUT)
def test_another_persons_act_or_a_changed_detail_is_kept_out(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


@pytest.mark.parametrize(("fact", "said"), STORED)
def test_what_the_message_says_is_still_stored(fact: str, said: str) -> None:
    assert check(fact, said).status == "supported"


def test_a_swapped_detail_is_dropped_naming_it() -> None:
    verdict = check(
        "The owner volunteered at a winter coat drive for families at the community centre.",
        "I volunteered at a winter boot drive for families at the community centre.",
    )
    assert verdict.status == "unsupported"
    assert "'coat drive'" in verdict.reason
