"""What pgvector's HNSW index keeps of an exact scan, on the realistic archive's real MiniLM
message vectors (the PostgreSQL store's vector search past 20,000 rows of a layer).

    python bench/pg_levers.py [--ef 40 400 1000]

A private PostgreSQL with pgvector (pgserver, as the tests use; or KIT_TEST_POSTGRES_URL), one
table of the 87,600 message vectors, the server's exact scan timed, then an HNSW index with
pgvector's defaults (as Kit builds it) searched for 200 candidates at each `hnsw.ef_search`:
the share of the exact float32 top 15 kept (tie-aware) and the planted answers kept, over the
60 planted paraphrase questions and 60 everyday ones. Needs the archive's cache
(bench/archive.py) and the `dev` extra. The PostgreSQL numbers of docs/measurements.md come from
here.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time

import numpy as np
from ann_levers import everyday, exact_hits, load
from archive import build_cache
from common import ROOT, load_minilm
from planted import PLANTED

CANDIDATES = 200


def _literal(vector: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector) + "]"


async def measure(url: str, efs: list[int]) -> None:
    import asyncpg

    folder = await build_cache()
    meta = json.loads((folder / "meta.json").read_text())
    ids, rows = load(str(folder / "archive.sqlite3"), "message")
    model = await load_minilm()
    assert model is not None
    texts = [q for q, _ in PLANTED] + everyday(60)
    queries = np.asarray(await model.embed(texts), dtype=np.float32)
    where = {int(i): p for p, i in enumerate(ids)}
    planted: list[int | None] = [where.get(i) for i in meta["planted_ids"]]
    planted += [None] * (len(texts) - len(planted))
    con = await asyncpg.connect(url)
    try:
        await con.execute("CREATE EXTENSION IF NOT EXISTS vector")
        await con.execute("CREATE TABLE e (item_id bigint PRIMARY KEY, vector vector(384))")
        await con.executemany(
            "INSERT INTO e VALUES ($1, $2::vector)",
            [(int(i), _literal(v)) for i, v in zip(ids, rows, strict=True)],
        )
        await con.execute("ANALYZE e")
        laps = []
        for query in queries[:20]:
            began = time.perf_counter()
            await con.fetch(
                "SELECT item_id FROM e ORDER BY vector <=> $1::vector LIMIT $2",
                _literal(query),
                CANDIDATES,
            )
            laps.append(time.perf_counter() - began)
        print(f"{len(ids):,} message vectors; exact scan {np.median(laps) * 1000:.0f} ms a query")
        began = time.perf_counter()
        await con.execute("CREATE INDEX ON e USING hnsw (vector vector_cosine_ops)")
        print(f"HNSW index built in {time.perf_counter() - began:.0f} s")
        for ef in efs:
            found = total = kept = ranked = 0
            laps = []
            async with con.transaction():
                await con.execute(f"SET LOCAL hnsw.ef_search = {int(ef)}")
                for query, item in zip(queries, planted, strict=True):
                    began = time.perf_counter()
                    got = {
                        r[0]
                        for r in await con.fetch(
                            "SELECT item_id FROM e ORDER BY vector <=> $1::vector LIMIT $2",
                            _literal(query),
                            CANDIDATES,
                        )
                    }
                    laps.append(time.perf_counter() - began)
                    scores, bar = exact_hits(rows, query)
                    want = set(ids[scores >= bar].tolist())
                    total += 15
                    found += min(15, len(want & got))
                    if item is not None and scores[item] >= bar:
                        ranked += 1
                        kept += int(ids[item]) in got
            print(
                f"ef_search {ef}: top 15 kept {found / total:.3f}, planted {kept}/{ranked},"
                f" {np.median(laps) * 1000:.1f} ms a query"
            )
    finally:
        await con.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ef", type=int, nargs="+", default=[40, 400, 1000])
    args = parser.parse_args()
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.support import postgres

    with postgres.server_folder() as folder:
        server = postgres.start(folder / "data")
        try:
            url = postgres.fresh_database(server, empty=True)
            asyncio.run(measure(url, args.ef))
        finally:
            postgres.stop(server)


if __name__ == "__main__":
    main()
