"""One curation operation written to the facts, with its history rows and its time: what a
pass does with each operation it applies (apply.py), and what the owner's "take new" does with
a question's (kit/inbox/answer.py), so both write exactly the same.

`at` is when the change takes effect in the world (the first message it cites; see apply.py):
a new fact holds from then, a retired or merged one until then, and an UPDATE of what a fact
says keeps the old version as a closed fact (kit/memory/fact_times.py `supersede`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime

from kit.curator import guard
from kit.curator.ops import Deactivate, Insert, Operation, Replace, Update, describe
from kit.memory.fact_rows import Fact
from kit.memory.fact_times import supersede
from kit.memory.fact_writer import FactWriter, Provenance


@dataclass
class Written:
    """What operations changed, as a pass reports it."""

    changes: list[str] = field(default_factory=list)
    inserted: list[int] = field(default_factory=list)
    changed: list[int] = field(default_factory=list)


def rewrites(op: Update, fact: Fact) -> bool:
    """An UPDATE that changes what the fact says (not only how sure Kit is, or its expiry)."""
    return (op.content is not None and op.content != fact.content) or (
        op.subject is not None and op.subject != fact.subject
    )


async def write_op(
    writer: FactWriter,
    category: str,
    op: Operation,
    provenance: Provenance,
    facts: Mapping[int, Fact],
    at: datetime,
    done: Written,
    *,
    keep_held: bool = False,
) -> None:
    """Write `op`. `facts`: every fact it names, as read before. With `keep_held`, a merge of
    facts the owner held (pinned, written by the owner) is the owner's too."""
    if isinstance(op, Insert):
        fact = await writer.insert(
            category=category,
            content=op.content,
            subject=op.subject,
            confidence=op.confidence,
            expires_at=op.expires_at,
            provenance=provenance,
            valid_from=at,
        )
        done.inserted.append(fact.id)
        done.changes.append(f"#{fact.id} {describe(op)}")
    elif isinstance(op, Update):
        change = {
            "provenance": provenance,
            "content": op.content,
            "subject": op.subject,
            "confidence": op.confidence,
            "expires_at": op.expires_at,
            "clear_expiry": op.clear_expiry,
        }
        if rewrites(op, facts[op.fact_id]):
            await supersede(writer, op.fact_id, at=at, **change)  # type: ignore[arg-type]
        else:
            await writer.update(op.fact_id, **change)  # type: ignore[arg-type]
        done.changed.append(op.fact_id)
        done.changes.append(describe(op))
    elif isinstance(op, Replace):
        olds = [facts[i] for i in op.fact_ids]
        # Citing nothing, it only merges what was known: it holds since the first of them did.
        since = at if op.sources else min(f.holds_since for f in olds)
        inherited = await writer.sources(op.fact_ids)
        merged = await writer.insert(
            category=category,
            content=op.content,
            subject=guard.merged_subject(op, facts),
            confidence=op.confidence,
            expires_at=op.expires_at,
            pinned=keep_held and any(f.pinned for f in olds),
            owner_written=keep_held and any(f.owner_written for f in olds),
            provenance=replace(
                provenance, source_message_ids=tuple(sorted({*inherited, *op.sources}))
            ),
            valid_from=since,
        )
        # Retiring the old facts learns nothing from the messages: the new fact holds them.
        folded = replace(
            provenance,
            reason=f"merged into #{merged.id}" + (f": {op.reason}" if op.reason else ""),
            source_message_ids=(),
        )
        for old in op.fact_ids:
            await writer.deactivate(
                old, provenance=folded, replaced_by=merged.id, operation="replace", at=since
            )
        done.inserted.append(merged.id)
        done.changed.extend(op.fact_ids)
        done.changes.append(f"#{merged.id} {describe(op)}")
    else:
        assert isinstance(op, Deactivate)
        await writer.deactivate(op.fact_id, provenance=provenance, at=at)
        done.changed.append(op.fact_id)
        done.changes.append(describe(op))
