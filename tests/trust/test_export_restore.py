"""`kit export` / `kit import` of an export: the owner's data leaves whole and comes back whole."""

from __future__ import annotations

import json
import stat
from collections.abc import Callable
from datetime import UTC, timedelta
from pathlib import Path
from typing import Any

import pytest

from kit.api import Kit
from kit.cli import main
from kit.clock import FakeClock
from kit.config import CATEGORIES, Settings
from kit.embed.hashing import HashingEmbedder
from kit.errors import InputError
from kit.llm.fake import FakeLLM
from kit.memory.fact_writer import Provenance
from kit.memory.messages import NewMessage
from kit.portability.export import export_document, to_json, to_markdown
from kit.portability.export_check import EXPORT_VERSION
from kit.portability.restore import read_export, restore
from tests.support.curation import by_category
from tests.support.receipts import at_restore
from tests.support.small_memory import seed

pytestmark = pytest.mark.stores


def _comparable(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k != "exported_at"}


async def _export(kit: Kit, user: str = "owner") -> dict[str, Any]:
    s = kit.services
    return json.loads(to_json(await export_document(s.db, user, s.clock.now())))


async def test_export_holds_every_fact_version_day_message_and_pass(
    kit: Kit, clock: FakeClock
) -> None:
    seeded = await seed(kit, clock)
    document = await _export(kit)
    assert document["format"] == "kit-export" and document["version"] == EXPORT_VERSION
    facts = {f["id"]: f for f in document["facts"]}
    assert len(facts) == 5
    bruno = facts[seeded.fact_ids["bruno"]]
    assert [h["operation"] for h in bruno["history"]] == ["insert", "update"]
    assert bruno["history"][0]["after"]["content"] == "Bruno is Ana's colleague."
    zebra = facts[seeded.fact_ids["zebra"]]
    assert zebra["replaced_by"] == seeded.fact_ids["merged"] and not zebra["active"]
    assert zebra["history"][-1]["pass_id"] == seeded.pass_id
    assert len(document["messages"]) == 6 and len(document["conversations"]) == 2
    assert {d["day"] for d in document["days"]} == {"2026-02-20", "2026-02-22", "2026-02-25"}
    assert document["passes"][0]["detail"]["ops"][0]["op"] == "REPLACE"


