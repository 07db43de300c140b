"""A past message's relative dates reach the model with the days they mean ("yesterday (= Sunday
7 May 2023)"), in the context and in `search_memory`'s results: run 7's 1.5B answered 9 of 16
"When did…?" questions with the date of the message that told of it (docs/measurements.md)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.dates.shown import with_days_shown
from kit.llm.base import ToolResult, ToolUse
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage

MONDAY = date(2023, 5, 8)


@pytest.mark.parametrize(
    ("said", "shown"),
    [
        ("I went to a support group yesterday.", "yesterday (= Sunday 7 May 2023)."),
        ("Last Friday I took my kids out", "Last Friday (= Friday 5 May 2023) I took"),
        ("my school event last week was", "last week (= 1 – 7 May 2023) was"),
        ("camping next month", "next month (= June 2023)"),
        ("a book I read last year", "last year (= 2022)"),
        ("a conference two days ago", "two days ago (= Saturday 6 May 2023)"),
        ("a bowl for my 18th birthday ten years ago", "ten years ago (= about 2013)"),
        ("a few days ago we met", "a few days ago (= about Friday 5 May 2023) we"),
    ],
)
def test_a_relative_date_is_followed_by_the_days_it_means(said: str, shown: str) -> None:
    assert shown in with_days_shown(said, MONDAY)


@pytest.mark.parametrize(
    "said",
    [
        "We met on 14 June 2022 in Porto.",  # an absolute date is left as it was said
        "I'm tired today.",  # the message's own day: its line shows that date already
        "I've known these friends for 4 years.",  # a duration names no day
        "Nothing about time at all.",
    ],
)
def test_text_without_a_relative_date_elsewhere_is_left_as_it_was(said: str) -> None:
    assert with_days_shown(said, MONDAY) == said


@pytest.fixture
def clock() -> FakeClock:
    """The questions are asked months after the messages, as LoCoMo's are."""
    return FakeClock(datetime(2023, 10, 22, 9, 55, tzinfo=UTC))


@pytest.fixture
async def said(kit: Kit) -> Kit:
    at = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    await kit.import_messages(
        [
            NewMessage("user", "I went to a LGBTQ support group yesterday; so powerful.", at),
            NewMessage("user", "Melanie signed up for a pottery class.", at + timedelta(days=30)),
        ],
        conversation="conv",
    )
    await kit.settle()
    return kit


async def test_the_context_shows_a_months_old_yesterday_as_its_day(said: Kit) -> None:
    """Asked on 22 October, the 8 May message's "yesterday" is 7 May: neither the message's own
    date nor the day before the question."""
    plan = await said.context("When did I go to the LGBTQ support group?")
    text = "\n".join(block.text for block in plan.system)
    (line,) = [x for x in text.splitlines() if "support group" in x and x.startswith("- 2023")]
    assert line == (
        "- 2023-05-08 13:56 user: I went to a LGBTQ support group yesterday "
        "(= Sunday 7 May 2023); so powerful."
    )


async def test_search_memory_shows_a_relative_date_with_its_day(
    said: Kit, fake_llm: FakeLLM
) -> None:
    fake_llm.queue(ToolUse("call-1", "search_memory", {"query": "support group"}), "7 May.")
    await said.send("When did I go to the support group?")
    (result,) = [b for b in fake_llm.requests[-1].messages[-1].content if isinstance(b, ToolResult)]
    assert "yesterday (= Sunday 7 May 2023)" in result.content
