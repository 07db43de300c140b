"""What curation costs besides the model: batching of a large import, prompt sizes (a proxy for
tokens), the apply/undo transaction, and the idle sweep the scheduler runs every few minutes.
The model is scripted (instant), so times are Kit's own.

    python bench/curation.py [--messages 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import CATEGORIES, ScheduleSettings, Settings
from kit.curator.ops import Deactivate, Insert, Update
from kit.embed.hashing import HashingEmbedder
from kit.llm.base import LLMReply, LLMRequest, ToolUse, Usage
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
_SHOWN = re.compile(r"^\[msg (\d+), ", re.MULTILINE)  # messages curation may cite


def answer(request: LLMRequest) -> LLMReply:
    ops = []
    if request.purpose == "curate:people":
        cited = [int(i) for i in _SHOWN.findall(request.system[0].text)][:1]
        ops = [{"op": "INSERT", "content": f"Person {n} is a friend", "confidence": 0.8,
                "sources": cited} for n in range(3)]  # fmt: skip
    return LLMReply((ToolUse("t", "apply_operations", {"operations": ops}),), "tool_use", Usage())


async def main(count: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(data_dir=Path(folder), schedule=ScheduleSettings(timezone="UTC"))
        llm = FakeLLM(default=answer)
        clock = FakeClock(START)
        async with Kit.open(
            settings=settings, llm=llm, embedder=HashingEmbedder(), clock=clock, background=False
        ) as kit:
            text = "We talked about the garden, the trip to Porto and Ana's new job. " * 2
            items = [
                NewMessage("user" if n % 2 == 0 else "assistant", f"{n}: {text}",
                           START - timedelta(days=30) + timedelta(minutes=n))
                for n in range(count)
            ]  # fmt: skip
            await kit.import_messages(items)
            curator = kit.services.curator

            began = time.perf_counter()
            outcomes = await curator.curate_user("owner")
            took = time.perf_counter() - began
            calls = llm.requests_for("curate:")
            sizes = [sum(len(b.text) for b in r.system) for r in calls]
            batches = len(calls) // len(CATEGORIES)
            print(f"import of {count} messages ({count // 2} from the owner):")
            print(f"  {batches} batches x {len(CATEGORIES)} categories = {len(calls)} passes")
            print(f"  prompt chars per pass: median {statistics.median(sizes):,.0f}, "
                  f"max {max(sizes):,} (~{max(sizes) // 4:,} tokens)")  # fmt: skip
            print(f"  estimated input tokens for the import: ~{sum(sizes) // 4:,}")
            print(f"  Kit's own time (model instant): {took:.2f}s "
                  f"({took / len(outcomes) * 1000:.1f} ms per pass)")  # fmt: skip

            # 0.8: below inbox.protect_confidence, so the pass applies; the same ops on facts
            # held at 0.95 are set aside as questions (kit/inbox/), measured next.
            facts = [
                (await kit.remember(f"Fact {n}", category="technical", confidence=0.8)).id
                for n in range(100)
            ]
            ops = [Insert(f"New {n}", 0.8) for n in range(20)]
            ops += [Update(i, confidence=0.5) for i in facts[:20]]
            ops += [Deactivate(i, "stale") for i in facts[20:30]]
            began = time.perf_counter()
            applied = await curator.apply_ops(
                "owner", "technical", ops, kind="curate", source_message_ids=list(range(50))
            )
            apply_ms = (time.perf_counter() - began) * 1000
            assert applied.pass_id is not None
            began = time.perf_counter()
            await curator.undo("owner", applied.pass_id)
            undo_ms = (time.perf_counter() - began) * 1000
            print(f"apply_ops with {len(ops)} operations (one transaction): {apply_ms:.1f} ms")
            print(f"undo of that pass: {undo_ms:.1f} ms")
            sure = [
                (await kit.remember(f"Sure {n}", category="projects", confidence=0.95)).id
                for n in range(100)
            ]
            asked_ops = [Update(i, confidence=0.5) for i in sure[:20]]
            asked_ops += [Deactivate(i, "stale") for i in sure[20:30]]
            began = time.perf_counter()
            asked = await curator.apply_ops(
                "owner", "projects", asked_ops, kind="curate", source_message_ids=[]
            )
            asked_ms = (time.perf_counter() - began) * 1000
            assert len(asked.question_ids) == len(asked_ops)
            print(
                f"apply_ops with {len(asked_ops)} operations all set aside as inbox questions: "
                f"{asked_ms:.1f} ms"
            )

            clock.advance(timedelta(hours=1))
            runs = []
            for _ in range(20):
                began = time.perf_counter()
                await curator.sweep_idle(clock.now())
                runs.append((time.perf_counter() - began) * 1000)
            print(f"idle sweep with nothing to curate: median {statistics.median(runs):.2f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--messages", type=int, default=2000)
    asyncio.run(main(parser.parse_args().messages))
