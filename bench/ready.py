"""A daemon's two moments at start (issue 33): when its socket accepts, and when search by
meaning serves (the embedding model and every stored vector are in), read from its own log.

    python bench/ready.py [--items 100000] [--runs 3]

A real `kit run` (its chat model a local fake of the Messages API, the real MiniLM model from
../shared/models) on a data directory holding `--items` facts, messages and daily summaries,
each with a stored vector of the configured model (hashing vectors stored under its id: what is
timed is loading them, not what they mean). Each run is a fresh start of the same directory
(the database in the page cache, as a restart finds it). Target: search by meaning serves
<= 5 s after the start at 100k on a quiet host.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import NOW, Row, fill_memory, machine, print_rows

from kit import Kit
from kit.clock import FakeClock
from kit.config import load_settings
from kit.embed.base import Vectors
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from tests.servers.anthropic_api import FakeAnthropicServer
from tests.support.daemon_process import DaemonProcess, write_config
from tests.support.shared_model import MODEL_DIR

ACCEPTS = re.compile(r"accepts, ([0-9.]+) s after the start \(CPU ([0-9.]+) s")
SERVES = re.compile(r"search by meaning serves, ([0-9.]+) s after the start \(CPU ([0-9.]+) s")
VECTORS = re.compile(r"vectors loaded: ([0-9]+) in ([0-9.]+) s")
WARMED = re.compile(r"warmed up in ([0-9.]+) s \(model clients ([0-9.]+) s")


class StoredAs:
    """Hashing vectors stored under the configured model's id (the daemon then finds every
    row embedded, and loads the real model for queries)."""

    def __init__(self, model_id: str) -> None:
        self._hashing = HashingEmbedder(384)
        self.model_id = model_id
        self.dim = 384

    async def embed(self, texts: Sequence[str]) -> Vectors:
        return await self._hashing.embed(texts)


async def build(config: Path, data_dir: Path, items: int) -> int:
    settings = load_settings(config, data_dir)
    async with Kit.open(
        settings=settings, llm=FakeLLM(), clock=FakeClock(NOW), background=False, model_later=True
    ) as kit:
        vectors = kit.services.vectors
        assert vectors.embedder is not None, "no embedding model configured"
        vectors.embedder = StoredAs(vectors.embedder.model_id)
        days = min(1000, items // 20)
        facts = items // 10
        await fill_memory(kit, facts=facts, archived=items - facts - days, days=days)
        await kit.settle()
        return int(await kit.services.db.scalar("SELECT COUNT(*) FROM embeddings"))


def _settled(log: str) -> bool:
    """Search by meaning serves, and the warm-up that follows it is over (either way)."""
    warmed = "warmed up in" in log or "warming up after the start failed" in log
    return "search by meaning serves" in log and warmed


def _moments(log: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for name, pattern in (("accepts", ACCEPTS), ("serves", SERVES)):
        found = pattern.findall(log)
        if found:
            out[name], out[f"{name} CPU"] = float(found[-1][0]), float(found[-1][1])
    vectors = VECTORS.findall(log)
    if vectors:
        out["vectors"] = float(vectors[-1][1])
    warmed = WARMED.findall(log)
    if warmed:
        out["warm-up"], out["model clients"] = float(warmed[-1][0]), float(warmed[-1][1])
    return out


async def measure(items: int, runs: int) -> list[Row]:
    if not (MODEL_DIR / "model.onnx").exists():
        return [Row("ready", "moments", 0, "", "no local MiniLM model: not measured")]
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as folder, FakeAnthropicServer() as api:
        work = Path(folder)
        config = write_config(work / "config.toml", api)
        daemon = DaemonProcess(work, config, start_timeout=600)
        began = time.perf_counter()
        stored = await build(config, daemon.data_dir, items)
        setup = time.perf_counter() - began
        log_file = daemon.data_dir / "logs" / "kit.log"
        got: dict[str, list[float]] = {}
        spawned: list[float] = []
        try:
            for _ in range(runs):
                log_file.unlink(missing_ok=True)
                spawn = time.perf_counter()
                daemon.start()
                spawned.append(time.perf_counter() - spawn)
                # a bench, and the log is the only signal: serving, then the warm-up after it
                while not _settled(log_file.read_text()):  # noqa: ASYNC110
                    await asyncio.sleep(0.1)
                for name, value in _moments(log_file.read_text(encoding="utf-8")).items():
                    got.setdefault(name, []).append(value)
                assert daemon.stop() == 0
        finally:
            daemon.close()
    name = f"ready {items // 1000}k"
    med = statistics.median
    note = f"{runs} runs, medians; {stored:,} vectors"
    rows = [
        Row(name, "socket accepts", med(got["accepts"]), "s", "after the start; " + note),
        Row(name, "search by meaning serves", med(got["serves"]), "s",
            "after the start; target <= 5 s at 100k (quiet host)"),
        Row(name, "process CPU when the socket accepts", med(got["accepts CPU"]), "s",
            "imports included; all threads"),
        Row(name, "process CPU when search by meaning serves", med(got["serves CPU"]), "s",
            "what a quiet host's wall time comes near"),
        Row(name, "READY=1 after the spawn (wall)", med(spawned), "s", "the bench's own clock"),
    ]  # fmt: skip
    for key, what in (
        ("vectors", "vectors' load (from ready, beside the embedding model's)"),
        ("warm-up", "warm-up (model clients, caches), once search by meaning serves"),
        ("model clients", "of which the model clients"),
    ):
        if key in got:
            rows.append(Row(name, what, med(got[key]), "s"))
    rows.append(Row(name, "setup (write + embed, not timed above)", setup, "s"))
    return rows


async def run(quick: bool) -> list[Row]:
    return await measure(2_000 if quick else 100_000, 1 if quick else 3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rows = asyncio.run(measure(args.items, args.runs))
    print(f"Daemon start on {machine()}, load average {os.getloadavg()[0]:.2f}")
    print_rows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
