"""Ordered, named schema migrations. Each runs in one transaction with its bookkeeping row.

Append new migrations at the end; never edit one that has shipped.
"""

from __future__ import annotations

from dataclasses import dataclass

from kit.clock import Clock, to_iso
from kit.config import CATEGORIES
from kit.memory.db import Database


@dataclass(frozen=True)
class Migration:
    name: str
    statements: tuple[str, ...]


def _fts(table: str, columns: tuple[str, ...]) -> tuple[str, ...]:
    """An external-content FTS5 index over `table` kept in step by triggers (same transaction)."""
    cols = ", ".join(columns)
    new = ", ".join(f"new.{c}" for c in columns)
    old = ", ".join(f"old.{c}" for c in columns)
    fts = f"{table}_fts"
    return (
        f"CREATE VIRTUAL TABLE {fts} USING fts5({cols}, content='{table}', content_rowid='id', "
        "tokenize='porter unicode61 remove_diacritics 2')",
        f"CREATE TRIGGER {table}_fts_ai AFTER INSERT ON {table} BEGIN "
        f"INSERT INTO {fts}(rowid, {cols}) VALUES (new.id, {new}); END",
        f"CREATE TRIGGER {table}_fts_ad AFTER DELETE ON {table} BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, {cols}) VALUES ('delete', old.id, {old}); END",
        f"CREATE TRIGGER {table}_fts_au AFTER UPDATE OF {cols} ON {table} BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, {cols}) VALUES ('delete', old.id, {old}); "
        f"INSERT INTO {fts}(rowid, {cols}) VALUES (new.id, {new}); END",
    )


def _day_words(day: str) -> str:
    """SQL for an ISO day column as words: '2023-05-08' -> 'Monday 8 May 2023'."""
    months = "January February March April May June July August September October November December"
    weekdays = "Sunday Monday Tuesday Wednesday Thursday Friday Saturday"
    month = " ".join(f"WHEN '{n:02d}' THEN '{m}'" for n, m in enumerate(months.split(), 1))
    weekday = " ".join(f"WHEN '{n}' THEN '{d}'" for n, d in enumerate(weekdays.split()))
    return (
        f"(CASE strftime('%w', {day}) {weekday} END) || ' ' || CAST(substr({day}, 9, 2) AS INTEGER)"
        f" || ' ' || (CASE substr({day}, 6, 2) {month} END) || ' ' || substr({day}, 1, 4)"
    )


def _version_triggers(table: str, columns: str) -> tuple[str, ...]:
    """Triggers bumping `memory_versions.<table>` for the user whose row changed."""
    bump = (
        # Not INSERT OR IGNORE: an outer statement's own conflict clause would override it.
        "INSERT INTO memory_versions (user_id) SELECT {0}.user_id WHERE NOT EXISTS"
        " (SELECT 1 FROM memory_versions WHERE user_id = {0}.user_id); "
        f"UPDATE memory_versions SET {table} = {table} + 1 WHERE user_id = {{0}}.user_id;"
    )
    return (
        f"CREATE TRIGGER {table}_version_ai AFTER INSERT ON {table} BEGIN "
        + bump.format("new")
        + " END",
        f"CREATE TRIGGER {table}_version_ad AFTER DELETE ON {table} BEGIN "
        + bump.format("old")
        + " END",
        f"CREATE TRIGGER {table}_version_au AFTER UPDATE OF {columns} ON {table} BEGIN "
        + bump.format("new")
        + " END",
    )


