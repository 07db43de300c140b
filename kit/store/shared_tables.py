"""Tables and row fixes both engines' migrations make with the same SQL (SQLite's in
migrations.py, PostgreSQL's twins in postgres/migrations.py, which rewrites a few types). Like
the migrations, each is frozen once shipped: a change is a new migration."""

from __future__ import annotations

# Several `kit run` workers on one database (kit/jobs/leases.py): a lease names what one
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

# What the owner reviews (issue 22). `callbacks`: a button Kit sent (a Telegram inline
# button) stands for one action on one memory behind a short token (kit/delivery/callbacks.py):
# it works once, only for that memory's owner, until it expires. Ids only, never text: nothing
# `kit forget` erases can stay behind in it. `digest_sends`: each daily
# memory digest sent (kit/digest/sends.py); the partial unique index is "at most one scheduled
# digest per memory and day", across restarts and workers. `followup_offers`: how many times a
# day Kit was allowed to offer a reminder for a plan the owner mentioned (kit/followups/).
OWNER_REVIEW_TABLES = (
    """CREATE TABLE callbacks (
        token TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        action TEXT NOT NULL,
        payload_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT)""",
    "CREATE INDEX callbacks_expires ON callbacks(expires_at)",
    """CREATE TABLE digest_sends (
        id INTEGER PRIMARY KEY,
        user_id TEXT NOT NULL,
        day TEXT NOT NULL,
        scheduled INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'empty', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 1,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        messages INTEGER NOT NULL DEFAULT 0,
        chats INTEGER NOT NULL DEFAULT 0,
        detail TEXT NOT NULL DEFAULT '')""",
    "CREATE UNIQUE INDEX digest_sends_daily ON digest_sends(user_id, day) WHERE scheduled = 1",
    # The digest reads a day's changes outside passes (REM's expiries, `remember`) by time.
    "CREATE INDEX fact_history_user_at ON fact_history(user_id, at)",
    """CREATE TABLE followup_offers (
        user_id TEXT NOT NULL,
        day TEXT NOT NULL,
        offers INTEGER NOT NULL,
        PRIMARY KEY (user_id, day))""",
)


# Which model's vectors searches use, and the re-embedding toward the configured one
# (kit/retrieval/model_state.py): one row per database (every worker shares it). `serving_spec`
# is how to load the serving model again (kit/embed/spec.py; '' for one Kit cannot load).
VECTOR_MODELS = (
    """CREATE TABLE vector_models (
        singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
        serving TEXT NOT NULL,
        serving_spec TEXT NOT NULL,
        target TEXT,
        target_since TEXT,
        updated_at TEXT NOT NULL)""",
)


# The passages of long messages (kit/retrieval/passages.py): derived from each message's
# text alone, as character offsets, and embedded as vectors of kind 'passage' under the model
# id like every other vector (kit/retrieval/vectors.py), so a long message is found by its best
# passage. Rebuilt from the rows at any time; a message's deletion takes its passages with it,
# and a passage's deletion its vectors.
MESSAGE_PASSAGES = (
    """CREATE TABLE message_passages (
        id INTEGER PRIMARY KEY,
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL,
        part INTEGER NOT NULL,
        char_start INTEGER NOT NULL,
        char_stop INTEGER NOT NULL,
        content_hash TEXT NOT NULL,
        UNIQUE (message_id, part))""",
)


# Access tokens (kit/access/tokens.py): per memory, the tokens its owner issued for remote MCP
# clients (`kit mcp --http`), stored as SHA-256 hashes, never the token; a name is unique among
# a memory's tokens not revoked. `token_uses`: the audit log of every remote call, allowed or
# refused (user_id NULL: the call named no memory's token).
ACCESS_TOKENS = (
    """CREATE TABLE access_tokens (
        id INTEGER PRIMARY KEY,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        public_id TEXT NOT NULL UNIQUE,
        token_hash TEXT NOT NULL,
        read_only INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        revoked_at TEXT,
        last_used_at TEXT)""",
    """CREATE UNIQUE INDEX access_tokens_live_name ON access_tokens(user_id, name)
        WHERE revoked_at IS NULL""",
    """CREATE TABLE token_uses (
        id INTEGER PRIMARY KEY,
        user_id TEXT,
        token_id INTEGER REFERENCES access_tokens(id),
        token_name TEXT NOT NULL DEFAULT '',
        at TEXT NOT NULL,
        call TEXT NOT NULL DEFAULT '',
        peer TEXT NOT NULL DEFAULT '',
        outcome TEXT NOT NULL)""",
    "CREATE INDEX token_uses_user ON token_uses(user_id, id)",
    "CREATE INDEX token_uses_at ON token_uses(at)",
)


