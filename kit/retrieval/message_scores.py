"""The messages' layer scored from columns kept in memory (kit/retrieval/message_columns.py),
its rows read only for the hits it keeps (issue 33, round 19).

A search scored every message candidate from its row: ~210 rows a turn at 100k, most read
cold (~2 ms of SQL and ~2 ms of row objects on the event loop), because the query's fit (its
speakers, days, "when") could lift any of them into the top k and its inputs were known only
from the row. Every input of a message's score is in the columns, so the candidates are
scored, spread over days, lifted and merged as before (kit/retrieval/search.py, `_layer`),
each the same number from the same factors in the same order, over the same candidates (the
repeats counted among all of them), and only the top k's rows are read. The one input not
kept is the text an instance of a kind of thing is named in (`instance_weight`, 0 by default):
such a query scores from the rows.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import date, datetime, timedelta
from typing import Any, NamedTuple

from kit.memory.messages import Message
from kit.retrieval.fit import Factor
from kit.retrieval.fusion import lift, merge_repeats, spread_over_days
from kit.retrieval.links import ConversationLinks
from kit.retrieval.message_columns import EPOCH, micros
from kit.retrieval.ranking import RankingParams
from kit.retrieval.rows import KeptRows

# (score, item, text, time, ref), best first, as `_layer` keeps them.
Entry = tuple[float, Any, str, datetime, "str | None"]


class Line(NamedTuple):
    """A candidate as its columns tell it (the item of an entry before its row is read)."""

    id: int
    day: date
    key: int  # its line's key
    fit: float


async def scored_messages(
    rows: KeptRows,
    links: ConversationLinks,
    user_id: str,
    ids: Sequence[int],
    fused: Mapping[int, float],
    factor: Factor | None,
    p: RankingParams,
    now: datetime,
    k: int,
    strong: Collection[int],
    by_words: Sequence[int],
    many: bool,
) -> tuple[list[Entry], dict[int, tuple[int, datetime]]] | None:
    """The top `k` of the message candidates `ids` as `_layer` ranks them, with their rows,
    and per kept id its repeats among all the candidates; None when one of them is not in
    `links` (written after they were read): the caller reads their rows."""
    ordered = sorted(ids)  # the rows' order, which breaks ties
    positions = links.positions(ordered)
    if positions is None:
        return None
    columns = links.columns
    where = positions.tolist()
    at_us = columns.micros[positions].tolist()
    keys = columns.line[positions].tolist()
    days = [columns.day[n] for n in where]
    fits = _fits(links, where, days, factor)
    now_us = micros(now)
    boosted = micros(p.boosted_after(now))  # older: no recency boost (most candidates)
    weight, bonus, names = 1.0, 0.0, 1.0  # a message's confidence weight, usage bonus, things
    entries: list[Entry] = []
    for n, item in enumerate(ordered):
        us = at_us[n]
        if us > now_us:
            continue
        fit = fits[n]
        score = (
            fused[item] * weight * fit * names
            + (p.recency(_at(us), now) if us > boosted else 0.0)
            + bonus
        )
        # its time as microseconds until it is shown (only the newest repeat's is needed)
        entries.append((score, Line(item, days[n], keys[n], fit), "", us, None))
    scored = sorted(entries, key=lambda s: -s[0])
    if many and p.list_spread:
        scored = spread_over_days(scored, p.list_spread, _day)
    if strong:
        scored = lift(scored, strong, p.strong_within)
    if by_words:  # only word matches that fit who / whose the question asks
        fitting = {e[1].id for e in scored if e[1].id in by_words and e[1].fit >= 1}
        scored = lift(scored, [i for i in by_words if i in fitting], p.lexical_within)
    scored, repeats = merge_repeats(scored, _key)
    shown = scored[:k]
    found = {m.id: m for m in await rows.messages(user_id, [e[1].id for e in shown])}
    # the times merged were microseconds (`entries`)
    newest = {item: (count, _at(at)) for item, (count, at) in repeats.items()}  # type: ignore[arg-type]
    return [_with_row(e, found[e[1].id]) for e in shown if e[1].id in found], newest


def _fits(
    links: ConversationLinks, where: list[int], days: list[date], factor: Factor | None
) -> list[float]:
    """Each position's fit (the same as `fitter`'s from its row)."""
    if factor is None:
        return [1.0] * len(where)
    c = links.columns
    return [
        factor(c.speaker[n], c.role[n], c.says_time[n], day, None, c.said_days[n])
        for n, day in zip(where, days, strict=True)
    ]


def _at(us: int) -> datetime:
    """A time kept as microseconds since the epoch (`micros`), as a datetime."""
    return EPOCH + timedelta(microseconds=us)


def _with_row(entry: Entry, row: Message) -> Entry:
    return (entry[0], row, row.text, row.at, row.ref)


def _day(line: Line) -> object:
    return line.day


def _key(line: Line, _text: str) -> int:
    return line.key
