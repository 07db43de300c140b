"""The control socket in-process: a real Unix socket, ControlServer -> LocalClient on a real
Kit (FakeLLM, hashing embedder), SocketClient on the other end. Every op round-trips."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from datetime import date, timedelta
from pathlib import Path

import pytest

from kit.api import Kit
from kit.client import LocalClient
from kit.clock import FakeClock
from kit.curator.ops import Insert
from kit.curator.reports import RemProgress
from kit.daemon.socket_client import DaemonUnavailable, SocketClient
from kit.daemon.socket_server import ControlServer
from kit.delivery.outbox import Outgoing
from kit.errors import InputError, KitError, NotFound
from kit.llm.fake import FakeLLM
from tests.support.digest import a_question
from tests.support.sockets import serve


@pytest.fixture
async def server(kit: Kit, clock: FakeClock, tmp_path: Path) -> AsyncIterator[ControlServer]:
    async for control, _ in serve(ControlServer, kit, clock, tmp_path, up_for=timedelta(minutes=5)):
        yield control


@pytest.fixture
def client(server: ControlServer) -> SocketClient:
    return SocketClient(server.path)


async def raw_exchange(path: Path, *lines: bytes) -> list[dict[str, object]]:
    """Write raw lines, read one answer per line."""
    reader, writer = await asyncio.open_unix_connection(path)
    try:
        answers = []
        for line in lines:
            writer.write(line)
            await writer.drain()
            answers.append(json.loads(await reader.readline()))
        return answers
    finally:
        writer.close()
        await writer.wait_closed()


async def test_send_streams_text_events_then_the_stored_turn(
    client: SocketClient, kit: Kit, fake_llm: FakeLLM
) -> None:
    fake_llm.queue("Good morning! Your dentist appointment is at ten.")
    chunks: list[str] = []

    async def sink(text: str) -> None:
        chunks.append(text)

    result = await client.send("morning, anything today?", on_text=sink)
    assert len(chunks) > 1
    assert "".join(chunks) == result.reply == "Good morning! Your dentist appointment is at ten."
    window = await kit.services.messages.window(result.conversation_id)
    assert [m.id for m in window] == [result.user_message_id, result.reply_message_id]
    assert result.usage.output_tokens > 0


async def test_chat_history_and_passes_round_trip_as_the_same_dataclasses(
    client: SocketClient, kit: Kit, fake_llm: FakeLLM
) -> None:
    """What the TUI reopens a chat with, and the passes it offers to undo."""
    fake_llm.queue("Noted: Porto.")
    await client.send("I live in Porto now")
    history = await client.chat_history("terminal", limit=1)
    assert history == await LocalClient(kit, kit.services.clock.now()).chat_history(limit=1)
    assert [(m.role, m.text) for m in history.messages] == [("assistant", "Noted: Porto.")]
    assert history.earlier == 1 and history.summary == ""
    assert (await client.chat_history("never-used")).messages == ()
    await kit.services.curator.apply_ops(
        "owner", "people", [Insert("Eve, a cousin", 0.9, "Eve")], kind="curate",
        source_message_ids=[],
    )  # fmt: skip
    passes = await client.passes(limit=5)
    assert passes == await kit.passes(limit=5)
    assert passes[0].undoable and passes[0].change_count == 1
    with pytest.raises(InputError, match="limit must be a whole number from 1 to 500"):
        await client.passes(limit=0)


async def test_fact_ops_round_trip_as_the_same_dataclasses(client: SocketClient, kit: Kit) -> None:
    fact = await kit.remember("Ana's birthday is on 3 May", category="people", subject="Ana")
    assert await client.facts() == await kit.facts()
    assert await client.facts(category="people", text="may") == [fact]
    gone = await client.deactivate_fact(fact.id, "she told me it is 4 May")
    assert gone.fact == (await kit.facts(include_inactive=True))[0]
    assert await client.facts() == []
    history = await client.fact_history(fact.id)
    assert history == await kit.fact_history(fact.id)
    assert [h.operation for h in history] == ["insert", "deactivate"]


async def test_owner_fact_ops_round_trip_as_undoable_changes(
    client: SocketClient, kit: Kit
) -> None:
    added = await client.add_fact(
        "Allergic to penicillin",
        category="person",
        subject="health",
        pinned=True,
        expires=date(2026, 12, 31),
    )
    assert added.operation == "add" and added.fact == (await kit.facts())[0]
    assert added.fact.owner_written and added.fact.pinned
    fact_id = added.fact.id
    edited = await client.edit_fact(fact_id, "Allergic to penicillin and amoxicillin")
    assert edited.fact.content == "Allergic to penicillin and amoxicillin"
    cleared = await client.edit_fact(fact_id, subject="", clear_expiry=True)
    assert cleared.fact.subject == "" and cleared.fact.expires_at is None
    assert not (await client.unpin_fact(fact_id)).fact.pinned
    assert (await client.pin_fact(fact_id)).fact.pinned
    retired = await client.deactivate_fact(fact_id, "wrong")
    history = await client.fact_history(fact_id)
    assert [h.operation for h in history] == [
        "insert", "edit", "edit", "unpin", "pin", "deactivate",
    ]  # fmt: skip
    assert [h.pass_id for h in history][-1] == retired.pass_id
    await client.undo_pass(retired.pass_id)
    assert (await kit.facts())[0].active
    with pytest.raises(InputError, match="never keeps secrets"):
        await client.add_fact("my password is Kestrel-hunter2!")
    with pytest.raises(InputError, match="already pinned"):
        await client.pin_fact(fact_id)


async def test_days_and_day_round_trip(client: SocketClient, kit: Kit) -> None:
    await kit.services.days.put_detailed("owner", date(2026, 3, 1), "- planned the trip", 4)
    days = await client.days()
    assert days == await kit.days()
    assert await client.day(date(2026, 3, 1)) == days[0]
    assert await client.day(date(2026, 2, 1)) is None


async def test_notes_and_note_round_trip(client: SocketClient, kit: Kit) -> None:
    await kit.add_note("# Jam\nquince, sugar", name="jam")
    notes = await client.notes()
    assert notes == await kit.notes() and [n.name for n in notes] == ["jam"]
    assert await client.note("JAM") == await kit.note("jam")
    with pytest.raises(NotFound, match="there is no note named 'tea'; the notes are: jam"):
        await client.note("tea")


async def test_errors_keep_their_class_and_message(client: SocketClient) -> None:
    with pytest.raises(NotFound, match="fact 999 does not exist"):
        await client.fact_history(999)
    with pytest.raises(InputError, match="unknown fact category 'pets'"):
        await client.facts(category="pets")
    with pytest.raises(InputError, match="empty"):
        await client.send("   ")


async def test_rem_streams_progress_and_reports(
    client: SocketClient, kit: Kit, fake_llm: FakeLLM
) -> None:
    await kit.services.days.put_detailed(
        "owner", date(2026, 3, 1), "- planned the trip\n- booked the train\n- packed", 6
    )
    fake_llm.queue("- trip planned, train booked")
    events: list[RemProgress] = []

    async def progress(event: RemProgress) -> None:
        events.append(event)

    report = await client.rem(on_progress=progress)
    assert report.condensed_days == (date(2026, 3, 1),)
    assert ("condense", "running") in [(e.step, e.status) for e in events]
    assert [(e.step, e.status) for e in events if e.status != "running"] == [
        (s.step, s.status) for s in report.steps
    ]
    assert await client.last_rem() == report
    assert (await client.day(date(2026, 3, 1))).condensed == "- trip planned, train booked"


async def test_undo_pass_round_trips_and_unknown_passes_are_not_found(
    client: SocketClient, kit: Kit
) -> None:
    outcome = await kit.services.curator.apply_ops(
        "owner",
        "projects",
        [Insert("Building a sauna in the garden", 0.9)],
        kind="curate",
        source_message_ids=[],
    )
    assert outcome.pass_id is not None
    undone = await client.undo_pass(outcome.pass_id)
    assert undone.pass_id == outcome.pass_id
    assert undone.deactivated_fact_ids == outcome.inserted_fact_ids
    assert await client.facts(category="projects") == []
    with pytest.raises(NotFound):
        await client.undo_pass(4242)


async def test_status_says_daemon_with_uptime_and_tokens(
    client: SocketClient, fake_llm: FakeLLM
) -> None:
    await client.send("hello")
    status = await client.status()
    assert status.mode == "daemon" and status.user_id == "owner"
    assert status.uptime_seconds == 300.0
    assert status.tokens_today > 0


async def test_requests_may_name_another_user_namespace(server: ControlServer, kit: Kit) -> None:
    await kit.remember("Likes green tea", category="preferences", user="sam")
    assert await SocketClient(server.path).facts() == []
    assert [f.content for f in await SocketClient(server.path, user="sam").facts()] == [
        "Likes green tea"
    ]


async def test_the_digest_round_trips_and_is_sent_on_the_daemons_live_channel(
    client: SocketClient, kit: Kit
) -> None:
    pushed: list[str] = []

    async def telegram(user_id: str, messages: Sequence[Outgoing]) -> int:
        pushed.extend(m.text for m in messages)
        return 1

    assert (await client.send_digest()).status == "empty"  # nothing changed yet
    await kit.services.curator.apply_ops(
        "owner", "people", [Insert("Eve, a cousin", 0.9, "Eve")], kind="curate",
        source_message_ids=[],
    )  # fmt: skip
    digest = await client.digest()
    assert digest == await kit.services.digest.read("owner")
    assert [x.text for x in digest.passes[0].lines] == ["[Eve] Eve, a cousin"]
    assert (await client.digest(date(2026, 2, 1))).passes == ()
    with pytest.raises(KitError, match="no channel to send the digest on"):
        await client.send_digest()
    kit.services.outbox.register("telegram", telegram)
    sent = await client.send_digest()
    assert (sent.status, sent.messages, sent.chats) == ("sent", 1, 1)
    assert pushed[0].startswith("Memory digest for Monday 2 March 2026")
    raw = await raw_exchange(client.path, b'{"id": 1, "op": "digest", "day": "March"}\n')
    assert raw[0]["kind"] == "InputError" and "day must be YYYY-MM-DD" in str(raw[0]["error"])


async def test_the_digest_carries_the_questions_waiting_over_the_socket(
    client: SocketClient, kit: Kit, clock: FakeClock
) -> None:
    day = clock.now()
    await a_question(kit, clock, day - timedelta(days=2), "Ana owns a dog", "Ana owns two dogs")
    question = await a_question(kit, clock, day, "Ana lives in Lisbon", "Ana lives in Porto")
    digest = await client.digest()
    assert digest == await kit.services.digest.read("owner")  # every field, decoded as sent
    (waiting,) = digest.questions
    assert (waiting.question_id, waiting.new) == (question, "[Ana] Ana lives in Porto")
    assert waiting.choices == ("keep-old", "take-new", "keep-both")
    assert (digest.more_questions, digest.older_questions) == (0, 1)
    (raw,) = await raw_exchange(client.path, b'{"id": 1, "op": "digest"}\n')
    sent = raw["result"]
    assert isinstance(sent, dict) and sent["older_questions"] == 1
    assert sent["questions"][0]["asked_at"] == day.isoformat()


async def test_malformed_lines_and_unknown_ops_get_an_error_line(server: ControlServer) -> None:
    bad_json, not_object, unknown, missing_arg = await raw_exchange(
        server.path,
        b"this is not json\n",
        b"[1, 2]\n",
        b'{"id": 3, "op": "explode"}\n',
        b'{"id": 4, "op": "fact_history"}\n',
    )
    assert bad_json["ok"] is False and "JSON object" in str(bad_json["error"])
    assert not_object["ok"] is False
    assert unknown == {
        "id": 3,
        "ok": False,
        "kind": "InputError",
        "error": "control socket: unknown op 'explode'; known ops: send, days, day, facts, "
        "fact_history, add_fact, edit_fact, inbox, answer_question, pin_fact, unpin_fact, "
        "deactivate_fact, undo_pass, "
        "rem, last_rem, status, context, chat_history, passes, reminders, cancel_reminder, "
        "reminder_notices, notes, note, search, day_record, remember, memory_index, command, "
        "digest, send_digest, forget_receipts, verify_forget, create_access_token, "
        "access_tokens, revoke_access_token, access_log, authorize",
    }
    assert missing_arg["kind"] == "InputError" and "fact_id" in str(missing_arg["error"])


async def test_a_client_hanging_up_mid_reply_still_gets_the_reply_stored(
    server: ControlServer, kit: Kit, fake_llm: FakeLLM
) -> None:
    fake_llm.queue("A long answer " * 20)
    reader, writer = await asyncio.open_unix_connection(server.path)
    writer.write(b'{"id": 1, "op": "send", "text": "tell me a story"}\n')
    await writer.drain()
    first = json.loads(await reader.readline())
    assert first["event"] == "text"
    writer.close()
    await writer.wait_closed()
    await server.wait_idle()
    conv = await kit.services.messages.conversation("owner", "terminal", "terminal")
    window = await kit.services.messages.window(conv.id)
    assert [(m.role, m.text) for m in window] == [
        ("user", "tell me a story"),
        ("assistant", ("A long answer " * 20).strip()),
    ]


async def test_after_stop_accepting_new_requests_are_refused(
    server: ControlServer, client: SocketClient
) -> None:
    reader, writer = await asyncio.open_unix_connection(server.path)
    try:
        server.stop_accepting()
        writer.write(b'{"id": 1, "op": "status"}\n')
        await writer.drain()
        answer = json.loads(await reader.readline())
    finally:
        writer.close()
        await writer.wait_closed()
    assert answer["ok"] is False and "shutting down" in answer["error"]
    with pytest.raises(KitError, match="shutting down"):
        await client.status()  # a new connection is refused the same way


async def test_socket_is_owner_only(server: ControlServer) -> None:
    assert server.path.stat().st_mode & 0o777 == 0o600


async def test_no_daemon_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DaemonUnavailable, match="start it with `kit run`") as caught:
        await SocketClient(tmp_path / "kit.sock").status()
    assert isinstance(caught.value, KitError)


async def test_context_round_trips_as_the_same_report(client: SocketClient, kit: Kit) -> None:
    """A front-end (`kit context` with a daemon running) sees the daemon's own plan."""
    await kit.remember("Ana likes figs", category="people", subject="Ana")
    await kit.settle()
    report = await client.context("Does Ana like figs?")
    local = await LocalClient(kit, kit.services.clock.now()).context("Does Ana like figs?")
    assert report.system == local.system
    assert [s.items for s in report.sections] == [s.items for s in local.sections]
    facts = next(s for s in report.sections if s.name == "facts")
    assert facts.items[0].id is not None and facts.items[0].score is not None
    assert report.stages and report.memory_tokens == local.memory_tokens


