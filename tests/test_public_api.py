"""Kit's public face, pinned (the pattern of httpx's exported-members test): what `kit`
exports and what a `Kit` offers. A change here is a change to the public API, made on purpose;
and front-ends use that face, never the wiring behind it (`Kit.services`)."""

from __future__ import annotations

import ast
from pathlib import Path

import kit
from kit.api import Kit

REPO = Path(__file__).resolve().parents[1]

EXPORTED = ["Inbound", "Kit", "NewMessage", "Settings", "TurnResult", "load_settings"]

KIT_MEMBERS = [
    # talking to Kit
    "send",
    "turn",
    "context",
    "chat_history",
    "memory_index",
    "search",
    "import_messages",
    # facts
    "facts",
    "fact",
    "fact_history",
    "remember",
    "ask_to_remember",
    "add_fact",
    "edit_fact",
    "pin_fact",
    "unpin_fact",
    "forget_fact",
    "expire_facts",
    # the inbox: changes a pass set aside for the owner
    "inbox",
    "answer_question",
    # curation and its passes
    "curate",
    "parked_batches",
    "passes",
    "undo_pass",
    # days and messages
    "days",
    "day",
    "day_record",
    "messages_on",
    "summarize",
    # notes
    "notes",
    "note",
    "note_history",
    "note_revision",
    "add_note",
    "remove_note",
    "erase_note",
    # reminders
    "reminders",
    "cancel_reminder",
    "reminder_notices",
    "deliver_due_reminders",
    "describe_reminder",
    # upkeep
    "rem",
    "last_rem",
    "digest",
    "send_digest",
    "embeddings_on",
    "embedding_model",
    "pending_embeddings",
    "embed_pending",
    "embedding_problem",
    "reindexing",
    "reindex_progress",
    "pending_reindex",
    "reindex",
    "export",
    "restore",
    # forgetting for good, and its receipts
    "forget_preview",
    "forget",
    "forget_receipts",
    "verify_forget",
    "repair_forget",
    # access tokens for remote MCP clients (kit mcp --http)
    "create_access_token",
    "access_tokens",
    "revoke_access_token",
    "access_log",
    "authorize",
    # what `kit status` shows
    "tokens_today",
    "background_budget",
    "vector_search",
    "vector_search_since",
    # the clock and the owner's zone
    "now",
    "today",
    "tz",
    # opening and closing
    "open",
    "settle",
]
# Set on each instance: the settings, and the wiring (for the daemon's own parts and tests).
KIT_ATTRIBUTES = ["settings", "services"]

# Front-ends: they reach Kit through its methods (or a KitClient), never through its wiring.
FRONT_ENDS = ["kit/commands", "kit/mcp", "kit/channels", "tui", "kit/client.py"]


def test_kit_exports_exactly_its_public_names() -> None:
    assert kit.__all__ == EXPORTED


def test_a_kit_offers_exactly_its_public_members() -> None:
    public = sorted(name for name in dir(Kit) if not name.startswith("_"))
    assert public == sorted(KIT_MEMBERS)
    assert len(KIT_MEMBERS) == len(set(KIT_MEMBERS))


def test_a_kit_instance_adds_only_its_settings_and_wiring() -> None:
    from kit.api_base import KitBase

    class Services:  # the two fields KitBase reads
        settings = object()

    opened = KitBase(Services())  # type: ignore[arg-type]
    assert sorted(vars(opened)) == sorted(KIT_ATTRIBUTES)


def _touches_services(source: str, where: str) -> list[str]:
    """Each place `source` reads or writes an attribute called `services`."""
    return [
        f"{where}:{node.lineno}"
        for node in ast.walk(ast.parse(source, filename=where))
        if isinstance(node, ast.Attribute) and node.attr == "services"
    ]


def test_no_front_end_reaches_past_kit_into_its_services() -> None:
    files = [
        path
        for place in FRONT_ENDS
        for path in ([REPO / place] if place.endswith(".py") else (REPO / place).rglob("*.py"))
    ]
    assert len(files) > 40
    found = [
        hit
        for path in files
        for hit in _touches_services(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
    ]
    assert found == []


def test_the_rule_sees_a_reach_into_services() -> None:
    """The check above is not blind: it finds `kit.services.x` wherever it is written."""
    source = "async def run(kit, s):\n    s = kit.services\n    return kit.services.tz\n"
    assert _touches_services(source, "sample.py") == ["sample.py:2", "sample.py:3"]
