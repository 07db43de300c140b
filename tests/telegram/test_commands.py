"""Slash commands over Telegram: each reads (or, for /pin, /unpin and /forget, changes) only the
sender's memory."""

from __future__ import annotations

from datetime import date

from kit.api import Kit
from kit.config import CATEGORIES
from kit.llm.fake import FakeLLM
from tests.servers.telegram_api import FakeTelegramServer
from tests.telegram.conftest import ANA_TG, OWNER_TG, STRANGER_TG, ChannelFactory, running


async def ask(tg: FakeTelegramServer, make_channel: ChannelFactory, *texts: str) -> list[str]:
    """Send commands as the owner, one at a time, and return the reply texts in order."""
    async with running(make_channel()):
        for n, text in enumerate(texts, start=1):
            tg.push_text(OWNER_TG, text)
            await tg.async_wait_for_sent(n)
    return [s["text"] for s in tg.sent]


async def test_help_lists_every_command_and_registers_the_menu(
    tg: FakeTelegramServer, make_channel: ChannelFactory, fake_llm: FakeLLM
) -> None:
    (reply,) = await ask(tg, make_channel, "/help")
    for command in ("/history", "/facts", "/search", "/pin", "/unpin", "/forget", "/rem", "/help"):
        assert command in reply
    assert ", ".join(CATEGORIES) in reply
    menu = [p for m, p in tg.calls if m == "setMyCommands"]
    assert [c["command"] for c in menu[0]["commands"]] == [
        "history",
        "facts",
        "search",
        "pin",
        "unpin",
        "forget",
        "rem",
        "reminders",
        "help",
    ]
    assert fake_llm.requests == []  # commands never call the model


