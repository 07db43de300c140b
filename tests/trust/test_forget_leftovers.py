"""`kit forget --verify` finds what is left of what a forget erased, in each place memory keeps
text or something derived from it: a leftover planted in one place is reported in that place,
and only there (issue 22, item 4). `--repair` erases the derived ones."""

from __future__ import annotations

import json
from datetime import date, timedelta

import numpy as np
import pytest

from kit.api import Kit
from kit.clock import FakeClock, to_iso
from kit.forget.findings import (
    DAYS,
    FACTS,
    GRAPHS,
    INDEX,
    MEMORY,
    MESSAGES,
    NOTES,
    RECORDS,
    REMINDERS,
    SUMMARIES,
    VECTORS,
)
from kit.forget.receipt import Receipt
from kit.forget.scope import ForgetScope
from kit.retrieval.ann import Ann
from kit.retrieval.kinds import digest
from tests.support.erased import gone_from_store
from tests.support.receipts import forget, found, only
from tests.support.small_memory import START, Seeded, seed

pytestmark = pytest.mark.stores

ANA_FACT = "Ana is the owner's sister, a cardiologist in Lisbon."
ANA_LINE = "- Talked about Ana, a cardiologist"
ANA_SUMMARY = "The owner told Kit about Ana, a cardiologist."
ANA_NOTE = "# Gifts\n\nAna likes tulips and old jazz records from Lisbon.\n"
ANA_REMINDER = "Ask Ana about the cardiology conference in May"


async def _forgotten(kit: Kit, clock: FakeClock) -> tuple[Seeded, Receipt]:
    """The trust memory with a note and a reminder naming Ana too, then Ana forgotten; the
    receipt verifies before anything is planted."""
    seeded = await seed(kit, clock)
    await kit.add_note(ANA_NOTE, name="gifts")
    at = to_iso(clock.now())
    async with kit.services.db.transaction() as tx:
        await tx.execute(
            "INSERT INTO reminders (user_id, channel, conversation, kind, text, repeat, status,"
            " next_fire, created_at) VALUES ('owner', 'terminal', 'terminal', 'reminder', ?,"
            " 'none', 'active', ?, ?)",
            (ANA_REMINDER, at, at),
        )
    await kit.settle()
    receipt = await forget(kit, ForgetScope.named("Ana"))
    assert receipt.counts["note_versions_erased"] == 1 and receipt.counts["reminders_removed"] == 1
    assert (await kit.verify_forget(receipt.id)).ok
    return seeded, receipt


async def _execute(kit: Kit, sql: str, params: tuple[object, ...] = ()) -> None:
    async with kit.services.db.transaction() as tx:
        await tx.execute(sql, params)


# ---- rows and text -----------------------------------------------------------------------


async def test_an_erased_fact_given_its_text_back_is_found(kit: Kit, clock: FakeClock) -> None:
    seeded, receipt = await _forgotten(kit, clock)
    await _execute(
        kit, "UPDATE facts SET content = ? WHERE id = ?", (ANA_FACT, seeded.fact_ids["ana"])
    )
    assert only(await kit.verify_forget(receipt.id), FACTS) == [seeded.fact_ids["ana"]]


async def test_an_erased_facts_history_snapshot_given_its_text_back_is_found(
    kit: Kit, clock: FakeClock
) -> None:
    seeded, receipt = await _forgotten(kit, clock)
    fact_id = seeded.fact_ids["ana"]
    snapshot = json.dumps({"subject": "Ana", "content": ANA_FACT, "active": True})
    await _execute(
        kit,
        "UPDATE fact_history SET after_json = ? WHERE id = (SELECT MIN(id) FROM fact_history"
        " WHERE fact_id = ?)",
        (snapshot, fact_id),
    )
    assert only(await kit.verify_forget(receipt.id), FACTS) == [fact_id]


async def test_a_new_fact_saying_what_was_erased_word_for_word_is_found(
    kit: Kit, clock: FakeClock
) -> None:
    _, receipt = await _forgotten(kit, clock)
    fact = await kit.remember(ANA_FACT)
    result = await kit.verify_forget(receipt.id)
    assert only(result, FACTS) == [fact.id]
    assert result.leftovers[0].what == "facts holding erased text word for word"


