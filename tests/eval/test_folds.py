"""The rotated hold-out: every lever chosen on two conversations, scored on the third."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from kit.eval.folds import (
    Config,
    Levers,
    Results,
    Scored,
    changes,
    coordinate_search,
    describe,
    format_holdout,
    rotated_holdout,
)
from kit.eval.metrics import Outcome

LEVERS: Levers = {
    "tuned": [("off", {}), ("on", {"tuned": True})],
    "general": [("off", {}), ("on", {"general": True})],
}


def q(sample: str, found: bool, category: str = "single-hop") -> Scored:
    ranked = ("D1:1",) if found else ("D9:9",)
    return Scored(sample, Outcome(category, ranked, ("D1:1",), 0.0, (0,), ("D1:1",)))


def found(config: Config) -> dict[str, list[bool]]:
    """What each conversation's two questions find under a configuration: "general" finds
    one more everywhere; "tuned" is perfect on c and costs b its only hit."""
    on = dict(zip(LEVERS, config, strict=True))
    hits = {"a": [True, False], "b": [True, False], "c": [True, False]}
    if on["general"] == "on":
        hits = {name: [True, True] for name in hits}
    if on["tuned"] == "on":
        hits["c"] = [True, True]
        hits["b"] = [False, hits["b"][1]]
    return hits


class Scorer:
    def __init__(self) -> None:
        self.asked: list[Config] = []

    async def __call__(self, configs: Sequence[Config]) -> Mapping[Config, Results]:
        self.asked.extend(configs)
        return {
            c: {"dev": [q(s, hit) for s, hits in found(c).items() for hit in hits]} for c in configs
        }


async def test_a_lever_that_only_fits_one_conversation_is_not_credited_there() -> None:
    levers: Levers = {"tuned": LEVERS["tuned"], "general": [("off", {})]}

    async def score(configs: Sequence[Config]) -> Mapping[Config, Results]:
        return await Scorer()([(c[0], "off") for c in configs])  # "general" never on

    result = await rotated_holdout(score, levers, k=1)
    chosen = {
        f.held_out: (describe(levers, f.chosen), f.held_out_recall["dev"]) for f in result.folds
    }
    assert chosen["a"] == ("all off", 0.5)  # on b + c: 2/4 either way, the tie keeps it off
    assert chosen["b"] == ("tuned on", 0.0)  # on a + c it wins 3/4, and fails on b
    assert chosen["c"] == ("all off", 0.5)  # on a + b it loses; c's gain is never credited
    assert result.recall["dev"] == pytest.approx(2 / 6)  # below tuning on everything
    assert result.all_data_recall["dev"] == pytest.approx(0.5)
    assert "rotated hold-out dev" in format_holdout(result, levers)


async def test_the_search_turns_on_what_wins_on_the_training_conversations_only() -> None:
    scorer = Scorer()
    config, best = await coordinate_search(scorer, LEVERS, {"a", "b"}, k=1)
    assert describe(LEVERS, config) == "general on"  # "tuned" costs b and gains nothing here
    assert best == pytest.approx(1.0)
    assert changes(LEVERS, config) == {"general": True}
    result = await rotated_holdout(scorer, LEVERS, k=1)
    assert result.recall["dev"] == pytest.approx(1.0)
    assert result.unshared["dev"] == pytest.approx(1.0)  # every evidence turn counted unshared
    assert result.by_category == {"dev": {"single-hop": 1.0}}


async def test_it_refuses_what_it_cannot_measure() -> None:
    async def one(configs: Sequence[Config]) -> Mapping[Config, Results]:
        return {c: {"dev": [q("a", True)]} for c in configs}

    with pytest.raises(ValueError, match="two conversations"):
        await rotated_holdout(one, LEVERS, k=1)
    with pytest.raises(ValueError, match="one lever"):
        await rotated_holdout(one, {}, k=1)
