"""Tokens per turn: what Kit sends the model (system prompt + memory sandwich + window)
against pasting the whole conversation history into every request.

    python bench/tokens.py [--quick]

Plays a long real conversation (LoCoMo conv-41 from ../shared/data when present: one speaker
is the owner, the other speaks for Kit) through `Kit.send`, with day summaries written at
each day's end and the window summarised past 50 messages, exactly as the daemon does. The
model is scripted (replies are the conversation's own next turns); tokens are estimated at 4
characters each (kit.llm.tokens), the same way for both sides of the comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import tempfile
from collections import deque
from datetime import datetime, timedelta
from pathlib import Path

from common import LOCOMO, NOW, Row, p50_p95, print_rows, sentence

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.eval.locomo import parse
from kit.llm.base import LLMRequest, TextBlock
from kit.llm.fake import FakeLLM
from kit.llm.tokens import estimate_tokens

FULL = {"exchanges": 330}
QUICK = {"exchanges": 30}


def conversation(count: int) -> list[tuple[str, str, datetime]]:
    """(owner says, Kit replies, when) for `count` exchanges."""
    if LOCOMO.exists():
        samples = parse(json.loads(LOCOMO.read_text()), str(LOCOMO))
        turns = max(samples, key=lambda s: len(s.turns)).turns
        pairs = range(0, len(turns) - 1, 2)
        return [(turns[i].text, turns[i + 1].text, turns[i].at) for i in pairs][:count]
    rng = random.Random(2)
    start = NOW - timedelta(days=count // 20 + 1)
    return [
        (sentence(rng), sentence(rng), start + timedelta(days=i // 20, minutes=3 * (i % 20)))
        for i in range(count)
    ]


def request_tokens(request: LLMRequest) -> int:
    text = [b.text for b in request.system]
    for message in request.messages:
        for block in message.content:  # text, and tool calls/results as they are sent
            text.append(block.text if isinstance(block, TextBlock) else str(block))
    return estimate_tokens("\n".join(text))


def _said(request: LLMRequest) -> list[str]:
    """The transcript lines of a daily summary's prompt, as "[HH:MM] text"."""
    block = request.messages[0].content[0]
    text = block.text if isinstance(block, TextBlock) else ""
    lines = [m.group(1) + m.group(2) for m in _LINE.finditer(text)]
    return lines or ["the day"]


_LINE = re.compile(r"^(\[\d\d:\d\d\] )[^:\n]+: (.+)$", re.MULTILINE)


async def run(quick: bool = False) -> list[Row]:
    plan = QUICK if quick else FULL
    script = conversation(plan["exchanges"])
    replies: deque[str] = deque()
    rng = random.Random(3)

    def model(request: LLMRequest) -> str:
        if request.purpose == "chat":
            return replies.popleft()
        if request.purpose == "window_summary":
            return "\n".join(f"- {sentence(rng)}" for _ in range(12))
        if request.purpose == "daily_summary":  # the day's own lines: a summary must say
            said = _said(request)  # only what the day said (kit/curator/summary_check.py)
            return "\n".join(f"- {said[i % len(said)]}" for i in range(35))
        return "ok"

    llm = FakeLLM(default=model)
    kit_tokens: list[int] = []
    memory_tokens: list[int] = []
    sections: dict[str, list[int]] = {}
    history_tokens: list[int] = []
    history = 0
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as folder:
        settings = Settings(data_dir=Path(folder), schedule=ScheduleSettings(timezone="UTC"))
        clock = FakeClock(script[0][2])
        async with Kit.open(
            settings=settings, llm=llm, embedder=HashingEmbedder(384), clock=clock, background=False
        ) as kit:
            user = settings.owner.user_id
            current = script[0][2].date()
            for said, reply, at in script:
                if at.date() != current:  # the day-end job, then a new day
                    await kit.services.summarizer.summarize_day(user, current)
                    current = at.date()
                clock.set(max(at, clock.now() + timedelta(seconds=30)))
                replies.append(reply)
                plan = await kit.context(said, conversation="terminal")  # what the turn sends
                memory_tokens.append(plan.memory_tokens)
                for section in plan.sections:
                    if section.name != "prompt":
                        sections.setdefault(section.name, []).append(section.tokens)
                await kit.send(said, conversation="terminal")
                kit_tokens.append(request_tokens(llm.requests_for("chat")[-1]))
                history += estimate_tokens(said)
                history_tokens.append(history)  # pasting everything said so far
                history += estimate_tokens(reply)
                await kit.settle()  # window summary, embeddings: what the background does
    k50, k95 = p50_p95(kit_tokens)
    h50, h95 = p50_p95(history_tokens)
    days = len({at.date() for _, _, at in script})
    m50, m95 = p50_p95(memory_tokens)
    per_section = [
        Row(
            "tokens/turn",
            f"section {name} p50 / p95",
            p50_p95(v)[0],
            "tokens",
            f"p95 {p50_p95(v)[1]:,.0f}",
        )
        for name, v in sections.items()
    ]
    return [
        Row("tokens/turn", "memory p50", m50, "tokens", "all memory sections; target <= 1,200"),
        Row("tokens/turn", "memory p95", m95, "tokens"),
        *per_section,
        Row("tokens/turn", "Kit p50", k50, "tokens", f"{len(script)} exchanges over {days} days"),
        Row("tokens/turn", "Kit p95", k95, "tokens", "system + memory sandwich + window"),
        Row("tokens/turn", "whole history p50", h50, "tokens", "pasting every earlier message"),
        Row("tokens/turn", "whole history p95", h95, "tokens"),
        Row("tokens/turn", "Kit at the last turn", kit_tokens[-1], "tokens"),
        Row("tokens/turn", "whole history at the last turn", history_tokens[-1], "tokens"),
    ]  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (CI)")
    print_rows(asyncio.run(run(parser.parse_args().quick)))
