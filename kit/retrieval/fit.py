"""How well an item fits what a query says besides its words (kit/retrieval/search.py): who
said it, when, and whether it places something in time when the question asks when. A
factor per item, 1.0 for no preference; `fit_range` bounds how far two items' factors can
differ (how deep a search must load rows: `_worth_loading`).

`fitter` makes the test once per query and layer, with what the query does not ask left
out: a search scores ~330 candidates a turn, most for a question that names no one and no
day (issue 33, round 16: the same factors, in the same order of multiplication)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from kit.dates.text import mentions_time
from kit.memory.days import Day
from kit.retrieval.kinds import Kind
from kit.retrieval.query import Query
from kit.retrieval.ranking import RankingParams

Fit = Callable[[Any], float]  # an item of the layer -> its factor


def fit_range(p: RankingParams, plan: Query, kind: Kind) -> float:
    """The largest ratio between two items' fit for this query and layer."""
    spread = 1.0
    if plan.spans and kind != "fact":
        spread *= 1 + p.date_weight
    if kind == "message":
        if plan.wants_time:
            spread *= 1 + p.time_weight
        if plan.speakers:
            spread /= min(1.0, p.other_speaker_weight)
        if not plan.about_replies:
            spread /= min(1.0, p.reply_weight)
    return spread


def fitter(p: RankingParams, plan: Query, kind: Kind) -> Fit:
    """Each item's fit in `kind`'s layer for `plan`."""
    dated = bool(p.date_weight and plan.spans)
    if kind == "message":
        return _message_fit(p, plan)
    if kind == "day" and dated:
        return lambda day: _day_fit(p, plan, day)
    return _unchanged


def _message_fit(p: RankingParams, plan: Query) -> Fit:
    factor = message_factor(p, plan)
    if factor is None:
        return _unchanged
    return lambda m: factor(m.speaker, m.role, m.says_time, m.day, m.text, m.said_days)


# A message's fit from its speaker, role, `says_time`, day, text and `said_days` (the
# `Message` fields; the text is read only where one of the last two is None).
Factor = Callable[[str, str, "bool | None", date, "str | None", "str | None"], float]


def message_factor(p: RankingParams, plan: Query) -> Factor | None:
    """A message's fit in the messages' layer for `plan`, from its fields (a search scores
    them from its rows or from columns kept in memory: kit/retrieval/message_scores.py); None
    when every message fits alike."""
    dated = bool(p.date_weight and plan.spans)
    speakers = plan.speakers
    replies = not plan.about_replies  # Kit's replies weigh less unless asked about
    when = bool(plan.wants_time and p.time_weight)
    if not (speakers or when or dated):
        if not replies:
            return None
        reply = p.reply_weight
        return lambda _speaker, role, *_rest: reply if role == "assistant" else 1.0

    def fit(
        speaker: str,
        role: str,
        says: bool | None,
        day: date,
        text: str | None,
        said: str | None,
    ) -> float:
        factor = 1.0
        if speakers and speaker not in speakers:
            factor *= p.other_speaker_weight
        if replies and role == "assistant":
            factor *= p.reply_weight
        if when and (mentions_time(text or "") if says is None else says):
            factor *= 1 + p.time_weight
        # its own words may name a day in the query's spans, as stored with it (m038) or
        # parsed from its text
        if dated and plan.dated(day, text, p.date_slack_days, said):
            factor *= 1 + p.date_weight
        return factor

    return fit


def _day_fit(p: RankingParams, plan: Query, day: Day) -> float:
    return 1 + p.date_weight if plan.dated(day.day, None, p.date_slack_days) else 1.0


def _unchanged(item: object) -> float:
    return 1.0
