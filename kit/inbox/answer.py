"""What each answer writes. Every answer is one owner pass (kind "owner", like `kit facts`
changes: `kit facts undo PASS` takes it back) with history rows, actor "owner":

- keep old: the facts stay as they are; each gets a "keep" row saying the owner kept it over
  the proposed change (a decision, not a change: it blocks no undo);
- take new: the proposed operation (a change, or a fact its messages only partly said) is
  written exactly as the pass would have written it
  (kit/curator/write_op.py), at the time of the messages it cites. A statement that disagreed
  with facts replaces them: they end where it begins, `replaced_by` it. What the owner held
  stays the owner's: a merge or replacement of a pinned or owner-written fact is pinned or
  owner-written too;
- keep both: the new statement is stored beside the old (a rewrite of a fact becomes a new
  fact; the old ones get "keep" rows).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime

from kit.curator.contest import KEEP_BOTH, KEEP_OLD, TAKE_NEW
from kit.curator.ops import Insert, Operation, Replace, Update, describe
from kit.curator.questions import Question
from kit.curator.undo import KEPT
from kit.curator.write_op import Written, rewrites, write_op
from kit.memory.fact_rows import Fact
from kit.memory.fact_writer import FactWriter, Provenance


async def write_answer(
    writer: FactWriter,
    question: Question,
    op: Operation,
    choice: str,
    provenance: Provenance,
    facts: Mapping[int, Fact],
    at: datetime,
) -> Written:
    """Write `choice` for `question` (checked answerable, its facts unchanged since asked)."""
    done = Written()
    old = [facts[f.id] for f in question.old]
    why = f"{provenance.reason} ({op.reason})" if op.reason else provenance.reason
    learned = replace(provenance, reason=why, source_message_ids=op.sources)
    if choice == KEEP_OLD:
        await _keep(writer, old, provenance)
        return done
    if choice == TAKE_NEW and question.kind in ("change", "grounding"):
        await write_op(writer, question.category, op, learned, facts, at, done, keep_held=True)
        return done
    if choice == TAKE_NEW:
        new_id = await _state(writer, question, op, learned, facts, at, done, old)
        for fact in old:
            ended = replace(
                provenance,
                reason=f"{provenance.reason}: replaced by #{new_id}",
                source_message_ids=(),
            )
            await writer.deactivate(
                fact.id, provenance=ended, replaced_by=new_id, operation="replace", at=at
            )
            done.changed.append(fact.id)
        return done
    assert choice == KEEP_BOTH
    if question.kind == "conflict":
        await _state(writer, question, op, learned, facts, at, done, [])
    elif isinstance(op, Replace):  # the merged fact, beside the ones it would have merged
        merged = Insert(op.content, op.confidence, op.subject, op.expires_at, op.reason, op.sources)
        await write_op(writer, question.category, merged, learned, facts, at, done)
    else:
        assert isinstance(op, Update) and rewrites(op, facts[op.fact_id])
        await _beside(writer, question.category, op, facts[op.fact_id], learned, at, done)
    await _keep(writer, old, provenance)
    return done


async def _state(
    writer: FactWriter,
    question: Question,
    op: Operation,
    provenance: Provenance,
    facts: Mapping[int, Fact],
    at: datetime,
    done: Written,
    replacing: list[Fact],
) -> int:
    """Write a disagreeing statement (an INSERT, or an UPDATE of another fact); returns the
    fact that holds it. Replacing facts the owner held, it is the owner's too."""
    if isinstance(op, Insert):
        fact = await writer.insert(
            category=question.category,
            content=op.content,
            subject=op.subject,
            confidence=op.confidence,
            expires_at=op.expires_at,
            pinned=any(f.pinned for f in replacing),
            owner_written=any(f.owner_written for f in replacing),
            provenance=provenance,
            valid_from=at,
        )
        done.inserted.append(fact.id)
        done.changes.append(f"#{fact.id} {describe(op)}")
        return fact.id
    assert isinstance(op, Update)
    await write_op(writer, question.category, op, provenance, facts, at, done)
    return op.fact_id


async def _beside(
    writer: FactWriter,
    category: str,
    op: Update,
    fact: Fact,
    provenance: Provenance,
    at: datetime,
    done: Written,
) -> None:
    """A rewrite kept beside the fact it would have rewritten: a new fact saying the new."""
    new = Insert(
        op.content if op.content is not None else fact.content,
        op.confidence if op.confidence is not None else fact.confidence,
        op.subject if op.subject is not None else fact.subject,
        None if op.clear_expiry else (op.expires_at or fact.expires_at),
        op.reason,
        op.sources,
    )
    await write_op(writer, category, new, provenance, {}, at, done)


async def _keep(writer: FactWriter, facts: list[Fact], provenance: Provenance) -> None:
    for fact in facts:
        await writer.note(fact.id, operation=KEPT, provenance=provenance)
