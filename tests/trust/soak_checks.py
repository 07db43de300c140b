"""What must hold after every SIGKILL, read straight from the file while no Kit process runs.

- the file passes `PRAGMA integrity_check`, and each FTS index its own integrity-check;
- every acknowledged message (and the reply that came with it) is there, word for word;
- no message was stored twice; an import is all there or not there at all;
- no pass is half applied: each applied `people` curation pass has exactly its inserts, every
  other category's pass none, and no fact exists without the history row that created it;
- every row's content hash matches its text (nothing torn between statements).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from kit.memory.days import day_text_hash
from kit.memory.hashes import content_hash
from tests.trust.soak_model import PEOPLE_INSERTS


@dataclass(frozen=True)
class Acked:
    user_message_id: int
    reply_message_id: int | None
    text: str
    reply: str


@dataclass
class Ledger:
    """What the soak was told succeeded: it must all be in the database."""

    messages: dict[str, Acked] = field(default_factory=dict)
    imports: dict[str, int] = field(default_factory=dict)  # conversation -> size (any outcome)
    acked_imports: set[str] = field(default_factory=set)


def check(db_path: Path, ledger: Ledger) -> list[str]:
    """Every violated property, as one line each (empty: all good)."""
    problems: list[str] = []
    conn = sqlite3.connect(db_path, timeout=30)
    try:
        problems += _integrity(conn)
        problems += _acknowledged(conn, ledger)
        problems += _imports(conn, ledger)
        problems += _passes(conn)
        problems += _hashes(conn)
    finally:
        conn.close()
    return problems


def _integrity(conn: sqlite3.Connection) -> list[str]:
    problems = []
    result = [r[0] for r in conn.execute("PRAGMA integrity_check")]
    if result != ["ok"]:
        problems.append(f"integrity_check: {result[:3]}")
    for table in ("messages_fts", "facts_fts", "days_fts", "note_chunks_fts"):
        try:
            conn.execute(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")
        except sqlite3.DatabaseError as exc:
            problems.append(f"{table} integrity-check: {exc}")
    return problems


def _acknowledged(conn: sqlite3.Connection, ledger: Ledger) -> list[str]:
    stored = dict(conn.execute("SELECT id, text FROM messages"))
    problems = []
    for text, ack in ledger.messages.items():
        if stored.get(ack.user_message_id) != text:
            problems.append(f"acknowledged message lost: #{ack.user_message_id} {text!r}")
        if ack.reply_message_id is not None and stored.get(ack.reply_message_id) != ack.reply:
            problems.append(f"acknowledged reply lost: #{ack.reply_message_id} to {text!r}")
    for text, count in conn.execute(
        "SELECT text, COUNT(*) FROM messages WHERE text LIKE 'soak %' GROUP BY text"
        " HAVING COUNT(*) > 1"
    ):
        problems.append(f"message stored {count} times: {text!r}")
    return problems


def _imports(conn: sqlite3.Connection, ledger: Ledger) -> list[str]:
    problems = []
    for name, size in ledger.imports.items():
        (count,) = conn.execute(
            "SELECT COUNT(*) FROM messages m JOIN conversations c ON c.id = m.conversation_id"
            " WHERE c.channel = 'import' AND c.external_id = ?",
            (name,),
        ).fetchone()
        if count not in (0, size) or (name in ledger.acked_imports and count != size):
            problems.append(f"import {name}: {count} of {size} messages (half an import)")
    return problems


def _passes(conn: sqlite3.Connection) -> list[str]:
    problems = []
    for pass_id, category, status, written in conn.execute(
        "SELECT p.id, p.category, p.status,"
        " (SELECT COUNT(*) FROM fact_history h WHERE h.pass_id = p.id)"
        " FROM passes p WHERE p.kind = 'curate'"
    ):
        expected = PEOPLE_INSERTS if (category, status) == ("people", "applied") else 0
        if written != expected:
            problems.append(f"pass {pass_id} ({category}, {status}) wrote {written} of {expected}")
    (orphans,) = conn.execute(
        "SELECT COUNT(*) FROM facts f WHERE NOT EXISTS"
        " (SELECT 1 FROM fact_history h WHERE h.fact_id = f.id AND h.operation = 'insert')"
    ).fetchone()
    if orphans:
        problems.append(f"{orphans} fact(s) without the history row that created them")
    return problems


def _hashes(conn: sqlite3.Connection) -> list[str]:
    problems = []
    for row_id, speaker, text, stored in conn.execute(
        "SELECT id, speaker, text, content_hash FROM messages"
    ):
        if content_hash(speaker, text) != stored:
            problems.append(f"message {row_id}: content hash does not match its text")
    for row_id, subject, content, stored in conn.execute(
        "SELECT id, subject, content, content_hash FROM facts"
    ):
        if content_hash(subject, content) != stored:
            problems.append(f"fact {row_id}: content hash does not match its text")
    for row_id, detailed, condensed, stored in conn.execute(
        "SELECT id, detailed, condensed, content_hash FROM days"
    ):
        if day_text_hash(detailed, condensed) != stored:
            problems.append(f"day {row_id}: content hash does not match its text")
    return problems


def pending_work(db_path: Path, model_id: str) -> dict[str, int]:
    """What a restarted Kit still owes: items without embeddings, uncondensed days,
    jobs left 'running' by a killed process."""
    conn = sqlite3.connect(db_path, timeout=30)
    try:
        missing = 0
        for kind, table in (("message", "messages"), ("fact", "facts"), ("day", "days")):
            (count,) = conn.execute(
                f"SELECT COUNT(*) FROM {table} s LEFT JOIN embeddings e ON e.kind = ?"
                " AND e.item_id = s.id AND e.model_id = ?"
                " WHERE e.item_id IS NULL OR e.content_hash != s.content_hash",
                (kind, model_id),
            ).fetchone()
            missing += count
        (uncondensed,) = conn.execute(
            "SELECT COUNT(*) FROM days WHERE condensed = '' AND detailed != ''"
        ).fetchone()
        (running,) = conn.execute(
            "SELECT COUNT(*) FROM job_runs WHERE status = 'running'"
        ).fetchone()
    finally:
        conn.close()
    return {"unembedded": missing, "uncondensed_days": uncondensed, "jobs_left_running": running}
