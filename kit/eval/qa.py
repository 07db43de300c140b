"""`kit eval qa`: end-to-end answer accuracy on LoCoMo-format data.

Each conversation is imported into a fresh, temporary Kit (as `kit eval retrieval` does; with
`curate`, the background model then curates it and writes its day summaries, as a running Kit
would). For every scored question (categories 1-4 with a key), Kit builds the context a turn
would send at the conversation's end (the sandwich: system prompt, memory index, core facts,
recent days, the retrieved facts and messages), the configured chat model answers the question
from it (one call, no tools), and the judge model (`[llm.judge]`, by default the background
model) grades the answer against the key with Mem0's LoCoMo judge prompt (kit/eval/judge.py).
Each answer is also scored without a judge, by exact match and token F1 (kit/eval/answer_score.py).
With `short_answers`, the question goes with an instruction to answer in a few words, as
Mem0's harness asks (prompts/eval_answer_short.md): published numbers were measured so.

A model that cannot be reached after its retries stops the run: what was measured so far is
kept, and `--resume` goes on from there.
"""

from __future__ import annotations

import dataclasses
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.embed.base import Embedder
from kit.errors import LLMUnavailable
from kit.eval.answer_score import exact_match, token_f1
from kit.eval.judge import Judge, Verdict
from kit.eval.locomo import Sample
from kit.llm.base import LLM, ChatMessage, LLMRequest, Usage
from kit.memory.messages import NewMessage
from kit.model_settings import model_role

PURPOSE = "eval_answer"

Key = tuple[str, int]  # (sample_id, the question's place among the sample's questions)


@dataclass(frozen=True)
class QAResult:
    sample_id: str
    index: int
    question: str
    category: str
    gold: str
    answer: str
    verdict: Verdict
    memory_tokens: int  # the memory sections of the context (index, facts, days, retrieved)
    context_tokens: int  # the whole system prompt the chat model read
    answer_usage: Usage
    judge_usage: Usage
    seconds: float  # context, answer and grade

    @property
    def key(self) -> Key:
        return (self.sample_id, self.index)

    @property
    def correct(self) -> bool:
        return self.verdict == "CORRECT"

    @property
    def exact(self) -> bool:
        return exact_match(self.answer, self.gold)

    @property
    def f1(self) -> float:
        return token_f1(self.answer, self.gold)


@dataclass
class QARun:
    results: list[QAResult] = field(default_factory=list)  # in file order, resumed ones too
    stopped: str | None = None  # why the run stopped early (the model unreachable)
    unanswerable: int = 0  # scored questions without a key in the file


OnResult = Callable[[QAResult], object]  # each new result, as it is graded (to save it)
Progress = Callable[[str, int, int], object]  # (what, done, total)


BEAM_SPEAKERS = ("User", "Assistant")


def sample_messages(sample: Sample) -> list[NewMessage]:
    """A sample's turns as Kit's messages. LoCoMo's two speakers are people, both on the owner's
    side of the conversation (`role` user, named). BEAM's conversations (speakers "User" and
    "Assistant") are an owner talking to an assistant: the Assistant's turns are Kit's own
    messages, never the owner's words (curation must not read them as the owner's), and the
    User is the owner, unnamed as the owner's own messages are."""
    if sample.speakers != BEAM_SPEAKERS:
        return [NewMessage("user", t.text, t.at, t.speaker, t.ref) for t in sample.turns]
    return [
        NewMessage("assistant" if t.speaker == "Assistant" else "user", t.text, t.at, "", t.ref)
        for t in sample.turns
    ]


def selected(samples: Sequence[Sample], limit: int | None) -> list[tuple[Sample, list[int]]]:
    """The questions to run, per sample: those with a key, the first `limit` in file order."""
    chosen: list[tuple[Sample, list[int]]] = []
    left = limit
    for sample in samples:
        indexes = [i for i, q in enumerate(sample.questions) if q.answer]
        if left is not None:
            indexes, left = indexes[:left], left - len(indexes[:left])
        if indexes:
            chosen.append((sample, indexes))
    return chosen


