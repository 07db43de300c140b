"""How a curation pass shows the model its batch and the category's facts: messages with the
ids operations cite, facts with the ids operations change, everything from outside neutralised."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import tzinfo

from kit.clock import local_date
from kit.curator.progress import BATCH_MAX_CHARS
from kit.memory.fact_rows import Fact
from kit.memory.messages import Message, attributed
from kit.untrusted.neutralise import neutralise


def transcript(
    messages: Sequence[Message], tz: tzinfo, owner: str, *, max_chars: int = BATCH_MAX_CHARS
) -> str:
    """The batch as the curator reads it: Kit's lines marked, each message bounded in size.
    What people said carries its id (`[msg 12, 2026-03-01 10:00] Ana: ...`), which operations
    cite as their sources; Kit's lines carry none: facts never come from them."""
    lines = []
    for m in messages:
        who = (
            "Kit"
            if m.role == "assistant"
            else attributed(neutralise(m.speaker, inline=True) or owner, m)
        )
        limit = min(BATCH_MAX_CHARS, max_chars)
        text = m.text if len(m.text) <= limit else m.text[:limit] + " [...]"
        text = neutralise(text, inline=True)
        at = m.at.astimezone(tz).strftime("%Y-%m-%d %H:%M")
        label = at if m.role == "assistant" else f"msg {m.id}, {at}"
        lines.append(f"[{label}] {who}: {text}")
    return "\n".join(lines)


def owner_mark(fact: Fact) -> str:
    """How the model is told a fact is the owner's, which it must leave alone (apply.py)."""
    if fact.pinned:
        return " | pinned by the owner"
    return " | written by the owner" if fact.owner_written else ""


def fact_lines(facts: Sequence[Fact], tz: tzinfo) -> str:
    """Current facts as the model sees them, with the ids its operations must use."""
    if not facts:
        return "(none yet)"
    lines = []
    for f in facts:
        expiry = "" if f.expires_at is None else f" | expires {local_date(f.expires_at, tz)}"
        pinned = owner_mark(f)
        subject = neutralise(f.subject, inline=True) or "-"
        content = neutralise(f.content, inline=True)
        lines.append(f"#{f.id} | {subject} | {content} | {f.confidence:.2f}{expiry}{pinned}")
    return "\n".join(lines)


def other_lines(facts: Sequence[Fact]) -> str:
    """Other categories' facts, shown so a pass does not store them again: no ids (they are
    not the pass's to change)."""
    lines = []
    for f in facts:
        subject = neutralise(f.subject, inline=True) or "-"
        lines.append(f"- {f.category} | {subject} | {neutralise(f.content, inline=True)}")
    return "\n".join(lines)
