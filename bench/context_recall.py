"""Recall next to tokens: how much of LoCoMo's evidence reaches the model's context, and at
what size, for Kit's context defaults and for the old ones (4,000-token budget, uncapped).

    python bench/context_recall.py [--quick]

Each LoCoMo conversation goes into a fresh Kit (one message per turn, real MiniLM), then every
question of categories 1-4 is put through `Kit.context` as of the conversation's end: recall
is the share of a question's evidence turns that appear among the context's retrieved
messages; tokens are the memory sections' tokens. (`kit eval retrieval` measures the ranking
alone, at fixed k.)
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import tempfile
from pathlib import Path

from common import LOCOMO, Row, load_minilm, p50_p95, print_rows

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.embed.base import Embedder
from kit.eval.locomo import load
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage

OLD = {  # the context before the caps: one 4,000-token budget, everything else uncapped
    "index_tokens": 0,
    "core_tokens": 100_000,
    "recent_days_tokens": 100_000,
    "context_day_hits": 100,
    "context_budget_tokens": 4000,
}


async def measure(label: str, memory: dict[str, int], embedder: Embedder, quick: bool) -> list[Row]:
    samples = load(LOCOMO)[: 1 if quick else None]
    found = wanted = 0
    tokens: list[int] = []
    for number, sample in enumerate(samples):
        with tempfile.TemporaryDirectory(prefix="kit-bench-") as folder:
            base = Settings(data_dir=Path(folder), schedule=ScheduleSettings(timezone="UTC"))
            settings = dataclasses.replace(base, memory=dataclasses.replace(base.memory, **memory))
            async with Kit.open(
                settings=settings,
                llm=FakeLLM(default=None),
                embedder=embedder,
                clock=FakeClock(sample.end),
                background=False,
            ) as kit:
                await kit.import_messages(
                    NewMessage("user", t.text, t.at, t.speaker, t.ref) for t in sample.turns
                )
                await kit.settle()
                questions = sample.questions[: 25 if quick else None]
                for question in questions:
                    plan = await kit.context(question.text, at=sample.end)
                    shown = {h.ref for h in plan.relevant if h.message is not None}
                    found += len(set(question.evidence) & shown)
                    wanted += len(question.evidence)
                    tokens.append(plan.memory_tokens)
        del number
    t50, t95 = p50_p95(tokens)
    note = f"{len(tokens)} questions, {len(samples)} conversations"
    return [
        Row("recall vs tokens", f"{label}: evidence in context", found / max(wanted, 1), "", note),
        Row("recall vs tokens", f"{label}: memory tokens p50", t50, "tokens"),
        Row("recall vs tokens", f"{label}: memory tokens p95", t95, "tokens"),
    ]


async def run(quick: bool = False) -> list[Row]:
    embedder = await load_minilm()
    if embedder is None or not LOCOMO.exists():
        return [Row("recall vs tokens", "skipped", 0, "", "needs ../shared model and LoCoMo")]
    rows = await measure("defaults", {}, embedder, quick)
    rows += await measure("old (4,000 budget, no caps)", OLD, embedder, quick)
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one conversation, 25 questions")
    print_rows(asyncio.run(run(parser.parse_args().quick)))
