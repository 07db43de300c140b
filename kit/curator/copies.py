"""REM's copies step: a fact stored twice is kept once.

Since one fact, one row (kit/curator/known.py), no pass or `remember` writes what a live fact
already says; but facts written before that check, or by two routes at the same moment, may
still say the same thing in two rows, and both are shown to the model. Each night REM finds
them with the same test (kit/memory/same_fact.py: the same words once letter case,
punctuation, spacing and how the owner is named are set aside; a text that does not name who
it is about leans on its subject) and retires the copies.

Which row stays: the owner's own (pinned or written by the owner) first, then the most
confident, then the oldest. An owner's fact is never retired as a copy: the owner's words
change only when the owner says so, so two owner-written rows that say the same both stay.

The copies of one category are retired as one pass of the curator's guarded `apply_ops`
(kind `rem_copies`): each with its history row and the fact that stays in its reason, the
mass-retirement guard on the category, and `kit facts undo PASS` to bring them back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kit.clock import Clock
from kit.curator.ops import Deactivate
from kit.curator.review import OpsApplier
from kit.memory.fact_rows import Fact
from kit.memory.facts import Facts
from kit.memory.same_fact import known_as, words

PASS_KIND = "rem_copies"


@dataclass(frozen=True)
class Copy:
    """A live fact that says what `kept` says."""

    fact: Fact
    kept: Fact


def find_copies(facts: Sequence[Fact]) -> list[Copy]:
    """The copies among `facts` (one owner's live facts), each with the fact that stays."""
    order = sorted(facts, key=lambda f: (not f.owner_held, -f.confidence, f.created_at, f.id))
    kept: dict[tuple[str, ...], list[Fact]] = {}
    found: list[Copy] = []
    for fact in order:
        alike = kept.setdefault(words(fact.content), [])
        same = None if fact.owner_held else known_as(fact.subject, fact.content, alike)
        if same is None:
            alike.append(fact)
        else:
            found.append(Copy(fact, same))
    return found


@dataclass
class CopiesResult:
    copies: int = 0
    changes: list[str] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)  # a category's pass thrown out, and why
    pass_ids: list[int] = field(default_factory=list)


class CopySweep:
    def __init__(self, facts: Facts, clock: Clock) -> None:
        self._facts = facts
        self._clock = clock

    async def run(self, user_id: str, applier: OpsApplier, *, dry_run: bool) -> CopiesResult:
        """Retire `user_id`'s copies, one guarded pass per category (planned only, on a dry
        run)."""
        result = CopiesResult()
        by_category: dict[str, list[Copy]] = {}
        for copy in find_copies(await self._facts.live(user_id, self._clock.now())):
            by_category.setdefault(copy.fact.category, []).append(copy)
        for category, copies in sorted(by_category.items()):
            result.copies += len(copies)
            ops = [Deactivate(c.fact.id, _reason(c.kept), kept_by=c.kept.id) for c in copies]
            outcome = await applier.apply_ops(
                user_id, category, ops, kind=PASS_KIND, source_message_ids=(), dry_run=dry_run
            )
            if outcome.status in ("rejected", "failed"):
                result.rejected.append(f"copies {category}: {outcome.reason}")
                continue
            result.changes.extend(f"{category}: {line}" for line in outcome.changes)
            if outcome.pass_id is not None:
                result.pass_ids.append(outcome.pass_id)
        return result


def _reason(kept: Fact) -> str:
    return f"a copy: it says what fact #{kept.id} ({kept.category}) says"
