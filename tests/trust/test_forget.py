"""`kit forget`: what the owner takes back is gone everywhere, in one step, with a record that
(not what) was forgotten."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from kit.api import Kit
from kit.cli import main
from kit.clock import FakeClock
from kit.config import CATEGORIES, Settings, load_settings
from kit.daemon.lock import DataDirLock
from kit.embed.hashing import HashingEmbedder
from kit.errors import InputError
from kit.forget.forgetter import Forgetter
from kit.forget.scope import ForgetScope
from kit.llm.base import LLMReply, LLMRequest, TextSink, ToolUse
from kit.memory.fact_writer import FORGOTTEN, Provenance
from kit.portability.export import export_document, to_json
from tests.support.crash import crash_on_insert
from tests.support.curation import shown_ids
from tests.support.erased import gone_from_store
from tests.support.small_memory import seed

pytestmark = pytest.mark.stores


async def _dump(kit: Kit) -> str:
    """Everything the owner's memory holds, as text (export + raw derived tables)."""
    s = kit.services
    document = to_json(await export_document(s.db, "owner", s.clock.now()))
    extra = await s.db.fetchall("SELECT * FROM passes")
    return document + json.dumps([tuple(r) for r in extra])


async def _forget(kit: Kit, scope: ForgetScope, dry_run: bool = False):  # type: ignore[no-untyped-def]
    s = kit.services
    report = await Forgetter(s.db, s.tz, s.forget_ledger).forget(
        "owner", scope, now=s.clock.now(), dry_run=dry_run
    )
    s.vectors.forget_cache("owner")
    return report


async def test_forgetting_a_person_removes_every_trace_from_rows_indexes_and_file(
    kit: Kit, clock: FakeClock
) -> None:
    seeded = await seed(kit, clock)
    assert await kit.search("Ana cardiologist")
    report = await _forget(kit, ForgetScope.named("ana"))
    assert report.messages_removed == 3  # the two chat messages naming her and the old note
    assert report.facts_forgotten == 2  # Ana's dossier and Bruno's (which named her once)
    assert report.days_rewritten == 1 and report.days_removed == 1  # "- Weather" stays
    assert report.conversation_summaries_rewritten == 1
    chat = await kit.services.messages.conversation("owner", "telegram", "42")
    assert chat.window_summary == "They like tea."

    dump = await _dump(kit)
    assert "ana" not in dump.lower().replace("banana", "")
    assert "cardiolog" not in dump.lower()
    assert await gone_from_store(kit.services.db, "cardiolog")  # free pages, WAL, FTS segments
    assert await kit.search("Ana cardiologist") == []
    assert await kit.search("Lisbon") == []

    ana = await kit.services.facts.get("owner", seeded.fact_ids["ana"])
    assert (ana.content, ana.subject, ana.active) == (FORGOTTEN, "", False)
    history = await kit.fact_history(ana.id)
    assert history[-1].operation == "forget" and history[-1].actor == "owner"
    kept = await kit.services.facts.get("owner", seeded.fact_ids["merged"])
    assert kept.content == "Kit and zebracode projects." and kept.active
    day = await kit.day(date(2026, 2, 22))
    assert day is not None and "zebracode" in day.detailed  # unrelated days untouched
    rows = await kit.services.db.fetchall("SELECT item_id FROM embeddings WHERE kind = 'message'")
    assert seeded.message_ids["ana"] not in {r[0] for r in rows}


async def test_forgetting_a_time_range_takes_its_messages_facts_and_days(
    kit: Kit, clock: FakeClock
) -> None:
    seeded = await seed(kit, clock)
    # Days 2026-02-21 .. 2026-02-23: the Kit and zebracode messages of the 22nd.
    report = await _forget(kit, ForgetScope.time(after=date(2026, 2, 20), before=date(2026, 2, 24)))
    assert report.messages_removed == 2 and report.days_removed == 1
    # Learned from those messages: the Kit fact, the zebracode fact and the merge of both.
    assert report.facts_forgotten == 3
    # They were still in the window (not folded into its summary), so the summary stays.
    assert report.conversation_summaries_rewritten == 0
    dump = (await _dump(kit)).lower()
    assert "zebracode" not in dump and "memory-first" not in dump
    assert await gone_from_store(kit.services.db, "zebracode")
    texts = [
        m["text"]
        for m in json.loads(to_json(await export_document(kit.services.db, "owner", clock.now())))[
            "messages"
        ]
    ]
    assert "My sister Ana is a cardiologist in Lisbon." in texts  # before the range: kept
    assert "Lunch with Bruno on Friday, he likes ramen." in texts  # after the range: kept
    bruno = await kit.services.facts.get("owner", seeded.fact_ids["bruno"])
    assert bruno.active and bruno.content == "Bruno likes ramen; lunch on Fridays."
    for entry in await kit.fact_history(seeded.fact_ids["bruno"]):
        assert set(entry.source_message_ids) <= set(seeded.message_ids.values())


