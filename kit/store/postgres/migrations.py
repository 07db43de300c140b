"""PostgreSQL's ordered, named migrations: the same tables and columns as SQLite's list
(kit/store/migrations.py; tests/core/test_store_schema.py holds them equal), in PostgreSQL's
words.

`pg001_schema` is SQLite's m001 ... m014 in one step (there was no PostgreSQL store before
them). Every later SQLite migration gets a twin here named after it (`m015_x` ->
`pg015_x`), applied the same way: in one transaction with its bookkeeping row.

The translation, once for all tables: an `INTEGER PRIMARY KEY` is a BIGINT identity (ids
given explicitly, as a restore does, move its sequence on: `kit_ids_follow`), every integer a
BIGINT (SQLite's are 64-bit), every REAL a DOUBLE PRECISION, every TEXT compares byte by byte
(COLLATE "C", SQLite's BINARY: the same order for names, days and times whatever the
server's locale). Vectors are pgvector `vector` values. SQLite's FTS5 tables become
`<table>_fts` tsvector tables kept by triggers (fts_schema.py). A migration of PostgreSQL's
alone, with no SQLite twin (`pg021_fts_per_user`), says so where it is listed.
"""

from __future__ import annotations

from kit.store.derived_columns import MESSAGE_SAID_DAYS, MESSAGE_SAYS_TIME, fill_named_days
from kit.store.migrations import CATEGORY_TABLES, NAMED_CATEGORY, Migration
from kit.store.postgres.first_schema import (
    FUNCTIONS,
    ID_TABLES,
    INDEXES,
    REMINDERS,
    TABLES,
    ids_follow,
    notes_schema,
    pg,
    version_triggers,
)
from kit.store.postgres.fts_schema import (
    DAY_TERMS,
    FACT_TERMS,
    MESSAGES_FTS,
    fts,
    named_days,
    per_user,
)
from kit.store.shared_tables import (
    ACCESS_TOKENS,
    CHANNEL_EVENT_TABLES,
    FACT_TIMES_CLAMP,
    FORGET_RECEIPTS,
    INBOX_TABLES,
    KIT_WRITTEN_REPLIES,
    MESSAGE_PASSAGES,
    MESSAGE_SPOKEN,
    OWNER_REVIEW_TABLES,
    VECTOR_MODELS,
    WORKER_TABLES,
)