async def test_restore_into_a_fresh_database_reproduces_the_export_exactly(
    kit: Kit, clock: FakeClock, elsewhere: Callable[[str], Settings], tmp_path: Path
) -> None:
    await seed(kit, clock)
    original = await _export(kit)
    path = tmp_path / "export.json"
    path.write_text(to_json(original), encoding="utf-8")
    async with Kit.open(
        settings=elsewhere("fresh"),
        llm=FakeLLM(),
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as fresh:
        result = await restore(
            fresh.services.db, read_export(path), "owner", at_restore(fresh.services)
        )
        assert not result.renumbered and result.history == 9
        assert _comparable(await _export(fresh)) == _comparable(original)
        await fresh.settle()
        hits = await fresh.search("cardiologist Lisbon")
        assert hits and "cardiologist" in hits[0].text  # searchable again after backfill


async def test_restore_renumbers_ids_taken_by_another_user_and_keeps_links(
    kit: Kit, clock: FakeClock
) -> None:
    seeded = await seed(kit, clock)
    document = await _export(kit)
    result = await restore(
        kit.services.db, document, "ana-copy", at_restore(kit.services)
    )  # same db: every id is taken
    assert result.renumbered
    copy = await _export(kit, "ana-copy")
    by_content = {f["content"]: f for f in copy["facts"]}
    zebra = by_content["Garden plan is called zebracode."]
    merged = by_content["Kit and zebracode projects."]
    assert zebra["replaced_by"] == merged["id"] != seeded.fact_ids["merged"]
    assert zebra["history"][-1]["after"]["replaced_by"] == merged["id"]
    messages = {m["id"]: m["text"] for m in copy["messages"]}
    sources = zebra["history"][0]["source_message_ids"]
    assert [messages[i] for i in sources] == ["Remember the zebracode plan for the garden."]
    pass_ids = {p["id"] for p in copy["passes"]}
    assert zebra["history"][-1]["pass_id"] in pass_ids - {seeded.pass_id}
    window = await kit.services.messages.conversation("ana-copy", "telegram", "42")
    texts = [m.text for m in await kit.services.messages.window(window.id)]
    assert texts[0].startswith("I am building Kit")  # the window start followed the renumbering


async def test_restore_keeps_which_sources_are_whole_batches_even_from_older_exports(
    kit: Kit, clock: FakeClock
) -> None:
    """History from before Kit recorded cited sources names whole batches: an export says so,
    and an export made before it did is read the way the m007 migration reads the database."""
    await seed(kit, clock)
    document = await _export(kit)
    entries = [h for f in document["facts"] for h in f["history"]]
    assert {h["sources_are_batch"] for h in entries} == {False}
    for h in entries:
        del h["sources_are_batch"]  # as exported before m007
    await restore(kit.services.db, document, "old", at_restore(kit.services))
    restored = [h for f in (await _export(kit, "old"))["facts"] for h in f["history"]]
    flagged = [h["actor"] for h in restored if h["sources_are_batch"]]
    curated = [h["actor"] for h in restored if h["actor"] == "curator" and h["source_message_ids"]]
    assert flagged == curated and flagged  # `remember` rows named their own message: not flagged
    await restore(kit.services.db, await _export(kit, "old"), "again", at_restore(kit.services))
    again = [h for f in (await _export(kit, "again"))["facts"] for h in f["history"]]
    assert [h["sources_are_batch"] for h in again] == [h["sources_are_batch"] for h in restored]


async def test_restore_refuses_to_merge_into_a_non_empty_memory(kit: Kit, clock: FakeClock) -> None:
    await seed(kit, clock)
    document = await _export(kit)
    before = await _export(kit)
    with pytest.raises(InputError, match=r"not empty.*never merges"):
        await restore(kit.services.db, document, "owner", at_restore(kit.services))
    assert _comparable(await _export(kit)) == _comparable(before)


async def test_a_damaged_export_is_rejected_whole_naming_the_bad_field(
    kit: Kit, clock: FakeClock, tmp_path: Path
) -> None:
    await seed(kit, clock)
    document = await _export(kit)
    document["facts"][2]["confidence"] = 7
    path = tmp_path / "bad.json"
    path.write_text(to_json(document))
    with pytest.raises(InputError, match=r"facts\[2\]\.confidence must be a number between"):
        read_export(path)
    document["facts"][2]["confidence"] = 0.5
    document["messages"][0]["conversation_id"] = 999
    path.write_text(to_json(document))
    with pytest.raises(InputError, match=r"messages\[0\]\.conversation_id"):
        read_export(path)
    path.write_text(to_json(document)[:500])
    with pytest.raises(InputError, match="cut short"):
        read_export(path)
    document["version"] = 99
    path.write_text(to_json(document))
    with pytest.raises(InputError, match="version 99 is not supported"):
        read_export(path)


async def test_markdown_export_reads_as_a_document_and_quotes_user_text(
    kit: Kit, clock: FakeClock
) -> None:
    await seed(kit, clock)
    chat = await kit.services.messages.conversation("owner", "api", "x")
    await kit.services.messages.add(chat, "user", "# not a heading\nsecond line")
    text = "".join(to_markdown(await _export(kit), kit.services.tz))
    assert "### #1 people: [Ana] Ana is the owner's sister, a cardiologist in Lisbon." in text
    assert "**update** by curator: more detail" in text
    assert "content: 'Building Kit, a memory-first assistant.' → 'Building Kit," in text
    assert "> # not a heading\n> second line" in text  # user text cannot forge headings
    assert "### 2026-02-20\n\nCondensed:\n\n> - Ana is a cardiologist" in text


def test_cli_export_writes_a_private_file_and_import_restores_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KIT_CONFIG", str(tmp_path / "none.toml"))
    (tmp_path / "none.toml").write_text('[schedule]\ntimezone = "UTC"\n')
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "a"))
    rows = [
        {"role": "user", "text": f"note {i} about tulips", "at": f"2026-01-0{i + 1}T10:00:00Z"}
        for i in range(3)
    ]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["import", "--no-embed", str(tmp_path / "in.jsonl")]) == 0
    out = tmp_path / "export.json"
    assert main(["export", "--output", str(out)]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert main(["export", "--format", "markdown", "-o", str(tmp_path / "e.md")]) == 0
    assert "note 2 about tulips" in (tmp_path / "e.md").read_text()
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "b"))
    capsys.readouterr()
    assert main(["import", "--no-embed", str(out)]) == 0
    assert "Restored the memory of 'owner'" in capsys.readouterr().out
    assert main(["import", "--no-embed", str(out)]) == 2  # a second time: would merge
    assert "not empty" in capsys.readouterr().err
    assert main(["export", "-o", str(tmp_path / "again.json")]) == 0
    first, again = json.loads(out.read_text()), json.loads((tmp_path / "again.json").read_text())
    assert _comparable(first) == _comparable(again)


