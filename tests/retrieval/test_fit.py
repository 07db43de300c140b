"""What a query says besides its words shapes the ranking: who it names, which days, and
whether it asks when. Each is a bounded factor on an item's relevance."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from kit.api import Kit
from kit.memory.messages import NewMessage
from kit.retrieval.query import named_speakers

pytestmark = pytest.mark.stores

NOW = datetime(2023, 8, 16, 12, 0, tzinfo=UTC)  # what "now" is for the queries below


def tune(kit: Kit, **changes: object) -> None:
    s = kit.services.search
    if "threshold" in changes:  # every layer's floor, the messages' too
        changes.setdefault("message_threshold", changes["threshold"])
    # recency off: scores are relevance times the fit alone
    s.params = dataclasses.replace(s.params, recency_boost=0.0, **changes)


async def load(kit: Kit, *turns: tuple[str, str, datetime], conversation: str = "x") -> None:
    await kit.import_messages(
        (NewMessage("user", text, at, speaker) for speaker, text, at in turns),
        conversation=conversation,
    )
    await kit.settle()


async def scores(kit: Kit, query: str, k: int = 15) -> dict[str, float]:
    hits = await kit.search(query, kinds=("message",), now=NOW, k=k)
    return {f"{h.message.speaker}: {h.text}" if h.message else h.text: h.score for h in hits}


def test_a_speaker_is_named_by_any_part_of_their_name_but_not_by_a_stopword() -> None:
    known = ["Ana Silva", "Ben", "Will", "Caroline"]
    assert named_speakers("What did ana say?", known) == {"Ana Silva"}
    assert named_speakers("Caroline's trip and Ben's car", known) == {"Caroline", "Ben"}
    assert named_speakers("what will you do", known) == frozenset()
    assert named_speakers("Benjamin called", known) == frozenset()  # whole words only


async def test_a_question_naming_a_speaker_weighs_the_others_turns_down(kit: Kit) -> None:
    day = datetime(2023, 5, 8, 10, tzinfo=UTC)
    await load(kit, ("Ana", "I adopted a greyhound", day))
    await load(kit, ("Ben", "I adopted a greyhound", day), conversation="y")
    tune(kit, other_speaker_weight=1.0)
    even = await scores(kit, "What did Ana adopt?")
    tune(kit, other_speaker_weight=0.6)
    weighed = await scores(kit, "What did Ana adopt?")
    ana, ben = "Ana: I adopted a greyhound", "Ben: I adopted a greyhound"
    assert weighed[ana] == pytest.approx(even[ana])
    assert weighed[ben] == pytest.approx(0.6 * even[ben])
    # naming nobody, or everybody, weighs nobody down
    for query in ("Who adopted a greyhound?", "Did Ana and Ben adopt a greyhound?"):
        weighed = await scores(kit, query)
        assert weighed == pytest.approx(await _with(kit, query, other_speaker_weight=1.0)), query
        tune(kit, other_speaker_weight=0.6)


async def test_a_turn_named_by_a_speaker_is_loaded_even_when_many_others_rank_above_it(
    kit: Kit,
) -> None:
    """The rows loaded for ranking reach as deep as the fit could lift an item."""
    day = datetime(2023, 5, 8, 10, tzinfo=UTC)
    await load(kit, *[("Ben", "the kayak lesson", day + timedelta(minutes=i)) for i in range(50)])
    await load(kit, ("Ana", "the kayak lesson", day), conversation="y")
    tune(kit, previous_weight=0.0, next_weight=0.0, threshold=1.1)  # words alone, all equal
    (best,) = await kit.search(
        "What did Ana say about the kayak lesson?", kinds=("message",), now=NOW, k=1
    )
    assert best.message is not None and best.message.speaker == "Ana"


async def test_items_dated_inside_a_span_the_query_names_count_more(kit: Kit) -> None:
    text = "we went kayaking"
    await load(
        kit,
        ("Ana", text, datetime(2023, 5, 20, tzinfo=UTC)),
        ("Ana", text + " again", datetime(2023, 6, 20, tzinfo=UTC)),
        ("Ana", text + " once more", datetime(2023, 7, 3, tzinfo=UTC)),  # 3 days after June
        ("Ana", text + " yet again", datetime(2023, 7, 20, tzinfo=UTC)),
    )
    # dates matched by date alone, so the words of "June" do not also count
    tune(kit, date_weight=0.0, dates_as_words="none")
    before = await scores(kit, "kayaking in June")
    tune(kit, date_weight=0.25, date_slack_days=7, dates_as_words="none")
    after = await scores(kit, "kayaking in June")
    ratio = {text: after[text] / before[text] for text in before}
    assert ratio == pytest.approx(
        {
            "Ana: we went kayaking": 1.0,
            "Ana: we went kayaking again": 1.25,
            "Ana: we went kayaking once more": 1.25,  # told soon after: inside the slack
            "Ana: we went kayaking yet again": 1.0,
        }
    )


async def test_a_day_written_as_29_dec_2022_is_that_day_not_the_whole_year(kit: Kit) -> None:
    """Issue 23: "29 Dec 2022" and "2022-12-29" were read as all of 2022, so every message
    of that year took the date factor."""
    text = "we cooked a big dinner"
    await load(
        kit,
        ("Ana", text, datetime(2022, 6, 1, tzinfo=UTC)),
        ("Ana", text + " again", datetime(2022, 12, 29, tzinfo=UTC)),
    )
    for question in ("What did Ana cook on 29 Dec 2022?", "What did Ana cook on 2022-12-29?"):
        tune(kit, date_weight=0.0, dates_as_words="none")
        before = await scores(kit, question)
        tune(kit, date_weight=0.25, date_slack_days=7, dates_as_words="none")
        after = await scores(kit, question)
        ratio = {t: after[t] / before[t] for t in before}
        assert ratio == pytest.approx(
            {"Ana: we cooked a big dinner": 1.0, "Ana: we cooked a big dinner again": 1.25}
        ), question


async def test_a_message_that_names_a_day_in_the_span_counts_as_dated_inside_it(
    kit: Kit,
) -> None:
    """Told weeks later ("last month", said on 20 July), June's kayaking is still June's."""
    await load(
        kit,
        ("Ana", "we went kayaking last month", datetime(2023, 7, 20, tzinfo=UTC)),
        ("Ana", "we went kayaking with Ben", datetime(2023, 7, 20, tzinfo=UTC)),
        ("Ana", "we went kayaking last week", datetime(2023, 7, 20, tzinfo=UTC)),
    )
    tune(kit, date_weight=0.0, dates_as_words="none")
    before = await scores(kit, "kayaking in June")
    tune(kit, date_weight=0.25, date_slack_days=7, dates_as_words="none")
    after = await scores(kit, "kayaking in June")
    ratio = {text: after[text] / before[text] for text in before}
    assert ratio == pytest.approx(
        {
            "Ana: we went kayaking last month": 1.25,
            "Ana: we went kayaking with Ben": 1.0,
            "Ana: we went kayaking last week": 1.0,  # 10-16 July: not June
        }
    )


async def test_a_questions_relative_day_is_matched_as_that_days_words(kit: Kit) -> None:
    """ "yesterday" in a question is the day before now, found by the messages written
    then; another message's own "yesterday" meant another day."""
    await load(
        kit,
        ("Ana", "pottery was fun", NOW - timedelta(days=1)),
        ("Ana", "pottery yesterday was fun", NOW - timedelta(days=40)),
        ("Ana", "pottery is fun", NOW - timedelta(days=20)),
    )
    tune(kit, dates_as_words="resolved", threshold=1.1, previous_weight=0.0, next_weight=0.0)
    resolved = await scores(kit, "pottery yesterday")
    assert max(resolved, key=resolved.__getitem__) == "Ana: pottery was fun"
    tune(kit, dates_as_words="all", threshold=1.1, previous_weight=0.0, next_weight=0.0)
    as_words = await scores(kit, "pottery yesterday")
    assert max(as_words, key=as_words.__getitem__) == "Ana: pottery yesterday was fun"