def _message_day_words() -> tuple[str, ...]:
    """Index each message together with its day in words, so "what did we do on 3 May" or
    "in June" finds that day's messages (measured: `kit eval retrieval`, README). The index
    reads a view, `messages_indexed`, whose text is the message's text plus "(Monday 8 May
    2023)"; the table itself is unchanged. Same triggers, same names, rebuilt from the rows."""
    indexed = "{0}.text || ' (' || " + _day_words("{0}.day") + " || ')'"
    new, old = indexed.format("new"), indexed.format("old")
    fts = "messages_fts"
    return (
        "DROP TRIGGER messages_fts_ai",
        "DROP TRIGGER messages_fts_ad",
        "DROP TRIGGER messages_fts_au",
        f"DROP TABLE {fts}",
        "CREATE VIEW messages_indexed AS SELECT id, speaker, "
        + indexed.format("messages")
        + " AS text FROM messages",
        f"CREATE VIRTUAL TABLE {fts} USING fts5(speaker, text, content='messages_indexed', "
        "content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')",
        f"CREATE TRIGGER {fts}_ai AFTER INSERT ON messages BEGIN "
        f"INSERT INTO {fts}(rowid, speaker, text) VALUES (new.id, new.speaker, {new}); END",
        f"CREATE TRIGGER {fts}_ad AFTER DELETE ON messages BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, speaker, text) "
        f"VALUES ('delete', old.id, old.speaker, {old}); END",
        f"CREATE TRIGGER {fts}_au AFTER UPDATE OF speaker, text, day ON messages BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, speaker, text) "
        f"VALUES ('delete', old.id, old.speaker, {old}); "
        f"INSERT INTO {fts}(rowid, speaker, text) VALUES (new.id, new.speaker, {new}); END",
        f"INSERT INTO {fts}({fts}) VALUES ('rebuild')",
    )


def _retrieval_units() -> tuple[str, ...]:
    """A message's lexical unit is its own words plus, in a third column (`context`), the
    words of the message before it in its conversation: the question a reply answers
    usually holds the words the reply leaves out. Search weights the column low (measured:
    `kit eval retrieval`, README). The view computes each row's context; the triggers keep
    the invariant "a row's indexed context is the text of the message now before it" through
    inserts anywhere (restore keeps ids), deletes (forget: a forgotten text must not live on
    in its neighbour's row) and edits. Plus an index for the distinct speakers of a user."""
    words = _day_words("{0}.day")
    indexed = "{0}.text || ' (' || " + words + " || ')'"
    fts = "messages_fts"
    before = (
        "SELECT p.text FROM messages p WHERE p.conversation_id = {0}.conversation_id"
        " AND p.id < {0}.id ORDER BY p.id DESC LIMIT 1"
    )
    after = (
        "SELECT n.id FROM messages n WHERE n.conversation_id = {0}.conversation_id"
        " AND n.id > {0}.id ORDER BY n.id LIMIT 1"
    )
    cols = "speaker, text, context"

    def reindex(row: str) -> str:
        return (
            f"INSERT INTO {fts}(rowid, {cols}) SELECT id, {cols} FROM messages_indexed"
            f" WHERE id = ({row});"
        )

    def unindex_next(of: str, old_context: str) -> str:
        """Take the message after `of` out of the index, as indexed: with `old_context`."""
        return (
            f"INSERT INTO {fts}({fts}, rowid, {cols}) SELECT 'delete', id, speaker, text,"
            f" {old_context} FROM messages_indexed WHERE id = ({after.format(of)});"
        )

    unindex_old = (
        f"INSERT INTO {fts}({fts}, rowid, {cols}) VALUES ('delete', old.id, old.speaker,"
        f" {indexed.format('old')}, COALESCE(({before.format('old')}), ''));"
    )
    return (
        "DROP TRIGGER messages_fts_ai",
        "DROP TRIGGER messages_fts_ad",
        "DROP TRIGGER messages_fts_au",
        f"DROP TABLE {fts}",
        "DROP VIEW messages_indexed",
        "CREATE VIEW messages_indexed AS SELECT m.id, m.speaker, "
        + indexed.format("m")
        + f" AS text, COALESCE(({before.format('m')}), '') AS context FROM messages m",
        f"CREATE VIRTUAL TABLE {fts} USING fts5({cols}, content='messages_indexed', "
        "content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')",
        # The message after the new one (if it went in between: a restore) had another
        # message before it.
        f"CREATE TRIGGER {fts}_ai AFTER INSERT ON messages BEGIN "
        + unindex_next("new", f"COALESCE(({before.format('new')}), '')")
        + reindex(after.format("new"))
        + reindex("SELECT new.id")
        + " END",
        f"CREATE TRIGGER {fts}_ad AFTER DELETE ON messages BEGIN "
        + unindex_old
        + unindex_next("old", "old.text")
        + reindex(after.format("old"))
        + " END",
        f"CREATE TRIGGER {fts}_au AFTER UPDATE OF speaker, text, day ON messages BEGIN "
        + unindex_old
        + unindex_next("old", "old.text")
        + reindex("SELECT new.id")
        + reindex(after.format("new"))
        + " END",
        f"INSERT INTO {fts}({fts}) VALUES ('rebuild')",
        "CREATE INDEX messages_user_speaker ON messages(user_id, speaker)",
    )