PG_MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        "pg001_schema",
        (
            *FUNCTIONS,
            *(pg(t) for t in TABLES),
            *INDEXES,
            *ids_follow(*ID_TABLES),
            *fts("facts", FACT_TERMS),
            *fts("days", DAY_TERMS),
            *MESSAGES_FTS,
            *version_triggers(
                "facts", "category, subject, content, confidence, expires_at, active, pinned"
            ),
            *version_triggers("days", "day, detailed, condensed"),
        ),
    ),
    Migration("pg017_notes", notes_schema()),
    Migration(
        "pg018_reminders",
        (
            *(pg(t) for t in REMINDERS),
            "CREATE INDEX reminders_due ON reminders(status, next_fire)",
            "CREATE INDEX reminders_user ON reminders(user_id, status)",
            "CREATE INDEX reminder_deliveries_status ON reminder_deliveries(status, retry_at)",
            *ids_follow("reminders", "reminder_deliveries"),
        ),
    ),
    Migration(
        "pg019_owner_facts",
        ("ALTER TABLE facts ADD COLUMN owner_written INTEGER NOT NULL DEFAULT 0",),
    ),
    Migration("pg020_worker_leases", tuple(pg(t) for t in WORKER_TABLES)),
    # PostgreSQL's alone (no m021 twin): SQLite's FTS5 tables are untouched.
    Migration("pg021_fts_per_user", per_user()),
    Migration(
        "pg024_message_named_days",
        (
            'ALTER TABLE messages ADD COLUMN named_days TEXT COLLATE "C"',
            fill_named_days,
            *named_days(),
        ),
    ),
    Migration(
        "pg025_fact_times",
        (
            'ALTER TABLE facts ADD COLUMN valid_from TEXT COLLATE "C"',
            'ALTER TABLE facts ADD COLUMN valid_until TEXT COLLATE "C"',
            """UPDATE facts SET valid_from = COALESCE((
                SELECT MIN(m.at) FROM fact_history h
                CROSS JOIN LATERAL jsonb_array_elements_text(h.source_message_ids::jsonb) s(id)
                JOIN messages m ON m.id = s.id::bigint
                WHERE h.fact_id = facts.id AND h.operation = 'insert'
                AND h.sources_are_batch = 0 AND m.at <= facts.created_at), created_at)""",
            """UPDATE facts SET valid_until = COALESCE((
                SELECT MAX(h.at) FROM fact_history h
                WHERE h.fact_id = facts.id AND h.after_json::jsonb ->> 'active' = 'false'),
                updated_at) WHERE active = 0""",
            *FACT_TIMES_CLAMP,
        ),
    ),
    Migration(
        "pg026_inbox",
        (
            pg(INBOX_TABLES[0]),
            *INBOX_TABLES[1:],
            *ids_follow("inbox"),
        ),
    ),
    Migration("pg027_forget_receipts", tuple(pg(t) for t in FORGET_RECEIPTS)),
    Migration(
        "pg028_owner_review",
        (*(pg(t) for t in OWNER_REVIEW_TABLES), *ids_follow("digest_sends")),
    ),
    Migration(
        "pg029_access_tokens",
        (*(pg(t) for t in ACCESS_TOKENS), *ids_follow("access_tokens", "token_uses")),
    ),
    Migration(
        "pg030_inbox_grounding",
        (
            # kit/store/migrations.py m030; PostgreSQL changes the CHECK in place.
            "ALTER TABLE inbox DROP CONSTRAINT inbox_kind_check",
            "ALTER TABLE inbox ADD CONSTRAINT inbox_kind_check"
            " CHECK (kind IN ('change', 'conflict', 'grounding'))",
        ),
    ),
    # One row (singleton = 1): no identity, no sequence to follow.
    Migration("pg031_vector_models", tuple(pg(t) for t in VECTOR_MODELS)),
    Migration(
        "pg032_message_passages",
        (
            *(pg(t) for t in MESSAGE_PASSAGES),
            *ids_follow("message_passages"),
            """CREATE FUNCTION message_passages_embeddings_gone() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                DELETE FROM embeddings WHERE kind = 'passage' AND item_id = OLD.id;
                RETURN NULL;
            END $$""",
            "CREATE TRIGGER message_passages_embeddings_ad AFTER DELETE ON message_passages"
            " FOR EACH ROW EXECUTE FUNCTION message_passages_embeddings_gone()",
        ),
    ),
    Migration("pg033_message_spoken", tuple(pg(t) for t in MESSAGE_SPOKEN)),
    Migration("pg034_channel_events", tuple(pg(t) for t in CHANNEL_EVENT_TABLES)),
    # m035's twin: PostgreSQL named the CHECKs <table>_category_check and drops them outright.
    Migration(
        "pg035_open_categories",
        tuple(
            statement
            for table in CATEGORY_TABLES
            for statement in (
                f"ALTER TABLE {table} DROP CONSTRAINT IF EXISTS {table}_category_check",
                f"ALTER TABLE {table} ADD CONSTRAINT {table}_category_named {NAMED_CATEGORY}",
            )
        ),
    ),
    # m036's twin: facts' access stats bump `memory_versions.used` (kit/retrieval/rows.py).
    Migration(
        "pg036_fact_use_version",
        (
            "ALTER TABLE memory_versions ADD COLUMN used BIGINT NOT NULL DEFAULT 0",
            """CREATE FUNCTION facts_used_bump() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO memory_versions (user_id) VALUES (NEW.user_id) ON CONFLICT DO NOTHING;
                UPDATE memory_versions SET used = used + 1 WHERE user_id = NEW.user_id;
                RETURN NULL;
            END $$""",
            "CREATE TRIGGER facts_used_au AFTER UPDATE OF access_count, last_accessed_at ON facts"
            " FOR EACH ROW EXECUTE FUNCTION facts_used_bump()",
        ),
    ),
    Migration("pg037_kit_written_replies", KIT_WRITTEN_REPLIES),
    Migration("pg038_message_said_days", MESSAGE_SAID_DAYS),
    Migration("pg039_message_says_time", MESSAGE_SAYS_TIME),
)