# Channels whose updates are named by strings and read from a position (Matrix's event ids and
# sync token, kit/channels/matrix/): where the last read ended, kept so a restart goes on from
# there, and each event claimed once (kit/jobs/leases.py `claim_event`), as `handled_updates`
# does for Telegram's numbered updates.
CHANNEL_EVENT_TABLES = (
    """CREATE TABLE channel_cursors (
        channel TEXT PRIMARY KEY,
        cursor TEXT NOT NULL,
        updated_at TEXT NOT NULL)""",
    """CREATE TABLE handled_events (
        channel TEXT NOT NULL,
        event_id TEXT NOT NULL,
        worker TEXT NOT NULL,
        handled_at TEXT NOT NULL,
        PRIMARY KEY (channel, event_id))""",
    "CREATE INDEX handled_events_at ON handled_events(channel, handled_at)",
)

# A voice message the owner sent is kept as its transcript, marked as spoken (the audio is not
# kept: kit/speech/).
MESSAGE_SPOKEN = ("ALTER TABLE messages ADD COLUMN spoken INTEGER NOT NULL DEFAULT 0",)

# Forget receipts (kit/forget/receipts.py): per user, the sealed document of each
# `kit forget` (salted hashes of what it erased, never the text) and its header for listing.
FORGET_RECEIPTS = (
    """CREATE TABLE forget_receipts (
        user_id TEXT NOT NULL,
        receipt_id TEXT NOT NULL,
        at TEXT NOT NULL,
        scope TEXT NOT NULL,
        counts_json TEXT NOT NULL DEFAULT '{}',
        erased TEXT NOT NULL,
        document TEXT NOT NULL,
        PRIMARY KEY (user_id, receipt_id))""",
    "CREATE INDEX forget_receipts_id ON forget_receipts(receipt_id)",
)


# Until, for a retired fact: when its history last took it out of use (else when it was last
# written; the JSON test is each engine's own), then no later than its expiry and never
# before it began (`FACT_TIMES_CLAMP`, shared with pg025).
FACT_TIMES_CLAMP = (
    "UPDATE facts SET valid_until = expires_at"
    " WHERE active = 0 AND expires_at IS NOT NULL AND expires_at < valid_until",
    "UPDATE facts SET valid_until = valid_from WHERE valid_until < valid_from",
)

# The contradiction inbox (kit/inbox/): a change a pass set aside for the owner to decide.
# `operation_json` is the proposed operation, `old_json` the facts it would change as they
# were when asked (an answer checks they still are); `status` open -> answered | withdrawn (its
# pass undone); an open question past `expires_at` has expired (the old facts kept).
INBOX_TABLES = (
    """CREATE TABLE inbox (
        id INTEGER PRIMARY KEY,
        user_id TEXT NOT NULL,
        pass_id INTEGER NOT NULL REFERENCES passes(id),
        category TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('change', 'conflict')),
        reason TEXT NOT NULL,
        operation_json TEXT NOT NULL,
        old_json TEXT NOT NULL,
        choices TEXT NOT NULL,
        asked_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered', 'withdrawn')),
        answer TEXT,
        answered_at TEXT,
        answer_pass_id INTEGER,
        announced_at TEXT)""",
    "CREATE INDEX inbox_user ON inbox(user_id, status, id)",
    "CREATE INDEX inbox_pass ON inbox(pass_id)",
)


# m030: an inbox question may also be a fact its cited messages only partly say (kind
# 'grounding', kit/curator/grounding.py). SQLite cannot change a CHECK: the table is built
# anew with the same columns and rows.
INBOX_GROUNDING = (
    """CREATE TABLE inbox_m030 (
        id INTEGER PRIMARY KEY,
        user_id TEXT NOT NULL,
        pass_id INTEGER NOT NULL REFERENCES passes(id),
        category TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('change', 'conflict', 'grounding')),
        reason TEXT NOT NULL,
        operation_json TEXT NOT NULL,
        old_json TEXT NOT NULL,
        choices TEXT NOT NULL,
        asked_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered', 'withdrawn')),
        answer TEXT,
        answered_at TEXT,
        answer_pass_id INTEGER,
        announced_at TEXT)""",
    "INSERT INTO inbox_m030 SELECT id, user_id, pass_id, category, kind, reason, operation_json,"
    " old_json, choices, asked_at, expires_at, status, answer, answered_at, answer_pass_id,"
    " announced_at FROM inbox",
    "DROP TABLE inbox",
    "ALTER TABLE inbox_m030 RENAME TO inbox",
    "CREATE INDEX inbox_user ON inbox(user_id, status, id)",
    "CREATE INDEX inbox_pass ON inbox(pass_id)",
)


# Replies Kit wrote in the model's place, stored before they had a source of their own: marked
# by the words they had then (kit/turn_reply.py), so the model's window and curation leave them
# out by their source alone.
KIT_WRITTEN_REPLIES = (
    "UPDATE messages SET source = 'kit' WHERE role = 'assistant' AND (text IN ("
    "'Sorry, I came up empty on that one; could you rephrase?', "
    "'(The model said it stored something, but nothing was stored this turn. Ask me to "
    "remember it again if you want it kept.)', "
    "'(The model said it set a reminder, but none was set this turn. Ask me again, with the "
    "time, if you want one.)')"
    " OR text LIKE '(The model gave no answer of its own%')",
)
