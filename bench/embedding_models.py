"""What an embedding model costs on this machine, model against model, each loaded through
Kit's own configuration (`embedding.model`, or `embedding.model_path` with its declared
dimension, pooling and normalisation): docs/retrieval-quality.md, "Choosing the embedding
model", has the numbers and the recall beside them (`kit eval retrieval`).

    python bench/embedding_models.py CONFIG [CONFIG ...] [--texts 200] [--queries 100]

Each CONFIG is a config file naming one model. For each: the model's load (wall time, the
resident memory it added), embedding real turns of the LoCoMo dev split and of BEAM-100K one at
a time as backfill does (CPU and wall per 1,000 messages: BEAM's assistant turns are long),
embedding their questions one at a time as a turn embeds its message (CPU p50, wall p50 / p95),
the vectors' size on disk per 1,000 messages (float32: 4 bytes a dimension, as SQLite's BLOBs
and pgvector's columns hold them) and the model's files. CPU time is this process's (one ONNX
thread), so a loaded machine changes it less than wall time; both are printed. Prints numbers;
asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/embedding_models.py` from anywhere
    sys.path.insert(0, str(ROOT))

from bench.common import machine, rss_mb  # noqa: E402
from kit.config import load_settings  # noqa: E402
from kit.eval.metrics import percentile  # noqa: E402
from kit.retrieval.embedding_model import load_embedder  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
CORPORA = {"LoCoMo dev": DATA / "locomo-dev.json", "BEAM-100K": DATA / "beam-100k.json"}


def corpus_texts(path: Path, texts: int, queries: int) -> tuple[list[str], list[str]]:
    """A seeded sample of a LoCoMo-format file's turns (as Kit embeds a message: "speaker:
    text") and of its questions."""
    samples = json.loads(path.read_text(encoding="utf-8"))
    turns, questions = [], []
    for sample in samples:
        for key, session in sample["conversation"].items():
            if key.startswith("session_") and isinstance(session, list):
                turns += [f"{t['speaker']}: {t['text']}" for t in session if t.get("text")]
        questions += [q["question"] for q in sample["qa"] if q.get("question")]
    rng = random.Random(20261129)
    return rng.sample(turns, min(texts, len(turns))), rng.sample(
        questions, min(queries, len(questions))
    )


def folder_mb(folder: Path) -> float:
    files = [p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()]
    return sum(p.stat().st_size for p in files) / 1e6  # a link to a file is not counted twice


async def measure(config: Path, texts: int, queries: int) -> None:
    settings = load_settings(config, Path("/nonexistent-kit-data"), check_data_dir=False)
    before, began = rss_mb(), time.perf_counter()
    embedder, problem = await load_embedder(settings)
    if embedder is None:
        print(f"{config}: cannot load: {problem}")
        return
    print(
        f"{embedder.model_id} ({config.name}): dimension {embedder.dim}, loaded in "
        f"{time.perf_counter() - began:.1f} s, +{rss_mb() - before:.0f} MB resident"
    )
    folder = settings.embedding.model_path
    if folder:
        print(f"  model files: {folder_mb(Path(folder)):.0f} MB in {folder}")
    per_k = embedder.dim * 4 * 1000 / 1e6
    print(f"  vectors on disk: {per_k:.2f} MB per 1,000 messages (float32)")
    await embedder.embed(["warm up"])
    for name, path in CORPORA.items():
        if not path.exists():
            print(f"  {name}: {path} not found, skipped")
            continue
        turns, asked = corpus_texts(path, texts, queries)
        wall, cpu = 0.0, 0.0
        for text in turns:
            began, used = time.perf_counter(), time.process_time()
            await embedder.embed([text])
            wall += time.perf_counter() - began
            cpu += time.process_time() - used
        per_k = 1000 / len(turns)
        walls, cpus = [], []
        for question in asked:
            began, used = time.perf_counter(), time.process_time()
            await embedder.embed([question])
            walls.append((time.perf_counter() - began) * 1000)
            cpus.append((time.process_time() - used) * 1000)
        print(
            f"  {name}: indexing {cpu * per_k:.0f} s CPU ({wall * per_k:.0f} s wall) per 1,000 "
            f"messages ({len(turns)} turns sampled, {sum(map(len, turns)) / len(turns):.0f} "
            f"chars on average); a query {percentile(cpus, 0.5):.1f} ms CPU p50, "
            f"{percentile(walls, 0.5):.1f} / {percentile(walls, 0.95):.1f} ms wall p50 / p95"
        )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("configs", nargs="+", type=Path, help="config.toml files, one per model")
    parser.add_argument("--texts", type=int, default=200, help="turns embedded per corpus")
    parser.add_argument("--queries", type=int, default=100, help="questions embedded per corpus")
    args = parser.parse_args()
    print(f"{machine()}; {time.strftime('%Y-%m-%d %H:%M')}")
    for config in args.configs:
        await measure(config, args.texts, args.queries)


if __name__ == "__main__":
    asyncio.run(main())
