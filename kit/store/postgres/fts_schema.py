"""PostgreSQL's full-text tables: SQLite's FTS5 tables become `<table>_fts` tables of tsvectors
(English stemming, the same lexical units: a message's speaker, text and day in words, and in
a column of its own the previous message's words; m005, m010), written by triggers in the
writing transaction.

pg001 / pg017 made them `(id, terms)` with a GIN index on the words alone. pg021_fts_per_user
gives each row its user's id and indexes the two together: one GIN index over
`(ARRAY[user_id], terms)`, so a search reads only its user's rows holding the words instead of
every user's (a common word matched a third of a million rows of a 1M-fact store, and only
the join to the source table dropped other users': docs/measurements.md, "Many owners on
PostgreSQL").
The user id goes in as a one-element array because GIN indexes arrays and tsvectors with
built-in operator classes; a plain text column beside a tsvector needs the btree_gin
extension, which pgserver's bundled PostgreSQL does not ship (and a managed server may not
allow), so Kit does not depend on it. Only PostgreSQL changes: SQLite's FTS5 tables join to
the source by rowid and are each one user's small share of one file.
"""

from __future__ import annotations

FACT_TERMS = "to_tsvector('english', {0}.subject || ' ' || {0}.content)"
DAY_TERMS = "to_tsvector('english', {0}.detailed || ' ' || {0}.condensed)"
NOTE_TERMS = "to_tsvector('english', {0}.name || ' ' || {0}.heading || ' ' || {0}.text)"
# A message's own words: speaker, text, its day; since pg024 also the days its text names.
_MESSAGE_WORDS = "{0}.speaker || ' ' || {0}.text || ' (' || kit_day_words({0}.day) || ')'"
_NAMED_DAYS = " || COALESCE(' (' || NULLIF({0}.named_days, '') || ')', '')"
MESSAGE_TERMS = "to_tsvector('english', " + _MESSAGE_WORDS + _NAMED_DAYS + ")"
# Columns whose change rewrites a row's unit (each table's trigger watches them).
_WATCHED = {
    "facts": "subject, content",
    "days": "detailed, condensed",
    "note_chunks": "name, heading, text",
    "messages": "speaker, text, day, conversation_id",
}


def _write(table: str, weighted: str, *, per_user: bool) -> str:
    """`<table>_fts_write()`: the trigger function writing one row's unit."""
    fts = f"{table}_fts"
    user = (", user_id", ", NEW.user_id", " user_id = excluded.user_id,") if per_user else ("",) * 3
    return f"""CREATE OR REPLACE FUNCTION {fts}_write() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO {fts} (id{user[0]}, terms) SELECT NEW.id{user[1]}, {weighted.format("NEW")}
            ON CONFLICT (id) DO UPDATE SET{user[2]} terms = excluded.terms;
            RETURN NULL;
        END $$"""


def fts(table: str, weighted: str) -> tuple[str, ...]:
    """pg001 / pg017: `<table>_fts` with one tsvector per row, and its triggers."""
    fts = f"{table}_fts"
    return (
        f"CREATE TABLE {fts} (id BIGINT PRIMARY KEY REFERENCES {table}(id) ON DELETE CASCADE,"
        " terms tsvector NOT NULL)",
        f"CREATE INDEX {fts}_terms ON {fts} USING gin (terms)",
        _write(table, weighted, per_user=False),
        *_triggers(table, _WATCHED[table]),
    )


def _triggers(table: str, columns: str) -> tuple[str, ...]:
    return (
        f"CREATE TRIGGER {table}_fts_ai AFTER INSERT ON {table} FOR EACH ROW"
        f" EXECUTE FUNCTION {table}_fts_write()",
        f"CREATE TRIGGER {table}_fts_au AFTER UPDATE OF {columns} ON {table} FOR EACH ROW"
        f" EXECUTE FUNCTION {table}_fts_write()",
    )


# A message's lexical unit (m005, m010): its speaker, text and day in words (`terms`), and the
# text of the message before it in its conversation (`context`, searched at a low weight or
# not at all; a column of its own, so it neither matches as the message's own words nor
# lengthens it). Written for one message id; the triggers call it for every message whose unit
# a change touches: the row itself and the one after it (whose "before" it is or was).
def _message_unit(*, per_user: bool, named_days: bool = False) -> str:
    user = (" user_id,", " m.user_id,", " user_id = excluded.user_id,") if per_user else ("",) * 3
    # pg024: after its own day, the days its text names (messages.named_days, derived).
    terms = (_MESSAGE_WORDS + (_NAMED_DAYS if named_days else "")).format("m")
    return f"""CREATE OR REPLACE FUNCTION messages_fts_write(message_id bigint) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO messages_fts (id,{user[0]} terms, context)
    SELECT m.id,{user[1]}
        to_tsvector('english', {terms}),
        to_tsvector('english', COALESCE((SELECT p.text FROM messages p
            WHERE p.conversation_id = m.conversation_id AND p.id < m.id
            ORDER BY p.id DESC LIMIT 1), ''))
    FROM messages m WHERE m.id = message_id
    ON CONFLICT (id) DO UPDATE SET{user[2]} terms = excluded.terms, context = excluded.context
$$"""


