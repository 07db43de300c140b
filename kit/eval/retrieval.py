"""`kit eval retrieval`: how well Kit's own search finds the turns that answer a question.

Each sample is imported into a fresh, temporary Kit (one message per turn, at its session's
time, with its dia_id as `ref`), embedded, and every question is asked through the search the
context sandwich uses (messages only) as of the conversation's end. Nothing here ranks
anything itself: the numbers are the product's numbers. With `memory.filter = "model"` that
search asks the model (kit/retrieval/filter.py); its calls, fallbacks and tokens (read back from
the usage log) are reported too.
"""

from __future__ import annotations

import dataclasses
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.embed.base import Embedder
from kit.errors import InputError
from kit.eval import DEFAULT_KS as DEFAULT_KS
from kit.eval.folds import Scored
from kit.eval.locomo import Sample
from kit.eval.metrics import (
    Outcome,
    Summary,
    by_category,
    percentile,
    summarise,
)
from kit.eval.overlap import shares_a_word
from kit.llm.base import LLM
from kit.llm.fake import FakeLLM
from kit.llm.tokens import estimate_tokens
from kit.memory.messages import NewMessage
from kit.retrieval.filter import PURPOSE as FILTER_PURPOSE
from kit.retrieval.filter import FilterOutcome
from kit.retrieval.ranking import RankingParams
from kit.tools import format_hits


@dataclass(frozen=True)
class QuestionResult:
    sample_id: str
    question: str
    category: str
    evidence: tuple[str, ...]
    ranked: tuple[str | None, ...]  # refs of the hits, best first (max k of them)
    outcome: Outcome
    filter: FilterOutcome | None = None  # what the model filter did, when it is on


@dataclass(frozen=True)
class FilterReport:
    """What the model filter cost and did, over every question."""

    calls: int  # questions the model was asked about (not those without any candidate)
    fallbacks: dict[str, int]  # reason -> questions that fell back to the unfiltered ranking
    shown_mean: float  # candidates shown per call
    kept_mean: float  # candidates kept per call that was used
    input_tokens: int  # from the usage log (purpose "filter"), all questions
    output_tokens: int
    seconds_p50: float
    seconds_p95: float


@dataclass(frozen=True)
class RetrievalReport:
    ks: tuple[int, ...]
    samples: int
    turns: int
    skipped_questions: int
    repaired_evidence: int
    index_seconds: float  # import + embedding, all samples
    model_id: str
    summaries: dict[str, Summary]  # "all", then per category
    conversations: dict[str, Summary]  # per conversation (sample_id)
    results: tuple[QuestionResult, ...]
    filter: FilterReport | None = None
    store: str = "sqlite"  # the engine searched: "sqlite" or "postgres"
    # memory.context_budget_tokens: recall is also given on the hits that fit in it together,
    # as shown (0: not given)
    budget_tokens: int = 0

    def scored(self) -> list[Scored]:
        """Every question's outcome with its conversation, for leave-one-out (folds.py)."""
        return [Scored(r.sample_id, r.outcome) for r in self.results]


def parse_ks(text: str) -> tuple[int, ...]:
    """ "5,10,15" -> (5, 10, 15): positive, distinct, sorted."""
    try:
        ks = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError as exc:
        raise InputError(f"--k {text!r}: give cut-offs as integers, like 5,10,15,25,50") from exc
    if not ks or ks[0] < 1:
        raise InputError(f"--k {text!r}: give at least one cut-off, each at least 1")
    return tuple(ks)


# (what is being done, questions answered so far): `kit eval`'s progress bar.
Progress = Callable[[str, int], object]


async def evaluate(
    samples: Sequence[Sample],
    *,
    settings: Settings,
    embedder: Embedder | None,
    ks: Sequence[int] = DEFAULT_KS,
    params: RankingParams | None = None,
    progress: Progress | None = None,
    llm: LLM | None = None,
) -> RetrievalReport:
    """Run every question of every sample; `params` overrides the ranking (for ablations).
    With `settings.memory.filter = "model"`, the filter calls `llm`, or when that is None
    the model the settings name (built by Kit's composition root, key from the
    environment); otherwise no model is called at all."""
    reports = await evaluate_variants(
        samples,
        {"": params},
        settings=settings,
        embedder=embedder,
        ks=ks,
        progress=progress,
        llm=llm,
    )
    return reports[""]


