"""Building blocks of SQLite's migrations (migrations.py): FTS5 indexes kept in step by
triggers, a day as words for search, the counters that tell cached context it is stale, the
retrieval units and the notes' tables. Statements only: nothing here runs them."""

from __future__ import annotations


def fts_index(table: str, columns: tuple[str, ...]) -> tuple[str, ...]:
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


def day_words(day: str) -> str:
    """SQL for an ISO day column as words: '2023-05-08' -> 'Monday 8 May 2023'."""
    months = "January February March April May June July August September October November December"
    weekdays = "Sunday Monday Tuesday Wednesday Thursday Friday Saturday"
    month = " ".join(f"WHEN '{n:02d}' THEN '{m}'" for n, m in enumerate(months.split(), 1))
    weekday = " ".join(f"WHEN '{n}' THEN '{d}'" for n, d in enumerate(weekdays.split()))
    return (
        f"(CASE strftime('%w', {day}) {weekday} END) || ' ' || CAST(substr({day}, 9, 2) AS INTEGER)"
        f" || ' ' || (CASE substr({day}, 6, 2) {month} END) || ' ' || substr({day}, 1, 4)"
    )


def version_triggers(table: str, columns: str) -> tuple[str, ...]:
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


def use_trigger() -> str:
    """m036: a trigger bumping `memory_versions.used` for the user whose facts' access stats
    changed (`Facts.touch`): what the search's kept fact rows follow (kit/retrieval/rows.py)."""
    return (
        "CREATE TRIGGER facts_used_au AFTER UPDATE OF access_count, last_accessed_at ON facts"
        " BEGIN INSERT INTO memory_versions (user_id) SELECT new.user_id WHERE NOT EXISTS"
        " (SELECT 1 FROM memory_versions WHERE user_id = new.user_id);"
        " UPDATE memory_versions SET used = used + 1 WHERE user_id = new.user_id; END"
    )


def message_day_words() -> tuple[str, ...]:
    """Index each message together with its day in words, so "what did we do on 3 May" or
    "in June" finds that day's messages (measured: `kit eval retrieval`,
    docs/retrieval-quality.md). The index
    reads a view, `messages_indexed`, whose text is the message's text plus "(Monday 8 May
    2023)"; the table itself is unchanged. Same triggers, same names, rebuilt from the rows."""
    indexed = "{0}.text || ' (' || " + day_words("{0}.day") + " || ')'"
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


def retrieval_units() -> tuple[str, ...]:
    """A message's lexical unit is its own words plus, in a third column (`context`), the
    words of the message before it in its conversation: the question a reply answers
    usually holds the words the reply leaves out. Search weights the column low (measured:
    `kit eval retrieval`, docs/retrieval-quality.md). The view computes each row's context; the
    triggers keep the invariant "a row's indexed context is the text of the message now before
    it" through inserts anywhere (restore keeps ids), deletes (forget: a forgotten text must not
    live on in its neighbour's row) and edits. Plus an index for the distinct speakers of a user."""
    indexed = "{0}.text || ' (' || " + day_words("{0}.day") + " || ')'"
    return (
        *_message_units(indexed, "speaker, text, day"),
        "CREATE INDEX messages_user_speaker ON messages(user_id, speaker)",
    )


def named_days_units() -> tuple[str, ...]:
    """m024: a message's unit holds, after its own day in words, the days its text names
    (`messages.named_days`, derived in Python: kit/dates/text.py `named_days`), so "last
    Friday" said on Monday 8 May is found by a question about 5 May. Same view, triggers and
    context as m010, one more watched column; the index is rebuilt from the rows."""
    indexed = (
        "{0}.text || ' (' || " + day_words("{0}.day") + " || ')'"
        " || COALESCE(' (' || NULLIF({0}.named_days, '') || ')', '')"
    )
    return _message_units(indexed, "speaker, text, day, named_days")


def _message_units(indexed: str, watched: str) -> tuple[str, ...]:
    """The messages' FTS5 index (speaker, `indexed` text, context: the text of the message
    before it) over the view `messages_indexed`, and the triggers that keep it, replacing
    the previous ones; `watched`: the columns whose change rewrites a row's unit."""
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
        f"CREATE TRIGGER {fts}_au AFTER UPDATE OF {watched} ON messages BEGIN "
        + unindex_old
        + unindex_next("old", "old.text")
        + reindex("SELECT new.id")
        + reindex(after.format("new"))
        + " END",
        f"INSERT INTO {fts}({fts}) VALUES ('rebuild')",
    )


def notes_tables() -> tuple[str, ...]:
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
        *fts_index("note_chunks", ("name", "heading", "text")),
        "CREATE TRIGGER note_chunks_embeddings_ad AFTER DELETE ON note_chunks BEGIN "
        "DELETE FROM embeddings WHERE kind = 'note' AND item_id = old.id; END",
        # The memory index lists the notes: a note added, replaced, renamed or removed
        # rebuilds the cached part of the context (m014_context's counters, one more).
        "ALTER TABLE memory_versions ADD COLUMN notes INTEGER NOT NULL DEFAULT 0",
        *version_triggers("notes", "name, description, revision_id"),
    )
