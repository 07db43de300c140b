"""The control socket's protocol reference is rendered from the declaration (kit/surface.py):
every operation once, with its request fields, their types, checks and defaults, its result and
its events."""

from __future__ import annotations

from kit.daemon import socket_server
from kit.operations import operation_names, reference


def test_each_operation_has_a_line_and_a_summary_in_declaration_order() -> None:
    lines = reference().splitlines()
    heads = [line.split("(")[0] for line in lines if not line.startswith(" ")]
    assert heads == list(operation_names())
    summaries = [line for line in lines if line.startswith("    ")]
    assert len(summaries) == len(heads) and all(s.strip() for s in summaries)


def test_fields_show_their_type_check_and_default_as_they_travel() -> None:
    lines = reference().splitlines()
    assert (
        "add_fact(content: string (at most 2,000 characters), category: string (at most 200 "
        'characters) = "person", subject: string (at most 200 characters) = "", pinned: '
        'true/false = false, expires: "YYYY-MM-DD" | null = null, since: "YYYY-MM-DD" | null = '
        'null, until: "YYYY-MM-DD" | null = null) -> OwnerChange'
    ) in lines
    # rem's `only_date` travels as "date"; its progress comes back as events
    assert (
        'rem(dry_run: true/false = false, date: "YYYY-MM-DD" | null = null) -> RemReport; '
        'events "progress"' in lines
    )
    assert "search(query: string, k: integer (1 to 50) = 10) -> [Hit]" in lines
    assert "cancel_reminder(reminder_id: integer (a positive id)) -> Reminder" in lines
    assert "last_rem() -> RemReport | null" in lines
    assert "memory_index() -> string" in lines
    assert 'digest(day: "YYYY-MM-DD" | null = null) -> Digest' in lines
    assert "forget_receipts() -> [ReceiptInfo]" in lines
    # over the socket a receipt is named by its id, never by a path the daemon would read
    assert (
        "verify_forget(receipt: string (at most 100 characters; a receipt id like "
        "fr-k3m9q2xa7b, never a path)) -> Verification"
    ) in lines


def test_the_socket_servers_docstring_points_to_the_reference_instead_of_copying_it() -> None:
    doc = socket_server.__doc__ or ""
    assert "kit.operations.reference()" in doc
    assert "fact_history(" not in doc and "deactivate_fact" not in doc