async def evaluate_variants(
    samples: Sequence[Sample],
    variants: Mapping[str, RankingParams | None],
    *,
    settings: Settings,
    embedder: Embedder | None,
    ks: Sequence[int] = DEFAULT_KS,
    progress: Progress | None = None,
    llm: LLM | None = None,
) -> dict[str, RetrievalReport]:
    """`evaluate` under several rankings (None: the defaults), each conversation imported
    and embedded once for all of them: a sweep costs its questions, not its imports."""
    if not variants:
        raise ValueError("evaluate_variants needs at least one variant")
    ks = tuple(sorted(ks))
    results: dict[str, list[QuestionResult]] = {name: [] for name in variants}
    filter_tokens = (0, 0)
    index_seconds = 0.0
    run = uuid.uuid4().hex[:8]
    with tempfile.TemporaryDirectory(prefix="kit-eval-") as workdir:
        for number, sample in enumerate(samples):
            done = sum(len(r) for r in results.values())
            if progress:
                progress(f"{sample.sample_id}: indexing {len(sample.turns)} turns", done)
            sample_settings = dataclasses.replace(
                settings,
                data_dir=Path(workdir) / f"sample-{number}",
                schedule=ScheduleSettings(timezone="UTC"),
            )
            if settings.on_postgres:  # one database: each conversation a namespace of its own
                owner = dataclasses.replace(settings.owner, user_id=f"eval-{run}-{number}")
                sample_settings = dataclasses.replace(sample_settings, owner=owner)
            found, seconds, tokens = await _run_sample(
                sample, sample_settings, embedder, ks, variants, llm, progress, done
            )
            for name, items in found.items():
                results[name].extend(items)
            index_seconds += seconds
            filter_tokens = (filter_tokens[0] + tokens[0], filter_tokens[1] + tokens[1])
    if not any(results.values()):
        raise InputError("no questions to evaluate: every question was adversarial or unanswered")
    return {
        name: RetrievalReport(
            ks=ks,
            samples=len(samples),
            turns=sum(len(s.turns) for s in samples),
            skipped_questions=sum(s.skipped for s in samples),
            repaired_evidence=sum(s.repaired for s in samples),
            index_seconds=index_seconds,
            model_id=embedder.model_id if embedder else "none (lexical only)",
            summaries=by_category([r.outcome for r in found], ks),
            conversations=by_conversation(found, ks),
            results=tuple(found),
            filter=_filter_report(found, filter_tokens),
            store="postgres" if settings.on_postgres else "sqlite",
            budget_tokens=settings.memory.context_budget_tokens,
        )
        for name, found in results.items()
    }


def _filter_report(
    results: Sequence[QuestionResult], tokens: tuple[int, int]
) -> FilterReport | None:
    outcomes = [r.filter for r in results if r.filter is not None and r.filter.asked]
    if not outcomes:
        return None
    fallbacks: dict[str, int] = {}
    for outcome in outcomes:
        if not outcome.filtered:
            fallbacks[outcome.reason] = fallbacks.get(outcome.reason, 0) + 1
    used = [o for o in outcomes if o.filtered]
    seconds = [o.seconds for o in outcomes]
    return FilterReport(
        calls=len(outcomes),
        fallbacks=fallbacks,
        shown_mean=sum(o.shown for o in outcomes) / len(outcomes),
        kept_mean=sum(len(o.hits) for o in used) / len(used) if used else 0.0,
        input_tokens=tokens[0],
        output_tokens=tokens[1],
        seconds_p50=percentile(seconds, 0.5),
        seconds_p95=percentile(seconds, 0.95),
    )


def by_conversation(results: Sequence[QuestionResult], ks: Sequence[int]) -> dict[str, Summary]:
    """One summary per conversation, in the order they were run: a gain that only one
    conversation shows is visible here."""
    groups: dict[str, list[Outcome]] = {}
    for result in results:
        groups.setdefault(result.sample_id, []).append(result.outcome)
    return {name: summarise(outcomes, ks) for name, outcomes in groups.items()}


