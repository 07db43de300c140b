"""What `kit import` and `kit restore` say of the forgets a file meets: those made after it was
written (re-applied, or brought back with --allow-forgotten), and the lines flagged as
forgotten before (kit/forget/receipts.py). Shared by kit/commands/import_.py, restore.py and
restore_pg.py, so none of them imports another for its wording.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kit.text import plural

if TYPE_CHECKING:  # the work loads when the command runs, not with `kit --help`
    from kit.forget.plan import ForgetReport
    from kit.forget.reapply import Reapplied
    from kit.forget.receipts import ReceiptMatch


def forget_lines(
    reapplied: Sequence[Reapplied], back: Sequence[Reapplied], file: Path
) -> list[str]:
    """What the report says of the forgets made after the file (re-applied, or not)."""
    lines: list[str] = []
    if reapplied:
        lines.append(
            f"Re-applied {plural(len(reapplied), 'forget')} made after {file} was written, "
            f"so what {'it' if len(reapplied) == 1 else 'they'} erased stays erased:"
        )
        lines += [
            f"  receipt {r.receipt_id} ({r.at:%Y-%m-%d}, {r.user_id!r}): "
            f"{_taken(r.report)} erased again"
            for r in reapplied
        ]
        lines.append(
            "`kit forget --verify RECEIPT` checks each; to restore what they erased instead, "
            "run kit restore again with --allow-forgotten."
        )
    if back:
        lines.append(
            f"Not re-applied (--allow-forgotten): {plural(len(back), 'forget')} made after "
            f"{file} was written; what they erased is back, and their receipts no longer verify:"
        )
        lines += [
            f"  receipt {r.receipt_id} ({r.at:%Y-%m-%d}, {r.user_id!r}): {_taken(r.report)} back"
            for r in back
        ]
    return lines


def _taken(report: ForgetReport) -> str:
    """What a re-applied forget took, in words (its vectors and index entries go with the rows)."""
    parts = [
        plural(report.messages_removed, "message"),
        plural(report.facts_forgotten, "fact"),
        plural(report.days_removed + report.days_rewritten, "day summary", "day summaries"),
    ]
    if report.conversation_summaries_rewritten:
        parts.append(
            plural(
                report.conversation_summaries_rewritten,
                "conversation summary",
                "conversation summaries",
            )
        )
    if report.note_versions_erased:
        parts.append(plural(report.note_versions_erased, "note version"))
    if report.reminders_removed:
        parts.append(plural(report.reminders_removed, "reminder"))
    return ", ".join(parts)


def flag_line(flagged: list[ReceiptMatch], what: str) -> str:
    from kit.forget.receipts import flagged as flagged_line

    return (
        f"Flagged: {flagged_line(flagged, what)}; imported anyway (--allow-forgotten), so "
        f"`kit forget --verify {flagged[0].receipt_id}` now reports them."
    )
