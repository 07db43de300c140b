"""Daily summaries: what the model is shown, what is stored, and bad output at every turn."""

from __future__ import annotations

import logging
from datetime import date

import pytest

from kit.api import Kit
from kit.errors import LLMUnavailable, NotFound
from kit.jobs.runs import JobBusy
from kit.llm.base import LLMReply, TextBlock
from kit.llm.fake import FakeLLM
from tests.support.rem import bullets, chat_on, job_message

pytestmark = pytest.mark.stores

SAT, SUN, MON = date(2026, 2, 28), date(2026, 3, 1), date(2026, 3, 2)  # the clock is Mon 09:00


async def test_summary_stores_bullets_and_counts_messages_without_job_output(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    await chat_on(kit, SUN, "Let's plan the Lisbon trip", "Sure: flights first?", "Book TAP")
    await job_message(kit, SUN, "REM report: 3 days condensed")
    fake_llm.queue("Here is the summary:\n## Worked on\n- Planned the Lisbon trip\n## Decided\n"
                   "* [10:02] Fly with TAP\n## Open\n")  # fmt: skip

    day = await kit.services.summarizer.summarize_day("owner", SUN)

    assert (
        day.detailed
        == "## Worked on\n- Planned the Lisbon trip\n## Decided\n- [10:02] Fly with TAP"
    )
    assert day.message_count == 3 and day.condensed == ""
    (request,) = fake_llm.requests_for("daily_summary")
    prompt = request.messages[0].content[0].text  # type: ignore[union-attr]
    assert request.model == kit.settings.llm.small_model
    assert "2026-03-01 (Sunday)" in prompt and "3 messages" in prompt
    assert "[10:02] Owner: Book TAP" in prompt and "[10:01] Kit: Sure: flights first?" in prompt
    assert "REM report" not in prompt
    assert "$" not in prompt


async def test_pending_days_are_past_days_with_messages_and_no_or_outdated_summary(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    s = kit.services.summarizer
    await chat_on(kit, SAT, "saturday")
    await chat_on(kit, SUN, "sunday")
    await chat_on(kit, MON, "monday so far")
    await job_message(kit, date(2026, 2, 27), "only a job wrote on friday")
    assert await s.pending("owner", MON) == [SAT, SUN]
    assert await s.pending("owner", MON, include_today=True) == [SAT, SUN, MON]

    fake_llm.default = "- a bullet"
    assert await s.summarize_pending("owner", MON) == [SAT, SUN]
    assert await s.pending("owner", MON) == []
    # A late message on Sunday makes its summary outdated: it is written again.
    await chat_on(kit, SUN, "one more", "and another")
    assert await s.pending("owner", MON) == [SUN]


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        ("", "came back empty"),
        ("I'm sorry, but I can't summarise these messages.", "refusal"),
        ("The owner talked about a trip and decided to fly.", "no bullet points"),
        (LLMReply((TextBlock("- a\n- b"),), "max_tokens"), "cut off"),
        (bullets(81), "81 bullets"),
    ],
)
async def test_bad_summary_output_is_not_stored_and_retried_next_run(
    kit: Kit, fake_llm: FakeLLM, reply: str | LLMReply, why: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="kit.curator.summaries")  # the daemon's log level
    s = kit.services.summarizer
    await chat_on(kit, SUN, "hello")
    fake_llm.queue(reply)

    run = await s.manual("owner", MON)

    assert run.written == [] and run.rejected[0][0] == SUN and why in run.rejected[0][1]
    assert await kit.day(SUN) is None
    assert why in caplog.text
    fake_llm.queue("- Said hello")
    assert (await s.manual("owner", MON)).written == [SUN]
    assert (await kit.day(SUN)).detailed == "- Said hello"  # type: ignore[union-attr]


