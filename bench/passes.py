"""A curation pass and a REM pass over a busy day, with an instant scripted model: what Kit
itself costs around the model calls (prompts, parsing, guards, transactions, history rows),
and the tokens that day's background work sends (what the daily budget must cover).

    python bench/passes.py [--quick] [--sentences N]   # N sentences per owner message
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from common import NOW, Row, fill_memory, print_rows, sentence

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.base import LLMReply, LLMRequest, TextBlock, ToolUse, Usage
from kit.llm.fake import FakeLLM
from kit.llm.tokens import estimate_request, estimate_tokens
from kit.llm.usage import is_background

FULL = {"turns": 150, "facts": 2_000}
QUICK = {"turns": 10, "facts": 100}
_FACT_ID = re.compile(r"^#(\d+) ", re.MULTILINE)
_SHOWN = re.compile(r"^\[msg (\d+), ", re.MULTILINE)  # messages curation may cite


def prompt_of(request: LLMRequest) -> str:
    parts = [b.text for b in request.system]
    for message in request.messages:
        parts += [b.text for b in message.content if isinstance(b, TextBlock)]
    return "\n".join(parts)


def instant_model(request: LLMRequest) -> str | LLMReply:
    """Plausible answers by purpose, at no cost: the time measured is Kit's."""
    rng = random.Random(len(request.messages))
    if request.purpose.startswith("curate:"):
        cited = [int(i) for i in _SHOWN.findall(request.system[0].text)][:1]
        ops = [
            {"op": "INSERT", "content": sentence(rng), "confidence": 0.8, "sources": cited}
            for _ in range(2)
        ]
        return _tool("apply_operations", {"operations": ops})
    if request.purpose == "daily_summary":
        return "\n".join(f"- {sentence(rng)}" for _ in range(35))
    if request.purpose == "rem_condense":
        return "\n".join(f"- {sentence(rng)}" for _ in range(12))
    if request.purpose == "rem_review":
        ids = [int(i) for i in _FACT_ID.findall(prompt_of(request))]
        reviews = [{"id": i, "action": "keep", "reason": ""} for i in ids]
        return _tool("review_facts", {"reviews": reviews})
    return sentence(rng)  # chat


def _tool(name: str, data: dict[str, object]) -> LLMReply:
    return LLMReply((ToolUse("toolu_1", name, data),), "tool_use", Usage(1000, 100))


async def run(quick: bool = False, sentences: int = 1) -> list[Row]:
    plan = QUICK if quick else FULL
    rng = random.Random(4)
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as folder:
        settings = Settings(data_dir=Path(folder), schedule=ScheduleSettings(timezone="UTC"))
        llm = FakeLLM(default=instant_model)
        clock = FakeClock(NOW - timedelta(days=90))
        async with Kit.open(
            settings=settings, llm=llm, embedder=HashingEmbedder(384), clock=clock, background=False
        ) as kit:
            s = kit.services
            user = settings.owner.user_id
            await fill_memory(kit, facts=plan["facts"], archived=0, days=0)  # 90 days old: stale
            clock.set(NOW - timedelta(hours=14))
            for _ in range(plan["turns"]):  # a busy day: owner and Kit, 2 minutes apart
                await kit.send(" ".join(sentence(rng) for _ in range(sentences)))
                clock.advance(timedelta(minutes=2))
                await kit.settle()  # window folds as the day goes
            folds = [r for r in llm.requests if is_background(r.purpose)]
            clock.set(NOW)
            day = (NOW - timedelta(hours=10)).date()

            llm.requests.clear()
            began = time.perf_counter()
            outcomes = await kit.curate()
            curate = time.perf_counter() - began
            curate_calls = len(llm.requests)
            curate_tokens = [estimate_tokens(prompt_of(r)) for r in llm.requests]
            background = folds + llm.requests[:]

            llm.requests.clear()
            began = time.perf_counter()
            await s.summarizer.summarize_day(user, day)
            summary = time.perf_counter() - began
            began = time.perf_counter()
            report = await s.rem.run(user)
            rem = time.perf_counter() - began
            rem_calls = len(llm.requests) - 1
            background += [r for r in llm.requests if is_background(r.purpose)]
            sent = sum(estimate_request(r) - r.max_tokens for r in background)
            worst = sum(estimate_request(r) for r in background)
    assert outcomes and report is not None
    messages = 2 * plan["turns"]
    return [
        Row("curation", "pass over a busy day", curate * 1000, "ms",
            f"{messages} messages, {plan['facts']:,} facts, {curate_calls} model calls"),
        Row("curation", "per model call", curate / max(curate_calls, 1) * 1000, "ms",
            f"prompt ~{max(curate_tokens, default=0):,} tokens max"),
        Row("REM", "daily summary of that day", summary * 1000, "ms", "1 model call"),
        Row("REM", "REM pass", rem * 1000, "ms",
            f"condensed {len(report.condensed_days)} day, reviewed {report.reviewed_facts:,}"
            f" stale facts, {rem_calls} model calls"),
        Row("budget", "background tokens that day", sent, "tokens",
            f"{len(background)} calls; {worst:,} with every call's max_tokens"),
    ]  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (CI)")
    parser.add_argument("--sentences", type=int, default=1, help="per owner message")
    options = parser.parse_args()
    print_rows(asyncio.run(run(options.quick, options.sentences)))
