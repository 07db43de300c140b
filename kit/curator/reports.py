"""What curation, undo and REM report back: plain data for the CLI, socket and TUI."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Literal

from kit.memory.fact_rows import Fact

StepStatus = Literal["running", "done", "skipped", "failed"]
REM_STEPS = ("condense", "review", "copies", "expire")


@dataclass(frozen=True)
class RemProgress:
    """One progress event while REM runs (sent to the TUI and over the control socket)."""

    step: str  # one of REM_STEPS
    status: StepStatus
    detail: str = ""


@dataclass(frozen=True)
class RemReport:
    started_at: datetime
    finished_at: datetime
    dry_run: bool
    condensed_days: tuple[date, ...] = ()
    reviewed_facts: int = 0
    changes: tuple[str, ...] = ()  # one human-readable line per applied (or planned) change
    rejected: tuple[str, ...] = ()  # passes thrown out and expiries held, with their reasons
    expired_fact_ids: tuple[int, ...] = ()
    held_fact_ids: tuple[int, ...] = ()  # past their expiry, not retired: too many at once
    input_tokens: int = 0
    output_tokens: int = 0
    steps: tuple[RemProgress, ...] = field(default_factory=tuple)  # final status of each step


@dataclass(frozen=True)
class UndoResult:
    pass_id: int
    restored_fact_ids: tuple[int, ...]
    deactivated_fact_ids: tuple[int, ...]  # facts the pass had inserted
    # Facts REM changed after the pass (a review, an expiry): rolled back with it.
    rem_changes_rolled_back: tuple[int, ...] = ()
    # Facts an undo of an earlier pass already put back: left as they are.
    already_reverted: tuple[int, ...] = ()
    # Questions the pass set aside in the inbox, unanswered: withdrawn with it.
    questions_withdrawn: tuple[int, ...] = ()


def describe_undo(result: UndoResult) -> str:
    """What an undo did, in one sentence (`kit facts undo`, the digest's Undo button)."""
    parts = []
    if result.restored_fact_ids:
        parts.append("restored " + ", ".join(f"#{i}" for i in result.restored_fact_ids))
    if result.deactivated_fact_ids:
        ids = ", ".join(f"#{i}" for i in result.deactivated_fact_ids)
        parts.append(f"deactivated {ids} (added by the pass)")
    if result.rem_changes_rolled_back:
        ids = ", ".join(f"#{i}" for i in result.rem_changes_rolled_back)
        parts.append(f"REM's later changes to {ids} rolled back with it")
    if result.already_reverted:
        ids = ", ".join(f"#{i}" for i in result.already_reverted)
        parts.append(f"left {ids} as is (an earlier undo already put them back)")
    if result.questions_withdrawn:
        ids = ", ".join(str(i) for i in result.questions_withdrawn)
        parts.append(f"withdrew inbox question {ids}")
    return f"Undid pass {result.pass_id}: {'; '.join(parts) or 'it changed no facts'}."


PassStatus = Literal["applied", "noop", "planned", "rejected", "failed", "skipped"]


@dataclass(frozen=True)
class PassOutcome:
    """What one curation (or REM review) pass did, or why it was thrown out."""

    pass_id: int | None  # None: nothing recorded (a dry run, or the model was unreachable)
    kind: str  # curate | rem_review | ...
    category: str
    status: PassStatus
    reason: str = ""  # why rejected / failed / skipped
    changes: tuple[str, ...] = ()  # one line per applied (or planned) operation
    dropped: tuple[str, ...] = ()  # operations left out, with why (secrets, self-reference)
    inserted_fact_ids: tuple[int, ...] = ()
    changed_fact_ids: tuple[int, ...] = ()  # updated, deactivated or merged away
    source_message_ids: tuple[int, ...] = ()
    # Operations set aside for the owner (kit/inbox/), one line each, and their questions.
    asked: tuple[str, ...] = ()
    question_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class OwnerChange:
    """One change the owner made to a fact (add, edit, pin, unpin, retire): the fact as it is
    now and the pass that records it (`kit facts undo PASS_ID` takes it back)."""

    pass_id: int
    operation: str  # add | edit | pin | unpin | retire
    fact: Fact