async def test_export_of_a_fact_changed_after_restore_keeps_both_histories(
    kit: Kit, clock: FakeClock, elsewhere: Callable[[str], Settings]
) -> None:
    """A restored memory is a living one: new changes append to the restored history."""
    seeded = await seed(kit, clock)
    document = await _export(kit)
    async with Kit.open(
        settings=elsewhere("fresh2"),
        llm=FakeLLM(),
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as fresh:
        await restore(fresh.services.db, document, "owner", at_restore(fresh.services))
        fact_id = seeded.fact_ids["bruno"]
        await fresh.services.facts.update(
            "owner", fact_id, Provenance("owner", "fix"), content="Bruno likes udon."
        )
        history = await fresh.fact_history(fact_id)
        assert [h.operation for h in history] == ["insert", "update", "update"]
        assert history[-1].before is not None
        assert history[-1].before["content"] == "Bruno likes ramen; lunch on Fridays."


async def test_restored_messages_that_were_curated_are_not_curated_again(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock, elsewhere: Callable[[str], Settings]
) -> None:
    """Curation marks travel with the export, so a restore does not re-learn (and duplicate)
    every fact from the whole archive."""
    s = kit.services
    fake_llm.default = by_category({})  # the curator changes nothing
    chat = await s.messages.conversation("owner", "api", "c")
    await s.messages.add(chat, "user", "I live in Lisbon.")
    clock.advance(timedelta(minutes=31))
    assert await s.curator.sweep_idle(clock.now()) > 0
    await s.messages.add(chat, "user", "And I just got a cat.")  # not curated yet
    document = await _export(kit)
    assert {m["category"] for m in document["curation_marks"]} == set(CATEGORIES)
    model = FakeLLM(default=by_category({}))
    async with Kit.open(
        settings=elsewhere("fresh3"),
        llm=model,
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as fresh:
        await restore(fresh.services.db, document, "owner", at_restore(fresh.services))
        clock.advance(timedelta(minutes=31))
        await fresh.services.curator.sweep_idle(clock.now())
        shown = {r.system[0].text for r in model.requests if r.purpose.startswith("curate:")}
        assert shown and all("got a cat" in t and "Lisbon" not in t for t in shown)


async def _park_report_and_use(kit: Kit, fake_llm: FakeLLM) -> int:
    """A batch parked after curation failed 3 times, a REM report and the model calls' usage.
    Returns the id of the message in the parked batch."""
    s = kit.services
    fake_llm.default = by_category({"people": "not json"})
    chat = await s.messages.conversation("owner", "api", "c")
    said = await s.messages.add(chat, "user", "My sister Ana moved to Porto.")
    for _ in range(3):
        await s.curator.curate_user("owner")
    assert await s.curator.progress.parked("owner")
    await s.rem.run("owner")
    return said.id


async def test_parked_batches_rem_reports_and_usage_travel_through_export_and_restore(
    kit: Kit,
    fake_llm: FakeLLM,
    clock: FakeClock,
    elsewhere: Callable[[str], Settings],
    tmp_path: Path,
) -> None:
    await seed(kit, clock)
    await _park_report_and_use(kit, fake_llm)
    original = await _export(kit)
    counts = original["counts"]
    assert counts["curation_parked"] == 3  # one per conversation (the seed has three)
    assert counts["rem_reports"] == 1 and counts["usage"] > 0
    text = "".join(to_markdown(original, kit.services.tz))
    assert "## Curation batches parked after failing" in text and "## REM reports" in text
    assert f"## Model usage\n\n{counts['usage']} model calls" in text
    path = tmp_path / "export.json"
    path.write_text(to_json(original), encoding="utf-8")
    async with Kit.open(
        settings=elsewhere("fresh4"),
        llm=FakeLLM(),
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as fresh:
        await restore(fresh.services.db, read_export(path), "owner", at_restore(fresh.services))
        assert _comparable(await _export(fresh)) == _comparable(original)
        assert await fresh.services.rem.last_report("owner") == (
            await kit.services.rem.last_report("owner")
        )
        parked = await fresh.services.curator.progress.parked("owner")
        assert [p.attempts for p in parked] == [3, 3, 3]


async def test_a_renumbered_restore_keeps_a_parked_batch_on_its_message(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    await _park_report_and_use(kit, fake_llm)
    document = await _export(kit)
    assert (
        await restore(kit.services.db, document, "ana-copy", at_restore(kit.services))
    ).renumbered
    progress = kit.services.curator.progress
    (parked,) = await progress.parked("ana-copy")
    batch = await progress.parked_batch("ana-copy", parked)
    assert [m.text for m in batch.messages] == ["My sister Ana moved to Porto."]
    assert [m.user_id for m in batch.messages] == ["ana-copy"]


async def test_a_version_1_export_is_still_restored(
    kit: Kit, clock: FakeClock, elsewhere: Callable[[str], Settings], tmp_path: Path
) -> None:
    await seed(kit, clock)
    document = await _export(kit)
    document["version"] = 1
    for key in ("curation_parked", "rem_reports", "usage"):
        del document[key], document["counts"][key]
    path = tmp_path / "v1.json"
    path.write_text(to_json(document), encoding="utf-8")
    async with Kit.open(
        settings=elsewhere("fresh5"),
        llm=FakeLLM(),
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as fresh:
        result = await restore(
            fresh.services.db, read_export(path), "owner", at_restore(fresh.services)
        )
        assert result.facts == 5 and result.messages == 6
        again = await _export(fresh)
        assert again["version"] == EXPORT_VERSION
        assert again["curation_parked"] == again["usage"] == again["notes"] == []


async def test_whose_words_a_forwarded_message_holds_survives_export_and_restore(
    kit: Kit, clock: FakeClock, elsewhere: Callable[[str], Settings], tmp_path: Path
) -> None:
    chat = await kit.services.messages.conversation("owner", "telegram", "42")
    await kit.services.messages.add(chat, "user", "I'm allergic to peanuts", forwarded_from="Bob")
    await kit.services.messages.add(chat, "user", "and I am not")
    document = await _export(kit)
    assert [m["forwarded_from"] for m in document["messages"]] == ["Bob", None]
    assert "Owner (forwarded from Bob):" in "".join(to_markdown(document, UTC))
    old = json.loads(to_json(document))  # as written before the field existed
    for message in old["messages"]:
        del message["forwarded_from"]
    for name, exported in (("fresh", document), ("old", old)):
        path = tmp_path / f"{name}.json"
        path.write_text(to_json(exported), encoding="utf-8")
        async with Kit.open(
            settings=elsewhere(name),
            llm=FakeLLM(),
            embedder=HashingEmbedder(),
            clock=clock,
            background=False,
        ) as fresh:
            await restore(fresh.services.db, read_export(path), "owner", at_restore(fresh.services))
            restored = await fresh.services.messages.window(chat.id)
        expected = ["Bob", None] if name == "fresh" else [None, None]
        assert [m.forwarded_from for m in restored] == expected
    document["messages"][0]["forwarded_from"] = 7
    path.write_text(to_json(document), encoding="utf-8")
    with pytest.raises(InputError, match=r"messages\[0\]\.forwarded_from must be a string"):
        read_export(path)


async def test_a_voice_message_stays_marked_as_spoken_through_export_and_restore(
    kit: Kit, clock: FakeClock, elsewhere: Callable[[str], Settings], tmp_path: Path
) -> None:
    chat = await kit.services.messages.conversation("owner", "matrix", "!room:localhost")
    await kit.services.messages.add(chat, "user", "the plumber comes on Friday", spoken=True)
    await kit.services.messages.add(chat, "user", "typed this one")
    document = await _export(kit)
    assert [m["spoken"] for m in document["messages"]] == [True, False]
    path = tmp_path / "spoken.json"
    path.write_text(to_json(document), encoding="utf-8")
    async with Kit.open(
        settings=elsewhere("spoken"),
        llm=FakeLLM(),
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as fresh:
        await restore(fresh.services.db, read_export(path), "owner", at_restore(fresh.services))
        restored = await fresh.services.messages.window(chat.id)
    assert [m.spoken for m in restored] == [True, False]
    document["messages"][0]["spoken"] = "yes"
    path.write_text(to_json(document), encoding="utf-8")
    with pytest.raises(InputError, match=r"messages\[0\]\.spoken must be true or false"):
        read_export(path)


async def test_an_import_into_a_conversation_with_messages_keeps_whose_words_they_are(
    kit: Kit, clock: FakeClock
) -> None:
    """The second import goes through the staged, de-duplicating path."""
    first = NewMessage("user", "hello", clock.now())
    forwarded = NewMessage("user", "I'm allergic to peanuts", clock.now(), forwarded_from="Bob")
    assert await kit.import_messages([first]) == 1
    assert await kit.import_messages([first, forwarded]) == 1
    chat = await kit.services.messages.conversation("owner", "import", "import")
    stored = await kit.services.messages.window(chat.id)
    assert [(m.text, m.forwarded_from) for m in stored] == [
        ("hello", None),
        ("I'm allergic to peanuts", "Bob"),
    ]


async def test_the_owners_own_facts_stay_the_owners_through_export_and_restore(
    kit: Kit, clock: FakeClock
) -> None:
    mine = (await kit.add_fact("Allergic to penicillin", category="person")).fact
    curated = await kit.remember("Likes jazz", category="preferences")
    document = await _export(kit)
    flags = {f["id"]: f["owner_written"] for f in document["facts"]}
    assert flags == {mine.id: True, curated.id: False}
    await restore(kit.services.db, document, "copy", at_restore(kit.services))
    copy = {f.content: f for f in await kit.facts(user="copy")}
    assert copy["Allergic to penicillin"].owner_written
    assert not copy["Likes jazz"].owner_written
    for fact in document["facts"]:
        del fact["owner_written"]  # as exported before m019
    await restore(kit.services.db, document, "older", at_restore(kit.services))
    assert not any(f.owner_written for f in await kit.facts(user="older"))