async def test_unreachable_model_stops_the_round_keeping_days_already_written(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    await chat_on(kit, SAT, "a")
    await chat_on(kit, SUN, "b")
    fake_llm.queue("- saturday", LLMUnavailable("the API is down"))
    with pytest.raises(LLMUnavailable):
        await kit.services.summarizer.summarize_pending("owner", MON)
    assert (await kit.day(SAT)) is not None and (await kit.day(SUN)) is None


async def test_a_secret_repeated_in_the_summary_is_withheld_and_the_rest_kept(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    await chat_on(
        kit, SUN, "my api key is sk-abcdefghijklmnopqrstuv, keep it", "Noted.",
        "the gate code for Ana's building is 4711", "Got it.",
        "Das WLAN-Passwort lautet Hausboot77",
    )  # fmt: skip
    fake_llm.queue(
        "- Owner shared sk-abcdefghijklmnopqrstuv for the weather bot\n"
        "- [10:02] The gate code for Ana's building is 4711\n"
        "- Das WLAN-Passwort lautet Hausboot77\n"
        "- Planned the week"
    )
    day = await kit.services.summarizer.summarize_day("owner", SUN)
    assert day.detailed == (
        "- Owner shared [secret withheld] for the weather bot\n"
        "- [10:02] The gate code for Ana's building is [secret withheld]\n"
        "- Das WLAN-Passwort lautet [secret withheld]\n"
        "- Planned the week"
    )


async def test_summarising_a_day_without_messages_says_so(kit: Kit) -> None:
    with pytest.raises(NotFound, match="no messages"):
        await kit.services.summarizer.manual("owner", MON, SUN)


async def test_day_end_covers_every_user_through_the_scheduled_day(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    """At 23:55 on Sunday: Sunday itself is summarised; Monday's messages are not touched."""
    from tests.support.rem import at

    await chat_on(kit, SUN, "owner on sunday")
    await chat_on(kit, SUN, "ana on sunday", user="ana")
    await chat_on(kit, MON, "owner on monday")
    fake_llm.default = "- something happened"
    run = await kit.services.summarizer.day_end(at(MON, 9), scheduled_for=at(SUN, 23, 55))
    assert sorted(run.written) == [SUN, SUN]
    assert await kit.day(SUN, user="ana") is not None and await kit.day(MON) is None
    (last,) = await kit.services.job_runs.recent("daily_summary", 1)
    assert last.status == "ok" and last.scheduled_for == at(SUN, 23, 55)


async def test_manual_summary_is_refused_while_the_day_end_job_runs(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    await chat_on(kit, SUN, "hi")
    runs = kit.services.job_runs
    async with runs.lease("daily_summary", label="the daily summary"):
        with pytest.raises(JobBusy, match="the daily summary is already running"):
            await kit.services.summarizer.manual("owner", MON)
    assert fake_llm.requests == []


async def test_a_summary_line_naming_what_no_message_said_is_left_out(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    """The 0.5B run's summary of a chat day about search invented a hospital: a line whose
    name, number or date no message of the day says is left out, with why; the rest stays."""
    await chat_on(
        kit, SUN, "I'm building a search tool for my notes in Python.",
        "Nice: which database?", "SQLite, and I want it done by 14 March.",
    )  # fmt: skip
    fake_llm.queue(
        "## Worked on\n"
        "- Built a search tool for notes in Python with SQLite\n"
        "- Worked on a search memory application for St James's hospital\n"
        "## Decided\n"
        "- Finish by 14 March\n"
        "- Budget of 2,000 pounds for the servers\n"
        "- Ship it on 30 April\n"
        "## Invented\n"
        "- Met Dr Okafor at 09:00\n"
    )
    run = await kit.services.summarizer.summarize_many("owner", [SUN])

    day = await kit.day(SUN)
    assert day is not None
    assert day.detailed == (
        "## Worked on\n- Built a search tool for notes in Python with SQLite\n"
        "## Decided\n- Finish by 14 March"
    )
    assert run.dropped[SUN] == (
        "a line naming 'St', 'James's', which no message of 2026-03-01 says",
        "a line naming '2,000', which no message of 2026-03-01 says",
        "a line naming '30 April', which no message of 2026-03-01 says",
        "a line naming 'Dr', 'Okafor', '09:00', which no message of 2026-03-01 says",
    )


async def test_a_summary_whose_every_line_is_invented_is_not_stored(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    await chat_on(kit, SUN, "hello", "Hi! How can I help?")
    fake_llm.queue("## Worked on\n- Planned a trip to Lisbon with Maria\n")
    run = await kit.services.summarizer.summarize_many("owner", [SUN])
    assert run.written == [] and "every line names what no message" in run.rejected[0][1]
    assert await kit.day(SUN) is None
