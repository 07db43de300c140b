"""What `kit eval qa` prints and writes: accuracy per category and overall, memory tokens per
question, the models' tokens and cost; the JSON it writes after every question, and reading
that JSON back for `--resume`."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kit.errors import InputError
from kit.eval.judge import Verdict
from kit.eval.locomo import CATEGORIES
from kit.eval.qa import Key, QAResult, QARun
from kit.llm.base import Usage
from kit.llm.prices import cost
from kit.model_settings import ModelRole

FORMAT = "kit-eval-qa/1"
JUDGE_PROMPT = "prompts/eval_judge.md (Mem0's LoCoMo judge, mem0ai/mem0 evaluation/metrics)"
_VERDICTS: tuple[Verdict, ...] = ("CORRECT", "WRONG", "unreadable")


@dataclass(frozen=True)
class Accuracy:
    questions: int
    correct: int
    unreadable: int  # judged neither way (counted as wrong)
    memory_tokens: float  # mean per question
    exact: float = 0.0  # share of answers equal to the key (normalised)
    f1: float = 0.0  # mean token F1 against the key

    @property
    def accuracy(self) -> float:
        return self.correct / self.questions if self.questions else 0.0


def accuracy(results: Sequence[QAResult]) -> dict[str, Accuracy]:
    """ "all", then each category in LoCoMo's order, named as Mem0 reports them (LoCoMo's
    category 1 is multi-hop, 2 temporal, 3 open-domain, 4 single-hop: kit/eval/locomo.py)."""
    groups: dict[str, list[QAResult]] = {"all": list(results)}
    for name in CATEGORIES.values():
        found = [r for r in results if r.category == name]
        if found:
            groups[name] = found
    return {
        name: Accuracy(
            len(group),
            sum(r.correct for r in group),
            sum(r.verdict == "unreadable" for r in group),
            sum(r.memory_tokens for r in group) / len(group) if group else 0.0,
            sum(r.exact for r in group) / len(group) if group else 0.0,
            sum(r.f1 for r in group) / len(group) if group else 0.0,
        )
        for name, group in groups.items()
    }


def totals(results: Sequence[QAResult]) -> tuple[Usage, Usage]:
    answers, grades = Usage(), Usage()
    for r in results:
        answers += r.answer_usage
        grades += r.judge_usage
    return answers, grades


def format_report(run: QARun, chat: ModelRole, judge: ModelRole, *, source: str, total: int) -> str:
    table = accuracy(run.results)
    lines = [
        f"{source}: {len(run.results)} of {total} questions answered by {chat.model} "
        f"({chat.where}{_temperature(chat)}), graded by {judge.model} ({judge.where}"
        f"{_temperature(judge)}) with {JUDGE_PROMPT}",
        f"{'category':<12} {'n':>4} {'correct':>7} {'judge':>6} {'exact':>6} {'F1':>6} "
        f"{'unread':>6} {'mem tok/q':>9}",
    ]
    for name, a in table.items():
        lines.append(
            f"{name:<12} {a.questions:>4} {a.correct:>7} {a.accuracy:>6.3f} {a.exact:>6.3f} "
            f"{a.f1:>6.3f} {a.unreadable:>6} {a.memory_tokens:>9.0f}"
        )
    lines.append(
        f"judge: {judge.model} (its verdicts are the 'judge' column); exact and F1 need no model"
    )
    answers, grades = totals(run.results)
    lines.append(f"answers: {_tokens(answers)}; cost {_usd(cost(answers, chat), chat)}")
    lines.append(f"grades:  {_tokens(grades)}; cost {_usd(cost(grades, judge), judge)}")
    if run.unanswerable:
        lines.append(f"{run.unanswerable} question(s) in the file have no key and were not asked")
    if run.stopped:
        lines.append(
            f"STOPPED after {len(run.results)} of {total}: {run.stopped}. What was measured is "
            "above; --resume goes on from there"
        )
    return "\n".join(lines)


def _temperature(role: ModelRole) -> str:
    return "" if role.temperature is None else f", temperature {role.temperature:g}"


def _tokens(usage: Usage) -> str:
    return (
        f"{usage.input_tokens:,} in ({usage.cache_read_tokens:,} cached read, "
        f"{usage.cache_write_tokens:,} cache written), {usage.output_tokens:,} out"
    )


def _usd(value: float | None, role: ModelRole) -> str:
    if value is None:
        return f"unknown (set {role.setting('price_input')} and price_output)"
    return f"${value:.4f}"


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def report_json(
    run: QARun, chat: ModelRole, judge: ModelRole, *, source: Path, digest: str, total: int
) -> dict[str, Any]:
    answers, grades = totals(run.results)
    return {
        "format": FORMAT,
        "file": str(source),
        "file_sha256": digest,
        "questions_selected": total,
        "stopped": run.stopped,
        "judge_prompt": JUDGE_PROMPT,
        "models": {
            "answer": {
                "model": chat.model,
                "provider": chat.provider,
                "endpoint": chat.where,
                "temperature": chat.temperature,
            },
            "judge": {
                "model": judge.model,
                "provider": judge.provider,
                "endpoint": judge.where,
                "temperature": judge.temperature,
            },
        },
        "accuracy": {
            name: {
                "questions": a.questions,
                "correct": a.correct,
                "accuracy": round(a.accuracy, 4),
                "exact": round(a.exact, 4),
                "f1": round(a.f1, 4),
                "unreadable": a.unreadable,
                "memory_tokens_mean": round(a.memory_tokens, 1),
            }
            for name, a in accuracy(run.results).items()
        },
        "tokens": {"answers": _usage_json(answers), "grades": _usage_json(grades)},
        "cost_usd": {"answers": cost(answers, chat), "grades": cost(grades, judge)},
        "results": [_result_json(r) for r in run.results],
    }


def _usage_json(usage: Usage) -> dict[str, int]:
    return {
        "input": usage.input_tokens,
        "output": usage.output_tokens,
        "cache_read": usage.cache_read_tokens,
        "cache_write": usage.cache_write_tokens,
    }


def _result_json(r: QAResult) -> dict[str, Any]:
    return {
        "sample_id": r.sample_id,
        "index": r.index,
        "question": r.question,
        "category": r.category,
        "gold": r.gold,
        "answer": r.answer,
        "verdict": r.verdict,
        "exact": r.exact,
        "f1": round(r.f1, 4),
        "memory_tokens": r.memory_tokens,
        "context_tokens": r.context_tokens,
        "answer_usage": _usage_json(r.answer_usage),
        "judge_usage": _usage_json(r.judge_usage),
        "seconds": round(r.seconds, 3),
    }


def load_done(path: Path, digest: str) -> dict[Key, QAResult]:
    """The results a previous run of the same file wrote to `path` (for `--resume`)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(
            f"--resume: {path} cannot be read as a `kit eval qa` result ({exc}); "
            "move it away to start over"
        ) from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"--resume: {path} is not a `kit eval qa` result; move it away")
    if data.get("file_sha256") != digest:
        raise InputError(
            f"--resume: {path} is the result of another file (or the file changed since); "
            "run without --resume, or use another --json file"
        )
    try:
        found = [_result(item) for item in data["results"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"--resume: {path} has a damaged result ({exc}); move it away") from exc
    return {r.key: r for r in found}


def _result(item: dict[str, Any]) -> QAResult:
    verdict = item["verdict"]
    if verdict not in _VERDICTS:
        raise ValueError(f"verdict {verdict!r}")
    return QAResult(
        sample_id=str(item["sample_id"]),
        index=int(item["index"]),
        question=str(item["question"]),
        category=str(item["category"]),
        gold=str(item["gold"]),
        answer=str(item["answer"]),
        verdict=verdict,
        memory_tokens=int(item["memory_tokens"]),
        context_tokens=int(item["context_tokens"]),
        answer_usage=_usage(item["answer_usage"]),
        judge_usage=_usage(item["judge_usage"]),
        seconds=float(item["seconds"]),
    )


def _usage(item: dict[str, Any]) -> Usage:
    return Usage(
        int(item["input"]), int(item["output"]), int(item["cache_read"]), int(item["cache_write"])
    )