async def test_relative_dates_are_not_matched_as_words(kit: Kit) -> None:
    """ "last week" in a message meant the week before *that* message."""
    await load(
        kit,
        ("Ana", "last week was the pottery class", datetime(2023, 3, 1, tzinfo=UTC)),
        ("Ana", "pottery is fun", datetime(2023, 3, 2, tzinfo=UTC)),
    )
    tune(kit, dates_as_words="all", threshold=1.1, previous_weight=0.0, next_weight=0.0)
    as_words = await scores(kit, "pottery last week")
    tune(kit, dates_as_words="absolute", threshold=1.1, previous_weight=0.0, next_weight=0.0)
    by_date = await scores(kit, "pottery last week")
    assert as_words["Ana: last week was the pottery class"] > as_words["Ana: pottery is fun"]
    assert by_date["Ana: last week was the pottery class"] < by_date["Ana: pottery is fun"]


async def test_a_when_question_favours_the_turn_that_places_it_in_time(kit: Kit) -> None:
    day = datetime(2023, 5, 8, 10, tzinfo=UTC)
    await load(kit, ("Ana", "I went to the pottery class yesterday", day))
    await load(kit, ("Ana", "the pottery class was lovely", day), conversation="y")
    tune(kit, time_weight=0.0)
    even = await scores(kit, "When did Ana go to the pottery class?")
    tune(kit, time_weight=0.2)
    favoured = await scores(kit, "When did Ana go to the pottery class?")
    dated, undated = (
        "Ana: I went to the pottery class yesterday",
        "Ana: the pottery class was lovely",
    )
    assert favoured[dated] == pytest.approx(1.2 * even[dated])
    assert favoured[undated] == pytest.approx(even[undated])
    # the same words, not asking when: no factor
    assert await scores(kit, "What did Ana say about the pottery class?") == pytest.approx(
        await _with(kit, "What did Ana say about the pottery class?", time_weight=0.0)
    )