async def test_the_forget_record_keeps_counts_and_kind_but_no_content(
    kit: Kit, clock: FakeClock
) -> None:
    await seed(kit, clock)
    await _forget(kit, ForgetScope.named("Bruno"))
    rows = await kit.services.db.fetchall("SELECT user_id, at, scope, counts_json FROM forget_log")
    assert len(rows) == 1
    user_id, _, scope, counts = rows[0]
    assert (user_id, scope) == ("owner", "person")
    assert json.loads(counts)["messages_removed"] == 1
    assert "bruno" not in counts.lower()


async def test_forgetting_a_person_takes_the_messages_forwarded_from_them(
    kit: Kit, clock: FakeClock
) -> None:
    chat = await kit.services.messages.conversation("owner", "telegram", "7")
    add = kit.services.messages.add
    theirs = await add(chat, "user", "My flight lands at 6", forwarded_from="Carla Dias")
    mine = await add(chat, "user", "Pick her up then")
    report = await _forget(kit, ForgetScope.named("Carla"))
    assert report.messages_removed == 1
    kept = await kit.services.messages.window(chat.id)
    assert [m.id for m in kept] == [mine.id] and theirs.id != mine.id


async def test_dry_run_counts_without_changing_anything(kit: Kit, clock: FakeClock) -> None:
    await seed(kit, clock)
    before = await _dump(kit)
    report = await _forget(kit, ForgetScope.named("Ana"), dry_run=True)
    assert report.dry_run and report.messages_removed == 3
    assert await _dump(kit) == before
    assert await kit.services.db.scalar("SELECT COUNT(*) FROM forget_log") == 0


async def test_a_forget_that_fails_midway_changes_nothing(kit: Kit, clock: FakeClock) -> None:
    """One transaction: a failure at the last step (the log row) rolls back every delete."""
    await seed(kit, clock)
    before = await _dump(kit)
    await crash_on_insert(kit.services.db, "forget_log", "boom")
    with pytest.raises(Exception, match="boom"):
        await _forget(kit, ForgetScope.named("Ana"))
    assert await _dump(kit) == before


