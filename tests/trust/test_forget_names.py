"""`kit forget --person`: a name is matched as a name (whole words, as capitalised), never as
letters inside other words or as the same word in another sense."""

from __future__ import annotations

import unicodedata

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.forget.forgetter import Forgetter
from kit.forget.scope import ForgetScope, scrub_text
from kit.memory.fact_writer import FORGOTTEN, Provenance

pytestmark = pytest.mark.stores


def matches(name: str, text: str) -> bool:
    return ForgetScope.named(name).names().in_text(text)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("Will", "Will's bike is red"),
        ("Will", "Lunch with Will."),
        ("Al", "Al called about the boat"),
        ("May", "Dinner with May tonight"),
        ("May", "May called, she is in Lisbon"),
        ("ana", "Ana called"),  # all lowercase: any capitalisation
        ("ana", "ANA CALLED"),
        ("Zoë", "Zoë's birthday"),
        ("Zoë", unicodedata.normalize("NFD", "Zoë's birthday")),  # decomposed accents
        ("José", "Dinner with José"),
        ("Jose", "Dinner with José"),  # written without the accent
        ("Łukasz", "Łukasz wrote back"),
        ("łukasz", "Łukasz wrote back"),
        ("Ana Lopes", "Met Ana  Lopes at work"),
        ("Ana Lopes", "Met Ana\nLopes"),
        ("O'Brien", "Tea with O'Brien"),
    ],
)
def test_the_name_is_found_where_it_is_a_name(name: str, text: str) -> None:
    assert matches(name, text)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("Will", "I will go tomorrow"),
        ("Al", "Pasta al dente"),
        ("May", "We met in May"),
        ("May", "It may rain"),
        ("May", "Booked for May 3rd"),
        ("May", "Since mid-May the gym is closed"),
        ("May", "Due on 12 May"),
        ("Ana", "Banana bread"),
        ("Ana", "ANA CALLED"),  # capitalised as given: shouting is not the name
        ("Zoë", "Zoe called"),
        ("Ana Lopes", "Ana called"),  # a full name matches in full
        ("Jan", "Janet called"),
    ],
)
def test_the_name_is_not_found_in_other_words_or_other_senses(name: str, text: str) -> None:
    assert not matches(name, text)


def test_the_speaker_field_matches_in_any_case() -> None:
    names = ForgetScope.named("Will").names()
    assert names.in_speaker("will") and names.in_speaker("Will Smith")
    assert not names.in_speaker("") and not names.in_speaker("Willow")


def test_scrub_keeps_lines_and_sentences_that_do_not_name_the_person() -> None:
    ana = ForgetScope.named("Ana").names()
    text = "- Ana called\n- Banana bread\nWe met. Ana's dog barked! Then rain.\n- ANA-related"
    assert scrub_text(text, ana) == "- Banana bread\nWe met. Then rain.\n- ANA-related"
    assert (
        scrub_text(text, ForgetScope.named("ana").names()) == "- Banana bread\nWe met. Then rain."
    )


async def test_forgetting_will_keeps_every_will_that_is_not_him(kit: Kit, clock: FakeClock) -> None:
    """The issue's case: `--person Will` took "I will go..." with it."""
    s = kit.services
    chat = await s.messages.conversation("owner", "api", "c")
    going = await s.messages.add(chat, "user", "I will go to the gym tomorrow.")
    him = await s.messages.add(chat, "user", "Will's birthday is on 3 May.")
    spoken = await s.messages.add(chat, "user", "Happy to help!", speaker="will")
    pasta = await s.messages.add(chat, "user", "We met in May and ate pasta al dente.")
    gym = await s.facts.add(
        "owner",
        category="workflows",
        content="The owner will train at the gym on Tuesdays.",
        provenance=Provenance("curator", "", None, (going.id,)),
    )
    report = await Forgetter(s.db, s.tz, s.forget_ledger).forget(
        "owner", ForgetScope.named("Will"), now=clock.now()
    )
    assert report.messages_removed == 2
    kept = {m.id for m in await s.messages.span(chat.id, 0, limit=10)}
    assert kept == {going.id, pasta.id} and him.id not in kept and spoken.id not in kept
    assert (await s.facts.get("owner", gym.id)).content != FORGOTTEN
