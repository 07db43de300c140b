"""A rotated hold-out: every choice made on two conversations, scored on the third (or, with
several corpora, on folds that each hold conversations of every corpus).

The ranking's levers (which are on, at which values) are chosen by a coordinate search that
sees only the training conversations: starting from every lever off, each lever in turn takes
the value that scores best with the others as they stand, for a few rounds, until nothing
changes. The configuration it settles on is then scored on the held-out conversation, and so
for each conversation in turn. What tuning on everything reports (the dev number) sits beside
what this procedure gets on conversations it never saw.

The objective is the mean, over the question sets given (LoCoMo's dev questions and BEAM's,
each over its own conversations), of recall@k averaged over their questions: a lever that only
fits one corpus's shape has to pay for itself on the other. Ties keep the value held (off,
first), so a lever has to win to be turned on, and to stay on. `folds` groups conversations:
each fold is held out in turn (by default each conversation is a fold of its own).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean

from kit.eval.metrics import Outcome, recall_at

# A lever's values, each a label and the ranking changes it makes; the first is "off".
Levers = Mapping[str, Sequence[tuple[str, Mapping[str, object]]]]
# One configuration: each lever's chosen label, in the levers' order.
Config = tuple[str, ...]
# Every question's outcome per question set, tagged with its conversation.
Results = Mapping[str, Sequence["Scored"]]
# Scores configurations (all at once, so conversations are imported once for all of them).
Score = Callable[[Sequence[Config]], Awaitable[Mapping[Config, Results]]]


@dataclass(frozen=True)
class Scored:
    """One question's outcome, tagged with its conversation."""

    sample_id: str
    outcome: Outcome


def changes(levers: Levers, config: Config) -> dict[str, object]:
    """The ranking changes a configuration makes."""
    out: dict[str, object] = {}
    for (_, values), label in zip(levers.items(), config, strict=True):
        out.update(dict(values)[label])
    return out


def describe(levers: Levers, config: Config) -> str:
    """The levers a configuration turns on, with their values ("all off" when none)."""
    on = [
        f"{name} {label}"
        for (name, values), label in zip(levers.items(), config, strict=True)
        if label != values[0][0]
    ]
    return ", ".join(on) or "all off"


def recall(items: Sequence[Scored], k: int) -> float:
    return fmean(recall_at(s.outcome.ranked, s.outcome.evidence, k) for s in items)


def objective(results: Results, keep: set[str], k: int) -> float:
    """Mean over the question sets of recall@k over their questions in `keep` (sets with no
    question there left out)."""
    kept = [[s for s in items if s.sample_id in keep] for items in results.values()]
    return fmean(recall(items, k) for items in kept if items)


async def coordinate_search(
    score: Score, levers: Levers, keep: set[str], k: int, rounds: int = 3
) -> tuple[Config, float]:
    """The configuration a coordinate search settles on, scored on `keep` only."""
    config: Config = tuple(values[0][0] for values in levers.values())
    best = objective((await score([config]))[config], keep, k)
    for _ in range(rounds):
        moved = False
        for position, values in enumerate(levers.values()):
            trials = [(*config[:position], label, *config[position + 1 :]) for label, _ in values]
            scored = await score(trials)
            values_ = [objective(scored[trial], keep, k) for trial in trials]
            top = max(values_)
            # the first value (off, then the smaller step) that reaches the best: a lever
            # has to win to be turned on, and to stay on
            chosen = next(t for t, v in zip(trials, values_, strict=True) if v >= top - 1e-12)
            if chosen != config:
                config, best, moved = chosen, top, True
        if not moved:
            break
    return config, best


@dataclass(frozen=True)
class Fold:
    held_out: str  # the conversation scored
    chosen: Config  # what the search settled on without it
    tuned: float  # the objective there
    held_out_recall: dict[str, float]  # per question set, on the held-out conversation
    questions: dict[str, int]