async def _with(kit: Kit, query: str, **changes: object) -> dict[str, float]:
    tune(kit, **changes)
    return await scores(kit, query)


async def test_turns_of_another_sitting_are_not_neighbours(kit: Kit) -> None:
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "a")
    day = datetime(2023, 5, 8, 10, tzinfo=UTC)
    first = await s.messages.add(conv, "user", "one", at=day)
    soon = await s.messages.add(conv, "user", "two", at=day + timedelta(hours=1))
    days_later = await s.messages.add(conv, "user", "three", at=day + timedelta(days=2))
    ids = [first.id, soon.id, days_later.id]
    links = await s.messages.neighbours("owner", ids, NOW, within=timedelta(hours=6))
    assert links == {
        first.id: (None, soon.id),
        soon.id: (first.id, None),
        days_later.id: (None, None),
    }
    unbounded = await s.messages.neighbours("owner", ids, NOW)
    assert unbounded[soon.id] == (first.id, days_later.id)


async def test_a_question_naming_a_kind_of_thing_weighs_up_turns_naming_one(kit: Kit) -> None:
    """ "Which country…" reaches "…Sweden": the instance counts `instance_weight` more."""
    day = datetime(2023, 5, 8, 10, tzinfo=UTC)
    sweden = "we talked about where I grew up: Sweden"
    seaside = "we talked about where I grew up: the seaside"
    await load(kit, ("Ana", sweden, day), ("Ana", seaside, day + timedelta(hours=1)))
    query = "Which country did Ana grow up in, as we talked about?"
    tune(kit, instance_weight=0.0)
    even = await scores(kit, query)
    tune(kit, instance_weight=0.5)
    weighed = await scores(kit, query)
    assert weighed[f"Ana: {sweden}"] == pytest.approx(1.5 * even[f"Ana: {sweden}"])
    assert weighed[f"Ana: {seaside}"] == pytest.approx(even[f"Ana: {seaside}"])
    # a question naming no kind of thing weighs nobody up
    plain = "Where did Ana grow up, as we talked about?"
    assert await scores(kit, plain) == pytest.approx(await _with(kit, plain, instance_weight=0.0))


async def test_a_question_asking_for_many_things_spreads_its_places_over_days(kit: Kit) -> None:
    """The best turns of a list question crowd one day; with `list_spread` each counts less
    for every better one from its day, and the other day's item moves up."""
    may, june = datetime(2023, 5, 8, 10, tzinfo=UTC), datetime(2023, 6, 9, 10, tzinfo=UTC)
    await load(
        kit,
        ("Jon", "which cities has Jon visited on a city trip: Rome", may),
        ("Jon", "cities Jon visited on a city trip, Rome again", may + timedelta(minutes=1)),
        ("Jon", "Jon visited cities on a city trip, so tired", may + timedelta(minutes=2)),
        ("Jon", "a city trip to Paris", june),
    )
    query = "Which cities has Jon visited on a city trip?"
    # by meaning alone (the same cosines on every store), neighbours aside
    plain = {
        "previous_weight": 0.0,
        "next_weight": 0.0,
        "lexical_weight": 0.0,
        "instance_weight": 0.0,
    }
    tune(kit, list_spread=0.0, **plain)
    before = list(await scores(kit, query))
    tune(kit, list_spread=0.5, **plain)
    after = list(await scores(kit, query))
    paris = "Jon: a city trip to Paris"
    assert before.index(paris) == 3, before
    assert after.index(paris) == 1, after  # after May's best, before its second
    # a question for one thing is ranked as before
    one = "What did Jon say about the city trip to Paris?"
    assert await scores(kit, one) == pytest.approx(await _with(kit, one, list_spread=0.0, **plain))


async def test_a_question_asking_for_many_things_keeps_more_messages(kit: Kit) -> None:
    """`list_k`: "what are all…" / "how many…" get more messages; other questions do not."""
    day = datetime(2023, 5, 8, 10, tzinfo=UTC)
    await load(
        kit, *((("Ana", f"I went hiking on trail {n}", day + timedelta(days=n))) for n in range(12))
    )
    tune(kit, list_k=2.0)
    search = kit.services.search
    assert search.k_for("How many times did Ana go hiking?", 5) == 10
    assert search.k_for("Where did Ana go hiking?", 5) == 5
    many = await kit.search("How many times did Ana go hiking?", kinds=("message",), now=NOW, k=5)
    one = await kit.search("Where did Ana go hiking?", kinds=("message",), now=NOW, k=5)
    assert (len(many), len(one)) == (10, 5)
    tune(kit, list_k=1.0)
    assert search.k_for("How many times did Ana go hiking?", 5) == 5
