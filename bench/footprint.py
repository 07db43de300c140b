"""Resident memory idle and after many turns, and start-up time: the engine in-process, and
the real daemon (`kit run` as a subprocess, readiness by systemd's READY=1).

    python bench/footprint.py [--quick]
    python bench/footprint.py --daemons --against ../base   # only `kit run`, beside another
                                                            # checkout's, same run

In-process (a fresh interpreter): `Kit.open` with the real MiniLM model (start-up includes
loading it), then 10k turns with a scripted model; messages are embedded by a 384-d hashing
embedder (the same vector sizes as MiniLM's, so the index holds as much) to keep the run
short, while the real model stays loaded and warmed. Daemon: the real anthropic SDK against
the local Messages API server in tests/servers, the real model for every embedding, turns
over the control socket: empty (RSS before any turn, then after one and after 100 more) and
on the realistic 100k archive (a turn right after READY, RSS once everything is loaded, and
after 100 more turns). KIT_BENCH_LOG=1 echoes the daemons' logs.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import random
import shutil
import signal
import socket
import sys
import tempfile
import time
from asyncio.subprocess import DEVNULL, PIPE, Process
from datetime import timedelta
from pathlib import Path

from common import MODEL_DIR, NOW, ROOT, Row, p50_p95, print_rows, rss_mb, sentence

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.embedding_settings import EmbeddingSettings
from kit.llm.fake import FakeLLM
from tests.support.daemon_process import notify_socket, until_ready

FULL = {"turns": 10_000, "daemon_turns": 100}
QUICK = {"turns": 50, "daemon_turns": 5}
START_TIMEOUT = 120.0


async def in_process(turns: int) -> list[Row]:
    rng = random.Random(8)
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as folder:
        settings = Settings(
            data_dir=Path(folder),
            schedule=ScheduleSettings(timezone="UTC"),
            embedding=EmbeddingSettings(model_path=str(MODEL_DIR)),
        )
        clock = FakeClock(NOW)
        llm = FakeLLM(default=lambda _request: sentence(rng))
        before = rss_mb()
        began = time.perf_counter()
        async with Kit.open(settings=settings, llm=llm, clock=clock, background=False) as kit:
            startup = time.perf_counter() - began
            s = kit.services
            model = s.vectors.embedder
            if model is not None:
                await model.embed([sentence(rng) for _ in range(8)])  # warm: arenas allocated
            idle = rss_mb()
            s.vectors.embedder = HashingEmbedder(384)
            checkpoints = {max(1, turns // 10), turns // 2, turns}
            rss: dict[int, float] = {}
            laps: list[float] = []
            for turn in range(1, turns + 1):
                began = time.perf_counter()
                await kit.send(sentence(rng))
                await kit.settle()
                laps.append(time.perf_counter() - began)
                llm.requests.clear()  # the fake's own record of requests is not Kit's memory
                clock.advance(timedelta(minutes=3))
                if turn in checkpoints:
                    rss[turn] = rss_mb()
            size = settings.database_path.stat().st_size / 2**20
    note = "with MiniLM" if model is not None else "no local MiniLM"
    tenth = max(1, turns // 10)
    first, last = laps[:tenth], laps[-tenth:]
    rows = [
        Row("engine", "start-up (Kit.open)", startup, "s", f"{note}; RSS before {before:.0f} MB"),
        Row("engine", "RSS idle", idle, "MB", "after start-up, model warmed"),
    ]
    rows += [Row("engine", f"RSS after {n:,} turns", mb, "MB") for n, mb in sorted(rss.items())]
    rows += [
        Row("engine", "database on disk", size, "MB", f"after {turns:,} turns"),
        Row("engine", f"turn p50, first {tenth:,}", p50_p95(first)[0] * 1000, "ms",
            "scripted model; storing, sandwich, embedding, window summaries"),
        Row("engine", f"turn p50, last {tenth:,}", p50_p95(last)[0] * 1000, "ms"),
    ]  # fmt: skip
    return rows


def daemon_available() -> bool:
    # `kit run` is kit/commands/run.py (older trees had it in a top-level kitd package)
    return any((ROOT / folder / "run.py").exists() for folder in ("kit/commands", "kitd"))


async def python_pass(runs: int = 3) -> float:
    """Seconds to start and stop a bare interpreter (`python -c pass`), the median of a few:
    the same-run baseline for start-up times."""
    laps = []
    for _ in range(runs):
        began = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
        await proc.wait()
        laps.append(time.perf_counter() - began)
    return sorted(laps)[len(laps) // 2]


# Log lines a daemon writes as its start-up work finishes (the older tree writes only some).
EVENTS = {
    "vectors": "vectors loaded",
    "model": "embedding model",  # "... loaded in 1.2 s" (a daemon that loads it lazily)
    "warmed": "warmed up",  # kit/daemon/warm.py
    "partial": "still loading",  # a turn answered with what is loaded, said once
    "caught up": "job rem:",  # the last run of the scheduler's start-up catch-up
}
SETTLE = 2.0  # seconds of quiet after the background work, before RSS is read


async def daemon(
    turns: int, archive: Path | None = None, name: str = "daemon", tree: Path = ROOT
) -> list[Row]:
    """A real `kit run` from the source `tree` (another checkout gives a same-run baseline):
    empty, or on a copy of the realistic archive's database (`archive`, with its real MiniLM
    vectors). Empty: RSS once the start-up work is done and before any turn (nothing has
    asked for the model), then after one turn. On the archive: a turn right after READY
    (while vectors and the model load), then RSS once they are loaded."""
    from kit.daemon.socket_client import SocketClient
    from tests.servers.anthropic_api import FakeAnthropicServer

    rng = random.Random(6)
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as folder, FakeAnthropicServer() as api:
        api.responder = lambda _request: sentence(rng)
        work = Path(folder)
        model = MODEL_DIR if (MODEL_DIR / "model.onnx").exists() else work / "no-model"
        config = work / "config.toml"
        config.write_text(
            f'[llm]\nbase_url = "{api.url}"\nmax_retries = 0\n'
            f'[embedding]\nmodel_path = "{model}"\n[schedule]\ntimezone = "UTC"\n',
            encoding="utf-8",
        )
        data = work / "data"
        if archive is not None:
            data.mkdir(mode=0o700)
            shutil.copyfile(archive, data / "kit.db")
        notify_path = work / "notify.sock"
        env = {k: v for k, v in os.environ.items() if k != "TELEGRAM_BOT_TOKEN"}
        env |= {"ANTHROPIC_API_KEY": "sk-ant-bench-0123456789", "NOTIFY_SOCKET": str(notify_path)}
        env["PYTHONPATH"] = str(tree)
        command = [sys.executable, "-m", "kit.cli", "--config", str(config), "--data-dir",
                   str(data), "run"]  # fmt: skip
        baseline = await python_pass()
        lazy = (tree / "kit" / "daemon" / "warm.py").exists()
        # The cached archive was written by whatever schema was current then: one start (not
        # timed as a restart) brings the copy to this tree's schema, as an upgrade's first
        # start would, so the timed start below is a restart on an up-to-date store.
        upgrade = None
        if archive is not None:
            upgrade = await _start_and_stop(command, tree, env, notify_path)
        with notify_socket(notify_path) as notify:
            began = time.perf_counter()
            proc = await asyncio.create_subprocess_exec(
                *command, cwd=tree, env=env, stdout=DEVNULL, stderr=PIPE
            )
            assert proc.stderr is not None
            loop = asyncio.get_running_loop()
            seen = {key: loop.create_future() for key in EVENTS}
            watch = asyncio.create_task(_watch(proc.stderr, seen, began))
            first = vectors = idle_before = 0.0
            try:
                startup = await _wait_ready(notify, proc, began)
                ready_rss = rss_mb(proc.pid)
                client = SocketClient(data / "kit.sock")
                if archive is not None:
                    sent = time.perf_counter()
                    await client.send(sentence(rng))
                    first = time.perf_counter() - sent
                waits = ["warmed"] if lazy else []
                if model == MODEL_DIR:  # without a model there are no vectors to load
                    waits.append("vectors")
                waits.append("caught up")  # idle means after the catch-up's model calls
                async with asyncio.timeout(START_TIMEOUT):
                    for key in waits:
                        await seen[key]
                vectors = _at(seen["vectors"]) or 0.0
                await asyncio.sleep(SETTLE)  # start-up work (backfill, scheduler) goes quiet
                if archive is None:
                    idle_before = rss_mb(proc.pid)
                    sent = time.perf_counter()
                    await client.send(sentence(rng))
                    first = time.perf_counter() - sent
                    await asyncio.sleep(SETTLE)  # the reply's backfill (the model loads)
                idle = rss_mb(proc.pid)
                began = time.perf_counter()
                for _ in range(turns):
                    await client.send(sentence(rng))
                took = time.perf_counter() - began
                await asyncio.sleep(SETTLE)
                after = rss_mb(proc.pid)
            finally:
                if proc.returncode is None:
                    proc.send_signal(signal.SIGTERM)
                    try:
                        async with asyncio.timeout(30):
                            await proc.wait()
                    except TimeoutError:
                        proc.kill()
                        await proc.wait()
                await watch
        files = [f for f in data.rglob("*") if f.is_file() and "logs" not in f.parts]
        disk = sum(f.stat().st_size for f in files)
    held = "empty memory" if archive is None else "the realistic archive, real vectors"
    said = "yes" if _at(seen["partial"]) is not None else "no"
    model_at = _at(seen["model"])
    rows = [
        Row(name, "start-up (kit run -> READY=1)", startup, "s", f"{held}; {tree.name}"),
        Row(name, "python -c pass, same run", baseline, "s", "baseline"),
        Row(name, "start-up / python -c pass", startup / baseline, "x"),
        Row(name, "RSS at READY", ready_rss, "MB"),
    ]
    if upgrade is not None:
        rows.append(
            Row(name, "first start on the copied archive", upgrade, "s",
                "not the restart above: it runs any migrations since the archive was cached")
        )  # fmt: skip
    if archive is None:
        rows += [
            Row(name, "RSS idle, no turn yet", idle_before, "MB",
                "start-up work and catch-up done; nothing asked for the model"),
            Row(name, "first turn", first, "s"),
        ]  # fmt: skip
    else:
        rows.append(
            Row(name, "first turn right after READY", first, "s",
                f"while vectors load; log says so: {said}")
        )  # fmt: skip
    rows += [
        Row(name, "vectors loaded (from start)", vectors, "s", "background"),
        Row(name, "embedding model loaded (from start)", model_at or 0.0, "s",
            "background" if model_at else "at start-up, before READY" if not lazy else "never"),
        Row(name, "RSS idle", idle, "MB", "vectors, model, catch-up done; after the first turn"),
        Row(name, f"RSS after {turns:,} more turns", after, "MB", "over the control socket"),
        Row(name, f"RSS growth over {turns:,} turns", after - idle, "MB"),
        Row(name, "turn round trip", took / turns * 1000, "ms",
            "socket + real SDK to a local fake API + real embeddings"),
        Row(name, "data directory on disk", disk / 2**20, "MB", "database (+ WAL) and graphs"),
    ]  # fmt: skip
    return rows


async def _start_and_stop(
    command: list[str], tree: Path, env: dict[str, str], notify_path: Path
) -> float:
    """Start `kit run` once, wait for READY=1, stop it; seconds to READY."""
    with notify_socket(notify_path) as notify:  # removed after: the timed start binds it
        began = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(
            *command, cwd=tree, env=env, stdout=DEVNULL, stderr=DEVNULL
        )
        try:
            return await _wait_ready(notify, proc, began)
        finally:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
                await proc.wait()


def _at(event: asyncio.Future[float]) -> float | None:
    """When an event came (seconds from start), None if it has not (yet)."""
    return event.result() if event.done() and event.exception() is None else None


async def _watch(
    stderr: asyncio.StreamReader, seen: dict[str, asyncio.Future[float]], began: float
) -> None:
    """Read the daemon's log lines as they come (the pipe must be drained anyway) and note
    when the first holding each of EVENTS' texts came: seconds since `began`."""
    async for line in stderr:
        text = line.decode(errors="replace")
        if os.environ.get("KIT_BENCH_LOG"):
            sys.stderr.write(f"  | {text}")
        for key, future in seen.items():
            if EVENTS[key] in text and not future.done():
                future.set_result(time.perf_counter() - began)
    for key, future in seen.items():
        if not future.done():
            future.set_exception(RuntimeError(f"kit run ended without logging {EVENTS[key]!r}"))
            future.exception()  # retrieved: an event that never came is no error by itself