async def test_a_line_cut_out_of_a_day_summary_put_back_is_found(
    kit: Kit, clock: FakeClock
) -> None:
    _, receipt = await _forgotten(kit, clock)
    await kit.services.days.put_detailed("owner", START.date(), f"- Weather\n{ANA_LINE}", 2)
    day = await kit.day(START.date())
    assert day is not None
    assert only(await kit.verify_forget(receipt.id), DAYS) == [day.id]


async def test_a_sentence_cut_out_of_a_rolling_summary_put_back_is_found(
    kit: Kit, clock: FakeClock
) -> None:
    _, receipt = await _forgotten(kit, clock)
    chat = await kit.services.messages.conversation("owner", "telegram", "42")
    await _execute(
        kit,
        "UPDATE conversations SET window_summary = ? WHERE id = ?",
        (f"They like tea. {ANA_SUMMARY}", chat.id),
    )
    assert only(await kit.verify_forget(receipt.id), SUMMARIES) == [chat.id]


async def test_an_erased_note_version_given_its_text_back_is_found(
    kit: Kit, clock: FakeClock
) -> None:
    _, receipt = await _forgotten(kit, clock)
    (revision,) = receipt.ids.note_revisions
    await _execute(kit, "UPDATE note_history SET body = ? WHERE id = ?", (ANA_NOTE, revision))
    assert only(await kit.verify_forget(receipt.id), NOTES) == [revision]


async def test_the_same_note_added_again_is_found_in_its_versions_and_sections(
    kit: Kit, clock: FakeClock
) -> None:
    _, receipt = await _forgotten(kit, clock)
    await kit.add_note(ANA_NOTE, name="gifts")
    await kit.settle()  # its sections indexed and embedded: derived from the new rows, no leftover
    result = await kit.verify_forget(receipt.id)
    assert {f.what for f in result.leftovers} == {
        "note versions holding erased text word for word",
        "note sections holding erased text word for word",
    }
    assert {f.place for f in result.leftovers} == {NOTES}


async def test_a_reminder_with_an_erased_reminders_text_is_found(
    kit: Kit, clock: FakeClock
) -> None:
    _, receipt = await _forgotten(kit, clock)
    at = to_iso(clock.now())
    async with kit.services.db.transaction() as tx:
        reminder_id = await tx.insert(
            "INSERT INTO reminders (user_id, channel, conversation, kind, text, repeat, status,"
            " next_fire, created_at) VALUES ('owner', 'terminal', 'terminal', 'reminder', ?,"
            " 'none', 'active', ?, ?)",
            (ANA_REMINDER, at, at),
        )
    assert only(await kit.verify_forget(receipt.id), REMINDERS) == [reminder_id]


@pytest.mark.parametrize(
    "record",
    ["pass text", "pass citation", "rem report", "curation error", "inbox text", "inbox citation"],
)
async def test_a_record_quoting_erased_text_or_citing_an_erased_message_is_found(
    kit: Kit, clock: FakeClock, record: str
) -> None:
    seeded, receipt = await _forgotten(kit, clock)
    at = to_iso(clock.now())
    quoting = json.dumps({"operations": [{"op": "INSERT", "content": ANA_FACT}]})
    citing = json.dumps({"source_message_ids": [seeded.message_ids["ana"]]})
    async with kit.services.db.transaction() as tx:
        if record in ("pass text", "pass citation"):
            row_id = await tx.insert(
                "INSERT INTO passes (user_id, kind, category, started_at, finished_at, status,"
                " reason, detail_json) VALUES ('owner', 'curation', 'people', ?, ?, 'rejected',"
                " '', ?)",
                (at, at, quoting if record == "pass text" else citing),
            )
        elif record.startswith("inbox"):  # a question asked again after the forget
            pass_id = await tx.insert(
                "INSERT INTO passes (user_id, kind, category, started_at, finished_at, status,"
                " reason, detail_json) VALUES ('owner', 'curate', 'people', ?, ?, 'applied',"
                " '', '{}')",
                (at, at),
            )
            op = {"op": "INSERT", "content": "Ana works in Porto now", "confidence": 0.9}
            if record == "inbox text":
                op["content"] = ANA_FACT
            else:
                op["sources"] = [seeded.message_ids["ana"]]
            row_id = await tx.insert(
                "INSERT INTO inbox (user_id, pass_id, category, kind, reason, operation_json,"
                " old_json, choices, asked_at, expires_at) VALUES ('owner', ?, 'people',"
                " 'conflict', 'it disagrees', ?, '[]', 'keep-old,take-new,keep-both', ?, ?)",
                (pass_id, json.dumps(op), at, at),
            )
        elif record == "rem report":
            report = {"changes": [{"content": ANA_FACT}]}
            row_id = await tx.insert(
                "INSERT INTO rem_reports (user_id, started_at, finished_at, report_json)"
                " VALUES ('owner', ?, ?, ?)",
                (at, at, json.dumps(report)),
            )
        else:
            chat = await kit.services.messages.conversation("owner", "telegram", "42")
            row_id = chat.id
            await tx.execute(
                "INSERT INTO curation_state (conversation_id, category, user_id, last_error,"
                " updated_at) VALUES (?, 'people', 'owner', ?, ?)",
                (chat.id, f"rejected: {ANA_FACT}", at),
            )
    assert only(await kit.verify_forget(receipt.id), RECORDS) == [row_id]