@dataclass(frozen=True)
class HoldOut:
    k: int
    folds: tuple[Fold, ...]
    recall: dict[str, float]  # per question set: every question under its fold's choice
    by_category: dict[str, dict[str, float]]  # per question set
    unshared: dict[str, float | None]  # recall@k of evidence sharing no word with the question
    all_data: Config  # what the search settles on with every conversation
    all_data_recall: dict[str, float]  # and what it reports there (the optimistic number)


def _unshared(items: Sequence[Scored], k: int) -> float | None:
    total = sum(len(s.outcome.unshared) for s in items)
    if not total:
        return None
    found = sum(len(set(s.outcome.unshared).intersection(s.outcome.ranked[:k])) for s in items)
    return found / total


async def rotated_holdout(
    score: Score,
    levers: Levers,
    k: int,
    rounds: int = 3,
    progress: Callable[[str], object] | None = None,
    folds: Mapping[str, str] | None = None,
) -> HoldOut:
    """For each fold (`folds`: conversation -> fold; by default one per conversation): choose
    on the others, score on it."""
    if not levers:
        raise ValueError("a hold-out needs at least one lever")
    start: Config = tuple(values[0][0] for values in levers.values())
    first = (await score([start]))[start]
    samples = list(dict.fromkeys(s.sample_id for items in first.values() for s in items))
    fold_of = {s: (folds or {}).get(s, s) for s in samples}
    groups = list(dict.fromkeys(fold_of.values()))
    if len(groups) < 2:
        raise ValueError("a hold-out needs at least two conversations")
    done: list[Fold] = []
    measured: dict[str, list[Scored]] = {name: [] for name in first}
    for held_out in groups:
        inside = {s for s in samples if fold_of[s] == held_out}
        others = set(samples) - inside
        chosen, tuned = await coordinate_search(score, levers, others, k, rounds)
        if progress:
            progress(f"{held_out} held out: {describe(levers, chosen)} ({tuned:.3f} there)")
        results = (await score([chosen]))[chosen]
        here = {
            name: [s for s in items if s.sample_id in inside] for name, items in results.items()
        }
        done.append(
            Fold(
                held_out,
                chosen,
                tuned,
                {name: recall(items, k) for name, items in here.items() if items},
                {name: len(items) for name, items in here.items()},
            )
        )
        for name, items in here.items():
            measured[name].extend(items)
    everything, _ = await coordinate_search(score, levers, set(samples), k, rounds)
    results = (await score([everything]))[everything]
    return HoldOut(
        k=k,
        folds=tuple(done),
        recall={name: recall(items, k) for name, items in measured.items()},
        by_category={name: _by_category(items, k) for name, items in measured.items()},
        unshared={name: _unshared(items, k) for name, items in measured.items()},
        all_data=everything,
        all_data_recall={name: recall(items, k) for name, items in results.items()},
    )


def _by_category(items: Sequence[Scored], k: int) -> dict[str, float]:
    groups: dict[str, list[Scored]] = {}
    for item in items:
        groups.setdefault(item.outcome.category, []).append(item)
    return {name: recall(groups[name], k) for name in sorted(groups)}


def format_holdout(result: HoldOut, levers: Levers) -> str:
    k = result.k
    sets = list(result.recall)
    lines = [
        f"{'held out':<10} {'chosen on the other conversations':<60} {'tuned':>6} "
        + " ".join(f"{name + ' R@' + str(k):>12}" for name in sets)
    ]
    for f in result.folds:
        lines.append(
            f"{f.held_out:<10} {describe(levers, f.chosen):<60} {f.tuned:>6.3f} "
            + " ".join(f"{f.held_out_recall.get(name, float('nan')):>12.3f}" for name in sets)
        )
    for name in sets:
        cats = " ".join(f"{c}={v:.3f}" for c, v in result.by_category[name].items())
        unshared = result.unshared[name]
        nw = "-" if unshared is None else f"{unshared:.3f}"
        lines.append(
            f"rotated hold-out {name}: R@{k} {result.recall[name]:.3f} ({cats}; "
            f"no shared word {nw}); tuned on all: {result.all_data_recall[name]:.3f}"
        )
    lines.append(f"chosen on all conversations: {describe(levers, result.all_data)}")
    return "\n".join(lines)
