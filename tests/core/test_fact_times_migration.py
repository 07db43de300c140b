"""m025 / pg025 give every existing fact its time, on both stores: since = the earliest
message its insert cited (not a pre-m007 batch, not a message after it was written), else
when it was written; until, for a retired fact = when its history retired it, no later than
its expiry, never before it began (else when it was last written)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kit.clock import FakeClock
from kit.config import Settings, StorageSettings
from kit.store.engines import open_database
from kit.store.migrate import migrate
from tests.support import postgres
from tests.support.schema import migrate_before


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param == "sqlite":
        yield ""
        return
    if postgres.skipped():
        pytest.skip("KIT_TEST_POSTGRES=skip")
    server: postgres.TestServer = request.getfixturevalue("postgres_server")
    made = postgres.fresh_database(server, empty=True)
    yield made
    postgres.drop_database(server, made)


async def test_existing_facts_get_since_and_until(
    url: str, tmp_path: Path, clock: FakeClock
) -> None:
    settings = Settings(data_dir=tmp_path / "data", storage=StorageSettings(url=url))
    async with open_database(settings) as db:
        await migrate_before(db, clock, "pg025" if db.engine == "postgres" else "m025")
        async with db.transaction() as tx:
            conversation = await tx.insert(
                "INSERT INTO conversations (user_id, channel, external_id, created_at)"
                " VALUES ('owner', 'api', 'c', '2026-01-01T00:00:00.000000+00:00')"
            )
            said = {}
            for day in ("05", "07", "20"):
                said[day] = await tx.insert(
                    "INSERT INTO messages (user_id, conversation_id, role, text, at, day,"
                    " content_hash) VALUES ('owner', ?, 'user', 'x', ?, ?, 'h')",
                    (conversation, f"2026-01-{day}T10:00:00.000000+00:00", f"2026-01-{day}"),
                )

            async def fact(active: int, expires: str | None = None) -> int:
                return await tx.insert(
                    "INSERT INTO facts (user_id, category, content, confidence, active,"
                    " expires_at, created_at, updated_at, content_hash) VALUES ('owner',"
                    " 'people', 'x', 0.8, ?, ?, '2026-01-15T00:00:00.000000+00:00',"
                    " '2026-01-25T00:00:00.000000+00:00', 'h')",
                    (active, expires),
                )

            async def history(
                fact_id: int, operation: str, at: str, sources: str = "[]", batch: int = 0,
                after: str = '{"active": true}',
            ) -> None:  # fmt: skip
                await tx.execute(
                    "INSERT INTO fact_history (fact_id, user_id, at, actor, operation,"
                    " source_message_ids, sources_are_batch, after_json)"
                    " VALUES (?, 'owner', ?, 'curator', ?, ?, ?, ?)",
                    (fact_id, at, operation, sources, batch, after),
                )

            cited = await fact(1)
            await history(cited, "insert", "2026-01-15T00:00:00.000000+00:00",
                          f"[{said['07']}, {said['05']}]")  # fmt: skip
            batch = await fact(1)
            await history(batch, "insert", "2026-01-15T00:00:00.000000+00:00",
                          f"[{said['05']}]", batch=1)  # fmt: skip
            later = await fact(1)  # cites a message stamped after it was written: ignored
            await history(later, "insert", "2026-01-15T00:00:00.000000+00:00",
                          f"[{said['20']}]")  # fmt: skip
            bare = await fact(1)
            retired = await fact(0)
            await history(retired, "insert", "2026-01-15T00:00:00.000000+00:00")
            await history(retired, "deactivate", "2026-01-22T00:00:00.000000+00:00",
                          after='{"active": false}')  # fmt: skip
            expired = await fact(0, "2026-01-18T00:00:00.000000+00:00")
            await history(expired, "deactivate", "2026-01-22T00:00:00.000000+00:00",
                          after='{"active": false}')  # fmt: skip
            unknown = await fact(0)  # retired before Kit kept history of it
        await migrate(db, clock)
        rows = {
            r[0]: (r[1], r[2])
            for r in await db.fetchall("SELECT id, valid_from, valid_until FROM facts")
        }
    written, last = "2026-01-15T00:00:00.000000+00:00", "2026-01-25T00:00:00.000000+00:00"
    assert rows == {
        cited: ("2026-01-05T10:00:00.000000+00:00", None),
        batch: (written, None),
        later: (written, None),
        bare: (written, None),
        retired: (written, "2026-01-22T00:00:00.000000+00:00"),
        expired: (written, "2026-01-18T00:00:00.000000+00:00"),
        unknown: (written, last),
    }