async def test_search_round_trips_the_hits_best_first_and_cut_to_k(
    client: SocketClient, kit: Kit
) -> None:
    """`kit mcp` searches through the socket: the daemon's hits, whole, at most k of them."""
    for n in range(6):
        await kit.remember(f"Ana grows figs in pot {n}", category="people", subject="Ana")
    await kit.settle()
    hits = await client.search("Ana figs", k=4)
    assert len(hits) == 4
    assert hits == await LocalClient(kit, kit.services.clock.now()).search("Ana figs", k=4)
    assert all(h.fact is not None and h.fact.subject == "Ana" for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


async def test_search_finds_note_sections_and_they_round_trip(
    client: SocketClient, kit: Kit
) -> None:
    await kit.add_note("# Jam\nquince, sugar and a lemon", name="jam")
    await kit.settle()
    hits = await client.search("quince lemon")
    assert hits == await LocalClient(kit, kit.services.clock.now()).search("quince lemon")
    assert any(h.note is not None and h.kind == "note" for h in hits)


async def test_search_refuses_empty_or_long_queries_and_k_out_of_range(
    client: SocketClient, server: ControlServer
) -> None:
    with pytest.raises(InputError, match="query is empty"):
        await client.search("  \x00 ")
    with pytest.raises(InputError, match="too long"):
        await client.search("fig " * 600)
    for k in (0, 51, -3):
        with pytest.raises(InputError, match="from 1 to 50"):
            await client.search("figs", k=k)
    (answer,) = await raw_exchange(
        server.path, b'{"id": 1, "op": "search", "query": "a", "k": true}\n'
    )
    assert answer["kind"] == "InputError" and "'k' must be an integer" in str(answer["error"])


async def test_day_record_is_the_summary_else_the_days_messages(
    client: SocketClient, kit: Kit
) -> None:
    await kit.services.days.put_detailed("owner", date(2026, 3, 1), "- planned the trip", 4)
    summarised = await client.day_record(date(2026, 3, 1))
    assert summarised.summary is not None and summarised.summary.detailed == "- planned the trip"
    await kit.send("the plumber comes on Thursday", channel="terminal", conversation="t")
    today = await client.day_record(kit.services.clock.now().date())
    assert today.summary is None
    assert [m.role for m in today.messages] == ["user", "assistant"]
    assert today.messages[0].text == "the plumber comes on Thursday"
    empty = await client.day_record(date(2026, 2, 1))
    assert empty.summary is None and empty.messages == ()


async def test_remember_is_screened_like_the_chat_and_kept_with_its_history(
    client: SocketClient, kit: Kit
) -> None:
    fact = await client.remember(" Ana likes figs ", category="people", subject="Ana")
    assert (fact.content, fact.subject, fact.category) == ("Ana likes figs", "Ana", "people")
    (entry,) = await kit.fact_history(fact.id)
    assert entry.actor == "remember" and "Kit client" in entry.reason
    with pytest.raises(InputError, match="looks like an API key"):
        await client.remember("the deploy key is AKIAIOSFODNN7EXAMPLE")
    with pytest.raises(InputError, match="looks like"):
        await client.remember("Ana's login", subject="password: hunter2hunter2!")
    with pytest.raises(InputError, match="at most 2000 characters"):
        await client.remember("figs " * 500)
    with pytest.raises(InputError, match="unknown fact category 'pets'"):
        await client.remember("Rex is a dog", category="pets")
    with pytest.raises(InputError, match="empty"):
        await client.remember("   ")
    assert [f.id for f in await kit.facts()] == [fact.id]


async def test_memory_index_is_the_one_the_turn_shows(client: SocketClient, kit: Kit) -> None:
    assert await client.memory_index() == ""
    await kit.remember("Ana likes figs", category="people", subject="Ana")
    index = await client.memory_index()
    assert index.startswith("## Memory index") and "People: Ana" in index
    plan = await kit.context("hello", channel="terminal")
    section = plan.section("index")
    assert section is not None and section.items[0].text == index