async def test_a_message_dated_inside_a_forgotten_range_is_found(
    kit: Kit, clock: FakeClock
) -> None:
    await seed(kit, clock)
    receipt = await forget(kit, ForgetScope.time(after=date(2026, 2, 20), before=date(2026, 2, 24)))
    chat = await kit.services.messages.conversation("owner", "telegram", "42")
    inside = START + timedelta(days=2, hours=3)
    message = await kit.services.messages.add(chat, "user", "Something else that day.", at=inside)
    assert only(await kit.verify_forget(receipt.id), MESSAGES) == [message.id]


async def test_a_day_summary_inside_a_forgotten_range_is_found(kit: Kit, clock: FakeClock) -> None:
    await seed(kit, clock)
    receipt = await forget(kit, ForgetScope.time(after=date(2026, 2, 20), before=date(2026, 2, 24)))
    await kit.services.days.put_detailed("owner", date(2026, 2, 22), "- Made up later", 1)
    day = await kit.day(date(2026, 2, 22))
    assert day is not None
    assert only(await kit.verify_forget(receipt.id), DAYS) == [day.id]


# ---- derived state -----------------------------------------------------------------------


async def _plant_fact_words(kit: Kit, fact_id: int) -> None:
    """Index entries of an erased fact holding the words it had (as if the index missed its
    erasure)."""
    if kit.services.db.engine == "sqlite":
        sql = "INSERT INTO facts_fts (rowid, subject, content) VALUES (?, 'Ana', ?)"
        await _execute(kit, sql, (fact_id, ANA_FACT))
    else:
        sql = "UPDATE facts_fts SET terms = to_tsvector('english', ?) WHERE id = ?"
        await _execute(kit, sql, (ANA_FACT, fact_id))


async def test_search_index_entries_holding_an_erased_facts_words_are_found(
    kit: Kit, clock: FakeClock
) -> None:
    seeded, receipt = await _forgotten(kit, clock)
    fact_id = seeded.fact_ids["ana"]
    await _plant_fact_words(kit, fact_id)
    result = await kit.verify_forget(receipt.id)
    assert only(result, INDEX) == [fact_id]
    assert result.leftovers[0].what == "facts entries holding words of erased rows"


@pytest.mark.stores("sqlite")  # PostgreSQL's index rows go with their row (a foreign key)
async def test_search_index_entries_of_an_erased_message_are_found(
    kit: Kit, clock: FakeClock
) -> None:
    seeded, receipt = await _forgotten(kit, clock)
    gone = seeded.message_ids["ana"]
    await _execute(
        kit,
        "INSERT INTO messages_fts (rowid, speaker, text, context) VALUES (?, '', ?, '')",
        (gone, "My sister Ana is a cardiologist in Lisbon."),
    )
    assert only(await kit.verify_forget(receipt.id), INDEX) == [gone]


async def _plant_vector(kit: Kit, kind: str, item_id: int) -> None:
    s = kit.services
    assert s.vectors.embedder is not None
    vector = (await s.vectors.embedder.embed([ANA_FACT]))[0]
    await _execute(
        kit,
        "INSERT INTO embeddings (kind, item_id, user_id, model_id, content_hash, vector)"
        " VALUES (?, ?, 'owner', ?, 'made-before-the-forget', ?)",
        (kind, item_id, s.vectors.embedder.model_id, s.vectors.store.encode(vector)),
    )


