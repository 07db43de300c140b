"""What `kit eval retrieval` reports (kit/eval/retrieval.py runs it): the table it prints and
its JSON, recall@k per row (all, each category, each conversation) with bootstrap intervals,
and what a turn's context would show of the hits within the memory budget."""

from __future__ import annotations

import dataclasses
from statistics import fmean
from typing import Any

from kit.eval.intervals import Interval, mean_interval
from kit.eval.metrics import Outcome, Summary, recall_at, recall_shown, shown
from kit.eval.retrieval import FilterReport, RetrievalReport


def recall_intervals(report: RetrievalReport, k: int) -> dict[str, Interval]:
    """Recall@k of every row `format_report` prints ("all", each category, each
    conversation) with its 95% bootstrap interval over the row's questions."""
    return {
        name: mean_interval([recall_at(o.ranked, o.evidence, k) for o in outcomes])
        for name, outcomes in _groups(report).items()
    }


def _groups(report: RetrievalReport) -> dict[str, list[Outcome]]:
    """The outcomes of every row: "all", each category, each conversation (when several)."""
    groups: dict[str, list[Outcome]] = {"all": [r.outcome for r in report.results]}
    for result in report.results:
        groups.setdefault(result.category, []).append(result.outcome)
    if len(report.conversations) > 1:
        for result in report.results:
            groups.setdefault(result.sample_id, []).append(result.outcome)
    return groups


def budget_recall(report: RetrievalReport) -> dict[str, tuple[float, float]]:
    """Per row: recall of the hits a turn's context shows (the first memory.top_k, or more for
    a question asking for many things, as many as fit in the memory budget as shown), and
    how many it shows on average ({} when the report has no budget)."""
    if not report.budget_tokens:
        return {}
    return {
        name: (
            fmean(recall_shown(o, report.budget_tokens) for o in outcomes),
            fmean(shown(o, report.budget_tokens) for o in outcomes),
        )
        for name, outcomes in _groups(report).items()
    }


def _ci_k(report: RetrievalReport, ci_k: int | None) -> int | None:
    """The cut-off intervals are given at: `ci_k` when the report has it (None: none)."""
    return ci_k if ci_k in report.ks else None


def format_report(report: RetrievalReport, ci_k: int | None = None) -> str:
    """The table `kit eval retrieval` prints; with `ci_k` (one of the report's cut-offs), a
    column with each row's recall at it and its 95% bootstrap interval over questions."""
    ks = report.ks
    at = _ci_k(report, ci_k)
    intervals = recall_intervals(report, at) if at is not None else {}
    ci_head = f" {'R@' + str(at) + ' 95% CI':>15}" if at is not None else ""
    budget = budget_recall(report)
    b_head = f" {'R shown':>9} {'shown':>5}" if budget else ""
    head = (
        f"{'category':<12} {'n':>4} "
        + " ".join(f"{'R@' + str(k):>6}" for k in ks)
        + ci_head
        + b_head
        + " "
        + " ".join(f"{'H@' + str(k):>6}" for k in ks)
        + f" {'MRR':>6} {'ms p50':>7} {'ms p95':>7}"
        + " "
        + " ".join(f"{'tok@' + str(k):>7}" for k in ks)
    )
    lines = [
        f"{report.samples} conversations, {report.turns} turns, "
        f"{report.summaries['all'].questions} questions "
        f"({report.skipped_questions} skipped: adversarial or no evidence; "
        f"{report.repaired_evidence} evidence strings normalised); model {report.model_id}; "
        f"store {report.store}; indexing {report.index_seconds:.1f}s",
        head,
    ]
    rows = list(report.summaries.items())
    if len(report.conversations) > 1:
        rows += list(report.conversations.items())
    for name, s in rows:
        ci = ""
        if at is not None:
            i = intervals[name]
            ci = f" {f'[{i.low:.3f}, {i.high:.3f}]':>15}"
        if budget:
            ci += f" {budget[name][0]:>9.3f} {budget[name][1]:>5.1f}"
        lines.append(
            f"{name:<12} {s.questions:>4} "
            + " ".join(f"{s.recall[k]:>6.3f}" for k in ks)
            + ci
            + " "
            + " ".join(f"{s.hit[k]:>6.3f}" for k in ks)
            + f" {s.mrr:>6.3f} {s.seconds_p50 * 1000:>7.1f} {s.seconds_p95 * 1000:>7.1f}"
            + " "
            + " ".join(f"{s.tokens[k]:>7.0f}" for k in ks)
        )
    lines.extend(_unshared_lines(report))
    if report.filter is not None:
        lines.append(_filter_line(report.filter, report.summaries["all"].questions))
    return "\n".join(lines)