async def _run_sample(
    sample: Sample,
    settings: Settings,
    embedder: Embedder | None,
    ks: tuple[int, ...],
    variants: Mapping[str, RankingParams | None],
    llm: LLM | None,
    progress: Progress | None = None,
    answered: int = 0,
) -> tuple[dict[str, list[QuestionResult]], float, tuple[int, int]]:
    async with opened(sample, settings, embedder, llm) as imported:
        found: dict[str, list[QuestionResult]] = {}
        for name, params in variants.items():
            found[name] = await imported.ask(sample, params, ks, progress, answered)
            answered += len(sample.questions)
        used = await imported.kit.services.usage.totals_since(_EPOCH, FILTER_PURPOSE)
    return found, imported.index_seconds, (used.input_tokens, used.output_tokens)


@asynccontextmanager
async def opened(
    sample: Sample, settings: Settings, embedder: Embedder | None, llm: LLM | None = None
) -> AsyncIterator[Imported]:
    """A fresh Kit holding the sample's conversation, imported and embedded, as of its end.
    Questions can be asked of it many times, under any ranking (`Imported.ask`)."""
    if settings.memory.filter != "model":
        # No model calls happen during retrieval; a FakeLLM with no default would fail loudly.
        llm = FakeLLM(default=None)
    async with Kit.open(
        settings=settings,
        llm=llm,
        embedder=embedder,
        clock=FakeClock(sample.end),
        with_embedder=embedder is not None,
        background=False,
    ) as kit:
        started = time.perf_counter()
        await kit.import_messages(
            (NewMessage(t.role, t.text, t.at, t.speaker, t.ref) for t in sample.turns),
            conversation=sample.sample_id,
        )
        await kit.settle()
        # What a daemon does after its start: the word search's index loads
        # (kit/retrieval/kept_words.py).
        await kit.services.search.warm(kit.settings.owner.user_id)
        yield Imported(kit, time.perf_counter() - started, kit.services.search.params)


@dataclass
class Imported:
    """A conversation imported into a Kit of its own, ready for questions."""

    kit: Kit
    index_seconds: float
    defaults: RankingParams  # the ranking the settings give

    async def ask(
        self,
        sample: Sample,
        params: RankingParams | None,
        ks: tuple[int, ...],
        progress: Progress | None = None,
        answered: int = 0,
    ) -> list[QuestionResult]:
        """Every question of `sample` (this conversation, or a question set over it) through
        the search the context uses, under `params` (None: the defaults), as of its end."""
        self.kit.services.search.params = self.defaults if params is None else params
        return await _ask(self.kit, sample, ks, progress, answered)


async def _ask(
    kit: Kit, sample: Sample, ks: tuple[int, ...], progress: Progress | None, answered: int
) -> list[QuestionResult]:
    texts = {t.ref: t.text for t in sample.turns}
    user = kit.settings.owner.user_id
    results: list[QuestionResult] = []
    for question in sample.questions:
        if progress:
            progress(f"{sample.sample_id}: asking", answered + len(results))
        started = time.perf_counter()
        result, filtered = await kit.services.recall.search_with_outcome(
            user, question.text, now=sample.end, kinds=("message",), k=ks[-1]
        )
        seconds = time.perf_counter() - started
        hits = list(result.hits)
        tokens = tuple(estimate_tokens(format_hits(hits[:k], UTC)) for k in ks)
        costs = tuple(estimate_tokens(format_hits([h], UTC)) + 1 for h in hits)
        ranked = tuple(h.ref for h in hits)
        unshared = tuple(e for e in question.evidence if not shares_a_word(question.text, texts[e]))
        shows = kit.services.search.k_for(question.text, kit.settings.memory.top_k)
        outcome = Outcome(
            question.category_name,
            ranked,
            question.evidence,
            seconds,
            tokens,
            unshared,
            costs,
            shows,
        )
        results.append(
            QuestionResult(
                sample.sample_id,
                question.text,
                question.category_name,
                question.evidence,
                ranked,
                outcome,
                filtered,
            )
        )
    return results


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