MESSAGES_FTS = (
    "CREATE TABLE messages_fts (id BIGINT PRIMARY KEY"
    " REFERENCES messages(id) ON DELETE CASCADE, terms tsvector NOT NULL,"
    " context tsvector NOT NULL)",
    "CREATE INDEX messages_fts_terms ON messages_fts USING gin (terms)",
    "CREATE INDEX messages_fts_context ON messages_fts USING gin (context)",
    _message_unit(per_user=False),
    """CREATE FUNCTION messages_fts_after() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP <> 'DELETE' THEN
            PERFORM messages_fts_write(NEW.id);
            PERFORM messages_fts_write(n.id) FROM (SELECT id FROM messages
                WHERE conversation_id = NEW.conversation_id AND id > NEW.id
                ORDER BY id LIMIT 1) n;
        END IF;
        IF TG_OP <> 'INSERT' THEN
            PERFORM messages_fts_write(n.id) FROM (SELECT id FROM messages
                WHERE conversation_id = OLD.conversation_id AND id > OLD.id
                ORDER BY id LIMIT 1) n;
        END IF;
        RETURN NULL;
    END $$""",
    "CREATE TRIGGER messages_fts_ai AFTER INSERT ON messages FOR EACH ROW"
    " EXECUTE FUNCTION messages_fts_after()",
    "CREATE TRIGGER messages_fts_ad AFTER DELETE ON messages FOR EACH ROW"
    " EXECUTE FUNCTION messages_fts_after()",
    f"CREATE TRIGGER messages_fts_au AFTER UPDATE OF {_WATCHED['messages']}"
    " ON messages FOR EACH ROW EXECUTE FUNCTION messages_fts_after()",
)


def _user_column(table: str) -> tuple[str, ...]:
    """`<table>_fts.user_id`, backfilled from the source rows, and the trigger that watches
    the source's columns watching its user id too."""
    fts = f"{table}_fts"
    writer = "messages_fts_after" if table == "messages" else f"{fts}_write"
    return (
        f'ALTER TABLE {fts} ADD COLUMN user_id TEXT COLLATE "C"',
        f"UPDATE {fts} t SET user_id = s.user_id FROM {table} s WHERE s.id = t.id",
        f"ALTER TABLE {fts} ALTER COLUMN user_id SET NOT NULL",
        f"DROP TRIGGER {table}_fts_au ON {table}",
        f"CREATE TRIGGER {table}_fts_au AFTER UPDATE OF {_WATCHED[table]}, user_id ON {table}"
        f" FOR EACH ROW EXECUTE FUNCTION {writer}()",
    )


def named_days() -> tuple[str, ...]:
    """pg024 after its column is filled (m024's twin): a message's unit holds the days its
    text names; the trigger that rewrites a unit watches them too; the units of messages
    that name a day are written again."""
    watched = f"{_WATCHED['messages']}, user_id, named_days"
    return (
        _message_unit(per_user=True, named_days=True),
        "DROP TRIGGER messages_fts_au ON messages",
        f"CREATE TRIGGER messages_fts_au AFTER UPDATE OF {watched} ON messages"
        " FOR EACH ROW EXECUTE FUNCTION messages_fts_after()",
        "SELECT messages_fts_write(id) FROM messages WHERE named_days <> ''",
    )


def per_user() -> tuple[str, ...]:
    """pg021_fts_per_user (module docstring): a user id in every `_fts` row, and GIN indexes
    over the user and the words together in place of the words' alone."""
    return (
        *_user_column("facts"),
        _write("facts", FACT_TERMS, per_user=True),
        *_user_column("days"),
        _write("days", DAY_TERMS, per_user=True),
        *_user_column("note_chunks"),
        _write("note_chunks", NOTE_TERMS, per_user=True),
        *_user_column("messages"),
        _message_unit(per_user=True),
        "DROP INDEX facts_fts_terms",
        "DROP INDEX days_fts_terms",
        "DROP INDEX note_chunks_fts_terms",
        "DROP INDEX messages_fts_terms",
        "DROP INDEX messages_fts_context",
        *(
            f"CREATE INDEX {t}_fts_user_terms ON {t}_fts USING gin ((ARRAY[user_id]), terms)"
            for t in ("facts", "days", "note_chunks")
        ),
        "CREATE INDEX messages_fts_user_terms ON messages_fts"
        " USING gin ((ARRAY[user_id]), terms, context)",
    )
