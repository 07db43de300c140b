"""SQLite's ordered, named schema migrations (PostgreSQL's twins: postgres/migrations.py;
applied by migrate.py, each in one transaction with its bookkeeping row).

Append new migrations at the end; never edit one that has shipped.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from kit.store.db import Transaction
from kit.store.derived_columns import MESSAGE_SAID_DAYS, MESSAGE_SAYS_TIME, fill_named_days
from kit.store.shared_tables import (
    ACCESS_TOKENS,
    CHANNEL_EVENT_TABLES,
    FACT_TIMES_CLAMP,
    FORGET_RECEIPTS,
    INBOX_GROUNDING,
    INBOX_TABLES,
    KIT_WRITTEN_REPLIES,
    MESSAGE_PASSAGES,
    MESSAGE_SPOKEN,
    OWNER_REVIEW_TABLES,
    VECTOR_MODELS,
    WORKER_TABLES,
)
from kit.store.sqlite_schema import (
    fts_index,
    message_day_words,
    named_days_units,
    notes_tables,
    retrieval_units,
    use_trigger,
    version_triggers,
)

# A step of a migration that SQL cannot say: derived state computed in Python from the rows
# (the days a message's text names), run in the migration's transaction like its statements.
Step = Callable[[Transaction], Awaitable[None]]


@dataclass(frozen=True)
class Migration:
    name: str
    statements: tuple[str | Step, ...]


# The fact categories as m001 and m002 fixed them in their CHECKs. Frozen: these migrations
# record the schema as it was, and never read the live list (kit/categories.py); m035 relaxed
# both CHECKs, so a category added since needs no migration at all.
FIRST_CATEGORIES = (
    "person", "people", "preferences", "projects", "technical", "entities", "workflows",
)  # fmt: skip
_CATEGORY_CHECK = ", ".join(f"'{c}'" for c in FIRST_CATEGORIES)
CATEGORY_CHECK = f"CHECK (category IN ({_CATEGORY_CHECK}))"  # as m001 and m002 wrote it
NAMED_CATEGORY = "CHECK (category <> '')"  # since m035: a name; the code checks which
CATEGORY_TABLES = ("facts", "curation_state")


async def open_categories(tx: Transaction) -> None:
    """m035: the CHECKs that fixed the seven categories become "a name" (the code checks the
    category against kit/categories.py), so an existing database takes a new category's facts.

    SQLite cannot drop a CHECK; its documented way to remove one without rewriting the table
    (sqlite.org/lang_altertable.html, "making other kinds of table schema changes") edits
    the stored CREATE TABLE text under writable_schema and bumps schema_version, in this
    transaction. The rows and their on-disk format are untouched."""
    version = (await tx.fetchone("PRAGMA schema_version") or (0,))[0]
    await tx.execute("PRAGMA writable_schema = ON")
    try:
        for table in CATEGORY_TABLES:
            await tx.execute(
                "UPDATE sqlite_master SET sql = replace(sql, ?, ?)"
                " WHERE type = 'table' AND name = ?",
                (CATEGORY_CHECK, NAMED_CATEGORY, table),
            )
        await tx.execute(f"PRAGMA schema_version = {int(version) + 1}")
    finally:
        await tx.execute("PRAGMA writable_schema = OFF")
    for table in CATEGORY_TABLES:
        row = await tx.fetchone(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        )
        if row is None or "category IN (" in str(row[0]):
            raise RuntimeError(f"m035: the category CHECK of {table} was not relaxed")


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
            *fts_index("messages", ("speaker", "text")),
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
            *fts_index("facts", ("subject", "content")),
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
            *fts_index("days", ("detailed", "condensed")),
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
    Migration("m005_message_day_words", message_day_words()),
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
    Migration("m010_retrieval_units", retrieval_units()),
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
            *version_triggers(
                "facts", "category, subject, content, confidence, expires_at, active, pinned"
            ),
            *version_triggers("days", "day, detailed, condensed"),
            # Core facts (the owner's own and pinned ones) in the order the core shows them:
            # a partial index, so the core is read without scanning every active fact.
            "CREATE INDEX facts_core ON facts(user_id, pinned DESC, confidence DESC,"
            " access_count DESC, updated_at DESC) WHERE active = 1"
            " AND (category = 'person' OR pinned = 1)",
        ),
    ),
    Migration("m017_notes", notes_tables()),
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
    Migration(
        "m024_message_named_days",
        (
            # The days a message's text names ("last Friday" said on 8 May: 5 May), as words,
            # beside its own day in its lexical unit (sqlite_schema.named_days_units). Derived
            # from text and day alone (kit/dates/text.py `named_days`): NULL until derived,
            # and a later migration that reads dates better derives it again the same way.
            "ALTER TABLE messages ADD COLUMN named_days TEXT",
            fill_named_days,
            *named_days_units(),
        ),
    ),
    Migration(
        "m025_fact_times",
        (
            # Since when a fact holds and, once closed, until when (kit/memory/fact_times.py).
            "ALTER TABLE facts ADD COLUMN valid_from TEXT",
            "ALTER TABLE facts ADD COLUMN valid_until TEXT",
            # Since: the earliest message it was learned from (its own cited sources), else
            # when it was written down.
            """UPDATE facts SET valid_from = COALESCE((
                SELECT MIN(m.at) FROM fact_history h, json_each(h.source_message_ids) s
                JOIN messages m ON m.id = s.value
                WHERE h.fact_id = facts.id AND h.operation = 'insert'
                AND h.sources_are_batch = 0 AND m.at <= facts.created_at), created_at)""",
            """UPDATE facts SET valid_until = COALESCE((
                SELECT MAX(h.at) FROM fact_history h
                WHERE h.fact_id = facts.id AND json_extract(h.after_json, '$.active') = 0),
                updated_at) WHERE active = 0""",
            *FACT_TIMES_CLAMP,
        ),
    ),
    Migration("m026_inbox", INBOX_TABLES),
    Migration("m027_forget_receipts", FORGET_RECEIPTS),
    Migration("m028_owner_review", OWNER_REVIEW_TABLES),
    Migration("m029_access_tokens", ACCESS_TOKENS),
    Migration("m030_inbox_grounding", INBOX_GROUNDING),
    Migration("m031_vector_models", VECTOR_MODELS),
    Migration(
        "m032_message_passages",
        (
            *MESSAGE_PASSAGES,
            "CREATE TRIGGER message_passages_embeddings_ad AFTER DELETE ON message_passages"
            " BEGIN DELETE FROM embeddings WHERE kind = 'passage' AND item_id = old.id; END",
        ),
    ),
    Migration("m033_message_spoken", MESSAGE_SPOKEN),
    Migration("m034_channel_events", CHANNEL_EVENT_TABLES),
    Migration("m035_open_categories", (open_categories,)),
    Migration(
        "m036_fact_use_version",
        (
            # A counter of its own for facts' access stats (a turn's `touch`): the search's
            # kept fact rows follow it (kit/retrieval/rows.py); the cached parts of the
            # context, keyed by the other counters, do not change with use.
            "ALTER TABLE memory_versions ADD COLUMN used INTEGER NOT NULL DEFAULT 0",
            use_trigger(),
        ),
    ),
    Migration("m037_kit_written_replies", KIT_WRITTEN_REPLIES),
    Migration("m038_message_said_days", MESSAGE_SAID_DAYS),
    Migration("m039_message_says_time", MESSAGE_SAYS_TIME),
)
