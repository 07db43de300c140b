"""The rows of a search's candidates, with what scoring needs of each (kit/retrieval/search.py):
its text, its time, its confidence weight, its usage bonus and its reference. Facts, days and
messages come through the rows kept in memory while their layer is unchanged
(kit/retrieval/rows.py); notes' sections and facts as of a past moment are read each time."""

from __future__ import annotations

from datetime import UTC, datetime, time

from kit.memory.days import Day
from kit.memory.fact_rows import Fact
from kit.memory.fact_times import FactTimes
from kit.memory.messages import Message
from kit.notes.store import NoteChunk, Notes
from kit.retrieval.kinds import Kind
from kit.retrieval.ranking import RankingParams
from kit.retrieval.ready import Ready
from kit.retrieval.rows import KeptRows

# An item, its text, its time, its confidence weight, its usage bonus, its reference.
Candidate = tuple[Fact | Day | Message | NoteChunk, str, datetime, float, float, str | None]


async def load_candidates(
    rows: KeptRows,
    user_id: str,
    kind: Kind,
    ids: list[int],
    now: datetime,
    ready: Ready,
    facts_as_of: datetime | None = None,
    *,
    notes: Notes | None,
    fact_times: FactTimes | None,
    params: RankingParams,
) -> list[Candidate]:
    """Rows for candidate ids, with (text, time, confidence weight, usage bonus, ref):
    kept in memory while their layer is unchanged (kit/retrieval/rows.py)."""
    if kind == "note":
        if notes is None:
            return []
        return [(c, c.text, c.updated_at, 1.0, 0.0, None) for c in await notes.chunks(user_id, ids)]
    if kind == "fact":
        if facts_as_of is not None and fact_times is not None:
            facts = await fact_times.held_at(user_id, facts_as_of, ids=ids)
        else:
            version = await ready.versions()
            facts = await rows.live_facts(user_id, ids, now, version)
        return [
            (
                f,
                f.content,
                f.updated_at,
                0.5 + 0.5 * f.confidence,
                params.usage(f.access_count),
                None,
            )
            for f in facts
        ]
    if kind == "day":
        return [
            (d, d.best, _end_of(d), 1.0, 0.0, None)
            for d in await rows.days(user_id, ids, await ready.versions())
            if d.day <= now.date()
        ]
    return [
        (m, m.text, m.at, 1.0, 0.0, m.ref) for m in await rows.messages(user_id, ids) if m.at <= now
    ]


def _end_of(day: Day) -> datetime:
    """A day summary's point in time, for recency: the end of that day."""
    return datetime.combine(day.day, time(23, 59), tzinfo=UTC)
