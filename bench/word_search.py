"""Where the word search's time goes on the realistic archive (bench/archive.py, real MiniLM
vectors), and what another engine would save.

    python bench/word_search.py [--scale 1.0] [--rounds 2] [--bm25s]
    python bench/word_search.py --store postgresql://user@host/db   # the per-layer rows only

Rows:
- CPU per context build (every thread of the process), the same 120 questions as
  bench/sandwich_real.py, twice per round and alternating: once with the word search as it runs,
  once with its answers replayed from memory (what a word search costing nothing would save;
  everything after it, fusion included, is the same work);
- the SQL statements of a build, by kind: their CPU on the reader threads and how many there are
  (the statements' own time in SQLite, read around aiosqlite's call on its thread);
- per layer, the word search's own CPU (SQL, Python and the hop to the reader thread), p50 /
  p95 / mean, and the same with every match ranked (`common_rows` 0), taking turns; and how
  many of the unbounded search's top 15 the bounded one keeps. With `--store URL`, only these
  rows, on that store (the archive copied there by `kit storage copy`): on PostgreSQL the work
  is the server's, so they are wall times;
- with `--bm25s` (the bm25s package, not a dependency of Kit): the messages' words ranked by
  bm25s (BM25 k1 1.2, b 0.75 as FTS5's, English stopwords, PyStemmer's Porter) over the same
  rows, for the same questions: index time and CPU per query, no filters.
Numbers only: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import re
import shutil
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Collection
from datetime import datetime
from pathlib import Path
from typing import Any

import aiosqlite.core
from ann_levers import everyday
from archive import CachedEmbedder, VectorCache, build_cache, cache_folder
from common import NOW, Row, load_minilm, p50_p95, print_rows
from planted import PLANTED

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings, StorageSettings
from kit.llm.fake import FakeLLM
from kit.retrieval.engines import lexical_search
from kit.retrieval.lexical import LexicalSearch, query_words
from kit.retrieval.query import understand
from kit.retrieval.search import RankingParams
from kit.retrieval.vectors import Kind
from kit.store.engines import open_database


class Replayed:
    """The word search, or (when `replay`) its earlier answer to the same question."""

    def __init__(self, real: LexicalSearch) -> None:
        self.real = real
        self.replay = False
        self.kept: dict[tuple[str, str, int], list[tuple[int, float]]] = {}

    async def search(
        self,
        user_id: str,
        kind: Kind,
        text: str,
        limit: int,
        *,
        now: datetime,
        skip: Collection[int] = (),
        context_weight: float = 0.0,
        common_rows: int = 0,
        held_then: bool = False,
    ) -> list[tuple[int, float]]:
        key = (kind, text, limit)
        if self.replay and key in self.kept:
            return self.kept[key]
        found = await self.real.search(
            user_id,
            kind,
            text,
            limit,
            now=now,
            skip=skip,
            context_weight=context_weight,
            common_rows=common_rows,
            held_then=held_then,
        )
        self.kept[key] = found
        return found


class StatementClock:
    """Thread CPU of every statement a reader runs, by kind, while `on`."""

    def __init__(self) -> None:
        self.on = False
        self.cpu: dict[str, float] = {}
        self.count: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._original: Any = None

    def __enter__(self) -> StatementClock:
        original = self._original = aiosqlite.core.Connection._execute_fetchall

        def timed(connection: Any, sql: str, parameters: Any) -> Any:
            began = time.thread_time()
            rows = original(connection, sql, parameters)
            if self.on:
                with self._lock:
                    spent = time.thread_time() - began
                    self.cpu[_kind(sql)] = self.cpu.get(_kind(sql), 0.0) + spent
                    self.count[_kind(sql)] += 1
            return rows

        aiosqlite.core.Connection._execute_fetchall = timed  # type: ignore[method-assign,assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        aiosqlite.core.Connection._execute_fetchall = self._original  # type: ignore[method-assign]


def _kind(sql: str) -> str:
    if " LIMIT :cap" in sql:
        return "word search: telling common words"
    table = re.search(r"FROM (\w+_fts)", sql)
    if table:
        return f"word search: ranking ({table.group(1)})"
    source = re.search(r"FROM (\w+)", sql)
    return f"other reads ({source.group(1) if source else '?'})"


async def measure(scale: float, rounds: int, with_bm25s: bool) -> list[Row]:
    real = await load_minilm()
    if real is None:
        return [Row("words", "archive", 0, "", "no local MiniLM model: not measured")]
    folder = await build_cache(scale)
    embedder = CachedEmbedder(real, VectorCache(cache_folder(real.model_id)))
    texts = [q for q, _ in PLANTED] + everyday(60)
    name = f"words {scale:g}"
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as work:
        settings = Settings(data_dir=Path(work), schedule=ScheduleSettings(timezone="UTC"))
        shutil.copyfile(folder / "archive.sqlite3", settings.database_path)
        async with Kit.open(
            settings=settings,
            llm=FakeLLM(),
            embedder=embedder,
            clock=FakeClock(NOW),
            background=False,
        ) as kit:
            s = kit.services
            user = settings.owner.user_id
            await kit.settle()
            conv = await s.messages.conversation(user, "telegram", "owner")
            words = Replayed(s.search._lexical)
            s.search._lexical = words
            for text in texts:  # warm: caches, pages, and every answer to replay
                await s.context.build(user, text, now=NOW, conversation=conv)
            cpu = {False: 0.0, True: 0.0}
            with StatementClock() as statements:
                for round_ in range(rounds):
                    for i, text in enumerate(texts):
                        for replay in (False, True) if (i + round_) % 2 else (True, False):
                            words.replay = replay
                            statements.on = not replay
                            used = time.process_time()
                            await s.context.build(user, text, now=NOW, conversation=conv)
                            cpu[replay] += time.process_time() - used
                    statements.on = False
            builds = rounds * len(texts)
            real_ms, replay_ms = (cpu[False] / builds * 1000, cpu[True] / builds * 1000)
            rows += [
                Row(name, "CPU per build", real_ms, "ms", "all threads"),
                Row(name, "CPU per build, word search replayed", replay_ms, "ms",
                    f"the word search's share: {(real_ms - replay_ms) / real_ms:.0%}"),
            ]  # fmt: skip
            for kind, spent in sorted(statements.cpu.items(), key=lambda kv: -kv[1]):
                rows.append(Row(name, f"SQL CPU per build: {kind}", spent / builds * 1000, "ms",
                                f"{statements.count[kind] / builds:.1f} statements"))  # fmt: skip
            rows += await _per_layer(name, kit, words.real, texts)
            if with_bm25s:
                rows += await _bm25s(name, kit, texts)
    return rows


async def _per_layer(name: str, kit: Kit, search: LexicalSearch, texts: list[str]) -> list[Row]:
    """Each layer's word search alone, as a build asks it, bounded and unbounded."""
    s = kit.services
    return await per_layer(name, search, s.search.params, s.settings.owner.user_id, texts, cpu=True)


