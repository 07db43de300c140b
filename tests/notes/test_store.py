"""Notes and their history: every write recorded, replaced and removed versions kept, erase
and the search indexes (FTS and vectors) following the rows."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.errors import InputError, NotFound
from kit.notes.store import NoteExists
from kit.retrieval.kinds import KINDS, NOTES

pytestmark = pytest.mark.stores

LIST = "# Lisbon packing\n\n- passport\n- sunscreen\n- linen shirts"
LIST_2 = "# Lisbon packing\n\n- passport\n- sunscreen\n- swimsuit"


async def _count(kit: Kit, sql: str) -> int:
    return int(await kit.services.db.scalar(sql))


async def test_adding_a_note_records_who_when_where_and_what(kit: Kit, clock: FakeClock) -> None:
    written = await kit.add_note(
        LIST, file_name="Lisbon Packing.md", actor="owner", source="file x"
    )
    assert written.operation == "add" and written.note.name == "lisbon-packing"
    assert written.note.description == "Lisbon packing" and written.note.lines == 5
    [entry] = await kit.note_history("lisbon-packing")
    assert (entry.operation, entry.actor, entry.source, entry.at) == (
        "add", "owner", "file x", clock.now(),
    )  # fmt: skip
    assert entry.kept and entry.lines == 5 and entry.bytes == len(LIST) and entry.content_hash
    assert (await kit.note("Lisbon-Packing")).text == LIST  # names are case-insensitive


async def test_an_existing_name_is_refused_without_replace_and_nothing_changes(kit: Kit) -> None:
    await kit.add_note(LIST, name="trip")
    with pytest.raises(NoteExists, match=r"already a note named 'trip'.*--replace"):
        await kit.add_note(LIST_2, name="Trip")
    assert (await kit.note("trip")).text == LIST
    assert len(await kit.note_history("trip")) == 1


async def test_replacing_keeps_the_previous_version_in_the_history(
    kit: Kit, clock: FakeClock
) -> None:
    await kit.add_note(LIST, name="trip")
    clock.advance(timedelta(hours=1))
    written = await kit.add_note(LIST_2, name="trip", replace=True, source="telegram message 9")
    assert written.operation == "replace" and (await kit.note("trip")).text == LIST_2
    first, second = await kit.note_history("trip")
    assert (first.operation, second.operation) == ("add", "replace")
    _, old_text = await kit.services.notes.revision_text("owner", first.id)
    assert old_text == LIST
    assert written.note.created_at < written.note.updated_at


async def test_writing_the_same_text_again_changes_nothing(kit: Kit) -> None:
    await kit.add_note(LIST, name="trip")
    again = await kit.add_note(LIST, name="trip", replace=True)
    assert again.operation == "unchanged" and len(await kit.note_history("trip")) == 1


async def test_removing_stops_using_a_note_but_keeps_its_versions(kit: Kit) -> None:
    await kit.add_note(LIST, name="trip")
    removed = await kit.remove_note("trip")
    assert removed.name == "trip" and await kit.notes() == []
    with pytest.raises(NotFound, match="no note named 'trip'; there are no notes yet"):
        await kit.note("trip")
    add, remove = await kit.note_history("trip")
    assert remove.operation == "remove" and add.kept
    assert await _count(kit, "SELECT COUNT(*) FROM note_chunks") == 0


async def test_erasing_takes_every_version_and_keeps_only_that_it_happened(kit: Kit) -> None:
    await kit.add_note(LIST, name="trip")
    await kit.add_note(LIST_2, name="trip", replace=True)
    await kit.add_note("other text", name="other")
    erased = await kit.erase_note("trip")
    assert (erased.versions, erased.removed) == (2, True)
    assert [n.name for n in await kit.notes()] == ["other"]
    rows = await kit.services.db.fetchall(
        "SELECT name, operation, body, description, source, content_hash FROM note_history"
        " WHERE name != 'other' ORDER BY id"
    )
    assert [tuple(r) for r in rows] == [
        ("", "add", None, "", "", ""),
        ("", "replace", None, "", "", ""),
        ("", "erase", None, "", "2 versions erased", ""),
    ]
    with pytest.raises(NotFound):
        await kit.erase_note("trip")


async def test_sections_are_searchable_by_words_and_by_vectors_and_follow_the_note(
    kit: Kit,
) -> None:
    await kit.add_note(LIST, name="trip")
    both = (*KINDS, NOTES)
    hits = await kit.search("sunscreen", kinds=both)
    assert [(h.kind, h.note.name if h.note else None) for h in hits] == [("note", "trip")]
    assert hits[0].lexical_rank == 1 and hits[0].vector_rank is None  # not embedded yet
    await kit.settle()
    assert await _count(kit, "SELECT COUNT(*) FROM embeddings WHERE kind = 'note'") == 1
    hits = await kit.search("passport sunscreen linen shirts", kinds=both)
    assert hits[0].vector_rank == 1 and hits[0].note is not None
    assert (hits[0].note.start_line, hits[0].note.end_line) == (1, 5)
    assert await kit.search("sunscreen") == []  # the turn's layers do not include notes
    await kit.add_note(LIST_2, name="trip", replace=True)
    # The old section, its FTS entry and its vector went with it.
    assert await _count(kit, "SELECT COUNT(*) FROM embeddings WHERE kind = 'note'") == 0
    assert await kit.search("linen", kinds=both) == []
    await kit.settle()
    assert [h.note.name for h in await kit.search("swimsuit", kinds=both) if h.note] == ["trip"]
    await kit.remove_note("trip")
    assert await kit.search("swimsuit", kinds=both) == []
    assert await _count(kit, "SELECT COUNT(*) FROM embeddings WHERE kind = 'note'") == 0


async def test_notes_belong_to_their_user(kit: Kit) -> None:
    await kit.add_note(LIST, name="trip", user="ana")
    assert await kit.notes() == [] and [n.name for n in await kit.notes(user="ana")] == ["trip"]
    assert await kit.search("sunscreen", kinds=(NOTES,)) == []
    assert len(await kit.search("sunscreen", kinds=(NOTES,), user="ana")) == 1
    await kit.add_note(LIST_2, name="trip")  # the same name, another user: no conflict


async def test_a_withheld_secret_never_reaches_the_log(
    kit: Kit, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    written = await kit.add_note("door\nthe alarm code is 5512\n", name="house")
    assert "5512" not in (await kit.note("house")).text and written.withheld
    assert "5512" not in caplog.text
    assert await _count(kit, "SELECT COUNT(*) FROM note_history WHERE body LIKE '%5512%'") == 0
    assert await _count(kit, "SELECT COUNT(*) FROM note_chunks WHERE text LIKE '%5512%'") == 0


async def test_a_bad_document_writes_nothing(kit: Kit) -> None:
    with pytest.raises(InputError, match=r"scan\.pdf: this is a PDF"):
        await kit.add_note(b"%PDF-1.4 ...", file_name="scan.pdf")
    assert await _count(kit, "SELECT COUNT(*) FROM note_history") == 0
