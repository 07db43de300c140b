"""A question about a past-dated act asks about it, not whether it happened (grounding round
24; kit/curator/grounding.py reads a message's clauses through it).

`how can I build on the habit, like with my decision to start journaling on April 1?`: a day
before the message's own cannot be wished or planned, so the day is said as so (the question's
act stays asked: `how do I follow up on the April 28 interview?` does not say it was followed
up). A supposition (`if`, `would`, `might`) and a question of what might have been (`should I
have gone on May 1?`) keep their reading.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import date

from kit.curator.clauses import Clause
from kit.dates.text import DateSpan

_MIGHT_HAVE = re.compile(r"\b(?:should|could|would|might|must)(?:\s+\w+)?\s+have\b", re.I)


def past_dated(
    cut: Sequence[Clause], spans: Sequence[tuple[DateSpan, int]], day: date | None, text: str
) -> tuple[Clause, ...]:
    """`cut` (the clauses of the folded `text`), each day a question clause names before
    `day`, in every year it may be read in, read as said (module note)."""
    if day is None:
        return tuple(cut)
    # past whatever year a day said without one is read in (every reading of it before `day`)
    past = {at for _, at in spans} - {at for span, at in spans if span.end >= day}
    return tuple(
        replace(c, given_spans=(*c.given_spans, *((at, at + 1) for at in dated)))
        if c.asks
        and not c.supposed
        and (dated := [at for at in past if c.start <= at < c.end])
        and not _MIGHT_HAVE.search(text[c.start : c.end])
        else c
        for c in cut
    )
