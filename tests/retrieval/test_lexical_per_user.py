"""PostgreSQL's full-text rows carry their user (pg021_fts_per_user): a search reads only its
user's rows holding the words, and ranks exactly as before. SQLite's FTS5 is untouched."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from kit.api import Kit
from kit.clock import FakeClock, to_iso
from kit.config import Settings, StorageSettings
from kit.retrieval.engines import lexical_search
from kit.retrieval.pg_lexical import TsvectorSearch
from kit.store.db import Params, Row
from kit.store.engines import open_database
from kit.store.migrate import migrate
from tests.support import postgres
from tests.support.schema import migrate_before

pytestmark = pytest.mark.stores("postgres")

FTS_TABLES = ("facts", "days", "note_chunks", "messages")


class Recorded:
    """The database seam, recording the last query a search sends (to EXPLAIN it after)."""

    def __init__(self, db: Any) -> None:
        self.db = db
        self.last: tuple[str, Params] = ("", ())

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        self.last = (sql, params)
        return list(await self.db.fetchall(sql, params))


async def _facts(kit: Kit, user: str, contents: list[str], clock: FakeClock) -> None:
    at = to_iso(clock.now())
    async with kit.services.db.transaction() as tx:
        await tx.executemany(
            "INSERT INTO facts (user_id, category, subject, content, confidence, created_at,"
            " updated_at, content_hash) VALUES (?, 'preferences', '', ?, 0.8, ?, ?, ?)",
            [(user, c, at, at, f"h{n}") for n, c in enumerate(contents)],
        )


def _rows_read(plan: dict[str, Any], relation: str) -> int:
    """Rows the plan's scans of `relation` returned, over the whole plan tree."""
    own = plan.get("Actual Rows", 0) * plan.get("Actual Loops", 1)
    here = own if plan.get("Relation Name") == relation else 0
    return here + sum(_rows_read(p, relation) for p in plan.get("Plans", []))


async def test_a_search_reads_only_its_users_rows_holding_the_words(
    kit: Kit, clock: FakeClock
) -> None:
    """Another user's rows holding the same word are not read at all (before pg021, the GIN
    index on the words alone returned every user's, and only the join to facts dropped
    them: a 1M-fact store with 100 users read 370k rows for a common name, docs/measurements.md)."""
    owners = [f"kayak trip {n}" if n % 10 == 0 else f"a quiet day {n}" for n in range(200)]
    await _facts(kit, "owner", owners, clock)
    await _facts(kit, "someone", [f"kayak number {n}" for n in range(400)], clock)
    db = kit.services.db
    async with db.transaction() as tx:
        await tx.execute("ANALYZE facts_fts")
        await tx.execute("ANALYZE facts")
    recorded = Recorded(db)
    search = TsvectorSearch(recorded)  # type: ignore[arg-type]
    hits = await search.search("owner", "fact", "kayak", 50, now=clock.now())
    assert len(hits) == 20
    sql, params = recorded.last
    async with db.transaction() as tx:
        for scan in ("seqscan", "indexscan"):  # tiny tables: plan as on a big store, by the
            await tx.execute(f"SET LOCAL enable_{scan} = off")  # full-text index, bitmap scans
        explained = await tx.fetchone("EXPLAIN (ANALYZE, FORMAT JSON) " + sql, params)
    assert explained is not None
    plan = json.loads(explained[0])[0]["Plan"]
    assert _rows_read(plan, "facts_fts") == 20  # the owner's rows holding the word


async def test_every_full_text_row_carries_its_rows_user_and_follows_a_change_of_it(
    kit: Kit, clock: FakeClock
) -> None:
    s = kit.services
    for user in ("owner", "someone"):
        await _facts(kit, user, [f"{user} likes kayaks"], clock)
        conv = await s.messages.conversation(user, "local", "default")
        await s.messages.add(conv, "user", f"{user} paddled across the lake")
        await s.messages.add(conv, "user", "and back again")
        await s.days.put_detailed(user, clock.now().date() - timedelta(days=1), "- a swim", 3)
        await s.notes.add(user, "# Boats\nkayak, canoe\n", name=f"boats-{user}")
    async with s.db.transaction() as tx:
        await tx.execute("UPDATE facts SET user_id = 'moved' WHERE user_id = 'someone'")
    for table in FTS_TABLES:
        rows = await s.db.fetchall(
            f"SELECT s.user_id, t.user_id FROM {table} s LEFT JOIN {table}_fts t USING (id)"
        )
        assert rows and all(source == fts for source, fts in rows), table
    hits = await lexical_search(s.db).search("moved", "fact", "kayaks", 5, now=clock.now())
    assert len(hits) == 1


async def test_the_migration_gives_rows_written_before_it_their_user(
    tmp_path: Path, clock: FakeClock, postgres_server: postgres.TestServer
) -> None:
    """pg021 backfills the user ids of rows already there, and they are found after it."""
    url = postgres.fresh_database(postgres_server, empty=True)
    try:
        settings = Settings(data_dir=tmp_path / "data", storage=StorageSettings(url=url))
        async with open_database(settings) as db:
            await migrate_before(db, clock, "pg021")  # later ones need it
            at = to_iso(clock.now())
            async with db.transaction() as tx:
                for user in ("owner", "someone"):
                    await tx.executemany(
                        "INSERT INTO facts (user_id, category, subject, content, confidence,"
                        " created_at, updated_at, content_hash)"
                        " VALUES (?, 'preferences', '', ?, 0.8, ?, ?, 'h')",
                        [(user, t, at, at) for t in ("kayak, kayak", "a kayak on the lake")],
                    )
            assert (await migrate(db, clock))[0] == "pg021_fts_per_user"
            rows = await db.fetchall(
                "SELECT f.user_id, t.user_id FROM facts f JOIN facts_fts t USING (id)"
            )
            assert len(rows) == 4 and all(source == fts for source, fts in rows)
            hits = await TsvectorSearch(db).search(
                "owner", "fact", "kayak lake", 5, now=clock.now()
            )
            assert [i for i, _ in hits] == [2, 1]  # the owner's: both words, then one twice
    finally:
        postgres.drop_database(postgres_server, url)
