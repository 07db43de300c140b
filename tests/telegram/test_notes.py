"""Files sent to the bot become notes: the real python-telegram-bot Application against the
local Bot API server, which serves getFile and the file download."""

from __future__ import annotations

import json

import pytest

from kit.api import Kit
from kit.channels.replies import NON_TEXT, NOTE_SAVED
from kit.config import Settings
from kit.llm.fake import FakeLLM
from kit.notes.text import MAX_NOTE_BYTES
from tests.servers.telegram_api import FakeTelegramServer, origin_user
from tests.telegram.conftest import (
    ANA_TG,
    OWNER_TG,
    STRANGER_TG,
    ChannelFactory,
    running,
    telegram_settings,
)

LIST = b"# Packing list for Lisbon\n\n- passport\n- sunscreen\n"
FAMILY = -1001234567890


async def test_a_markdown_file_becomes_a_note_with_a_confirmation_and_provenance(
    kit: Kit, fake_llm: FakeLLM, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    async with running(make_channel()):
        pushed = tg.push_document(OWNER_TG, LIST, file_name="Packing List.md")
        [sent] = await tg.async_wait_for_sent(1)
    assert sent["chat_id"] == OWNER_TG and "parse_mode" not in sent
    assert sent["text"] == (
        f'Added note "packing-list" (4 lines, {len(LIST.rstrip())} bytes): Packing list for '
        f"Lisbon\n{NOTE_SAVED}"
    )
    assert tg.downloads == ["documents/doc-1"]
    note = await kit.note("packing-list")
    assert note.text == LIST.decode().rstrip("\n")
    [entry] = await kit.note_history("packing-list")
    message_id = pushed["message"]["message_id"]
    assert (entry.actor, entry.source) == (
        "owner",
        f"telegram message {message_id} (Packing List.md)",
    )
    assert fake_llm.requests == []  # no model call, and nothing stored as a message
    assert await kit.services.db.scalar("SELECT COUNT(*) FROM messages") == 0


async def test_the_same_file_name_again_replaces_the_note_and_keeps_the_old_version(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    async with running(make_channel()):
        tg.push_document(OWNER_TG, LIST, file_name="packing-list.md")
        await tg.async_wait_for_sent(1)
        tg.push_document(OWNER_TG, LIST + b"- camera\n", file_name="packing-list.md")
        sent = await tg.async_wait_for_sent(2)
    assert sent[1]["text"].startswith('Replaced note "packing-list"')
    assert "previous version stays in its history" in sent[1]["text"]
    assert (await kit.note("packing-list")).text.endswith("- camera")
    assert [r.operation for r in await kit.note_history("packing-list")] == ["add", "replace"]


@pytest.mark.parametrize(
    ("content", "file_name", "says"),
    [
        (b"%PDF-1.7 ...", "scan.pdf", "Scan.pdf: this is a PDF, not UTF-8 text"),
        (b"PK\x03\x04....", "brief.docx", "Brief.docx: this is a ZIP archive"),
        ("olá".encode("latin-1"), "old.txt", "Old.txt: not UTF-8 text"),
        (b"\n \n", "empty.md", "Empty.md: the document is empty"),
    ],
)
async def test_a_file_that_is_not_utf8_text_is_refused_saying_what_it_is(
    kit: Kit,
    tg: FakeTelegramServer,
    make_channel: ChannelFactory,
    content: bytes,
    file_name: str,
    says: str,
) -> None:
    async with running(make_channel()):
        tg.push_document(OWNER_TG, content, file_name=file_name, mime_type=None)
        [sent] = await tg.async_wait_for_sent(1)
    assert sent["text"].startswith(says)
    assert await kit.notes() == [] and await kit.note_history() == []


async def test_a_file_over_the_cap_is_refused_before_it_is_downloaded(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    async with running(make_channel()):
        tg.push_document(OWNER_TG, b"x" * 10, file_name="huge.txt", file_size=3 * 1024 * 1024)
        tg.push_document(OWNER_TG, b"y\n" * MAX_NOTE_BYTES, file_name="liar.txt", file_size=10)
        sent = await tg.async_wait_for_sent(2)
    assert sent[0]["text"].startswith(
        "Huge.txt: 3.0 MB (3,145,728 bytes) is over the limit for a note (262,144 bytes: 256 KB)"
    )
    assert sent[1]["text"].startswith("Liar.txt: 524,288 bytes is over the limit")  # checked again
    assert tg.downloads == ["documents/doc-2"]  # only the one that said it was small
    assert await kit.notes() == []


async def test_a_secret_in_the_file_is_withheld_and_the_owner_told_which_line(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    async with running(make_channel()):
        tg.push_document(OWNER_TG, b"House\nthe gate code is 4711\n", file_name="house.txt")
        [sent] = await tg.async_wait_for_sent(1)
    assert "line 2: a PIN or access code" in sent["text"] and "4711" not in sent["text"]
    assert "4711" not in (await kit.note("house")).text


async def test_each_user_keeps_their_own_notes_and_strangers_are_refused(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    async with running(make_channel()):
        tg.push_document(ANA_TG, LIST, file_name="list.md")
        tg.push_document(STRANGER_TG, LIST, file_name="evil.md")
        sent = await tg.async_wait_for_sent(2)
    assert {s["chat_id"] for s in sent} == {ANA_TG, STRANGER_TG}
    assert [n.name for n in await kit.notes(user="ana")] == ["list"]
    assert await kit.notes() == [] and tg.downloads == ["documents/doc-1"]


async def test_a_file_without_a_name_and_a_forwarded_file_are_kept_with_their_origin(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    async with running(make_channel()):
        first = tg.push_document(OWNER_TG, b"just text", file_name=None)
        tg.push_document(
            OWNER_TG,
            b"# Agenda\n- budget",
            file_name="agenda.md",
            forward_origin=origin_user(7, "Bo"),
        )
        await tg.async_wait_for_sent(2)
    message_id = first["message"]["message_id"]
    assert [n.name for n in await kit.notes()] == ["agenda", f"telegram-{message_id}"]
    [entry] = await kit.note_history("agenda")
    assert entry.source.endswith("(agenda.md), forwarded from Bo")


async def test_a_file_in_a_group_is_not_kept_as_a_note(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory, settings: Settings
) -> None:
    allowed = telegram_settings(settings, tg, groups={str(FAMILY): "family"})
    async with running(make_channel(settings=allowed)):
        tg.push_document(OWNER_TG, LIST, file_name="list.md", chat_id=FAMILY)
        [sent] = await tg.async_wait_for_sent(1)
    assert sent == {"chat_id": FAMILY, "text": NON_TEXT}
    assert tg.downloads == [] and await kit.notes(user="family") == []


async def test_a_file_sent_over_telegram_is_named_and_sourced_without_the_password_in_its_name(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    """The Telegram document path names the note from the file name itself."""
    async with running(make_channel()):
        tg.push_document(OWNER_TG, b"router settings\n", file_name="wifi password=Hunter2024!.txt")
        [sent] = await tg.async_wait_for_sent(1)
    assert "Hunter2024" not in sent["text"] and "wifi-password-withheld" in sent["text"]
    assert "Hunter2024" not in json.dumps(await kit.services.notes.index("owner"))
    [entry] = await kit.note_history("wifi-password-withheld")
    assert entry.source.endswith("(wifi password=[secret withheld].txt)")