async def _wait_ready(notify: socket.socket, proc: Process, began: float) -> float:
    """Seconds until the daemon says READY=1 (it does once its control socket listens)."""
    async with asyncio.timeout(START_TIMEOUT):
        await until_ready(proc, notify)
    return time.perf_counter() - began


async def engine_in_fresh_process(turns: int) -> list[Row]:
    """`in_process` in a new interpreter, so the RSS is the engine's alone."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--engine", str(turns), stdout=PIPE, cwd=ROOT
    )
    out, _ = await proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"the engine benchmark failed with exit code {proc.returncode}")
    return [Row(**row) for row in json.loads(out)]


async def run(quick: bool = False) -> list[Row]:
    plan = QUICK if quick else FULL
    rows = await engine_in_fresh_process(plan["turns"])
    if not daemon_available():
        return [*rows, Row("daemon", "kit run", 0, "", "not available in this tree")]
    return rows + await daemons(quick, None)


async def daemons(quick: bool, against: Path | None) -> list[Row]:
    """The daemon rows; with `against` (another checkout), each beside the same daemon run
    from that tree (this tree first, then that one, at each size)."""
    plan = QUICK if quick else FULL
    trees = [ROOT] if against is None else [ROOT, against]
    rows: list[Row] = []
    for tree in trees:
        label = "" if against is None else f" ({tree.name})"
        rows += await daemon(plan["daemon_turns"], name=f"daemon{label}", tree=tree)
    if not quick:  # the realistic 100k archive (bench/archive.py; built once, then cached)
        from archive import build_cache

        folder = await build_cache(1.0)
        for tree in trees:
            label = "" if against is None else f" ({tree.name})"
            rows += await daemon(100, folder / "archive.sqlite3", f"daemon 100k{label}", tree=tree)
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (CI)")
    parser.add_argument("--engine", type=int, metavar="TURNS", help=argparse.SUPPRESS)
    parser.add_argument("--daemons", action="store_true", help="only the `kit run` rows")
    parser.add_argument(
        "--against", type=Path, metavar="TREE", help="another checkout: its daemon beside this one"
    )
    args = parser.parse_args()
    if args.daemons or args.against is not None:
        against = args.against.resolve() if args.against is not None else None
        print_rows(asyncio.run(daemons(args.quick, against)))
    elif args.engine is not None:  # the child of engine_in_fresh_process
        rows = asyncio.run(in_process(args.engine))
        print(json.dumps([dataclasses.asdict(r) for r in rows]))
    else:
        print_rows(asyncio.run(run(args.quick)))
