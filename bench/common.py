"""Shared by the benchmarks: result rows, timing, memory readings, synthetic memory, models.

Benchmarks print numbers and assert nothing; `bench/run.py` runs them all and prints a table.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/<name>.py` from anywhere
    sys.path.insert(0, str(ROOT))

from kit.embed.base import Embedder, Vectors  # noqa: E402
from kit.embed.hashing import HashingEmbedder  # noqa: E402
from kit.eval.metrics import percentile  # noqa: E402
from kit.memory.fact_writer import Provenance  # noqa: E402
from kit.memory.messages import NewMessage  # noqa: E402

MODEL_DIR = ROOT.parent / "shared" / "models" / "all-MiniLM-L6-v2-onnx"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
LOCOMO = ROOT.parent / "shared" / "data" / "locomo-dev.json"
NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Row:
    bench: str
    metric: str
    value: float
    unit: str
    note: str = ""

    def __post_init__(self) -> None:
        # numpy scalars (a count summed from numpy booleans is an int64) would break --json
        object.__setattr__(self, "value", float(self.value))


def p50_p95(values: Sequence[float]) -> tuple[float, float]:
    return percentile(values, 0.5), percentile(values, 0.95)


class Stopwatch:
    """`with watch: ...` adds the block's wall time to `watch.total` and `watch.laps`."""

    def __init__(self) -> None:
        self.laps: list[float] = []

    @property
    def total(self) -> float:
        return sum(self.laps)

    def __enter__(self) -> Stopwatch:
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.laps.append(time.perf_counter() - self._start)


def rss_mb(pid: int | None = None) -> float:
    """Resident memory of a process (this one by default), in MB, from /proc."""
    status = Path(f"/proc/{pid or os.getpid()}/status").read_text()
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc status")


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}"


async def load_minilm() -> Embedder | None:
    """The real model from ../shared/models, or None when it is not there."""
    if not (MODEL_DIR / "model.onnx").exists():
        return None
    from kit.embed.fastembed import FastEmbedder, ModelSpec

    return await FastEmbedder.load(ModelSpec(MODEL_NAME, str(MODEL_DIR)))


class RealQueryCost:
    """Stored items carry hashing vectors (so 100k of them index in seconds and still share
    words with a query the way real ones do); each query is *also* embedded by the real model,
    and that time is spent and recorded, so latencies include the real query-embedding cost."""

    def __init__(self, stored: HashingEmbedder, real: Embedder | None) -> None:
        self._stored = stored
        self._real = real
        self.model_id = stored.model_id
        self.dim = stored.dim
        self.query_time = Stopwatch()

    async def embed(self, texts: Sequence[str]) -> Vectors:
        if self._real is not None:
            with self.query_time:
                await self._real.embed(texts)
        return await self._stored.embed(texts)


# -- synthetic memory --------------------------------------------------------------------------


def _words(count: int, seed: int, syllables: tuple[int, int]) -> list[str]:
    """Pronounceable made-up words: a vocabulary as large as real text's, deterministic."""
    rng = random.Random(seed)
    parts = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
    words: list[str] = []
    while len(words) < count:
        word = "".join(rng.choice(parts) for _ in range(rng.randint(*syllables)))
        if word not in words:
            words.append(word)
    return words


# Real text is Zipfian: a few words are everywhere, most are rare. Matching (FTS5) and
# vector candidates behave accordingly; a tiny vocabulary would make every word match
# everything and overstate the cost of lexical search.
NAMES = [w.capitalize() for w in _words(150, 1, (2, 3))]
PLACES = [w.capitalize() for w in _words(300, 2, (2, 4))]
TOPICS = _words(3000, 3, (2, 4))
VERBS = "likes booked fixed planned cancelled visited recommended bought started finished".split()
_ZIPF = {n: [1 / rank for rank in range(1, n + 1)] for n in (150, 300, 3000)}


def pick(words: list[str], rng: random.Random) -> str:
    return rng.choices(words, _ZIPF[len(words)])[0]


