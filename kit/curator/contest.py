"""Which operations of a pass are set aside for the owner instead of applied (asked by
kit/curator/apply.py).

An operation is contested when
- it changes a fact that is the owner's: pinned, or written by the owner (any change at all);
- it rewrites or weakens a fact held with confidence at or above `inbox.protect_confidence`:
  new content or a new subject that drops words of what it said, a retirement (DEACTIVATE,
  or a merge whose text drops words of it), a confidence cut below that threshold, or an
  expiry set or brought closer. A change that keeps every word the fact said and adds to it
  ("Ana lives in Lisbon" -> "Ana lives in Lisbon with Rui", two duplicates merged into one),
  raising confidence, dropping an expiry or retiring a copy whose twin stays (REM's copies
  step, kit/curator/copies.py) loses nothing: applied without asking;
- it states something (an INSERT, an UPDATE's new content) that disagrees with an active fact
  of the category about the same subject (conflict.py), one this pass does not touch;
- what it would store is only partly said in the messages it cites (kind "grounding",
  kit/curator/grounding.py): the owner says whether it holds ("take new") or not ("keep old").

What the owner may answer depends on the operation: "keep both" makes no sense for a
retirement or a change of confidence or expiry alone, so it is offered only when there is a
new statement to keep beside the old.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from kit.curator.conflict import disagree_words, words
from kit.curator.ops import Deactivate, Insert, Operation, Replace, Update, touched_ids
from kit.memory.fact_rows import Fact

KEEP_OLD, TAKE_NEW, KEEP_BOTH = "keep-old", "take-new", "keep-both"
ANSWERS = (KEEP_OLD, TAKE_NEW, KEEP_BOTH)
Kind = Literal["change", "conflict", "grounding"]


@dataclass(frozen=True)
class Contested:
    """One operation set aside: what it would do, to which facts, and why it asks first."""

    op: Operation
    kind: Kind
    reason: str
    old: tuple[Fact, ...]  # the facts it would change, or the ones it disagrees with
    choices: tuple[str, ...]
    targets: tuple[Fact, ...] = ()  # what a disagreeing UPDATE would rewrite


def contest(
    ops: Sequence[Operation],
    facts: Mapping[int, Fact],
    active: Sequence[Fact],
    protect_confidence: float,
) -> tuple[list[Operation], list[Contested]]:
    """(operations to apply now, operations to ask about). `facts`: every fact an operation
    names; `active`: the category's active facts before the pass."""
    touched = {i for op in ops for i in touched_ids(op)}
    by_subject = _by_subject(f for f in active if f.id not in touched)
    apply: list[Operation] = []
    asked: list[Contested] = []
    for op in ops:
        why = [w for i in touched_ids(op) if (w := _held(op, facts[i], protect_confidence))]
        if why:
            old = tuple(facts[i] for i in touched_ids(op))
            asked.append(Contested(op, "change", "; ".join(why), old, _choices(op)))
            continue
        clash = _disagreeing(op, facts, by_subject)
        if clash:
            names = ", ".join(f"#{f.id}" for f in clash)
            reason = f"it disagrees with fact {names} about the same subject"
            targets = tuple(facts[i] for i in touched_ids(op))
            asked.append(Contested(op, "conflict", reason, tuple(clash), ANSWERS, targets))
            continue
        apply.append(op)
    return apply, asked


def unsupported(op: Operation, old: tuple[Fact, ...], reason: str) -> Contested:
    """An operation whose text its cited messages support only in part, as a question."""
    return Contested(op, "grounding", reason, old, (KEEP_OLD, TAKE_NEW))


def _held(op: Operation, fact: Fact, threshold: float) -> str | None:
    """Why `op` may not change `fact` without the owner (None: it may)."""
    if fact.pinned:
        return f"fact #{fact.id} is pinned by the owner"
    if fact.owner_written:
        return f"fact #{fact.id} was written by the owner"
    if fact.confidence >= threshold and _weakens(op, fact, threshold):
        return (
            f"fact #{fact.id} is held with confidence {fact.confidence:.2f} "
            f"(inbox.protect_confidence {threshold:.2f})"
        )
    return None


def _weakens(op: Operation, fact: Fact, threshold: float) -> bool:
    """Whether `op` loses something `fact` says, or takes it (now or later) out of lasting
    use."""
    if isinstance(op, Deactivate):
        return op.kept_by is None  # a copy's retirement: the fact saying the same stays
    if isinstance(op, Replace):
        return not _keeps(fact, op.subject or fact.subject, op.content) or (
            op.confidence < threshold or op.expires_at is not None
        )
    assert isinstance(op, Update)
    if _rewrites(op, fact) and not _keeps(
        fact, fact.subject if op.subject is None else op.subject, op.content or fact.content
    ):
        return True
    if op.confidence is not None and op.confidence < min(threshold, fact.confidence):
        return True
    return op.expires_at is not None and (
        fact.expires_at is None or op.expires_at < fact.expires_at
    )


def _keeps(fact: Fact, subject: str, content: str) -> bool:
    """Whether a new subject and text still say every word the fact says."""
    said = set(words(f"{subject} {content}"))
    return set(words(fact.content)) <= said and set(words(fact.subject)) <= said


def _rewrites(op: Update, fact: Fact) -> bool:
    return (op.content is not None and op.content != fact.content) or (
        op.subject is not None and op.subject != fact.subject
    )


def _choices(op: Operation) -> tuple[str, ...]:
    """Keeping both needs a new statement to keep beside the old."""
    if isinstance(op, Insert | Replace) or (
        isinstance(op, Update) and (op.content is not None or op.subject is not None)
    ):
        return ANSWERS
    return (KEEP_OLD, TAKE_NEW)


Indexed = dict[str, list[tuple[Fact, list[str]]]]


def _by_subject(facts: Iterable[Fact]) -> Indexed:
    """Facts by their subject as compared (case and spacing aside), with their words."""
    index: Indexed = {}
    for fact in facts:
        index.setdefault(" ".join(words(fact.subject)), []).append((fact, words(fact.content)))
    return index


def _disagreeing(op: Operation, facts: Mapping[int, Fact], by_subject: Indexed) -> list[Fact]:
    """Active facts, untouched by the pass, that the statement `op` makes disagrees with."""
    if isinstance(op, Insert):
        subject, content = op.subject, op.content
    elif isinstance(op, Update) and op.content is not None:
        fact = facts[op.fact_id]
        subject = fact.subject if op.subject is None else op.subject
        content = op.content
    else:
        return []
    about, said = words(subject), words(content)
    same = by_subject.get(" ".join(about), [])
    return [f for f, old in same if disagree_words(frozenset(about), old, said)]
