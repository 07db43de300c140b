"""Load: 20 conversations at once against a real `kit run` daemon, half over the control socket
and half over Telegram (the real PTB Application against the local Bot API server), several
users, a steady rate, a scripted model with fixed latency, and curation running beside it.

The amount of work is fixed, not the time: each conversation sends `--seconds` × `--rate`
messages, at most `--rate` a second (one over the socket waits for each reply), so a loaded
machine takes longer over the same load instead of sending less of it.

Checked: every message stored once and answered exactly once, replies in order in every
conversation. Measured: Kit's reply overhead (reply latency minus the model's own latency)
with nothing else going on, and under the load while curation runs.

    python -m tests.trust.load [--seconds 180] [--rate 0.5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sqlite3
import stat
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kit.daemon.socket_client import SocketClient
from tests.servers.anthropic_api import FakeAnthropicServer, Spec, text_reply, tool_use_reply
from tests.servers.telegram_api import FakeTelegramServer
from tests.support.curation import shown_ids
from tests.support.daemon_process import notify_socket, until_ready
from tests.support.shared_model import MODEL_DIR

MODEL_LATENCY = 0.05  # seconds per model call
# Seconds a run may take before it counts as hung (the tests' timeout; 60x a quiet run): a
# loaded machine is slow, not stuck, and the work is fixed, so only a hang gets near it.
HANG_GUARD = 900.0
SOCKET_CONVERSATIONS = (("owner", 4), ("ana", 3), ("bruno", 3))  # user -> conversations
TELEGRAM_CHATS = ((1001, "owner"), (2002, "ana"), (3003, "carla"), (4004, "dan"), (5005, "eve"))


class LoadModel:
    """Chat answers name the message they answer ("re: <text>"), so a reply can be matched
    to its message; curation learns one fact per `people` pass."""

    def __call__(self, body: dict[str, Any]) -> Spec | str:
        time.sleep(MODEL_LATENCY)
        tools = {t.get("name") for t in body.get("tools") or []}
        if "apply_operations" in tools:
            said = json.dumps(body.get("messages"))
            ops = []
            if "`people`" in said:
                system = " ".join(b.get("text", "") for b in body.get("system") or [])
                ops = [
                    {"op": "INSERT", "content": f"Friend {time.monotonic_ns()}", "confidence": 0.7,
                     "sources": shown_ids(system)[:1]}
                ]  # fmt: skip
            return tool_use_reply("apply_operations", {"operations": ops})
        if "review_facts" in tools:
            return tool_use_reply("review_facts", {"reviews": []})
        last = body["messages"][-1]["content"]
        text = last if isinstance(last, str) else " ".join(b.get("text", "") for b in last)
        if text.startswith("load "):
            return text_reply(f"re: {text}")
        return text_reply("- noted\n- noted again")  # summaries of any kind


@dataclass
class LoadReport:
    seconds: float
    sent: int = 0
    answered: int = 0
    problems: list[str] = field(default_factory=list)
    idle_overhead_ms: tuple[float, float] = (0.0, 0.0)  # p50, p95 with nothing else going on
    load_overhead_ms: tuple[float, float] = (0.0, 0.0)  # p50, p95 under load
    telegram_ms: tuple[float, float] = (0.0, 0.0)  # p50, p95 of in-Kit turn time, Telegram
    curation_runs: int = 0  # `kit curate` processes running beside the load
    curation_passes: int = 0

    def summary(self) -> str:
        return (
            f"{self.sent} messages in {self.seconds:.0f} s over 20 conversations "
            f"({len(SOCKET_CONVERSATIONS) + len(TELEGRAM_CHATS)} users, socket + Telegram), "
            f"{self.answered} answered, {self.curation_passes} curation passes meanwhile; "
            f"reply overhead p50/p95: idle {_ms(self.idle_overhead_ms)}, under load "
            f"{_ms(self.load_overhead_ms)} (socket); Telegram turns in Kit "
            f"{_ms(self.telegram_ms)}; problems: {len(self.problems)}"
        )


def _ms(pair: tuple[float, float]) -> str:
    return f"{pair[0]:.0f}/{pair[1]:.0f} ms"


def _p50_p95(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return (values[0], values[0]) if values else (0.0, 0.0)
    cuts = statistics.quantiles(values, n=20)
    return statistics.median(values), cuts[18]


class Load:
    def __init__(self, folder: Path, model_url: str, tg: FakeTelegramServer) -> None:
        self.folder = folder
        self.tg = tg
        self.data = folder / "data"
        allowed = ", ".join(f'"{tid}" = "{user}"' for tid, user in TELEGRAM_CHATS)
        # Each user's group chat is listed, answered from that user's own namespace.
        groups = ", ".join(f'"{-tid}" = "{user}"' for tid, user in TELEGRAM_CHATS)
        config = folder / "config.toml"
        config.write_text(
            f'[llm]\nbase_url = "{model_url}"\nmax_retries = 0\n'
            f'[embedding]\nmodel_path = "{MODEL_DIR}"\n[curation]\nidle_minutes = 1\n'
            f'[schedule]\ntimezone = "UTC"\n'
            f'[telegram]\nbase_url = "{tg.base_url}"\nallowed_user_ids = {{ {allowed} }}\n'
            f"allowed_group_ids = {{ {groups} }}\n"
        )
        self.env = os.environ | {
            "KIT_CONFIG": str(config),
            "KIT_DATA_DIR": str(self.data),
            "ANTHROPIC_API_KEY": "sk-ant-load-0123456789",
            "TELEGRAM_BOT_TOKEN": tg.token,
        }
        self.order: dict[str, list[str]] = defaultdict(list)  # conversation -> texts sent
        self.socket_latency: list[float] = []
        self.problems: list[str] = []

    async def spawn(
        self, *args: str, env: dict[str, str] | None = None
    ) -> asyncio.subprocess.Process:
        log = (self.folder / "children.log").open("ab")
        try:
            return await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "kit.cli",
                *args,
                env=self.env | (env or {}),
                stdout=asyncio.subprocess.DEVNULL,
                stderr=log,
            )
        finally:
            log.close()

    async def daemon(self) -> asyncio.subprocess.Process:
        """`kit run`, once it says it is ready (systemd's READY=1: an event, not a poll)."""
        path = self.folder / "notify.sock"
        with notify_socket(path) as notify:
            proc = await self.spawn("run", env={"NOTIFY_SOCKET": str(path)})
            await until_ready(proc, notify)
        return proc

    async def socket_conversation(self, user: str, name: str, messages: int, every: float) -> None:
        client = SocketClient(self.data / "kit.sock", user=user)
        for n in range(messages):
            now = time.monotonic()
            text = f"load {user} {name} {n}"
            self.order[f"{user}/{name}"].append(text)
            started = time.monotonic()
            result = await client.send(text, conversation=name)
            self.socket_latency.append(time.monotonic() - started)
            if result.reply != f"re: {text}":
                self.problems.append(f"{user}/{name}: {text!r} answered {result.reply!r}")
            await asyncio.sleep(max(0.0, now + every - time.monotonic()))  # the pace, no more

    async def telegram_chat(self, user_id: int, chat_id: int, messages: int, every: float) -> None:
        for n in range(messages):
            now = time.monotonic()
            text = f"load tg {chat_id} {n}"
            self.order[f"tg/{chat_id}"].append(text)
            self.tg.push_text(user_id, text, chat_id=chat_id)
            await asyncio.sleep(max(0.0, now + every - time.monotonic()))

    async def curating(self, over: asyncio.Event) -> int:
        """Curation beside the load until it is `over`: `kit curate` again and again (the
        daemon's own sweeps run too once conversations go idle)."""
        runs = 0
        while not over.is_set():
            proc = await self.spawn("curate")
            runs += 1
            async with asyncio.TaskGroup() as group:
                exited = group.create_task(proc.wait())
                ending = group.create_task(over.wait())
                await asyncio.wait({exited, ending}, return_when=asyncio.FIRST_COMPLETED)
                if not exited.done():  # the load is over: stop it (each pass is one transaction)
                    proc.send_signal(signal.SIGTERM)
                ending.cancel()
        return runs

    def verify(self) -> tuple[int, list[float]]:
        """Stored once, answered once, in order; returns (answered, Telegram turn times)."""
        conn = sqlite3.connect(self.data / "kit.db", timeout=30)
        try:
            rows = conn.execute(
                "SELECT c.channel, c.user_id, c.external_id, m.role, m.text, m.at"
                " FROM messages m JOIN conversations c ON c.id = m.conversation_id"
                " WHERE c.channel IN ('telegram', 'terminal') ORDER BY m.id"
            ).fetchall()
        finally:
            conn.close()
        stored: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        for channel, user, external, role, text, at in rows:
            key = f"tg/{external}" if channel == "telegram" else f"{user}/{external}"
            stored[key].append((role, text, at))
        answered, turn_times = 0, []
        for key, sent in self.order.items():
            got = stored.get(key, [])
            want = [t for text in sent for t in (("user", text), ("assistant", f"re: {text}"))]
            if [(r, t) for r, t, _ in got] != want:
                self.problems.append(f"{key}: stored {len(got)} rows, not {len(want)} in order")
                continue
            answered += len(sent)
            if key.startswith("tg/"):
                for (_, _, asked), (_, _, replied) in zip(got[::2], got[1::2], strict=True):
                    turn = _seconds(replied) - _seconds(asked)
                    turn_times.append(turn - MODEL_LATENCY)
        replies: dict[int, list[str]] = defaultdict(list)
        for payload in self.tg.sent:
            replies[int(payload["chat_id"])].append(payload["text"])
        for _, chat_id in self._telegram_ids():
            want = [f"re: {t}" for t in self.order[f"tg/{chat_id}"]]
            if replies[chat_id] != want:
                self.problems.append(
                    f"tg/{chat_id}: Telegram got {len(replies[chat_id])} "
                    f"replies, not the {len(want)} expected in order"
                )
        return answered, turn_times

    def check_private(self) -> None:
        """The owner's data is the owner's alone: socket, database and log file 0600 in a
        0700 data directory."""
        expected = {
            self.data: 0o700,
            self.data / "kit.sock": 0o600,
            self.data / "kit.db": 0o600,
            self.data / "logs" / "kit.log": 0o600,
        }
        for path, mode in expected.items():
            found = stat.S_IMODE(path.stat().st_mode)
            if found != mode:
                self.problems.append(f"{path.name} has mode {found:o}, not {mode:o}")

    @staticmethod
    def _telegram_ids() -> list[tuple[int, int]]:
        """(user id, chat id): each user's private chat and a group chat of their own."""
        return [(uid, cid) for uid, _ in TELEGRAM_CHATS for cid in (uid, -uid)]


def _seconds(iso: str) -> float:
    from kit.clock import from_iso

    return from_iso(iso).timestamp()


async def load(folder: Path, messages: int, rate: float) -> LoadReport:
    """`messages` in each of the 20 conversations, at most `rate` a second in each."""
    report = LoadReport(0.0)
    async with FakeAnthropicServer() as model, FakeTelegramServer() as tg:
        model.responder = LoadModel()
        run = Load(folder, model.url, tg)
        daemon = await run.daemon()
        try:
            run.check_private()
            probe = SocketClient(run.data / "kit.sock", user="probe")
            idle = []
            for n in range(20):  # the idle baseline: one conversation, nothing else running
                started = time.monotonic()
                await probe.send(f"load probe {n}", conversation="probe")
                idle.append(time.monotonic() - started - MODEL_LATENCY)
            report.idle_overhead_ms = _p50_p95([1000 * v for v in idle])
            started = time.monotonic()
            every = 1.0 / rate
            over = asyncio.Event()
            async with asyncio.TaskGroup() as group:
                curation = group.create_task(run.curating(over))
                async with asyncio.TaskGroup() as conversations:
                    for user, count in SOCKET_CONVERSATIONS:
                        for c in range(count):
                            conversations.create_task(
                                run.socket_conversation(user, f"c{c}", messages, every)
                            )
                    for user_id, chat_id in run._telegram_ids():
                        conversations.create_task(
                            run.telegram_chat(user_id, chat_id, messages, every)
                        )
                over.set()
            report.curation_runs = curation.result()
            pushed = sum(len(v) for k, v in run.order.items() if k.startswith("tg/"))
            # The last replies drain (bounded only against a hang).
            await tg.async_wait_for_sent(pushed, timeout=HANG_GUARD)
            report.seconds = time.monotonic() - started
        finally:
            daemon.send_signal(signal.SIGTERM)
            await daemon.wait()
        report.sent = sum(len(v) for v in run.order.values())
        report.answered, turn_times = run.verify()
        report.problems = run.problems
        report.load_overhead_ms = _p50_p95([1000 * (v - MODEL_LATENCY) for v in run.socket_latency])
        report.telegram_ms = _p50_p95([1000 * v for v in turn_times])
        conn = sqlite3.connect(run.data / "kit.db")
        try:
            (report.curation_passes,) = conn.execute("SELECT COUNT(*) FROM passes").fetchone()
        finally:
            conn.close()
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=180, help="how long the load lasts at the given rate"
    )
    parser.add_argument("--rate", type=float, default=0.5, help="messages/s per conversation")
    parser.add_argument("--keep", type=Path, help="run in this folder and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        messages = max(1, round(args.seconds * args.rate))
        report = asyncio.run(load(folder, messages, args.rate))
    print(report.summary())
    for problem in report.problems:
        print("  PROBLEM", problem)
    sys.exit(1 if report.problems else 0)


if __name__ == "__main__":
    main()
