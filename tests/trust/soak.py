"""Crash soak: SIGKILL real Kit processes at random moments, then check nothing was lost.

Each kill point runs one scenario against one data directory and a local Messages API
(FakeAnthropicServer + SoakModel), and kills the process at a random time:

  turns     `kit run`, four socket clients sending messages concurrently (message handling,
            streaming replies, window summaries, the per-turn embedding backfill)
  backfill  `kit run` starting on hundreds of messages imported without embeddings
  rem       `kit run` asked over the socket to run REM over a dozen uncondensed days
  curation  `kit curate` working through imported conversations, one pass per category
  import    `kit import` of 1,500 messages, then embedding them

(`scale` shrinks the seeded work: CI runs a sample of kill points at a fifth of the sizes.)

After every kill, soak_checks.check() must find nothing wrong. At the end Kit is started
cleanly and must finish what the killed processes left: every item embedded, every day
condensed, no job left 'running', nothing left to curate.

    python -m tests.trust.soak --kills 100 [--seed N]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import sys
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from kit.api import Kit
from kit.config import load_settings
from kit.daemon.socket_client import SocketClient
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage
from scheduler.component import CAUGHT_UP
from tests.servers.anthropic_api import FakeAnthropicServer
from tests.support.daemon_process import notify_socket, until_ready
from tests.support.shared_model import MODEL_DIR
from tests.trust.soak_checks import Acked, Ledger, check, pending_work
from tests.trust.soak_model import SoakModel

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
SCENARIOS = ("turns", "backfill", "rem", "curation", "import")
# Seconds a wait below may take before it counts as hung (and the test's timeout): a loaded
# machine is slow, not stuck, so only a hang gets near it (a quiet CI sample takes ~25 s).
HANG_GUARD = 900.0


@dataclass
class SoakReport:
    seed: int
    kills: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    acked_messages: int = 0
    imports: int = 0
    model_calls: dict[str, int] = field(default_factory=dict)
    final: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def summary(self) -> str:
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(self.kills.items()))
        calls = ", ".join(f"{n} {k}" for k, n in sorted(self.model_calls.items()))
        return (
            f"seed {self.seed}: {sum(self.kills.values())} SIGKILLs ({kinds}) in "
            f"{self.seconds:.0f} s; {self.acked_messages} acknowledged messages and "
            f"{self.imports} imports checked after every kill; model calls served: {calls}; "
            f"after the final restart: {self.final}; problems: {len(self.problems)}"
        )


class Soak:
    def __init__(
        self,
        folder: Path,
        server: FakeAnthropicServer,
        model: SoakModel,
        rng: random.Random,
        scale: float = 1.0,
    ) -> None:
        self.folder = folder
        self.model = model
        self.rng = rng
        self.scale = scale  # sizes of seeded work (1.0 for the soak, smaller for CI)
        self.data = folder / "data"
        self.db = self.data / "kit.db"
        self.ledger = Ledger()
        self.round = 0
        config = folder / "config.toml"
        config.write_text(
            f'[llm]\nbase_url = "{server.url}"\nmax_retries = 0\ntimeout_seconds = 10\n'
            f'[embedding]\nmodel_path = "{MODEL_DIR}"\n[curation]\nidle_minutes = 1\n'
            '[schedule]\ntimezone = "UTC"\n'
        )
        self.env = os.environ | {
            "KIT_CONFIG": str(config),
            "KIT_DATA_DIR": str(self.data),
            "ANTHROPIC_API_KEY": "sk-ant-soak-0123456789",
        }
        self.env.pop("TELEGRAM_BOT_TOKEN", None)
        self._log = (folder / "children.log").open("ab")

    def close(self) -> None:
        self._log.close()

    # -- processes ------------------------------------------------------------------------

    async def spawn(
        self, *args: str, env: dict[str, str] | None = None
    ) -> asyncio.subprocess.Process:
        return await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "kit.cli",
            *args,
            env=self.env | (env or {}),
            stdout=asyncio.subprocess.PIPE,
            stderr=self._log,
        )

    async def daemon(
        self, notify: socket.socket | None = None
    ) -> tuple[asyncio.subprocess.Process, SocketClient]:
        """`kit run`, once it says it is ready (systemd's READY=1: an event, not a poll); it
        says what follows on `notify` when given (scheduler.component.CAUGHT_UP)."""
        if notify is not None:
            return await self._daemon(notify)
        with notify_socket(self.folder / "notify.sock") as own:
            return await self._daemon(own)

    async def _daemon(
        self, notify: socket.socket
    ) -> tuple[asyncio.subprocess.Process, SocketClient]:
        proc = await self.spawn(
            "run", "--shutdown-grace", "5", env={"NOTIFY_SOCKET": notify.getsockname()}
        )
        await self._said(proc, notify, "READY=1")
        return proc, SocketClient(self.data / "kit.sock")

    @staticmethod
    async def _said(proc: asyncio.subprocess.Process, notify: socket.socket, state: str) -> None:
        try:
            async with asyncio.timeout(HANG_GUARD):
                await until_ready(proc, notify, state)
        except RuntimeError as exc:
            raise RuntimeError(f"{exc}; see children.log") from None

    @staticmethod
    async def kill(proc: asyncio.subprocess.Process) -> None:
        if proc.returncode is None:
            proc.send_signal(signal.SIGKILL)
        await proc.wait()

    async def after(self, seconds: float, proc: asyncio.subprocess.Process) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await proc.wait()  # it may finish first: then there was nothing to kill
        await self.kill(proc)

    async def after_calls(self, kind: str, most: int, proc: asyncio.subprocess.Process) -> None:
        """Kill once the model has answered 1..`most` more calls of `kind` (plus a few ms, to
        land in what follows the call: streaming, the apply transaction, the next call)."""
        reached = self.model.after_calls(kind, self.rng.randint(1, most))
        try:
            async with asyncio.timeout(HANG_GUARD), asyncio.TaskGroup() as group:
                waiting = group.create_task(asyncio.to_thread(reached.wait))
                exited = group.create_task(proc.wait())
                await asyncio.wait({waiting, exited}, return_when=asyncio.FIRST_COMPLETED)
                reached.set()  # release the waiting thread whichever came first
                exited.cancel()
        finally:
            reached.set()
        await self.after(self.rng.uniform(0.0, 0.05), proc)

    # -- seeding (no Kit process running) -------------------------------------------------

    async def seed(self, conversations: int, per: int, *, days: int = 0) -> None:
        """Old conversations for curation and embedding; optionally detailed day summaries."""
        settings = load_settings(self.env["KIT_CONFIG"], self.data)
        now = datetime.now(UTC)
        async with Kit.open(
            settings=settings, llm=FakeLLM(), with_embedder=False, background=False
        ) as kit:
            for c in range(conversations):
                start = now - timedelta(days=3, hours=self.rng.randint(1, 48))
                items = [
                    NewMessage("user", f"seed {self.round}.{c}.{i}: Ana said hi", start)
                    for i in range(per)
                ]
                await kit.import_messages(items, conversation=f"seed-{self.round}-{c}")
            for d in range(days):
                day = (now - timedelta(days=10 + self.round * days + d)).date()
                await kit.services.days.put_detailed("owner", day, "- did a\n- did b\n- did c", 3)

    # -- scenarios ------------------------------------------------------------------------

    async def turns(self) -> None:
        proc, client = await self.daemon()

        async def sender(k: int) -> None:
            for i in range(1000):
                text = f"soak {self.round} {k} {i}"
                try:
                    result = await client.send(text, conversation=f"soak-{self.round}-{k}")
                except Exception:
                    return  # the daemon died under this request: it was never acknowledged
                self.ledger.messages[text] = Acked(
                    result.user_message_id, result.reply_message_id, text, result.reply
                )

        async with asyncio.TaskGroup() as group:
            for k in range(4):
                group.create_task(sender(k))
            await self.after_calls("chat", 40, proc)

    async def backfill(self) -> None:
        await self.seed(3, self._n(100))
        proc, _ = await self.daemon()  # embeds what it finds unembedded as soon as it starts
        await self.after(self.rng.uniform(0.0, 2.0), proc)

    async def rem(self) -> None:
        await self.seed(0, 0, days=self._n(12))
        proc, client = await self.daemon()

        async def ask() -> None:
            with contextlib.suppress(Exception):
                await client.rem()

        async with asyncio.TaskGroup() as group:
            group.create_task(ask())
            await self.after_calls("rem_condense", self._n(12), proc)

    async def curation(self) -> None:
        await self.seed(4, self._n(40))
        proc = await self.spawn("curate")
        await self.after_calls("curate", 7 * 4, proc)

    async def import_(self) -> None:
        name = f"import-{self.round}"
        path = self.folder / f"{name}.jsonl"
        base = datetime.now(UTC) - timedelta(days=2)
        size = self._n(1500)
        with path.open("w") as handle:
            for i in range(size):
                at = (base + timedelta(seconds=i)).isoformat()
                handle.write(json.dumps({"role": "user", "text": f"{name} {i}", "at": at}) + "\n")
        self.ledger.imports[name] = size
        proc = await self.spawn("import", str(path), "--conversation", name)
        await self.after(self.rng.uniform(0.5, 5.0), proc)
        if proc.returncode == 0:
            self.ledger.acked_imports.add(name)

    def _n(self, full: int) -> int:
        return max(2, round(full * self.scale))

    # -- the run --------------------------------------------------------------------------

    async def kill_point(self, scenario: str) -> list[str]:
        self.round += 1
        runs: dict[str, Callable[[], Coroutine[Any, Any, None]]] = {
            "turns": self.turns,
            "backfill": self.backfill,
            "rem": self.rem,
            "curation": self.curation,
            "import": self.import_,
        }
        await runs[scenario]()
        return [f"after {scenario} kill #{self.round}: {p}" for p in check(self.db, self.ledger)]

    async def finish(self) -> tuple[dict[str, int], list[str]]:
        """Start cleanly: Kit must complete what the killed processes left behind."""
        problems: list[str] = []
        curate = await self.spawn("curate")  # what a killed `kit curate` did not get to
        await curate.communicate()
        again = await self.spawn("curate", "--json")
        out, _ = await again.communicate()
        left = len(json.loads(out or b"{}").get("passes", [None]))
        with notify_socket(self.folder / "notify-final.sock") as notify:
            proc, client = await self.daemon(notify)  # embeds at start what killed ones left
            try:
                async with asyncio.timeout(HANG_GUARD):
                    await client.rem()  # a lease left by a killed REM must not block this run
                    await client.send("soak final")  # a turn wakes the backfill for REM's days
                    # Its start-up pass catches up the day summaries the killed daemons missed,
                    # then REM condenses what they wrote. Stopped before that pass ended (the
                    # embeddings done first), the days it had just summarised were left
                    # uncondensed by the test, not by Kit: wait for the daemon to say so.
                    await self._said(proc, notify, CAUGHT_UP)
                    await self._embedded()
            except Exception as exc:
                problems.append(f"the final daemon could not finish the pending work: {exc!r}")
        proc.send_signal(signal.SIGTERM)
        if await proc.wait() != 0:
            problems.append(f"the final daemon exited with {proc.returncode} on SIGTERM")
        final = {"curation_passes_left": left} | pending_work(self.db, MODEL_ID)
        problems += [f"left undone at the end: {k} = {v}" for k, v in final.items() if v]
        return final, problems + [f"at the end: {p}" for p in check(self.db, self.ledger)]

    async def _embedded(self) -> None:
        """Until the daemon (another process) has embedded everything: only the file shows it."""
        delay = 0.1
        while pending_work(self.db, MODEL_ID)["unembedded"]:
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)


async def soak(
    folder: Path, kills: int, seed: int, *, scale: float = 1.0, all_kinds_first: bool = True
) -> SoakReport:
    rng = random.Random(seed)
    report = SoakReport(seed)
    started = time.perf_counter()
    model = SoakModel()
    async with FakeAnthropicServer() as server:
        server.responder = model
        run = Soak(folder, server, model, rng, scale)
        try:
            plan = list(SCENARIOS) if all_kinds_first else []
            plan += [rng.choice(SCENARIOS) for _ in range(kills - len(plan))]
            for scenario in plan[:kills]:
                report.problems += await run.kill_point(scenario)
                report.kills[scenario] += 1
            report.final, problems = await run.finish()
            report.problems += problems
        finally:
            run.close()
        report.acked_messages = len(run.ledger.messages)
        report.imports = len(run.ledger.imports)
    report.model_calls = dict(model.calls)
    report.seconds = time.perf_counter() - started
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--scale", type=float, default=1.0, help="size of the seeded work")
    parser.add_argument("--keep", type=Path, help="run in this folder and keep it")
    args = parser.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        report = asyncio.run(soak(folder, args.kills, args.seed, scale=args.scale))
    print(report.summary())
    for problem in report.problems:
        print("  PROBLEM", problem)
    sys.exit(1 if report.problems else 0)


if __name__ == "__main__":
    main()