CATEGORY_SHARES = (  # the owner's own facts (always in context) are a small share
    ("person", 2), ("people", 25), ("preferences", 15), ("projects", 20),
    ("technical", 13), ("entities", 15), ("workflows", 10),
)  # fmt: skip


def sentence(rng: random.Random) -> str:
    return (
        f"{pick(NAMES, rng)} {rng.choice(VERBS)} the {pick(TOPICS, rng)} "
        f"in {pick(PLACES, rng)} with {pick(NAMES, rng)} "
        f"because of the {pick(TOPICS, rng)} and the {pick(TOPICS, rng)}"
    )


def queries(count: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    forms = (
        "What did {n} say about the {t}?",
        "When is the {t} in {p}?",
        "Remind me what we decided on the {t} and the {u}",
        "Who recommended the {t}?",
        "How is the {t} going",
    )
    return [
        rng.choice(forms).format(
            n=pick(NAMES, rng), t=pick(TOPICS, rng), u=pick(TOPICS, rng), p=pick(PLACES, rng)
        )
        for _ in range(count)
    ]


def categories(count: int, rng: random.Random) -> list[str]:
    names = [c for c, _ in CATEGORY_SHARES]
    weights = [w for _, w in CATEGORY_SHARES]
    return rng.choices(names, weights, k=count)


def day_summary(day: date, rng: random.Random, bullets: int) -> str:
    return "\n".join(f"- {sentence(rng)}" for _ in range(bullets)) + f"\n- ({day.isoformat()})"


def messages(count: int, end: datetime, rng: random.Random) -> list[NewMessage]:
    """`count` alternating owner/Kit messages, evenly spread over the three years to `end`."""
    step = timedelta(days=3 * 365) / max(count, 1)
    start = end - timedelta(days=3 * 365)
    return [
        NewMessage("user" if i % 2 == 0 else "assistant", sentence(rng), start + step * i)
        for i in range(count)
    ]


async def fill_memory(kit: object, facts: int, archived: int, days: int, seed: int = 5) -> None:
    """Facts (each with its history row), archived messages and daily summaries (detailed and
    condensed, one per day going back from NOW), each kind in one transaction."""
    from kit.api import Kit

    assert isinstance(kit, Kit)
    s = kit.services
    rng = random.Random(seed)
    user = s.settings.owner.user_id
    async with s.db.transaction() as tx:
        writer = s.facts.writer(tx, user)
        provenance = Provenance(actor="curator", reason="bench")
        for category in categories(facts, rng):
            await writer.insert(
                category=category,
                content=sentence(rng),
                subject=rng.choice(NAMES),
                confidence=rng.choice((0.6, 0.8, 0.9)),
                provenance=provenance,
            )
    if archived:
        conv = await s.messages.conversation(user, "import", "bench")
        async with s.db.transaction() as tx:
            await s.messages.insert_bulk(tx, conv, messages(archived, NOW, rng), "import")
    async with s.db.transaction() as tx:
        for back in range(days, 0, -1):
            day = NOW.date() - timedelta(days=back)
            await s.days.put_detailed(user, day, day_summary(day, rng, 30), 40, tx)
            await s.days.put_condensed(user, day, day_summary(day, rng, 12), tx)


def print_rows(rows: Sequence[Row]) -> None:
    """A plain-text table: benchmark, metric, value, unit, note."""
    width = max((len(r.bench) for r in rows), default=5)
    mwidth = max((len(r.metric) for r in rows), default=6)
    for row in rows:
        if abs(row.value) >= 100:
            value = f"{row.value:,.0f}"
        else:  # a share (0.883 against 0.98) needs its third decimal
            value = f"{row.value:,.3f}" if abs(row.value) < 1 else f"{row.value:,.2f}"
        note = f"  {row.note}" if row.note else ""
        print(f"{row.bench:<{width}}  {row.metric:<{mwidth}}  {value:>10} {row.unit}{note}")
