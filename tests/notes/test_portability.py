"""Notes leave with `kit export` and come back with `kit import`, and `kit backup` copies them."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.errors import InputError
from kit.llm.fake import FakeLLM
from kit.portability.backup import backup_database
from kit.portability.export import export_document, to_json, to_markdown
from kit.portability.export_check import validate
from kit.portability.restore import restore
from kit.retrieval.kinds import NOTES
from tests.support.receipts import at_restore

pytestmark = pytest.mark.stores


async def _export(kit: Kit, user: str = "owner") -> dict[str, Any]:
    s = kit.services
    return json.loads(to_json(await export_document(s.db, user, s.clock.now())))


@pytest.fixture
async def fresh(elsewhere: Callable[[str], Settings], clock: FakeClock) -> AsyncIterator[Kit]:
    async with Kit.open(
        settings=elsewhere("fresh"),
        llm=FakeLLM(),
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as opened:
        yield opened


async def _notes(kit: Kit) -> None:
    await kit.add_note("# Jam\nquince, sugar", name="jam", source="file jam.md")
    await kit.add_note("# Brief\nmarigold project", name="brief")
    await kit.add_note("# Brief\nzinnia project", name="brief", replace=True)
    await kit.add_note("gone text", name="old")
    await kit.remove_note("old")
    await kit.add_note("erased text", name="secret-ish")
    await kit.erase_note("secret-ish")


async def test_export_holds_every_note_and_version_and_restore_brings_them_back(
    kit: Kit, fresh: Kit
) -> None:
    await _notes(kit)
    document = await _export(kit)
    assert [n["name"] for n in document["notes"]] == ["brief", "jam"]
    texts = [(h["operation"], h["name"], h["text"]) for h in document["note_history"]]
    assert ("replace", "brief", "# Brief\nzinnia project") in texts
    assert ("add", "brief", "# Brief\nmarigold project") in texts  # the replaced version
    assert ("add", "old", "gone text") in texts and ("remove", "old", None) in texts
    assert ("add", "", None) in texts  # the erased one: neither name nor text
    assert "erased text" not in json.dumps(document)
    assert document["counts"]["notes"] == 2 and document["counts"]["note_history"] == 7
    result = await restore(fresh.services.db, document, "owner", at_restore(fresh.services))
    assert result.notes == 2
    again = await _export(fresh)
    assert {k: v for k, v in again.items() if k != "exported_at"} == {
        k: v for k, v in document.items() if k != "exported_at"
    }
    hits = await fresh.search("zinnia", kinds=(NOTES,))  # its sections were rebuilt
    assert [h.note.name for h in hits if h.note] == ["brief"]
    assert (await fresh.note("brief")).text == "# Brief\nzinnia project"


async def test_restore_next_to_another_users_notes_renumbers_and_keeps_links(
    kit: Kit,
) -> None:
    await _notes(kit)
    document = await _export(kit)
    await restore(kit.services.db, document, "copy", at_restore(kit.services))
    assert [n.name for n in await kit.notes(user="copy")] == ["brief", "jam"]
    assert (await kit.note("brief", user="copy")).text == "# Brief\nzinnia project"
    assert len(await kit.note_history(user="copy")) == len(document["note_history"])


async def test_an_export_from_before_notes_is_still_restored(kit: Kit, fresh: Kit) -> None:
    document = await _export(kit)
    document["version"] = 3
    del document["notes"], document["note_history"]
    validate(document, "v2.json")
    await restore(fresh.services.db, document, "owner", at_restore(fresh.services))
    assert await fresh.notes() == []


@pytest.mark.parametrize(
    ("damage", "place"),
    [
        (lambda d: d["notes"][0].update(revision_id=999), "notes[0].revision_id"),
        (lambda d: d["note_history"][0].update(operation="delete"), "note_history[0].operation"),
        (lambda d: d["note_history"][0].update(text=7), "note_history[0].text"),
        (lambda d: d["note_history"][0].pop("at"), "note_history[0].at is missing"),
        (lambda d: d.update(notes={}), "notes must be a list of objects"),
    ],
)
async def test_a_damaged_notes_part_is_refused_whole_naming_the_place(
    kit: Kit, fresh: Kit, damage: Any, place: str
) -> None:
    await _notes(kit)
    document = await _export(kit)
    damage(document)
    with pytest.raises(InputError, match=place.replace("[", r"\[").replace("]", r"\]")):
        validate(document, "x.json")


async def test_markdown_export_shows_each_note_and_the_history(kit: Kit) -> None:
    await _notes(kit)
    text = "".join(to_markdown(await _export(kit), kit.services.tz))
    assert "## Notes\n\n### brief: Brief\n\n2 lines" in text
    assert "> # Brief\n> zinnia project" in text  # quoted: a note cannot forge a heading
    assert "**erase** (erased) by api" in text


@pytest.mark.stores("sqlite")  # `kit backup` copies the SQLite file; PostgreSQL has pg_dump
async def test_a_backup_holds_the_notes(kit: Kit, tmp_path: Path) -> None:
    await _notes(kit)
    target = tmp_path / "copy.db"
    backup_database(kit.services.db.path, target)
    copy = sqlite3.connect(target)
    try:
        rows = copy.execute("SELECT name FROM notes ORDER BY name").fetchall()
        versions = copy.execute("SELECT COUNT(*) FROM note_history").fetchone()[0]
    finally:
        copy.close()
    assert rows == [("brief",), ("jam",)] and versions == 7
