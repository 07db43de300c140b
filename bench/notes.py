"""What notes cost: adding a note at the size cap (text checks, the secret screen, sections and
their FTS rows), embedding its sections with the real model, and the tools over many notes.

    python bench/notes.py [--notes 50]

Prints numbers; asserts nothing. Uses the local MiniLM model in ../shared/models if present.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import MODEL_DIR, MODEL_NAME, NOW
from kit.api import Kit
from kit.clock import FakeClock
from kit.embed.base import Embedder
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.notes.intake import accept
from kit.notes.text import MAX_NOTE_BYTES, sections
from kit.retrieval.kinds import KINDS, NOTES

WORDS = (
    "garden beans planted boiler repair dentist appointment sister Leeds marathon training "
    "plan restaurant Friday invoice roof garage bank call tomorrow recipe flour butter oven "
    "passport train tickets hotel museum meeting agenda budget review design deadline"
).split()


def document(rng: random.Random, size: int) -> str:
    """Markdown at about `size` bytes: headings, bullets and paragraphs."""
    parts: list[str] = []
    total = 0
    section = 0
    while total < size:
        if rng.random() < 0.08:
            section += 1
            line = f"## Section {section} {rng.choice(WORDS)}"
        elif rng.random() < 0.5:
            line = "- " + " ".join(rng.choices(WORDS, k=rng.randint(3, 12)))
        else:
            line = " ".join(rng.choices(WORDS, k=rng.randint(20, 80))) + "."
        if rng.random() < 0.2:
            line += "\n"
        parts.append(line)
        total += len(line) + 1
    text = "\n".join(parts)
    return text[: size - 1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms" if seconds < 0.1 else f"{seconds * 1000:,.0f} ms"


async def run(notes: int) -> None:
    rng = random.Random(5)
    big = document(rng, MAX_NOTE_BYTES)
    print(f"a note at the cap: {len(big.encode()):,} bytes, {big.count(chr(10)) + 1:,} lines")
    start = time.perf_counter()
    accepted = await accept(big.encode(), "big.md")
    print(f"  text checks + secret screen: {ms(time.perf_counter() - start)}")
    print(f"  sections for search: {len(sections(accepted.text)):,}")
    model: Embedder | None = None
    if MODEL_DIR.exists():
        from kit.embed.fastembed import FastEmbedder, ModelSpec

        model = await FastEmbedder.load(ModelSpec(MODEL_NAME, str(MODEL_DIR)))
    with tempfile.TemporaryDirectory() as folder:
        async with Kit.open(
            folder,
            llm=FakeLLM(),
            embedder=model or HashingEmbedder(),
            clock=FakeClock(NOW),
            background=False,
        ) as kit:
            start = time.perf_counter()
            await kit.add_note(big, name="big")
            took = ms(time.perf_counter() - start)
            print(f"  kit.add_note end to end (all of the above, stored): {took}")
            start = time.perf_counter()
            await kit.settle()
            label = "MiniLM" if model else "hashing"
            took = ms(time.perf_counter() - start)
            print(f"  its sections embedded in the background ({label}): {took}")
    # The tools over many notes (hashing vectors: the real model would take minutes to index).
    with tempfile.TemporaryDirectory() as folder:
        async with Kit.open(
            folder,
            llm=FakeLLM(),
            embedder=HashingEmbedder(),
            clock=FakeClock(NOW),
            background=False,
        ) as kit:
            await kit.add_note(big, name="big")
            for i in range(notes - 1):
                await kit.add_note(document(rng, MAX_NOTE_BYTES), name=f"note-{i}")
            await kit.settle()
            tools = kit.services.tools
            print(f"{notes} notes at the cap ({notes * MAX_NOTE_BYTES / 2**20:.1f} MB of text)")
            for label, tool, args in (
                ("read_note, 50 lines", "read_note", {"name": "big", "start_line": 900}),
                ("grep_notes over all", "grep_notes", {"pattern": "dentist appointment"}),
                ("list_notes", "list_notes", {}),
                (
                    "search_memory (facts, days, messages, notes)",
                    "search_memory",
                    {"query": "boiler repair"},
                ),
            ):
                laps = []
                for _ in range(5):
                    start = time.perf_counter()
                    await tools.run(tool, args, user_id="owner", now=NOW, message_id=1)
                    laps.append(time.perf_counter() - start)
                print(f"  {label}: {ms(sorted(laps)[2])} (median of 5)")
            for label, kinds in (("without", KINDS), ("with", (*KINDS, NOTES))):
                laps = []
                for _ in range(5):
                    start = time.perf_counter()
                    await kit.search("boiler repair", kinds=kinds)
                    laps.append(time.perf_counter() - start)
                print(f"  kit.search {label} the notes layer: {ms(sorted(laps)[2])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=50)
    asyncio.run(run(parser.parse_args().notes))


if __name__ == "__main__":
    main()
