"""A reply Kit wrote in the model's place is known by its source (`KIT_WROTE`), not by its
words: the model's window and curation leave it out however those words change, and the
replies an older Kit stored before the source existed are marked by m037 / pg037."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit.api import Kit
from kit.clock import FakeClock, to_iso
from kit.curator.progress import CURATED_SOURCES
from kit.store.db import Database
from kit.store.migrate import migrate
from kit.turn_reply import KIT_WROTE, UNMADE_STORE
from tests.servers.openai_api import FakeOpenAIServer
from tests.support.schema import blank_store, migrate_before

pytestmark = pytest.mark.stores


async def _stored(kit: Kit, clock: FakeClock) -> list[tuple[str, str, str]]:
    return [(m.role, m.text, m.source) for m in await kit.messages_on(clock.now().date())]


async def test_a_reply_kit_wrote_is_stored_as_kits_and_the_models_as_the_channels(
    local: tuple[Kit, FakeOpenAIServer], clock: FakeClock
) -> None:
    kit, server = local
    server.queue_text('I stored the fact "The owner has a dog called Biscuit." as fact #2.')
    await kit.send("If I ever get a dog, I'd call it Biscuit.")
    server.queue_text("Noted, tea it is.")
    await kit.send("I prefer tea to coffee.")
    assert await _stored(kit, clock) == [
        ("user", "If I ever get a dog, I'd call it Biscuit.", "chat"),
        ("assistant", UNMADE_STORE, KIT_WROTE),
        ("user", "I prefer tea to coffee.", "chat"),
        ("assistant", "Noted, tea it is.", "chat"),
    ]
    assert KIT_WROTE not in CURATED_SOURCES  # never read as what was said in the chat


async def test_the_window_leaves_out_a_reply_by_its_source_not_its_words(
    local: tuple[Kit, FakeOpenAIServer],
) -> None:
    """A later Kit may word its notes otherwise: a reply stored as Kit's stays out of the
    model's window with the message it answered, whatever it says."""
    kit, server = local
    server.queue_text("Sure.")
    await kit.send("Remember that my sister is Ana.")
    async with kit.services.db.transaction() as tx:
        await tx.execute(
            "UPDATE messages SET text = 'An older wording of a note Kit wrote.', source = ?"
            " WHERE role = 'assistant'",
            (KIT_WROTE,),
        )
    server.queue_text("Noted, tea it is.")
    await kit.send("I prefer tea to coffee.")
    sent = server.completions()[-1]["messages"]
    said = [m.get("content") for m in sent if m["role"] in ("user", "assistant")]
    assert not any(isinstance(t, str) and ("older wording" in t or "Ana" in t) for t in said)
    assert any(isinstance(t, str) and "I prefer tea to coffee." in t for t in said)


OLD_NOTES = (
    "Sorry, I came up empty on that one; could you rephrase?",
    "(The model said it stored something, but nothing was stored this turn. Ask me to "
    "remember it again if you want it kept.)",
    "(The model said it set a reminder, but none was set this turn. Ask me again, with the "
    "time, if you want one.)",
    "(The model gave no answer of its own, only what its tools said. remember: Stored as "
    "fact #2 (people).)",
)


async def _old_kits_rows(db: Database, at: str) -> None:
    """An older Kit's conversation: each of its notes stored with the channel's source."""
    async with db.transaction() as tx:
        chat = await tx.insert(
            "INSERT INTO conversations (user_id, channel, external_id, created_at)"
            " VALUES ('owner', 'local', 'default', ?)",
            (at,),
        )
        texts = [("user", "hello"), ("assistant", "Hi! How can I help?")]
        texts += [("assistant", note) for note in OLD_NOTES]
        texts += [("user", "Sorry, I came up empty on that one; could you rephrase?")]
        for n, (role, text) in enumerate(texts):
            await tx.execute(
                "INSERT INTO messages (user_id, conversation_id, role, text, at, day, source,"
                " content_hash) VALUES ('owner', ?, ?, ?, ?, ?, 'chat', ?)",
                (chat, role, text, at, at[:10], f"h{n}"),
            )


async def test_an_older_kits_notes_are_marked_as_kits_own(
    store: str, tmp_path: Path, clock: FakeClock, request: pytest.FixtureRequest
) -> None:
    async with blank_store(store, tmp_path, request) as db:
        await migrate_before(db, clock, "pg037" if store == "postgres" else "m037")
        await _old_kits_rows(db, to_iso(clock.now()))
        applied = await migrate(db, clock)
        assert applied[0].endswith("037_kit_written_replies")
        rows = await db.fetchall("SELECT role, text, source FROM messages ORDER BY id")
    assert [(r[0], r[2]) for r in rows] == [
        ("user", "chat"),
        ("assistant", "chat"),  # the model's own words
        *[("assistant", KIT_WROTE)] * len(OLD_NOTES),
        ("user", "chat"),  # the owner's words, even when they are a note's
    ]
