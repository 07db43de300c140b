"""Embedding throughput by model batch size, how far a batched vector drifts from the same
text embedded alone (the int8 model quantises activations per run, across the whole batch),
and one query's latency and CPU with one ONNX thread (Kit's choice) against the default pool.

    python bench/embedding.py [--texts 300] [--queries 200]

Uses the local model in ../shared/models. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

MODEL_DIR = Path(__file__).resolve().parents[2] / "shared" / "models" / "all-MiniLM-L6-v2-onnx"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"

WORDS = (
    "the garden beans planted boiler repair dentist appointment sister lives in Leeds marathon "
    "training plan recommended restaurant Friday quiet evening invoice roof garage bank call "
    "tomorrow Thandiwe Ethiopian place Mill Road worth it"
).split()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=300)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    query_latency(args.queries)

    from fastembed import TextEmbedding

    model = TextEmbedding(model_name=MODEL_NAME, specific_model_path=str(MODEL_DIR))
    rng = random.Random(7)
    texts = [" ".join(rng.choices(WORDS, k=rng.randint(3, 60))) for _ in range(args.texts)]
    list(model.embed(texts[:8]))  # warm up

    alone = None
    print(f"{len(texts)} texts of 3-60 words")
    for batch in (1, 16, 64):
        start = time.perf_counter()
        vectors = np.asarray(list(model.embed(texts, batch_size=batch)), dtype=np.float32)
        seconds = time.perf_counter() - start
        if alone is None:
            alone = vectors
        cosines = (vectors * alone).sum(axis=1)
        print(
            f"model batch {batch:>3}: {len(texts) / seconds:6.1f} texts/s   "
            f"cosine to the text embedded alone: min {cosines.min():.4f} "
            f"mean {cosines.mean():.4f}"
        )


def query_latency(count: int) -> None:
    """One short query at a time, as a turn embeds its message: wall p50 / p95 and CPU."""
    from fastembed import TextEmbedding

    rng = random.Random(3)
    queries = [" ".join(rng.choices(WORDS, k=rng.randint(4, 14))) for _ in range(count)]
    for threads in (1, None, 1):  # one thread twice: load drifts during a run
        model = TextEmbedding(MODEL_NAME, specific_model_path=str(MODEL_DIR), threads=threads)
        list(model.embed(["warm up"], batch_size=1))
        wall, cpu = [], []
        for query in queries:
            began, used = time.perf_counter(), time.process_time()
            list(model.embed([query], batch_size=1))
            wall.append((time.perf_counter() - began) * 1000)
            cpu.append((time.process_time() - used) * 1000)
        p50, p95 = np.percentile(wall, [50, 95])
        print(
            f"query, {threads or 'default'} thread(s): p50 {p50:.1f} ms, p95 {p95:.1f} ms, "
            f"CPU p50 {np.percentile(cpu, 50):.1f} ms"
        )


if __name__ == "__main__":
    main()