async def per_layer(
    name: str,
    search: LexicalSearch,
    p: RankingParams,
    user: str,
    texts: list[str],
    *,
    cpu: bool,
) -> list[Row]:
    """Per layer: the word search as a build asks it (`common_rows` bounded) and with every
    match ranked, taking turns question by question; its CPU in this process (`cpu`: SQLite
    works in it) or its wall time (PostgreSQL works in the server); and how many of the
    unbounded top 15 the bounded search keeps (by id, tie-aware)."""
    asked = [understand(t, NOW.date(), (), "dmy").words(p.dates_as_words) for t in texts]
    clock = time.process_time if cpu else time.perf_counter
    rows: list[Row] = []
    for kind in ("fact", "day", "message"):
        laps: dict[int, list[float]] = {p.common_rows: [], 0: []}
        kept = wanted = 0
        for i, words in enumerate(asked):
            found: dict[int, list[tuple[int, float]]] = {}
            for common_rows in (p.common_rows, 0) if i % 2 else (0, p.common_rows):
                began = clock()
                found[common_rows] = await search.search(
                    user,
                    kind,
                    words,
                    p.candidates,
                    now=NOW,
                    context_weight=p.context_weight if kind == "message" else 0.0,
                    common_rows=common_rows,
                )
                laps[common_rows].append(clock() - began)
            want = found[0][:15]
            if want:
                every = dict(found[0])
                bar = want[-1][1] - 1e-9
                wanted += len(want)
                kept += sum(
                    1 for i, _ in found[p.common_rows][: len(want)] if every.get(i, -1e9) >= bar
                )
        what = "CPU" if cpu else "wall"
        for common_rows, label in ((p.common_rows, ""), (0, ", every match ranked")):
            p50, p95 = p50_p95(laps[common_rows])
            mean = sum(laps[common_rows]) / len(laps[common_rows])
            rows.append(Row(name, f"word search {what} p50: {kind}s{label}", p50 * 1000, "ms",
                            f"p95 {p95 * 1000:.2f} ms, mean {mean * 1000:.2f} ms"))  # fmt: skip
        rows.append(Row(name, f"unbounded top 15 kept by the bound: {kind}s", kept / max(wanted, 1),
                        "", "by id, tie-aware"))  # fmt: skip
    return rows