async def test_forgetting_twice_finds_nothing_more(kit: Kit, clock: FakeClock) -> None:
    await seed(kit, clock)
    await _forget(kit, ForgetScope.named("Ana"))
    again = await _forget(kit, ForgetScope.named("Ana"))
    assert again.total == 0


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--before", "99999-01-01"], "is not a date"),
        (["--after", "yesterday-ish"], "is not a date"),
        (["--after", "2026-03-01", "--before", "2026-03-02"], "no day lies strictly after"),
        (["--person", "A"], "too short"),
        (["--person", "Ana", "--before", "2026-01-01"], "not both"),
        ([], "say what to forget"),
    ],
)
def test_bad_forget_flags_get_one_line_and_exit_2(
    flags: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("KIT_CONFIG", str(tmp_path / "none.toml"))
    (tmp_path / "none.toml").write_text("")
    assert main(["forget", *flags]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "data").exists()  # checked before the database is touched


def test_cli_forget_without_yes_on_a_pipe_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("KIT_CONFIG", str(tmp_path / "none.toml"))
    (tmp_path / "none.toml").write_text('[schedule]\ntimezone = "UTC"\n')
    rows = [{"role": "user", "text": "Ana likes tulips", "at": "2026-01-01T10:00:00Z"}]
    (tmp_path / "a.jsonl").write_text(json.dumps(rows[0]) + "\n")
    assert main(["import", "--no-embed", str(tmp_path / "a.jsonl")]) == 0
    monkeypatch.setattr("sys.stdin", open(tmp_path / "a.jsonl"))
    try:
        assert main(["forget", "--person", "Ana"]) == 2
    finally:
        import sys

        sys.stdin.close()
    out = capsys.readouterr()
    assert "1 message," in out.out and "add --yes" in out.err
    assert main(["forget", "--person", "Ana", "--yes"]) == 0
    assert "Forgotten: 1 message," in capsys.readouterr().out


def test_scope_rejects_an_empty_range() -> None:
    with pytest.raises(InputError):
        ForgetScope.time()


async def test_forgetting_messages_already_folded_into_a_window_summary_clears_it(
    kit: Kit, clock: FakeClock
) -> None:
    """A rolling summary cannot be split by date, so one that absorbed lost messages goes."""
    await seed(kit, clock)
    report = await _forget(kit, ForgetScope.time(before=date(2026, 2, 21)))
    assert report.messages_removed == 3 and report.conversation_summaries_rewritten == 1
    chat = await kit.services.messages.conversation("owner", "telegram", "42")
    assert chat.window_summary == ""
    window = await kit.services.messages.window(chat.id)
    assert window[0].text.startswith("I am building Kit")


class _HeldCurator:
    """A curator model that learns a fact about Ana (or answers invalidly, quoting her), held
    mid-call until released."""

    def __init__(self, expires_at: str | None = None) -> None:
        self.entered = asyncio.Event()
        self.release = asyncio.Event()
        self.expires_at = expires_at

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        ops: list[dict[str, object]] = []
        if request.purpose == "curate:people":
            self.entered.set()
            await self.release.wait()
            ops = [{"op": "INSERT", "subject": "Ana", "content": "Ana is a cardiologist"}]
            ops[0].update(confidence=0.9, sources=shown_ids(request.system[0].text))
            if self.expires_at is not None:
                ops[0]["expires_at"] = self.expires_at
        return LLMReply((ToolUse("t", "apply_operations", {"operations": ops}),), "tool_use")


@pytest.mark.parametrize("expires_at", [None, "when Ana visits"], ids=["valid", "invalid"])
async def test_a_curation_pass_in_flight_cannot_bring_back_what_was_just_forgotten(
    settings: Settings, clock: FakeClock, expires_at: str | None
) -> None:
    """Applied or thrown out, a pass that read forgotten messages writes nothing: neither the
    fact nor a record of the rejection (whose reason may quote them)."""
    model = _HeldCurator(expires_at)
    async with Kit.open(
        settings=settings, llm=model, embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        s = kit.services
        chat = await s.messages.conversation("owner", "api", "c")
        await s.messages.add(chat, "user", "My sister Ana is a cardiologist.")
        clock.advance(timedelta(minutes=31))
        async with asyncio.TaskGroup() as group:
            sweep = group.create_task(s.curator.sweep_idle(clock.now()))
            await model.entered.wait()  # the model is reading Ana's message right now
            await _forget(kit, ForgetScope.named("Ana"))
            model.release.set()
        assert sweep.result() < len(CATEGORIES)  # the people pass was thrown out
        assert await kit.facts(include_inactive=True) == []
        assert await kit.services.curator.sweep_idle(clock.now()) == 0  # nothing left to learn
        records = await s.db.fetchall("SELECT reason, detail_json FROM passes")
        assert records and "Ana" not in str([tuple(r) for r in records])


def test_forget_refuses_while_a_daemon_holds_the_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The daemon's memory (its vector index, a conversation in flight) must not keep what a
    forget erases: stop it first."""
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("KIT_CONFIG", str(tmp_path / "none.toml"))
    (tmp_path / "none.toml").write_text("")
    daemon = DataDirLock(tmp_path / "data")
    daemon.acquire("daemon")
    try:
        assert main(["forget", "--person", "Ana", "--yes"]) == 2
    finally:
        daemon.release()
    err = capsys.readouterr().err
    assert "a Kit daemon (pid" in err and "stop it first" in err and err.count("\n") == 1
    assert not (tmp_path / "data" / "kit.db").exists()


def _memory_for_the_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Twelve messages naming Ana (one long), one that does not, and two facts about her."""
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("KIT_CONFIG", str(tmp_path / "none.toml"))
    (tmp_path / "none.toml").write_text('[schedule]\ntimezone = "UTC"\n')

    async def fill() -> None:
        async with Kit.open(settings=load_settings(), with_embedder=False) as kit:
            s = kit.services
            chat = await s.messages.conversation("owner", "api", "c")
            at = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
            await s.messages.add(chat, "user", "Ana likes tulips. " + "x" * 200, at=at)
            for n in range(11):
                await s.messages.add(chat, "user", f"Ana note {n}", at=at + timedelta(days=1))
            await s.messages.add(chat, "user", "Nothing about anyone", at=at)
            for text in ("Ana is the owner's sister", "Ana likes tulips"):
                await s.facts.add(
                    "owner", category="people", content=text, provenance=Provenance("api", "")
                )

    asyncio.run(fill())


def test_dry_run_lists_the_first_messages_and_facts_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not only counts: what would go, with ids, dates and clipped text."""
    _memory_for_the_cli(tmp_path, monkeypatch)
    assert main(["forget", "--person", "Ana", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "12 messages, 2 facts" in out and "Nothing was changed (dry run)." in out
    assert "Messages (first 10 of 12):" in out and "Facts (2):" in out
    lines = out.splitlines()
    first = next(line for line in lines if "Ana likes tulips. x" in line)
    assert first.startswith("  #1  2026-01-05  you: ") and first.endswith("…")
    assert len(first) < 100
    assert "  #4  2026-01-06  you: Ana note 2" in lines
    assert any(line.endswith("people: Ana is the owner's sister") for line in lines)
    assert "Ana note 10" not in out  # the eleventh and twelfth are counted, not listed
    assert main(["forget", "--person", "Ana", "--dry-run"]) == 0
    assert capsys.readouterr().out == out  # nothing was changed


def test_a_dry_run_may_run_beside_a_daemon(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A dry run only reads, so a running daemon does not stop it (a real forget it does)."""
    _memory_for_the_cli(tmp_path, monkeypatch)
    daemon = DataDirLock(tmp_path / "data")
    daemon.acquire("daemon")
    try:
        assert main(["forget", "--person", "Ana", "--dry-run"]) == 0
        assert "12 messages" in capsys.readouterr().out
        assert main(["forget", "--person", "Ana", "--yes"]) == 2
    finally:
        daemon.release()