def _unshared_lines(report: RetrievalReport) -> list[str]:
    """Evidence turns that share no content word with their question, and recall on them."""
    ks = report.ks
    lines = [
        "evidence turns sharing no content word with the question (stemmed, stopwords out):",
        f"{'category':<12} {'turns':>5} {'none':>5} {'share':>6} "
        + " ".join(f"{'R@' + str(k):>6}" for k in ks),
    ]
    for name, s in report.summaries.items():
        share = s.unshared_turns / s.evidence_turns if s.evidence_turns else 0.0
        recall = s.unshared_recall
        cells = " ".join(f"{'-':>6}" if recall is None else f"{recall[k]:>6.3f}" for k in ks)
        lines.append(
            f"{name:<12} {s.evidence_turns:>5} {s.unshared_turns:>5} {share:>6.1%} {cells}"
        )
    return lines


def _filter_line(f: FilterReport, questions: int) -> str:
    fallbacks = sum(f.fallbacks.values())
    reasons = "; ".join(f"{n}x {reason}" for reason, n in sorted(f.fallbacks.items()))
    why = f" ({reasons})" if reasons else ""
    return (
        f"model filter: {f.calls} calls, kept {f.kept_mean:.1f} of {f.shown_mean:.1f} shown; "
        f"{fallbacks} fell back to the unfiltered ranking{why}; "
        f"tokens per question {f.input_tokens / questions:.0f} in, "
        f"{f.output_tokens / questions:.0f} out; {f.seconds_p50 * 1000:.0f} / "
        f"{f.seconds_p95 * 1000:.0f} ms p50 / p95"
    )


def report_json(report: RetrievalReport, ci_k: int | None = None) -> dict[str, Any]:
    """The report as JSON; with `ci_k`, each row's recall interval at that cut-off."""
    at = _ci_k(report, ci_k)
    intervals = recall_intervals(report, at) if at is not None else {}
    budget = budget_recall(report)

    def shown(name: str) -> dict[str, Any] | None:
        if name not in budget:
            return None
        return {
            "budget_tokens": report.budget_tokens,
            "recall": round(budget[name][0], 4),
            "hits": round(budget[name][1], 2),
        }

    def interval(name: str) -> dict[str, Any] | None:
        found = intervals.get(name)
        if found is None:
            return None
        return {"k": at, "low": round(found.low, 4), "high": round(found.high, 4)}

    def summary(s: Summary) -> dict[str, Any]:
        return {
            "questions": s.questions,
            "recall": {str(k): round(v, 4) for k, v in s.recall.items()},
            "hit": {str(k): round(v, 4) for k, v in s.hit.items()},
            "mrr": round(s.mrr, 4),
            "ms_p50": round(s.seconds_p50 * 1000, 2),
            "ms_p95": round(s.seconds_p95 * 1000, 2),
            "tokens": {str(k): round(v, 1) for k, v in s.tokens.items()},
            "evidence_turns": s.evidence_turns,
            "unshared_turns": s.unshared_turns,
            "unshared_recall": None
            if s.unshared_recall is None
            else {str(k): round(v, 4) for k, v in s.unshared_recall.items()},
        }

    return {
        "ks": list(report.ks),
        "samples": report.samples,
        "turns": report.turns,
        "skipped_questions": report.skipped_questions,
        "repaired_evidence": report.repaired_evidence,
        "index_seconds": round(report.index_seconds, 2),
        "model": report.model_id,
        "store": report.store,
        "summary": {
            name: {**summary(s), "recall_interval": interval(name), "within_budget": shown(name)}
            for name, s in report.summaries.items()
        },
        "conversations": {
            name: {**summary(s), "recall_interval": interval(name), "within_budget": shown(name)}
            for name, s in report.conversations.items()
        },
        "filter": None if report.filter is None else dataclasses.asdict(report.filter),
        "questions": [
            {
                "sample_id": r.sample_id,
                "question": r.question,
                "category": r.category,
                "evidence": list(r.evidence),
                "unshared": list(r.outcome.unshared),
                "ranked": list(r.ranked),
                "recall": {str(k): round(recall_at(r.ranked, r.evidence, k), 4) for k in report.ks},
            }
            for r in report.results
        ],
    }