@pytest.mark.parametrize("kind", ["message", "fact"])
async def test_a_vector_of_an_erased_row_is_found(kit: Kit, clock: FakeClock, kind: str) -> None:
    seeded, receipt = await _forgotten(kit, clock)
    item = seeded.message_ids["ana"] if kind == "message" else seeded.fact_ids["ana"]
    await _plant_vector(kit, kind, item)
    assert only(await kit.verify_forget(receipt.id), VECTORS) == [item]


@pytest.mark.stores("sqlite")  # graphs are saved beside the SQLite file
async def test_a_saved_graph_holding_an_erased_messages_vector_is_found(
    kit: Kit, clock: FakeClock
) -> None:
    seeded, receipt = await _forgotten(kit, clock)
    s = kit.services
    assert s.vectors.embedder is not None
    gone, kept = seeded.message_ids["ana"], seeded.message_ids["late"]
    vectors = await s.vectors.embedder.embed(["Ana is a cardiologist", "Bruno likes ramen"])
    graph = Ann(s.vectors.embedder.dim)
    graph.extend(lambda rows: vectors[rows], np.array([gone, kept], dtype=np.int64), 2)
    folder = s.settings.data_dir / "graphs"
    folder.mkdir(exist_ok=True)
    name = f"{digest('owner')}-message-{digest(s.vectors.embedder.model_id)}.usearch"
    graph.save(folder / name, s.vectors.embedder.model_id)
    result = await kit.verify_forget(receipt.id)
    assert only(result, GRAPHS) == [gone] and name in result.leftovers[0].what
    (folder / name).write_bytes(b"kit-ann 2\n{not json")
    result = await kit.verify_forget(receipt.id)
    assert only(result, GRAPHS) == [] and result.leftovers[0].count == 1


@pytest.mark.stores("sqlite")  # PostgreSQL keeps no vectors in the process
async def test_an_erased_messages_vector_loaded_in_memory_is_found(
    kit: Kit, clock: FakeClock
) -> None:
    seeded, receipt = await _forgotten(kit, clock)
    s = kit.services
    assert s.vectors.embedder is not None
    await kit.search("tea")  # the matrices are loaded
    gone = seeded.message_ids["ana"]
    s.vectors.store.stored("owner", "message", [gone], await s.vectors.embedder.embed(["Ana"]))
    assert only(await kit.verify_forget(receipt.id), MEMORY) == [gone]


async def test_a_new_message_that_takes_an_erased_messages_id_is_no_leftover(
    kit: Kit, clock: FakeClock
) -> None:
    """SQLite gives a new row the highest id plus one: the last erased message's id again.
    Its index entry and vector are the new message's own."""
    _, receipt = await _forgotten(kit, clock)
    chat = await kit.services.messages.conversation("owner", "notes", "x")
    new = await kit.services.messages.add(chat, "user", "The plumber comes on Tuesday.")
    await kit.settle()
    if kit.services.db.engine == "sqlite":
        assert new.id in receipt.ids.messages  # the id was taken again
    assert (await kit.verify_forget(receipt.id)).ok, found(await kit.verify_forget(receipt.id))


async def test_repair_erases_derived_leftovers_and_the_receipt_verifies_again(
    kit: Kit, clock: FakeClock
) -> None:
    seeded, receipt = await _forgotten(kit, clock)
    fact_id = seeded.fact_ids["ana"]
    await _plant_fact_words(kit, fact_id)
    await _plant_vector(kit, "message", seeded.message_ids["ana"])
    assert {f.place for f in (await kit.verify_forget(receipt.id)).leftovers} == {INDEX, VECTORS}
    assert not await gone_from_store(kit.services.db, "cardiologist")  # the planted words
    result = await kit.repair_forget(receipt.id)
    assert result.ok, found(result)
    assert await gone_from_store(kit.services.db, "cardiologist")
    assert (await kit.fact_history(fact_id))[-1].operation == "forget"  # rows untouched


async def test_repair_leaves_rows_that_came_back_for_a_forget_to_erase(
    kit: Kit, clock: FakeClock
) -> None:
    _, receipt = await _forgotten(kit, clock)
    fact = await kit.remember(ANA_FACT)
    result = await kit.repair_forget(receipt.id)
    assert only(result, FACTS) == [fact.id]
    assert (await kit.services.facts.get("owner", fact.id)).content == ANA_FACT