async def evaluate_qa(
    samples: Sequence[Sample],
    *,
    settings: Settings,
    embedder: Embedder | None,
    llm: LLM | None = None,
    limit: int | None = None,
    done: dict[Key, QAResult] | None = None,
    curate: bool = False,
    short_answers: bool = False,
    on_result: OnResult | None = None,
    progress: Progress | None = None,
) -> QARun:
    """Answer and grade every selected question not in `done`. `llm` stands in for the
    configured models (a script in tests); None: the models the settings name."""
    done = dict(done or {})
    plan = selected(samples, limit)
    total = sum(len(indexes) for _, indexes in plan)
    run = QARun(unanswerable=sum(1 for s in samples for q in s.questions if not q.answer))
    with tempfile.TemporaryDirectory(prefix="kit-eval-qa-") as workdir:
        for number, (sample, indexes) in enumerate(plan):
            todo = [i for i in indexes if (sample.sample_id, i) not in done]
            if todo:
                sample_settings = dataclasses.replace(
                    settings,
                    data_dir=Path(workdir) / f"sample-{number}",
                    schedule=ScheduleSettings(timezone="UTC"),
                )
                try:
                    await _run_sample(
                        sample, todo, sample_settings, embedder, llm, curate, done, on_result,
                        lambda what: progress and progress(what, len(done), total),
                        short_answers=short_answers,
                    )  # fmt: skip
                except LLMUnavailable as exc:
                    run.stopped = str(exc)
            keys = [(sample.sample_id, i) for i in indexes]
            run.results += [done[k] for k in keys if k in done]
            if run.stopped:
                break
    if progress:
        progress("done", len(done), total)
    return run


async def _run_sample(
    sample: Sample,
    todo: list[int],
    settings: Settings,
    embedder: Embedder | None,
    llm: LLM | None,
    curate: bool,
    done: dict[Key, QAResult],
    on_result: OnResult | None,
    say: Callable[[str], object],
    *,
    short_answers: bool = False,
) -> None:
    end = sample.end
    chat = model_role(settings.llm, "chat")
    async with Kit.open(
        settings=settings,
        llm=llm,
        embedder=embedder,
        clock=FakeClock(end),
        with_embedder=embedder is not None,
        background=False,
    ) as kit:
        s = kit.services
        user = settings.owner.user_id
        say(f"{sample.sample_id}: importing {len(sample.turns)} turns")
        await kit.import_messages(sample_messages(sample), conversation=sample.sample_id)
        await kit.settle()
        if curate:
            say(f"{sample.sample_id}: curating")
            await s.curator.curate_user(user)
            await s.summarizer.summarize_pending(user, end.date(), include_today=True)
        judge = Judge(s.llm, s.prompts, model_role(settings.llm, "judge"))
        for index in todo:
            question = sample.questions[index]
            say(f"{sample.sample_id}: asking")
            started = time.perf_counter()
            sandwich, _ = await s.agent.plan(user, question.text, end, None)
            asked = (
                s.prompts.render("eval_answer_short", question=question.text)
                if short_answers
                else question.text
            )
            reply = await s.llm.complete(
                LLMRequest(
                    model=chat.model,
                    system=sandwich.system,
                    messages=(ChatMessage.text("user", asked),),
                    max_tokens=chat.max_tokens,
                    purpose=PURPOSE,
                    user_id=user,
                    temperature=chat.temperature,
                )
            )
            answer = reply.text.strip()
            grade = await judge.grade(question.text, question.answer, answer)
            result = QAResult(
                sample_id=sample.sample_id,
                index=index,
                question=question.text,
                category=question.category_name,
                gold=question.answer,
                answer=answer,
                verdict=grade.verdict,
                memory_tokens=sandwich.memory_tokens,
                context_tokens=sandwich.tokens,
                answer_usage=reply.usage,
                judge_usage=grade.usage,
                seconds=time.perf_counter() - started,
            )
            done[result.key] = result
            if on_result is not None:
                on_result(result)
