"""A real-model smoke run: chat -> curate -> daily summary -> REM -> context against any
endpoint (either provider), with a scorecard: what each step's model calls did (passes applied
or rejected, by reason), their tokens and seconds.

    python bench/real_model.py --base-url http://127.0.0.1:11434/v1 --model qwen2.5:3b
    python bench/real_model.py --provider anthropic --base-url http://127.0.0.1:8080 --model m
    python bench/real_model.py --fake openai        # a local fake playing a well-behaved model

`--full` is issue 29's run (bench/real_run.py): 10 chat turns, curation of them and of parts of
a BEAM-100K and a LoCoMo conversation, day summaries, REM and `kit eval qa`, with every pass,
drop and stored fact printed for a person to check. With `--gguf`, the script starts
llama-cpp-python's server on the weights itself (from the Python of `--llama-python`, a
separate environment: it is never a dependency of Kit) and stops it at the end:

    nice -n 10 python bench/real_model.py --full --gguf /work/scratch/gguf/qwen-1.5b.gguf \
        --llama-python /work/scratch/llama-venv/bin/python --json /tmp/run.json

The key comes from the provider's variable (OPENAI_API_KEY / ANTHROPIC_API_KEY; none is needed
for a server on this machine). Nothing is asserted: a model that answers badly shows up as
rejections with their reasons. Runs in a temporary data directory; nothing of yours is touched.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import socket
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO

import httpx
from common import ROOT  # noqa: F401  (puts the repository on sys.path)

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.errors import KitError
from kit.llm.base import Usage
from kit.llm.usage import UsageLog
from kit.model_settings import LLMSettings, RoleSettings, model_role

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
MESSAGES = (
    "My sister Ana lives in Porto; I'm visiting her in May.",
    "I'm allergic to peanuts, so please remember that when suggesting food.",
    "At work I'm moving our billing service from Flask to FastAPI this quarter.",
    "Remind me what my sister's city is?",
)
QUESTION = "Where does my sister live?"
DEFAULT_MODEL = "qwen2.5:3b"


@dataclass
class Step:
    name: str
    seconds: float = 0.0
    calls: int = 0
    usage: Usage = field(default_factory=Usage)
    outcome: str = ""
    reasons: Counter[str] = field(default_factory=Counter)


@dataclass
class Scorecard:
    endpoint: str
    steps: list[Step] = field(default_factory=list)

    def print(self) -> None:
        print(f"Real-model smoke run against {self.endpoint}")
        print(f"{'step':<14} {'seconds':>8} {'calls':>5} {'in':>8} {'out':>7}  outcome")
        for s in self.steps:
            print(
                f"{s.name:<14} {s.seconds:>8.1f} {s.calls:>5} {s.usage.input_tokens:>8,} "
                f"{s.usage.output_tokens:>7,}  {s.outcome}"
            )
            for reason, count in s.reasons.most_common():
                print(f"{'':<14} {'':>8} {'':>5} {'':>8} {'':>7}  {count}x rejected: {reason}")


@asynccontextmanager
async def _timed(card: Scorecard, name: str, usage: UsageLog) -> AsyncIterator[Step]:
    step = Step(name)
    before = await usage.totals_since(START - timedelta(days=1))
    started = time.perf_counter()
    try:
        yield step
    except KitError as exc:  # the endpoint gone: the card says so and the run goes on
        step.outcome = f"FAILED: {exc}"
    step.seconds = time.perf_counter() - started
    after = await usage.totals_since(START - timedelta(days=1))
    step.calls = after.calls - before.calls
    step.usage = Usage(
        after.input_tokens - before.input_tokens,
        after.output_tokens - before.output_tokens,
        after.cache_read_tokens - before.cache_read_tokens,
        after.cache_write_tokens - before.cache_write_tokens,
    )
    card.steps.append(step)


async def drive(settings: Settings) -> Scorecard:
    """The five steps on a fresh Kit in `settings.data_dir`, with the models it names."""
    clock = FakeClock(START)
    role = model_role(settings.llm, "background")
    card = Scorecard(f"{role.where} ({role.provider}, {role.model})")
    async with Kit.open(
        settings=settings, embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        s = kit.services
        async with _timed(card, "chat", s.usage) as step:
            failed = 0
            for text in MESSAGES:
                failed += (await kit.send(text)).failed
                clock.advance(timedelta(minutes=1))
            step.outcome = f"{len(MESSAGES) - failed} of {len(MESSAGES)} replies"
        clock.advance(timedelta(minutes=31))
        async with _timed(card, "curate", s.usage) as step:
            outcomes = await s.curator.curate_user(settings.owner.user_id)
            statuses = Counter(o.status for o in outcomes)
            step.reasons.update(o.reason for o in outcomes if o.status in ("rejected", "failed"))
            facts = len(await kit.facts())
            step.outcome = (
                ", ".join(f"{n} {status}" for status, n in sorted(statuses.items()))
                + f"; {facts} fact(s) stored"
            )
        clock.advance(timedelta(days=1))
        async with _timed(card, "daily summary", s.usage) as step:
            run = await s.summarizer.summarize_many(settings.owner.user_id, [START.date()])
            step.reasons.update(why for _, why in run.rejected)
            step.outcome = f"{len(run.written)} written, {len(run.rejected)} rejected"
            if run.split:
                step.outcome += f" ({next(iter(run.split.values()))})"
        async with _timed(card, "REM", s.usage) as step:
            report = await s.rem.run(settings.owner.user_id)
            step.reasons.update(report.rejected)
            step.outcome = "; ".join(f"{p.step} {p.status}" for p in report.steps)
        async with _timed(card, "context", s.usage) as step:
            sandwich = await kit.context(QUESTION)
            text = "\n".join(b.text for b in sandwich.system)
            step.outcome = (
                f"{sandwich.memory_tokens:,} memory tokens of {sandwich.tokens:,}; "
                f"'Porto' {'in' if 'Porto' in text else 'NOT in'} the context"
            )
    return card


def full_llm(args: argparse.Namespace) -> LLMSettings:
    """[llm] for the full run: one local model in every role, limits from the local preset."""
    return LLMSettings(
        provider="openai",
        base_url=args.base_url,
        preset="local",
        chat_model=args.model,
        small_model=args.model,
        structured_output=args.structured_output,
        context_tokens=args.context,
        max_retries=0,
        judge=RoleSettings(model=args.judge_model or None, temperature=0.0),
        chat=RoleSettings(temperature=0.0),
        background=RoleSettings(temperature=0.0),
    )


@asynccontextmanager
async def llama_server(args: argparse.Namespace) -> AsyncIterator[str]:
    """llama-cpp-python's server on `args.gguf`, on a free port of 127.0.0.1, until done."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [
        "-m", "llama_cpp.server", "--model", str(args.gguf), "--host", "127.0.0.1",
        "--port", str(port), "--n_ctx", str(args.context), "--n_threads", str(args.threads),
        "--model_alias", args.model,
    ]  # fmt: skip
    log = _log_file(args.server_log)
    server = await asyncio.create_subprocess_exec(
        args.llama_python, *command, stdout=log, stderr=asyncio.subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}/v1"
    try:
        await _ready(url, server)
        yield url
    finally:
        if server.returncode is None:
            server.terminate()
            try:
                await asyncio.wait_for(server.wait(), 30)
            except TimeoutError:
                server.kill()
                await server.wait()
        log.close()


