"""The mass-retirement guard: a pass that would take too much of a category out of use is thrown
out whole. Curation passes and REM's review go through it (apply.py); REM's expire step applies
the same limit (expiry.py).

Deactivating is not the only way to take a fact out of use, so the guard counts every fact a
pass retires now or later:
- DEACTIVATE: the fact;
- REPLACE of N facts: N-1 (the merged fact carries them on), or all N when the merged fact is
  itself on its way out (see below) or shares no subject word with any of them;
- UPDATE: a fact that was in lasting use and no longer is: an expiry within `rem.stale_days`, a
  confidence below the one at which facts stop being shown (MIN_SHOWN_CONFIDENCE), or a rewrite
  about something else: one that no longer shares a word with the fact's subject
  (`keeps_subject` says exactly how).

The base is the category's facts in lasting use before the pass: active, shown, and not
expiring within `stale_days`. A pass may retire at most floor(max_fraction x base) of them, but
always one (unless max_fraction is 0): losing one fact is never a mass deletion, and without
that floor the only fact of a category could never be retired, nor two facts merged when a
category has three. Exactly the limit is allowed; one more is not.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from kit.curator.ops import Deactivate, Operation, Replace, Update
from kit.memory.fact_rows import MIN_SHOWN_CONFIDENCE, Fact


@dataclass(frozen=True)
class GuardVerdict:
    allowed: bool
    retiring: int  # facts (or facts' worth, for merges) the pass takes out of use
    base: int  # facts of the category in lasting use before the pass
    limit: int
    max_fraction: float
    how: tuple[tuple[str, int], ...] = ()  # ("deactivated", 2), ("expiring soon", 1), ...

    @property
    def reason(self) -> str:
        if self.allowed:
            return ""
        ways = ", ".join(f"{n} {what}" for what, n in self.how)
        return (
            f"the pass would take {self.retiring} of {self.base} facts in use out of use "
            f"({ways}), more than the {self.limit} allowed by "
            f"curation.max_deactivate_fraction ({self.max_fraction:.0%}, at least one)"
        )


def limit(base: int, max_fraction: float) -> int:
    """How many of `base` facts in use one pass (or one expire step) may retire."""
    # A hair of tolerance: 0.5 of 4 must allow exactly 2 whatever the float rounding.
    share = math.floor(base * max_fraction + 1e-9)
    return max(share, 1) if max_fraction > 0 and base > 0 else share


def in_lasting_use(
    *, active: bool, expires_at: datetime | None, confidence: float, horizon: datetime
) -> bool:
    """Active, shown, and not expiring before `horizon` (now + rem.stale_days)."""
    return (
        active
        and confidence >= MIN_SHOWN_CONFIDENCE
        and (expires_at is None or expires_at > horizon)
    )


def check(
    ops: Sequence[Operation],
    category_facts: Sequence[Fact],
    max_fraction: float,
    horizon: datetime,
) -> GuardVerdict:
    """Allow the pass only if it retires at most `limit(...)` of the category's facts in
    lasting use. `category_facts`: the category's active facts (every fact an op names)."""
    facts = {f.id: f for f in category_facts}
    lasting = {i for i, f in facts.items() if _lasting(f, horizon)}
    how: Counter[str] = Counter()
    for op in ops:
        for what, n in _retires(op, facts, lasting, horizon):
            how[what] += n
    retiring = sum(how.values())
    allowed_count = limit(len(lasting), max_fraction)
    return GuardVerdict(
        retiring <= allowed_count,
        retiring,
        len(lasting),
        allowed_count,
        max_fraction,
        tuple((what, n) for what, n in how.items() if n),
    )


def _lasting(fact: Fact, horizon: datetime) -> bool:
    return in_lasting_use(
        active=fact.active,
        expires_at=fact.expires_at,
        confidence=fact.confidence,
        horizon=horizon,
    )


def _retires(
    op: Operation, facts: Mapping[int, Fact], lasting: set[int], horizon: datetime
) -> list[tuple[str, int]]:
    if isinstance(op, Deactivate):
        return [("deactivated", 1 if op.fact_id in lasting else 0)]
    if isinstance(op, Replace):
        merged_in_use = sum(1 for i in op.fact_ids if i in lasting)
        merged_lasts = in_lasting_use(
            active=True, expires_at=op.expires_at, confidence=op.confidence, horizon=horizon
        )
        subject = merged_subject(op, facts)
        carries = any(
            keeps_subject(facts[i], subject, op.content) for i in op.fact_ids if i in facts
        )
        if not merged_lasts:
            return [("merged into a fact on its way out", merged_in_use)]
        if not carries:
            return [("merged into a fact about something else", merged_in_use)]
        return [("merged away", max(merged_in_use - 1, 0))]
    if isinstance(op, Update) and op.fact_id in lasting:
        fact = facts[op.fact_id]
        expires_at = None if op.clear_expiry else (op.expires_at or fact.expires_at)
        confidence = fact.confidence if op.confidence is None else op.confidence
        if confidence < MIN_SHOWN_CONFIDENCE:
            return [(f"confidence cut below {MIN_SHOWN_CONFIDENCE}", 1)]
        if expires_at is not None and expires_at <= horizon:
            return [("expiring soon", 1)]
        if not keeps_subject(fact, op.subject, op.content):
            return [("rewritten about something else", 1)]
    return []


def merged_subject(op: Replace, facts: Mapping[int, Fact]) -> str:
    """The merged fact's subject: the model's, or the one every merged fact had."""
    if op.subject:
        return op.subject
    subjects = {facts[i].subject for i in op.fact_ids if i in facts}
    return subjects.pop() if len(subjects) == 1 else ""


_WORD = re.compile(r"[^\W_]+")
# Words that say nothing about who or what a fact is about.
FILLER = frozenset(
    "a an and are as at be been by for from has have he her his i in is it its of on or our "
    "owner owners s she that the their them they this to was were with".split()
)


def _words(text: str) -> frozenset[str]:
    return frozenset(w for w in _WORD.findall(text.casefold()) if w not in FILLER)


def keeps_subject(fact: Fact, subject: str | None, content: str | None) -> bool:
    """Whether a rewrite (a new `subject` and/or `content`; None: unchanged) is still about
    what `fact` was about. Words are compared, filler ("the", "owner", ...) aside:
    - a new subject (other words) must share a word with the old subject (with the old
      content, when there was none), counting the new content too;
    - new content under the same subject must still name the subject, if the old content did
      ("[Ana] Ana is a nurse" -> "Ana is a doctor", not "The owner likes jazz"), or share a
      word with the old subject or content, if it did not."""
    old_subject, old_content = _words(fact.subject), _words(fact.content)
    new_content = _words(fact.content if content is None else content)
    if subject is not None and _words(subject) != old_subject:
        anchor, new = old_subject or old_content, _words(subject) | new_content
    elif content is None:
        return True
    else:
        anchor, new = (old_subject & old_content) or (old_subject | old_content), new_content
    return not anchor or bool(anchor & new)