def _notes() -> tuple[str, ...]:
    """Notes (kit/notes/): documents the owner gives Kit, read on demand. Every write is a row
    of `note_history` holding the text it wrote, so a replaced or removed note keeps its
    versions; `notes` points at the current one. `note_chunks` are its sections for search
    (FTS5 here, vectors in `embeddings` as kind 'note'): derived, rewritten with the note, and
    a deleted section takes its vector with it."""
    return (
        """CREATE TABLE note_history (
            id INTEGER PRIMARY KEY,
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            at TEXT NOT NULL,
            actor TEXT NOT NULL,
            operation TEXT NOT NULL
                CHECK (operation IN ('add', 'replace', 'remove', 'erase', 'forget')),
            source TEXT NOT NULL DEFAULT '',
            body TEXT,
            description TEXT NOT NULL DEFAULT '',
            content_hash TEXT NOT NULL DEFAULT '',
            bytes INTEGER NOT NULL DEFAULT 0,
            lines INTEGER NOT NULL DEFAULT 0,
            withheld INTEGER NOT NULL DEFAULT 0)""",
        "CREATE INDEX note_history_user ON note_history(user_id, name, id)",
        """CREATE TABLE notes (
            id INTEGER PRIMARY KEY,
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            description TEXT NOT NULL,
            revision_id INTEGER NOT NULL REFERENCES note_history(id),
            lines INTEGER NOT NULL,
            bytes INTEGER NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (user_id, name))""",
        """CREATE TABLE note_chunks (
            id INTEGER PRIMARY KEY,
            note_id INTEGER NOT NULL REFERENCES notes(id),
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            start_line INTEGER NOT NULL,
            end_line INTEGER NOT NULL,
            heading TEXT NOT NULL DEFAULT '',
            text TEXT NOT NULL,
            content_hash TEXT NOT NULL)""",
        "CREATE INDEX note_chunks_note ON note_chunks(note_id, start_line)",
        *_fts("note_chunks", ("name", "heading", "text")),
        "CREATE TRIGGER note_chunks_embeddings_ad AFTER DELETE ON note_chunks BEGIN "
        "DELETE FROM embeddings WHERE kind = 'note' AND item_id = old.id; END",
        # The memory index lists the notes: a note added, replaced, renamed or removed
        # rebuilds the cached part of the context (m014_context's counters, one more).
        "ALTER TABLE memory_versions ADD COLUMN notes INTEGER NOT NULL DEFAULT 0",
        *_version_triggers("notes", "name, description, revision_id"),
    )


_CATEGORY_CHECK = ", ".join(f"'{c}'" for c in CATEGORIES)