def _log_file(path: Path) -> IO[bytes]:
    return path.open("wb")


async def _ready(url: str, server: asyncio.subprocess.Process) -> None:
    """Until the server lists its model (loading 1 GB of weights takes a while)."""
    async with httpx.AsyncClient() as client:
        for _ in range(600):
            if server.returncode is not None:
                raise SystemExit(f"the model server exited ({server.returncode}); see its log")
            try:
                if (await client.get(f"{url}/models", timeout=5)).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(1)
    raise SystemExit("the model server did not come up in 10 minutes")


def settings_for(args: argparse.Namespace, data_dir: Path) -> Settings:
    llm = LLMSettings(
        provider=args.provider,
        base_url=args.base_url,
        preset=args.preset,
        chat_model=args.chat_model or args.model,
        small_model=args.model,
    )
    return Settings(data_dir=data_dir, schedule=ScheduleSettings(timezone="UTC"), llm=llm)


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", default="", help="the endpoint (e.g. Ollama's .../v1)")
    parser.add_argument("--provider", choices=("openai", "anthropic"), default="openai")
    parser.add_argument("--model", default=DEFAULT_MODEL, help="the background model")
    parser.add_argument("--chat-model", default="", help="the chat model (default: --model)")
    parser.add_argument("--preset", choices=("hosted", "local"), default="local")
    parser.add_argument(
        "--fake",
        choices=("openai", "anthropic"),
        help="start a local fake of that provider playing a well-behaved model (no real model)",
    )
    full = parser.add_argument_group("the full run (--full, issue 29)")
    full.add_argument("--full", action="store_true", help="the full run (bench/real_run.py)")
    full.add_argument("--quick", action="store_true", help="a few turns and passes of each step")
    full.add_argument("--gguf", type=Path, help="start llama-cpp-python's server on these weights")
    full.add_argument("--llama-python", default="python", help="the Python llama_cpp is in")
    full.add_argument("--server-log", type=Path, default=Path("llama-server.log"))
    full.add_argument("--threads", type=int, default=2)
    full.add_argument("--context", type=int, default=8192, help="the server's and Kit's window")
    full.add_argument(
        "--structured-output", default="json_object", choices=("tool", "json", "json_object")
    )
    full.add_argument("--judge-model", default="", help="the judge (default: --model)")
    full.add_argument("--qa-questions", type=int, default=30)
    full.add_argument(
        "--qa-embedder", choices=("minilm", "hashing"), default="minilm",
        help="kit eval qa's search: the real MiniLM from ../shared/models (as a running Kit; "
        "the hashing stand-in when it is not there) or the hashing stand-in (runs 1-8)",
    )  # fmt: skip
    full.add_argument("--json", type=Path, metavar="OUT", help="also write the report here")
    args = parser.parse_args(argv)
    if args.full:
        return await _full(args)
    with tempfile.TemporaryDirectory(prefix="kit-real-model-") as folder:
        if args.fake:
            from tests.servers.plausible import plausible
            from tests.servers.providers import Endpoint

            async with Endpoint.start(args.fake) as endpoint:
                plausible(endpoint)
                args.provider, args.base_url = args.fake, endpoint.url
                card = await drive(settings_for(args, Path(folder)))
        elif not args.base_url:
            parser.error("give --base-url URL (or --fake openai|anthropic)")
        else:
            card = await drive(settings_for(args, Path(folder)))
    card.print()
    return 0


async def _full(args: argparse.Namespace) -> int:
    from common import load_minilm
    from real_run import print_report, run_full

    async with AsyncExitStack() as stack:
        if args.fake:  # the plumbing, with a fake playing the model (tests/bench/)
            from tests.servers.plausible import plausible
            from tests.servers.providers import Endpoint

            endpoint = await stack.enter_async_context(Endpoint.start("openai"))
            plausible(endpoint)
            args.base_url = endpoint.url
        elif args.gguf is not None:
            if args.model == DEFAULT_MODEL:  # the report names the weights that answered
                args.model = args.gguf.stem
            args.base_url = await stack.enter_async_context(llama_server(args))
        elif not args.base_url:
            raise SystemExit("give --gguf WEIGHTS or --base-url URL")
        embedder = await load_minilm() if args.qa_embedder == "minilm" else None
        report = await run_full(
            full_llm(args), quick=args.quick, qa_questions=args.qa_questions, qa_embedder=embedder
        )
    print_report(report)
    if args.json is not None:
        args.json.write_text(json.dumps(dataclasses.asdict(report), indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
