"""Leave-one-conversation-out: does a tuned choice carry over to a conversation it never saw?

A sweep runs the same questions under several variants (values of one ranking parameter).
For each conversation in turn, the variant with the best recall@k on the *other*
conversations is chosen and scored on the held-out one. A choice that only fits one
conversation shows up as a held-out score below what tuning on everything promised.
Scores are means over questions (each question counts once), as in the main report.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean

from kit.eval.metrics import Outcome, recall_at


@dataclass(frozen=True)
class Scored:
    """One question's outcome, tagged with its conversation."""

    sample_id: str
    outcome: Outcome


@dataclass(frozen=True)
class Fold:
    held_out: str  # the conversation measured
    chosen: str  # the variant that won on the other conversations
    tuned_recall: float  # its recall@k there
    held_out_recall: float  # its recall@k on the held-out conversation
    best_recall: float  # the best any variant reached on the held-out one (an oracle)
    questions: int


@dataclass(frozen=True)
class LeaveOneOut:
    k: int
    folds: tuple[Fold, ...]
    recall: float  # every question scored under its fold's choice
    by_category: dict[str, float]
    all_data_choice: str  # what tuning on every conversation picks
    all_data_recall: float  # and what it reports (the optimistic number)


def _recall(items: Sequence[Scored], k: int) -> float:
    return fmean(recall_at(s.outcome.ranked, s.outcome.evidence, k) for s in items)


def _best(variants: Mapping[str, Sequence[Scored]], k: int, keep: set[str]) -> tuple[str, float]:
    """The best variant on the conversations in `keep`; ties go to the earlier variant, so
    list the default (or the simplest value) first."""
    best_name, best_score = "", -1.0
    for name, items in variants.items():
        score = _recall([s for s in items if s.sample_id in keep], k)
        if score > best_score + 1e-12:
            best_name, best_score = name, score
    return best_name, best_score


def leave_one_out(variants: Mapping[str, Sequence[Scored]], k: int) -> LeaveOneOut:
    """Choose on all conversations but one, measure on that one, for each conversation.
    Every variant must hold the same questions (the same samples, in any order)."""
    if not variants:
        raise ValueError("leave-one-out needs at least one variant")
    first = next(iter(variants.values()))
    samples = list(dict.fromkeys(s.sample_id for s in first))
    if len(samples) < 2:
        raise ValueError("leave-one-out needs at least two conversations")
    for name, items in variants.items():
        if len(items) != len(first):
            raise ValueError(f"variant {name!r} has {len(items)} questions, not {len(first)}")
    folds: list[Fold] = []
    chosen_items: list[Scored] = []
    for held_out in samples:
        others = {s for s in samples if s != held_out}
        chosen, tuned = _best(variants, k, others)
        measured = [s for s in variants[chosen] if s.sample_id == held_out]
        _, oracle = _best(variants, k, {held_out})
        folds.append(Fold(held_out, chosen, tuned, _recall(measured, k), oracle, len(measured)))
        chosen_items.extend(measured)
    groups: dict[str, list[Scored]] = {}
    for item in chosen_items:
        groups.setdefault(item.outcome.category, []).append(item)
    everything, everything_recall = _best(variants, k, set(samples))
    return LeaveOneOut(
        k=k,
        folds=tuple(folds),
        recall=_recall(chosen_items, k),
        by_category={name: _recall(groups[name], k) for name in sorted(groups)},
        all_data_choice=everything,
        all_data_recall=everything_recall,
    )


def format_leave_one_out(result: LeaveOneOut) -> str:
    k = result.k
    lines = [
        f"{'held out':<12} {'n':>4}  {'chosen on the others':<28} {'R@' + str(k) + ' there':>9}"
        f" {'held-out':>9} {'best':>6}"
    ]
    for f in result.folds:
        lines.append(
            f"{f.held_out:<12} {f.questions:>4}  {f.chosen:<28} {f.tuned_recall:>9.3f}"
            f" {f.held_out_recall:>9.3f} {f.best_recall:>6.3f}"
        )
    cats = " ".join(f"{name}={value:.3f}" for name, value in result.by_category.items())
    lines.append(
        f"leave-one-out R@{k} {result.recall:.3f} ({cats}); tuned on all: "
        f"{result.all_data_choice} {result.all_data_recall:.3f}"
    )
    return "\n".join(lines)