async def on_store(url: str, texts: list[str]) -> list[Row]:
    """The per-layer rows on the store at `url` (e.g. the archive copied to PostgreSQL with
    `kit storage copy`), its first user's memory."""
    settings = Settings(storage=StorageSettings(url=url))
    async with open_database(settings) as db:
        user = str(await db.scalar("SELECT user_id FROM messages LIMIT 1"))
        search = lexical_search(db)
        cpu = db.engine == "sqlite"
        return await per_layer(f"words {db.engine}", search, RankingParams(), user, texts, cpu=cpu)


async def _bm25s(name: str, kit: Kit, texts: list[str]) -> list[Row]:
    try:  # not a dependency of Kit: typed as Any
        bm25s: Any = importlib.import_module("bm25s")
        stemming: Any = importlib.import_module("Stemmer")
    except ImportError:
        return [Row(name, "bm25s", 0, "", "bm25s / PyStemmer not installed: not measured")]
    found = await kit.services.db.fetchall("SELECT text FROM messages_indexed ORDER BY id")
    stemmer = stemming.Stemmer("english")
    began = time.process_time()
    tokens = bm25s.tokenize([r[0] for r in found], stopwords="en", stemmer=stemmer,
                            show_progress=False)  # fmt: skip
    index = bm25s.BM25(k1=1.2, b=0.75)
    index.index(tokens, show_progress=False)
    built = time.process_time() - began
    p = kit.services.search.params
    laps: list[float] = []
    for text in texts:
        words = " ".join(
            query_words(understand(text, NOW.date(), (), "dmy").words(p.dates_as_words))
        )
        used = time.process_time()
        asked = bm25s.tokenize(
            [words], stopwords="en", stemmer=stemmer, show_progress=False, return_ids=False
        )
        if asked[0]:
            index.retrieve(asked, k=p.candidates, show_progress=False, n_threads=1)
        laps.append(time.process_time() - used)
    p50, p95 = p50_p95(laps)
    return [
        Row(name, "bm25s: index the messages", built, "s CPU", f"{len(found):,} rows"),
        Row(name, "bm25s: CPU per query p50 / p95", p50 * 1000, "ms",
            f"p95 {p95 * 1000:.2f} ms, mean {sum(laps) / len(laps) * 1000:.2f} ms; no filters"),
    ]  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="archive size (1.0: ~100k)")
    parser.add_argument("--rounds", type=int, default=2, help="passes over the 120 questions")
    parser.add_argument("--bm25s", action="store_true", help="also measure bm25s (if installed)")
    parser.add_argument("--store", help="only the per-layer rows, on the store at this URL")
    args = parser.parse_args()
    if args.store:
        print_rows(asyncio.run(on_store(args.store, [q for q, _ in PLANTED] + everyday(60))))
    else:
        print_rows(asyncio.run(measure(args.scale, args.rounds, args.bm25s)))
