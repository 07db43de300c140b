"""A question as the owner reads it, the same on every front-end (terminal, Telegram, TUI):
what Kit would do, what holds now, what would hold instead, why it asks, the answers."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import tzinfo
from typing import Any

from kit.clock import from_iso, local_minute
from kit.curator.contest import KEEP_BOTH, KEEP_OLD, TAKE_NEW
from kit.curator.questions import Question

LABELS = {KEEP_OLD: "Keep old", TAKE_NEW: "Take new", KEEP_BOTH: "Keep both"}
STATES = {
    "open": "waiting for your answer",
    "expired": "expired unanswered (the old facts were kept)",
    "withdrawn": "withdrawn (the pass that asked was undone)",
}


def _label(subject: str | None, content: str | None) -> str:
    subject, content = subject or "", content or ""
    return f"[{subject}] {content}" if subject else content


def headline(question: Question) -> str:
    """What Kit would do, in one line."""
    op = question.operation
    name = op.get("op")
    olds = ", ".join(f"#{f.id}" for f in question.old)
    if question.kind == "grounding":
        if name == "INSERT":
            return "Kit would learn a new fact its messages only partly say"
        if name == "REPLACE":
            return f"Kit would merge {olds} into a fact its messages only partly say"
        return f"Kit would rewrite {olds} with what its messages only partly say"
    if question.kind == "conflict":
        if name == "UPDATE":
            return f"rewriting #{op['fact_id']} would disagree with {olds}"
        return f"a new fact would disagree with {olds}"
    if name == "DEACTIVATE":
        return f"Kit would retire {olds}"
    if name == "REPLACE":
        return f"Kit would merge {olds} into one new fact"
    if "content" in op or "subject" in op:
        return f"Kit would rewrite {olds}"
    parts = []
    if "confidence" in op:
        parts.append(f"its confidence to {op['confidence']:.2f}")
    if "expires_at" in op:
        parts.append(f"its expiry to {op['expires_at'][:10]}")
    if op.get("clear_expiry"):
        parts.append("no expiry")
    return f"Kit would change {olds}: {', '.join(parts) or 'its details'}"


def proposed(question: Question) -> str | None:
    """The statement that would hold instead (None: the change states nothing new)."""
    op = question.operation
    if "content" not in op and "subject" not in op:
        return None
    if op.get("op") == "UPDATE":
        target = _target(question, op["fact_id"])
        subject = op.get("subject", target.get("subject"))
        return _label(subject, op.get("content", target.get("content")))
    return _label(op.get("subject"), op.get("content"))


def _target(question: Question, fact_id: int) -> Mapping[str, Any]:
    for fact in question.facts:
        if fact.id == fact_id:
            return fact.snapshot
    return {}


def question_lines(question: Question, tz: tzinfo) -> list[str]:
    """The question in a few lines (no answers: each front-end offers them its own way)."""
    asked = local_minute(question.asked_at, tz)
    lines = [f"Question {question.id} ({question.category}, asked {asked}): {headline(question)}"]
    for fact in question.old:
        held = _held(fact.snapshot)
        lines.append(f"  now:  #{fact.id} {fact.label}{held}")
    new = proposed(question)
    if new is not None:
        lines.append(f"  new:  {new}")
    why = question.operation.get("reason")
    if question.operation.get("op") == "DEACTIVATE" and why:
        lines.append(f"  its reason: {why}")
    lines.append(f"  asked because {question.reason}")
    return lines


def _held(snapshot: Mapping[str, Any]) -> str:
    if snapshot.get("pinned"):
        return " (pinned)"
    if snapshot.get("owner_written"):
        return " (yours)"
    since = snapshot.get("valid_from")
    return f" (since {from_iso(since).date()})" if since else ""


def state_line(question: Question, tz: tzinfo) -> str:
    """Where the question stands."""
    if question.status == "answered":
        when = "" if question.answered_at is None else f" {local_minute(question.answered_at, tz)}"
        return (
            f"answered {LABELS.get(question.answer or '', question.answer)!r}{when} "
            f"(pass {question.answer_pass_id}: `kit facts undo {question.answer_pass_id}` "
            "takes it back)"
        )
    if question.status == "open":
        return f"{STATES['open']} until {local_minute(question.expires_at, tz)}"
    return STATES.get(question.status, question.status)
