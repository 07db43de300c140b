"""`kit forget` and notes: whole versions go (never lines cut out of a document), the notes in
use with them, a record keeps how much; `--dry-run` lists the notes."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import pytest

from kit.api import Kit
from kit.cli import main
from kit.clock import FakeClock
from kit.forget.forgetter import Forgetter
from kit.forget.plan import ForgetReport
from kit.forget.scope import ForgetScope
from kit.retrieval.kinds import NOTES
from tests.support.erased import gone_from_store

pytestmark = pytest.mark.stores


async def _forget(kit: Kit, scope: ForgetScope, *, dry_run: bool = False) -> ForgetReport:
    s = kit.services
    return await Forgetter(s.db, s.tz, s.forget_ledger).forget(
        "owner", scope, now=s.clock.now(), dry_run=dry_run
    )


async def test_a_time_range_takes_the_versions_written_in_it(kit: Kit, clock: FakeClock) -> None:
    clock.set(clock.now().replace(day=1, month=2))
    await kit.add_note("quince jam: boil slowly", name="jam")
    await kit.add_note("old brief about the marigold project", name="brief")
    clock.advance(timedelta(days=10))  # 11 February
    await kit.add_note("new brief about the zinnia project", name="brief", replace=True)
    await kit.add_note("plum cake", name="cake")
    clock.advance(timedelta(days=10))
    scope = ForgetScope.time(after=date(2026, 2, 5), before=date(2026, 2, 15))
    preview = await _forget(kit, scope, dry_run=True)
    assert (preview.note_versions_erased, preview.notes_removed) == (2, 2)
    assert [(s.label, s.text) for s in preview.notes] == [
        ("note brief", "new brief about the zinnia project"),
        ("note cake", "plum cake"),
    ]
    assert len(await kit.notes()) == 3  # a dry run changes nothing
    report = await _forget(kit, scope)
    assert report.note_versions_erased == 2
    assert [n.name for n in await kit.notes()] == ["jam"]
    # The brief's earlier version, written before the range, is kept in its history.
    [add] = await kit.note_history("brief")  # the erased version lost its name too
    assert add.kept and add.operation == "add"
    assert await kit.search("zinnia", kinds=(NOTES,)) == []
    assert await gone_from_store(kit.services.db, "zinnia", "plum cake")
    counts = json.loads(await kit.services.db.scalar("SELECT counts_json FROM forget_log"))
    assert counts["note_versions_erased"] == 2 and counts["notes_removed"] == 2
    [record] = [r for r in await kit.note_history() if r.operation == "forget"]
    assert record.source == "2 versions erased" and record.name == ""


async def test_a_person_takes_every_version_naming_them_whole(kit: Kit) -> None:
    await kit.add_note("Gift ideas for Ana: a scarf, tulips", name="gifts")
    await kit.add_note("Call the plumber", name="todo")
    await kit.add_note("Bruno and Ana come on Friday", name="weekend")
    await kit.add_note("Bruno comes on Friday", name="weekend", replace=True)
    await kit.add_note("x", name="ana-birthday", description="Party plan")
    await kit.remove_note("ana-birthday")
    report = await _forget(kit, ForgetScope.named("Ana"))
    assert (report.note_versions_erased, report.notes_removed) == (3, 1)
    assert [n.name for n in await kit.notes()] == ["todo", "weekend"]
    assert (await kit.note("weekend")).text == "Bruno comes on Friday"  # not cut, not lost
    [kept] = await kit.note_history("weekend")  # the version naming Ana lost its name too
    assert kept.kept and kept.operation == "replace"
    names = [r.name for r in await kit.note_history()]
    assert "gifts" not in names and "ana-birthday" not in names  # its removal row too
    assert await gone_from_store(kit.services.db, "scarf", "Party plan")


async def test_a_note_that_does_not_name_the_person_is_left_whole(kit: Kit) -> None:
    await kit.add_note("Anabel's recipe: bananas and oats", name="recipe")
    report = await _forget(kit, ForgetScope.named("Ana"))
    assert report.note_versions_erased == 0 and len(await kit.notes()) == 1


def test_cli_dry_run_lists_the_notes_and_forget_takes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("KIT_CONFIG", str(tmp_path / "c.toml"))
    (tmp_path / "c.toml").write_text('[schedule]\ntimezone = "UTC"\n')
    (tmp_path / "gifts.md").write_text("# Gifts for Ana\n- scarf\n")
    assert main(["notes", "add", str(tmp_path / "gifts.md")]) == 0
    capsys.readouterr()
    assert main(["forget", "--person", "Ana", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "1 note versions (whole documents; 1 notes in use)" in out
    assert "Notes (whole versions) (1):" in out and "note gifts: Gifts for Ana" in out
    assert "Nothing was changed" in out
    assert main(["forget", "--person", "Ana", "--yes"]) == 0
    assert main(["notes", "list"]) == 0
    assert "No notes yet" in capsys.readouterr().out