async def test_history_lists_days_and_reads_one(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    days = kit.services.days
    await days.put_detailed("owner", date(2026, 3, 1), "- Planned the garden\n- Called Ana", 4)
    await days.put_detailed("owner", date(2026, 2, 27), "- Fixed the bike", 2)
    await days.put_detailed("ana", date(2026, 3, 1), "- Ana's own day", 2)
    listing, one, yesterday, missing, bad = await ask(
        tg,
        make_channel,
        "/history",
        "/history 2026-02-27",
        "/history yesterday",
        "/history 2026-01-01",
        "/history someday",
    )
    assert listing.splitlines()[1:] == [
        "2026-03-01: Planned the garden",
        "2026-02-27: Fixed the bike",
    ]
    assert one == "2026-02-27 (Friday)\n\n- Fixed the bike"
    assert yesterday.startswith("2026-03-01 (Sunday)") and "Called Ana" in yesterday
    assert "Ana's own day" not in listing + yesterday  # another namespace
    assert missing == "Nothing is recorded for 2026-01-01."
    assert bad.startswith("'someday' is not a date; use YYYY-MM-DD")


async def test_facts_lists_live_facts_by_category(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    tea = await kit.remember("Prefers green tea", category="preferences")
    name = await kit.remember("Is called Ann", category="person")
    await kit.remember("Ana's secret fact", category="person", user="ana")
    everything, preferences, wrong = await ask(
        tg, make_channel, "/facts", "/facts preferences", "/facts pets"
    )
    assert everything.splitlines() == [
        f"#{name.id} (person) Is called Ann",
        f"#{tea.id} (preferences) Prefers green tea",
    ]
    assert preferences == f"#{tea.id} (preferences) Prefers green tea"
    assert wrong.startswith("Unknown fact category 'pets'; use one of: person")


async def test_search_finds_the_senders_memory_only(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    fact = await kit.remember("Ana's birthday is on 3 May", category="people")
    await kit.remember("Birthday party for Bob on 9 June", category="people", user="ana")
    await kit.settle()
    found, empty = await ask(tg, make_channel, "/search birthday", "/search")
    assert f"[fact #{fact.id}, people] Ana's birthday is on 3 May" in found
    assert "Bob" not in found
    assert empty.startswith("Usage: /search <what to look for>")


async def test_forget_deactivates_with_a_history_row(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    fact = await kit.remember("Works at Initech", category="projects")
    others = await kit.remember("Ana's fact", category="projects", user="ana")
    forgot, again, missing, theirs, usage = await ask(
        tg,
        make_channel,
        f"/forget {fact.id}",
        f"/forget #{fact.id}",
        "/forget 9999",
        f"/forget {others.id}",
        "/forget that thing",
    )
    assert forgot == f"Forgot fact #{fact.id}: Works at Initech\n(It stays in the fact's history.)"
    assert again == f"Fact #{fact.id} is already forgotten."
    assert missing == "There is no fact #9999; /facts shows the ids"
    assert theirs == f"There is no fact #{others.id}; /facts shows the ids"
    assert usage.startswith("Usage: /forget <fact id>")
    history = await kit.fact_history(fact.id)
    assert [(h.operation, h.actor, h.reason) for h in history][-1] == (
        "deactivate",
        "owner",
        "forgotten via Telegram",
    )
    assert (await kit.services.facts.get("ana", others.id)).active
    retired = history[-1].pass_id
    assert retired is not None  # the owner's pass: undoable like any other
    await kit.undo_pass(retired)
    assert (await kit.services.facts.get("owner", fact.id)).active


async def test_pin_and_unpin_change_only_the_senders_own_facts(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    fact = await kit.remember("Allergic to penicillin", category="person")
    others = await kit.remember("Ana's fact", category="person", user="ana")
    pinned, again, listed, theirs, usage, unpinned = await ask(
        tg,
        make_channel,
        f"/pin {fact.id}",
        f"/pin #{fact.id}",
        "/facts",
        f"/pin {others.id}",
        "/pin 99999999999999999999999",
        f"/unpin {fact.id}",
    )
    assert pinned == (
        f"Pinned fact #{fact.id}: Allergic to penicillin\n(Always in mind now; I never change "
        "a pinned fact.)"
    )
    assert again == f"Fact #{fact.id} is already pinned; nothing was changed"
    assert listed == f"#{fact.id} (person, pinned) Allergic to penicillin"
    assert theirs == f"There is no fact #{others.id}; /facts shows the ids"
    assert usage.startswith("Usage: /pin <fact id>")
    assert unpinned == f"Unpinned fact #{fact.id}."
    assert not (await kit.services.facts.get("ana", others.id)).pinned
    history = await kit.fact_history(fact.id)
    assert [(h.operation, h.actor) for h in history] == [
        ("insert", "api"),
        ("pin", "owner"),
        ("unpin", "owner"),
    ]
    assert all(h.pass_id is not None for h in history[1:])


async def test_a_stranger_cannot_pin_or_forget_anything(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    fact = await kit.remember("Allergic to penicillin", category="person")
    async with running(make_channel()):
        tg.push_text(STRANGER_TG, f"/pin {fact.id}")
        tg.push_text(STRANGER_TG, f"/forget {fact.id}")
        tg.push_text(OWNER_TG, "/facts")  # answered after the stranger's updates
        sent = await tg.async_wait_for_sent(2)
    assert [s["chat_id"] for s in sent] == [STRANGER_TG, OWNER_TG]  # one refusal, that is all
    assert sent[1]["text"] == f"#{fact.id} (person) Allergic to penicillin"
    assert len(await kit.fact_history(fact.id)) == 1


def bullets(n: int, word: str) -> str:
    return "\n".join(f"- {word} {i}" for i in range(1, n + 1))


async def test_rem_runs_consolidation_now_and_reports(
    kit: Kit, fake_llm: FakeLLM, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    await kit.services.days.put_detailed("owner", date(2026, 3, 1), bullets(30, "detail"), 40)
    await kit.services.days.put_detailed("ana", date(2026, 3, 1), bullets(30, "ana's"), 40)
    fake_llm.queue(bullets(12, "outcome"))
    (reply,) = await ask(tg, make_channel, "/rem")
    lines = reply.splitlines()
    assert lines[0].startswith("REM finished in")
    assert "Condensed 1 day: 2026-03-01" in lines
    assert "• condensed 2026-03-01 (30 -> 12 bullets)" in lines
    day = await kit.day(date(2026, 3, 1))
    assert day is not None and day.condensed == bullets(12, "outcome")
    ana_day = await kit.day(date(2026, 3, 1), user="ana")
    assert ana_day is not None and ana_day.condensed == ""  # only the sender's memory


async def test_rem_while_another_run_holds_the_lease_is_refused_clearly(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    async with kit.services.job_runs.lease("rem", label="REM", user_id="owner"):
        (reply,) = await ask(tg, make_channel, "/rem")
    assert reply.startswith("REM is already running")


async def test_unknown_commands_point_to_help(
    tg: FakeTelegramServer, make_channel: ChannelFactory, fake_llm: FakeLLM
) -> None:
    (reply,) = await ask(tg, make_channel, "/dance now")
    assert reply == "I don't know /dance. /help lists what I can do."
    assert fake_llm.requests == []


async def test_commands_use_the_senders_namespace(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    await kit.remember("Owner-only fact", category="person")
    await kit.remember("Ana likes chess", category="person", user="ana")
    async with running(make_channel()):
        tg.push_text(ANA_TG, "/facts")
        sent = await tg.async_wait_for_sent(1)
    assert sent[0]["chat_id"] == ANA_TG
    assert sent[0]["text"].endswith("(person) Ana likes chess")
    assert "Owner-only" not in sent[0]["text"]
