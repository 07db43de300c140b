"""The messages' layer scored from the columns kept in memory (kit/retrieval/message_scores.py)
ranks as scoring every candidate from its row did: the same hits, scores, order, repeats and
newest repeat, for random candidate sets and questions that name a speaker, a day, ask when
or ask about Kit's replies, over messages whose stored days (m038) and time (m039) are NULL."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.llm.base import Role
from kit.memory.messages import Message
from kit.retrieval.fit import Fit, fitter, message_factor
from kit.retrieval.fusion import lift, merge_repeats, spread_over_days
from kit.retrieval.links import Links
from kit.retrieval.message_scores import scored_messages
from kit.retrieval.query import understand
from kit.retrieval.ranking import RankingParams
from kit.retrieval.rows import KeptRows

pytestmark = pytest.mark.stores

Scored = tuple[float, Message, str, datetime, "str | None"]


# Lines said and questions asked, "{day}" a day 12 days before now.
LINES = (
    *("we went hiking on {day}", "Bo said {day} was the day", "for four years I lived there"),
    *("thanks!", " Thanks!  ", "THANKS!", "see you tomorrow at 5pm", "what a lovely day"),
    *("I had pasta for lunch", "the dentist appointment went fine"),
)
QUESTIONS = (
    *("What did Ana do on {day}?", "When did Bo go to the dentist?", "thanks"),
    *("What did you recommend for lunch?", "what happened on {day}"),
)


def _named(clock: FakeClock, texts: tuple[str, ...]) -> list[str]:
    day = clock.now().date() - timedelta(days=12)
    return [text.format(day=f"{day.day} {day:%B}") for text in texts]


async def _archive(kit: Kit, clock: FakeClock, rng: random.Random) -> list[int]:
    """Messages over the last 30 days (a few after now): Ana's, Bo's, the owner's and Kit's
    replies, lines said again (in other case and spacing), days and times named; a third
    without their stored days and time (NULL: parsed)."""
    s = kit.services
    now = clock.now()
    lines = _named(clock, LINES)
    ids = []
    for c in range(3):
        conv = await s.messages.conversation("owner", "local", f"c{c}")
        for _ in range(40):
            role: Role = rng.choice(["user", "user", "assistant"])
            speaker = "" if role == "assistant" else rng.choice(["", "Ana", "Bo"])
            at = now - timedelta(days=rng.uniform(-1, 30), seconds=rng.random())
            text = rng.choice(lines)
            message = await s.messages.add(conv, role, text, at=at, speaker=speaker)
            ids.append(message.id)
    unset = ids[::3]
    async with s.db.transaction() as tx:
        await tx.execute(
            "UPDATE messages SET said_days = NULL, says_time = NULL"
            f" WHERE id IN ({','.join('?' * len(unset))})",
            tuple(unset),
        )
    return ids


def _from_rows(
    rows: list[Message],
    fused: dict[int, float],
    p: RankingParams,
    fit: Fit,
    now: datetime,
    k: int,
    strong: list[int],
    by_words: list[int],
    many: bool,
) -> tuple[list[Scored], dict[int, tuple[int, datetime]]]:
    """What `_layer` did with every candidate's row (issue 33, round 18's code)."""
    boosted = p.boosted_after(now)
    scored: list[Scored] = sorted(
        (
            (
                fused[m.id] * 1.0 * fit(m) * 1.0
                + (p.recency(m.at, now) if m.at > boosted else 0.0)
                + 0.0,
                m,
                m.text,
                m.at,
                m.ref,
            )
            for m in sorted(rows, key=lambda m: m.id)
            if m.at <= now
        ),
        key=lambda s: -s[0],
    )
    if many and p.list_spread:
        scored = spread_over_days(scored, p.list_spread)
    if strong:
        scored = lift(scored, strong, p.strong_within)
    if by_words:
        fits = {e[1].id for e in scored if e[1].id in by_words and fit(e[1]) >= 1}
        scored = lift(scored, [i for i in by_words if i in fits], p.lexical_within)
    merged, repeats = merge_repeats(scored)
    return merged[:k], repeats


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_the_columns_rank_as_every_candidates_row_did(
    kit: Kit, clock: FakeClock, seed: int
) -> None:
    s = kit.services
    rng = random.Random(seed)
    ids = await _archive(kit, clock, rng)
    now = clock.now()
    links = await Links(s.db).current("owner")
    questions = _named(clock, QUESTIONS)
    checked = 0
    for question in questions:
        plan = understand(question, now.date(), links.speakers)
        for params in (RankingParams(), RankingParams(list_spread=0.3)):
            for _ in range(6):
                candidates = rng.sample(ids, rng.randint(1, len(ids)))
                fused = {i: rng.choice([0.5, 0.25, rng.random()]) for i in candidates}
                strong = rng.sample(candidates, min(2, len(candidates)))
                by_words = rng.sample(candidates, min(3, len(candidates)))
                many, k = rng.random() < 0.5, rng.choice([1, 5, 15])
                rows = await s.messages.get_many("owner", candidates)
                fit = fitter(params, plan, "message")
                expected = _from_rows(rows, fused, params, fit, now, k, strong, by_words, many)
                found = await scored_messages(
                    KeptRows(s.facts, s.days, s.messages),
                    links,
                    "owner",
                    candidates,
                    fused,
                    message_factor(params, plan),
                    params,
                    now,
                    k,
                    strong,
                    by_words,
                    many,
                )
                assert found is not None
                hits, repeats = found
                assert hits == expected[0], question
                shown = [e[1].id for e in hits]
                assert {i: repeats[i] for i in shown if i in repeats} == {
                    i: expected[1][i] for i in shown if i in expected[1]
                }
                checked += sum(1 for i in shown if i in repeats)
    assert checked > 0  # repeated lines were among the hits


async def test_a_candidate_the_columns_do_not_hold_is_scored_from_its_row(
    kit: Kit, clock: FakeClock
) -> None:
    """A message written after the columns were read: the search reads the rows (None)."""
    s = kit.services
    ids = await _archive(kit, clock, random.Random(4))
    links = await Links(s.db).current("owner")
    late = await s.messages.add(await s.messages.conversation("owner", "local", "c0"), "user", "hi")
    rows = KeptRows(s.facts, s.days, s.messages)
    fused = dict.fromkeys([*ids, late.id], 0.5)
    args: tuple[Any, ...] = (fused, None, RankingParams(), clock.now(), 5, [], [], False)
    assert await scored_messages(rows, links, "owner", ids, *args) is not None
    assert await scored_messages(rows, links, "owner", [*ids, late.id], *args) is None
