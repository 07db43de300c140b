"""One fact, one row: a pass's INSERT (or REPLACE's new text, or UPDATE's) that says what an
active fact of the owner already says, in any category, is dropped with its reason, like the
screen's drops. An UPDATE that would reword its fact into another's is dropped too: merging
the two is a REPLACE's job, and both stay as they were.

A pass is shown only its own category's facts, so after `remember` stored "Ana lives in
Porto" under people, the places pass may propose it again; and two operations of one pass may
state the same thing twice. What "says the same" means is kit/memory/same_fact.py: the same
words, letter case, punctuation, spacing and how the owner is named aside. Nothing already
stored is touched (the owner's own facts least of all); only the copy is not written. A fact
held too doubtfully to be shown, or expired, does not count: saying it again is news.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kit.curator.ops import Deactivate, Insert, Operation, Replace, Update
from kit.errors import NotFound
from kit.memory.fact_rows import Fact
from kit.memory.fact_writer import FactWriter
from kit.memory.same_fact import by_words, known_as, probe, says_same, words


def new_text(op: Operation) -> str | None:
    """The fact text `op` writes (an INSERT's, a REPLACE's, an UPDATE's of what a fact says)."""
    return op.content if isinstance(op, Insert | Replace | Update) else None


def writes_text(op: Operation) -> bool:
    return new_text(op) is not None


def probes(ops: Sequence[Operation]) -> set[str] | None:
    """Words that every live fact saying what one of `ops` stores holds (FactWriter.live reads
    only those facts), or None when one of them has no such word (every fact is read)."""
    found = {probe(text) for text in map(new_text, ops) if text is not None}
    return None if None in found else {w for w in found if w is not None}


def check_known(
    ops: Sequence[Operation],
    known: Sequence[Fact],
    unfit: Sequence[str | None],
    targets: Mapping[int, Fact],
) -> list[str | None]:
    """Why each operation is dropped: `unfit`'s reason, or, for one that stores what `known`
    (the owner's live facts: active, unexpired, shown) or an earlier operation of the pass
    already says, which fact or operation says it. `targets`: the facts the operations name,
    by id (an UPDATE keeps its fact's subject unless it sets one)."""
    why = list(unfit)
    index = by_words(known)
    stored: list[tuple[int, Insert | Replace]] = []
    for n, op in enumerate(ops):
        text = new_text(op)
        if why[n] is not None or text is None:
            continue
        if isinstance(op, Update):
            target = targets.get(op.fact_id)
            if target is None:
                continue
            subject = target.subject if op.subject is None else op.subject
            own = {op.fact_id}  # reworded into its own words is no copy
        else:
            assert isinstance(op, Insert | Replace)
            subject = op.subject
            # A REPLACE may say what one of the facts it merges says: that is the merge.
            own = set(op.fact_ids) if isinstance(op, Replace) else set()
        alike = (f for f in index.get(words(text), []) if f.id not in own)
        fact = known_as(subject, text, alike)
        if fact is not None:
            why[n] = f"already known as fact #{fact.id} ({fact.category})"
            continue
        if isinstance(op, Update):
            continue
        earlier = next((m for m, o in stored if says_same(op.subject, op.content, o)), None)
        if earlier is not None:
            why[n] = f"it says what operation {earlier + 1} of this pass stores"
            continue
        stored.append((n, op))
    return why


async def check_copies(
    writer: FactWriter,
    ops: Sequence[Operation],
    targets: Mapping[int, Fact],
    unfit: Sequence[str | None],
) -> list[str | None]:
    """A copy's retirement (a DEACTIVATE with `kept_by`, REM's copies step) holds only while
    the fact that stays is active and still says what the copy says; otherwise it is dropped."""
    why = list(unfit)
    for n, op in enumerate(ops):
        if why[n] is not None or not isinstance(op, Deactivate) or op.kept_by is None:
            continue
        copy = targets.get(op.fact_id)
        try:
            kept = await writer.get(op.kept_by)
        except NotFound:
            why[n] = f"fact #{op.kept_by}, which says the same, does not exist"
            continue
        if copy is None or not kept.active or kept.id == copy.id:
            why[n] = f"fact #{op.kept_by}, which says the same, is no longer active"
        elif not says_same(copy.subject, copy.content, kept):
            why[n] = f"fact #{op.kept_by} no longer says what fact #{copy.id} says"
    return why
