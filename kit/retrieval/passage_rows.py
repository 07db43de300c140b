"""The passages of long messages as rows (`message_passages`, m031): derived state, so that
each passage gets a vector of its own (kind 'passage' in `embeddings`, kit/retrieval/vectors.py)
and a long message is found by its best passage, not by the average meaning of all of them.

A message's passages come from its text alone (kit/retrieval/passages.py `split`): the same
text always gives the same rows, and messages are never edited, so a message's rows are
written once, by the backfill that embeds them (`derive`), and never changed. Deleting a
message deletes its passages (the foreign key cascades) and their vectors (a trigger): `kit
forget` needs to know nothing about them. Dropping every row is harmless: the next backfill
derives them again from the messages.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from kit.memory.hashes import content_hash
from kit.retrieval.passages import LONG_TOKENS, Passage, split
from kit.store.db import Database

# A message this short is never cut (kit/llm/tokens.py counts ~4 characters a token): only
# longer ones are read to be split.
_SHORTEST = LONG_TOKENS * 4
_BATCH = 200  # messages split and written per transaction


@dataclass(frozen=True)
class PassageRow:
    id: int
    message_id: int
    part: int  # 1-based place among the message's passages
    parts: int  # how many the message has
    passage: Passage


def passage_text(speaker: str, text: str, start: int, stop: int) -> str:
    """What a passage's vector embeds: its words, with the speaker as a message's has."""
    piece = text[start:stop]
    return f"{speaker}: {piece}" if speaker else piece


class MessagePassages:
    """Writes and reads `message_passages` (its one owner)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._after = 0  # messages up to this id have their passages (this process swept them)

    async def derive(self) -> int:
        """Write the passages of every long message that has none yet; how many passages
        were written. After one full sweep per process only newer messages are read."""
        top = int(await self._db.scalar("SELECT COALESCE(MAX(id), 0) FROM messages"))
        written, after = 0, self._after
        while True:
            rows = await self._db.fetchall(
                "SELECT m.id, m.user_id, m.speaker, m.text FROM messages m"
                " WHERE m.id > ? AND m.id <= ? AND length(m.text) > ?"
                " AND NOT EXISTS (SELECT 1 FROM message_passages p WHERE p.message_id = m.id)"
                " ORDER BY m.id LIMIT ?",
                (after, top, _SHORTEST, _BATCH),
            )
            if not rows:
                break
            new = [
                (int(r[0]), str(r[1]), part, p.start, p.stop, _hash(str(r[2]), str(r[3]), p))
                for r in rows
                for part, p in enumerate(split(str(r[3])), 1)
            ]
            if new:
                async with self._db.transaction() as tx:
                    await tx.executemany(
                        "INSERT INTO message_passages (message_id, user_id, part, char_start,"
                        " char_stop, content_hash) VALUES (?, ?, ?, ?, ?, ?)"
                        " ON CONFLICT (message_id, part) DO NOTHING",
                        new,
                    )
            written += len(new)
            after = int(rows[-1][0])
            if len(rows) < _BATCH:
                break
        self._after = top
        return written

    def forget_sweep(self) -> None:
        """Sweep every message again next time (after rows were dropped or restored)."""
        self._after = 0

    async def rows(self, ids: Collection[int]) -> dict[int, PassageRow]:
        """The passages with these ids (those that still exist), by id."""
        if not ids:
            return {}
        listed = ",".join(str(int(i)) for i in ids)
        found = await self._db.fetchall(
            "SELECT p.id, p.message_id, p.part, p.char_start, p.char_stop,"
            " (SELECT COUNT(*) FROM message_passages o WHERE o.message_id = p.message_id)"
            f" FROM message_passages p WHERE p.id IN ({listed})"
        )
        return {
            int(r[0]): PassageRow(
                int(r[0]), int(r[1]), int(r[2]), int(r[5]), Passage(int(r[3]), int(r[4]))
            )
            for r in found
        }


def _hash(speaker: str, text: str, passage: Passage) -> str:
    return content_hash(passage_text(speaker, text, passage.start, passage.stop))