# Several `kit run` workers on one database (kit/memory/leases.py): a lease names what one
# worker does for all (Telegram polling, the curation sweep) until it expires unrenewed; a
# handled update is claimed once (by channel and its update id) so no worker answers it twice.
WORKER_TABLES = (
    """CREATE TABLE leases (
        name TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        acquired_at TEXT NOT NULL,
        expires_at TEXT NOT NULL)""",
    """CREATE TABLE handled_updates (
        channel TEXT NOT NULL,
        update_id INTEGER NOT NULL,
        worker TEXT NOT NULL,
        handled_at TEXT NOT NULL,
        PRIMARY KEY (channel, update_id))""",
    # A pending reminder fire is taken by one worker for sending (kit/reminders/store.py).
    "ALTER TABLE reminder_deliveries ADD COLUMN sending_by TEXT",
    "ALTER TABLE reminder_deliveries ADD COLUMN sending_until TEXT",
)


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        "m001_core",
        (
            """CREATE TABLE conversations (
                id INTEGER PRIMARY KEY,
                user_id TEXT NOT NULL,
                channel TEXT NOT NULL,
                external_id TEXT NOT NULL,
                created_at TEXT NOT NULL,
                last_message_at TEXT,
                window_summary TEXT NOT NULL DEFAULT '',
                window_start_id INTEGER NOT NULL DEFAULT 0,
                UNIQUE (user_id, channel, external_id))""",
            """CREATE TABLE messages (
                id INTEGER PRIMARY KEY,
                user_id TEXT NOT NULL,
                conversation_id INTEGER NOT NULL REFERENCES conversations(id),
                role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
                speaker TEXT NOT NULL DEFAULT '',
                text TEXT NOT NULL,
                at TEXT NOT NULL,
                day TEXT NOT NULL,
                ref TEXT,
                source TEXT NOT NULL DEFAULT 'chat',
                content_hash TEXT NOT NULL)""",
            "CREATE INDEX messages_conversation ON messages(conversation_id, id)",
            "CREATE INDEX messages_user_day ON messages(user_id, day)",
            *_fts("messages", ("speaker", "text")),
            f"""CREATE TABLE facts (
                id INTEGER PRIMARY KEY,
                user_id TEXT NOT NULL,
                category TEXT NOT NULL CHECK (category IN ({_CATEGORY_CHECK})),
                subject TEXT NOT NULL DEFAULT '',
                content TEXT NOT NULL,
                confidence REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
                expires_at TEXT,
                active INTEGER NOT NULL DEFAULT 1,
                pinned INTEGER NOT NULL DEFAULT 0,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                access_count INTEGER NOT NULL DEFAULT 0,
                last_accessed_at TEXT,
                replaced_by INTEGER REFERENCES facts(id),
                content_hash TEXT NOT NULL)""",
            "CREATE INDEX facts_user_active ON facts(user_id, active, category)",
            *_fts("facts", ("subject", "content")),
            """CREATE TABLE passes (
                id INTEGER PRIMARY KEY,
                user_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                category TEXT,
                started_at TEXT NOT NULL,
                finished_at TEXT,
                status TEXT NOT NULL,
                reason TEXT NOT NULL DEFAULT '',
                detail_json TEXT NOT NULL DEFAULT '{}')""",
            "CREATE INDEX passes_user ON passes(user_id, id)",
            """CREATE TABLE fact_history (
                id INTEGER PRIMARY KEY,
                fact_id INTEGER NOT NULL REFERENCES facts(id),
                user_id TEXT NOT NULL,
                at TEXT NOT NULL,
                actor TEXT NOT NULL,
                operation TEXT NOT NULL,
                pass_id INTEGER REFERENCES passes(id),
                reason TEXT NOT NULL DEFAULT '',
                before_json TEXT,
                after_json TEXT,
                source_message_ids TEXT NOT NULL DEFAULT '[]')""",
            "CREATE INDEX fact_history_fact ON fact_history(fact_id, id)",
            "CREATE INDEX fact_history_pass ON fact_history(pass_id)",
            """CREATE TABLE days (
                id INTEGER PRIMARY KEY,
                user_id TEXT NOT NULL,
                day TEXT NOT NULL,
                detailed TEXT NOT NULL DEFAULT '',
                condensed TEXT NOT NULL DEFAULT '',
                message_count INTEGER NOT NULL DEFAULT 0,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                condensed_at TEXT,
                content_hash TEXT NOT NULL,
                UNIQUE (user_id, day))""",
            *_fts("days", ("detailed", "condensed")),
            """CREATE TABLE embeddings (
                kind TEXT NOT NULL,
                item_id INTEGER NOT NULL,
                user_id TEXT NOT NULL,
                model_id TEXT NOT NULL,
                content_hash TEXT NOT NULL,
                vector BLOB NOT NULL,
                PRIMARY KEY (kind, item_id, model_id))""",
            "CREATE INDEX embeddings_user ON embeddings(user_id, kind, model_id)",
            """CREATE TABLE llm_usage (
                id INTEGER PRIMARY KEY,
                at TEXT NOT NULL,
                user_id TEXT,
                model TEXT NOT NULL,
                purpose TEXT NOT NULL,
                input_tokens INTEGER NOT NULL,
                output_tokens INTEGER NOT NULL,
                cache_read_tokens INTEGER NOT NULL DEFAULT 0,
                cache_write_tokens INTEGER NOT NULL DEFAULT 0)""",
            "CREATE INDEX llm_usage_at ON llm_usage(at)",
        ),
    ),
    Migration(
        "m002_curation",
        (
            # Per conversation and category: messages up to `curated_through` (an id) are done.
            # `attempts` counts failed passes over the batch after it; at curation.max_attempts
            # the batch is parked (recorded below) and the mark moves on.
            f"""CREATE TABLE curation_state (
                conversation_id INTEGER NOT NULL REFERENCES conversations(id),
                category TEXT NOT NULL CHECK (category IN ({_CATEGORY_CHECK})),
                user_id TEXT NOT NULL,
                curated_through INTEGER NOT NULL DEFAULT 0,
                attempts INTEGER NOT NULL DEFAULT 0,
                last_error TEXT NOT NULL DEFAULT '',
                updated_at TEXT NOT NULL,
                PRIMARY KEY (conversation_id, category))""",
            "CREATE INDEX curation_state_user ON curation_state(user_id)",
            # Batches given up on after max_attempts: the messages stay in the archive and
            # `kit curate --retry-parked` tries them again.
            """CREATE TABLE curation_parked (
                id INTEGER PRIMARY KEY,
                user_id TEXT NOT NULL,
                conversation_id INTEGER NOT NULL REFERENCES conversations(id),
                category TEXT NOT NULL,
                first_message_id INTEGER NOT NULL,
                last_message_id INTEGER NOT NULL,
                attempts INTEGER NOT NULL,
                reason TEXT NOT NULL,
                parked_at TEXT NOT NULL,
                resolved_at TEXT)""",
            "CREATE INDEX curation_parked_user ON curation_parked(user_id, resolved_at)",
        ),
    ),
    Migration(
        "m003_rem_jobs",
        (
            # One row per run of a scheduled job (daily summary, REM). A 'running' row is the
            # lease that keeps two runs of one job apart, across processes too.
            """CREATE TABLE job_runs (
                id INTEGER PRIMARY KEY,
                job TEXT NOT NULL,
                user_id TEXT,
                scheduled_for TEXT,
                started_at TEXT NOT NULL,
                finished_at TEXT,
                status TEXT NOT NULL
                    CHECK (status IN ('running', 'ok', 'failed', 'abandoned')),
                lease_owner TEXT NOT NULL,
                lease_expires_at TEXT NOT NULL,
                detail TEXT NOT NULL DEFAULT '')""",
            "CREATE UNIQUE INDEX job_runs_one_running ON job_runs(job) WHERE status = 'running'",
            "CREATE INDEX job_runs_job ON job_runs(job, status, scheduled_for)",
            """CREATE TABLE rem_reports (
                id INTEGER PRIMARY KEY,
                user_id TEXT NOT NULL,
                job_run_id INTEGER REFERENCES job_runs(id),
                started_at TEXT NOT NULL,
                finished_at TEXT NOT NULL,
                report_json TEXT NOT NULL)""",
            "CREATE INDEX rem_reports_user ON rem_reports(user_id, id)",
            # When REM last reviewed a stale fact, so a kept fact is not re-read every night.
            """CREATE TABLE fact_reviews (
                fact_id INTEGER PRIMARY KEY,
                user_id TEXT NOT NULL,
                reviewed_at TEXT NOT NULL,
                outcome TEXT NOT NULL)""",
        ),
    ),
    Migration(
        "m004_forget_log",
        (
            # That a forget happened, its scope kind and counts: never what was forgotten.
            """CREATE TABLE forget_log (
                id INTEGER PRIMARY KEY,
                user_id TEXT NOT NULL,
                at TEXT NOT NULL,
                scope TEXT NOT NULL,
                counts_json TEXT NOT NULL DEFAULT '{}')""",
            "CREATE INDEX forget_log_user ON forget_log(user_id, id)",
        ),
    ),
    Migration("m005_message_day_words", _message_day_words()),
    Migration(
        "m006_message_origin",
        (
            # Who a forwarded message came from (as the channel names them); NULL: the
            # speaker's own words. The curator must not take someone else's words as the owner's.
            "ALTER TABLE messages ADD COLUMN forwarded_from TEXT",
        ),
    ),
    Migration(
        "m007_fact_sources",
        (
            # Since m007 a curation change records the messages the model cited for it. Before,
            # it recorded every owner message of its batch: flag those rows, so `kit forget`
            # does not take a fact for one passing mention elsewhere in the batch.
            "ALTER TABLE fact_history ADD COLUMN sources_are_batch INTEGER NOT NULL DEFAULT 0",
            "UPDATE fact_history SET sources_are_batch = 1"
            " WHERE actor = 'curator' AND source_message_ids != '[]'",
        ),
    ),
    Migration(
        "m009_background_budget",
        (
            # The days background model work stopped because its token budget was spent
            # (scope '*': all users; otherwise the user namespace), and how often it was refused.
            """CREATE TABLE budget_pauses (
                day TEXT NOT NULL,
                scope TEXT NOT NULL,
                paused_at TEXT NOT NULL,
                last_refused_at TEXT NOT NULL,
                refused INTEGER NOT NULL DEFAULT 1,
                spent INTEGER NOT NULL,
                budget INTEGER NOT NULL,
                PRIMARY KEY (day, scope))""",
            # Failed attempts at one item of background work (a day to summarise or condense, a
            # category to review, a conversation's window): retried with backoff, then held.
            """CREATE TABLE work_attempts (
                kind TEXT NOT NULL,
                user_id TEXT NOT NULL,
                item TEXT NOT NULL,
                attempts INTEGER NOT NULL,
                last_error TEXT NOT NULL DEFAULT '',
                last_at TEXT NOT NULL,
                held_at TEXT,
                PRIMARY KEY (kind, user_id, item))""",
            # A scheduled run stopped by the spent budget: resumed at this time, not counted
            # as a failed attempt of its fire time.
            "ALTER TABLE job_runs ADD COLUMN paused_until TEXT",
        ),
    ),
    Migration("m010_retrieval_units", _retrieval_units()),
    Migration(
        "m014_context",
        (
            # Per user, a counter for each input of the cached parts of the context (core
            # facts, recent days, the memory index), bumped by triggers in the writing
            # transaction: every process (the daemon, a CLI next to it) sees a change at once,
            # whichever module wrote it. Access stats (touch) are not content: no bump.
            """CREATE TABLE memory_versions (
                user_id TEXT PRIMARY KEY,
                facts INTEGER NOT NULL DEFAULT 0,
                days INTEGER NOT NULL DEFAULT 0)""",
            *_version_triggers(
                "facts", "category, subject, content, confidence, expires_at, active, pinned"
            ),
            *_version_triggers("days", "day, detailed, condensed"),
            # Core facts (the owner's own and pinned ones) in the order the core shows them:
            # a partial index, so the core is read without scanning every active fact.
            "CREATE INDEX facts_core ON facts(user_id, pinned DESC, confidence DESC,"
            " access_count DESC, updated_at DESC) WHERE active = 1"
            " AND (category = 'person' OR pinned = 1)",
        ),
    ),
    Migration("m017_notes", _notes()),
    Migration(
        "m018_reminders",
        (
            # What the owner asked Kit to do later: a reminder (text delivered as it is) or a
            # task (a prompt Kit answers then), once or on a simple repeat in the owner's zone.
            # `next_fire` (UTC) is NULL once a one-off has fired or the reminder is cancelled.
            """CREATE TABLE reminders (
                id INTEGER PRIMARY KEY,
                user_id TEXT NOT NULL,
                channel TEXT NOT NULL,
                conversation TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('reminder', 'task')),
                text TEXT NOT NULL,
                repeat TEXT NOT NULL CHECK (repeat IN ('none', 'daily', 'weekdays', 'weekly')),
                weekday INTEGER,
                local_time TEXT,
                status TEXT NOT NULL DEFAULT 'active'
                    CHECK (status IN ('active', 'done', 'cancelled')),
                next_fire TEXT,
                created_at TEXT NOT NULL,
                ended_at TEXT)""",
            "CREATE INDEX reminders_due ON reminders(status, next_fire)",
            "CREATE INDEX reminders_user ON reminders(user_id, status)",
            # One row per fire time, claimed in the same transaction that moves `next_fire`
            # on: a fire is delivered at least once (a 'pending' row is retried, after a crash
            # too) and recorded once ('sent' is written with the stored message).
            """CREATE TABLE reminder_deliveries (
                id INTEGER PRIMARY KEY,
                reminder_id INTEGER NOT NULL REFERENCES reminders(id) ON DELETE CASCADE,
                user_id TEXT NOT NULL,
                fire_at TEXT NOT NULL,
                claimed_at TEXT NOT NULL,
                status TEXT NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'sent', 'failed')),
                text TEXT,
                message_id INTEGER,
                attempts INTEGER NOT NULL DEFAULT 0,
                retry_at TEXT,
                last_error TEXT NOT NULL DEFAULT '',
                sent_at TEXT,
                late INTEGER NOT NULL DEFAULT 0,
                shown_at TEXT,
                UNIQUE (reminder_id, fire_at))""",
            "CREATE INDEX reminder_deliveries_status ON reminder_deliveries(status, retry_at)",
        ),
    ),
    Migration(
        "m019_owner_facts",
        (
            # Set when the owner wrote the fact's current content (`kit facts add` / `edit`).
            # With `pinned`, it marks the owner's facts: the curator and REM never change them.
            # Nothing to backfill: before this the owner could only retire facts.
            "ALTER TABLE facts ADD COLUMN owner_written INTEGER NOT NULL DEFAULT 0",
        ),
    ),
    Migration("m020_worker_leases", WORKER_TABLES),
)


def migrations_for(db: Database) -> tuple[Migration, ...]:
    """The engine's own list: SQLite's here, PostgreSQL's twins in postgres/migrations.py."""
    if db.engine == "postgres":
        from kit.memory.postgres.migrations import PG_MIGRATIONS

        return PG_MIGRATIONS
    return MIGRATIONS


async def migrate(
    db: Database, clock: Clock, migrations: tuple[Migration, ...] | None = None
) -> list[str]:
    """Apply every migration not yet applied, in order. Returns the names applied now.
    Each is checked again inside its transaction (which holds the store's write lock), so
    two processes starting at once apply it once."""
    async with db.transaction() as tx:
        await tx.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
    done = {row[0] for row in await db.fetchall("SELECT name FROM schema_migrations")}
    applied: list[str] = []
    for migration in migrations_for(db) if migrations is None else migrations:
        if migration.name in done:
            continue
        async with db.transaction() as tx:
            if await tx.fetchone(
                "SELECT 1 FROM schema_migrations WHERE name = ?", (migration.name,)
            ):
                continue
            for statement in migration.statements:
                await tx.execute(statement)
            await tx.execute(
                "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                (migration.name, to_iso(clock.now())),
            )
        applied.append(migration.name)
    return applied
