"""The full real-model run of bench/real_model.py (`--full`): a small local model through every
step that writes or reads memory, with what a person needs to check it.

Steps: 10 chat turns; curation of them, of part of one BEAM-100K conversation (the User's
turns the owner's, the Assistant's Kit's) and of part of one LoCoMo dev conversation (its
first speaker the owner), each in a Kit home of its own, so each home's owner is one person;
those days' summaries; REM in the chat's and BEAM's homes; `kit eval qa` on the first
questions of a LoCoMo conversation. It prints per pass: status, reason, tokens and seconds;
per home: what it holds, its passes, drops and facts;
the guard's drops; every stored fact next to the messages it cites; QA accuracy by exact
match, token F1 and the judge (named); and every traceback logged. Run it under `nice`: on 2
shared cores a 1.5B model takes hours (docs/measurements.md).
"""

from __future__ import annotations

import json
import logging
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import OwnerSettings, ScheduleSettings, Settings
from kit.curator.reports import PassOutcome
from kit.embed.base import Embedder
from kit.embed.hashing import HashingEmbedder
from kit.eval import locomo
from kit.eval.locomo import parse_session_time
from kit.eval.qa import evaluate_qa
from kit.eval.qa_report import accuracy
from kit.memory.messages import NewMessage
from kit.model_settings import LLMSettings, model_role

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
CHAT = (
    "Hi! I'm Sam. I live in Leeds and work as a nurse at St James's hospital.",
    "My sister Ana moved to Porto last year; she teaches maths there.",
    "If I ever get a dog, I'd call it Biscuit.",
    "Should I take up running or swimming this spring?",
    "I'm allergic to peanuts, so keep that in mind for recipes.",
    "What do you know about my family?",
    "My partner Chris and I are going to Lisbon on 14 June for a week.",
    "I've been learning Spanish on Duolingo for 100 days now.",
    "Remind me: where does my sister live?",
    "Thanks! I prefer tea to coffee, by the way.",
)


@dataclass
class PassRow:
    source: str
    category: str
    status: str
    reason: str
    seconds: float
    input_tokens: int
    output_tokens: int
    dropped: list[str] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)
    pass_id: int | None = None


@dataclass
class Report:
    endpoint: str
    steps: dict[str, float] = field(default_factory=dict)  # step -> wall seconds
    chat: list[dict[str, Any]] = field(default_factory=list)
    passes: list[PassRow] = field(default_factory=list)
    facts: list[dict[str, Any]] = field(default_factory=list)
    summaries: list[str] = field(default_factory=list)
    rem: list[str] = field(default_factory=list)
    qa: dict[str, Any] = field(default_factory=dict)
    homes: dict[str, dict[str, Any]] = field(default_factory=dict)  # home -> what it holds
    tracebacks: list[str] = field(default_factory=list)


class _Tracebacks(logging.Handler):
    """Every log record that carries an exception: what '0 tracebacks' counts."""

    def __init__(self, into: list[str]) -> None:
        super().__init__(logging.WARNING)
        self._into = into

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self._into.append(f"{record.name}: {record.getMessage()[:200]}")


def progress(line: str) -> None:
    """One line on stderr as the run goes: how far a run that is stopped got."""
    print(f"{datetime.now(UTC):%H:%M:%S} {line}", file=sys.stderr, flush=True)


def _settings(data_dir: Path, llm: LLMSettings, owner: str = "") -> Settings:
    return Settings(
        data_dir=data_dir,
        schedule=ScheduleSettings(timezone="UTC"),
        llm=llm,
        owner=OwnerSettings(name=owner),
    )


def _turns(sample_id: str, path: Path, sessions: int, limit: int) -> list[NewMessage]:
    """The first `limit` turns of the first `sessions` sessions of a sample, as messages."""
    sample = next(s for s in json.loads(path.read_text()) if s["sample_id"] == sample_id)
    conversation = sample["conversation"]
    beam = sample_id.startswith("beam")
    found: list[NewMessage] = []
    for n in range(1, sessions + 1):
        key = f"session_{n}"
        at = parse_session_time(conversation[f"{key}_date_time"], key)
        for i, turn in enumerate(conversation[key]):
            role = "assistant" if beam and turn["speaker"] == "Assistant" else "user"
            speaker = "" if beam else turn["speaker"]
            found.append(
                NewMessage(role, turn["text"], at + timedelta(minutes=i), speaker, turn["dia_id"])
            )
    return found[:limit]


async def _curate(kit: Kit, source: str, report: Report) -> None:
    """Curate everything; each pass's wall time is the time since the last one ended."""
    last = time.perf_counter()

    def heard(outcome: PassOutcome) -> None:
        nonlocal last
        now = time.perf_counter()
        report.passes.append(_row(source, outcome, now - last))
        progress(
            f"pass {outcome.category}: {outcome.status} in {now - last:.0f} s {outcome.reason}"
        )
        last = now

    await kit.services.curator.curate_user("owner", on_pass=heard)


def _row(source: str, outcome: PassOutcome, seconds: float) -> PassRow:
    return PassRow(
        source, outcome.category, outcome.status, outcome.reason, seconds, 0, 0,
        list(outcome.dropped), list(outcome.asked), outcome.pass_id,
    )  # fmt: skip


async def _tokens(kit: Kit, rows: Sequence[PassRow]) -> None:
    """Each pass's tokens, from its record."""
    for row in rows:
        if row.pass_id is not None:
            record = await kit.services.curator.passes.get("owner", row.pass_id)
            row.input_tokens = int(record.detail.get("input_tokens", 0))
            row.output_tokens = int(record.detail.get("output_tokens", 0))


async def _facts(kit: Kit, source: str) -> list[dict[str, Any]]:
    """Every active fact, with the text of the messages it cites."""
    rows = []
    for fact in await kit.facts():
        history = await kit.fact_history(fact.id)
        cited = sorted({i for h in history for i in h.source_message_ids})
        messages = await kit.services.messages.get_many("owner", cited)
        rows.append(
            {
                "source": source,
                "category": fact.category,
                "fact": f"[{fact.subject}] {fact.content}" if fact.subject else fact.content,
                "cites": [f"{m.speaker or m.role}: {m.text[:300]}" for m in messages],
            }
        )
    return rows


async def _home_steps(
    kit: Kit, home: str, clock: FakeClock, report: Report, *, rem: bool, owner: str = ""
) -> None:
    """Curation, the days' summaries and (if `rem`) REM in one home, then its facts."""
    began = time.perf_counter()
    first = len(report.passes)
    await _curate(kit, home, report)
    await _tokens(kit, report.passes[first:])
    report.steps[f"curate {home}"] = time.perf_counter() - began
    began = time.perf_counter()
    days = await kit.services.summarizer.summarize_pending(
        "owner", clock.now().date(), include_today=True
    )
    report.summaries.append(f"{home}: {days}")
    progress(f"day summaries ({home}): {days}")
    report.steps[f"day summaries ({home})"] = time.perf_counter() - began
    if rem:
        began = time.perf_counter()
        done = await kit.services.rem.run("owner")
        report.rem += [f"{home}: {p.step} {p.status}" for p in done.steps]
        report.rem += [f"{home}: {why}" for why in done.rejected]
        report.steps[f"REM ({home})"] = time.perf_counter() - began
        progress(f"REM ({home}): {report.rem}")
    report.facts += await _facts(kit, home)
    report.homes[home] = await _held(kit, owner)


async def _held(kit: Kit, owner: str) -> dict[str, Any]:
    """What a home holds: its owner's name and each conversation's owner and other messages."""
    messages = kit.services.messages
    counts: Counter[str] = Counter()
    for day in await messages.days_with_messages("owner"):
        for m in await messages.on_day("owner", day):
            conversation = await messages.get_conversation(m.conversation_id)
            counts[f"{conversation.external_id or conversation.channel} ({m.role})"] += 1
    return {"owner": owner, "messages": dict(sorted(counts.items()))}


async def run_full(
    llm: LLMSettings, *, quick: bool, qa_questions: int, qa_embedder: Embedder | None = None
) -> Report:
    """Each conversation in a home of its own (its owner one person: run 6 put BEAM's Darryl
    into the chat's home, and the curator stored "the owner is Darryl" beside Sam's Leeds).
    `qa_embedder`: what `kit eval qa`'s home searches with (the real MiniLM in `--full`; up to
    run 8 the hashing stand-in, whose word-only search put 24 of the 30 questions' 45 evidence
    turns in the context where MiniLM puts 32: docs/measurements.md, run 8)."""
    report = Report(f"{llm.base_url} ({llm.small_model})")
    handler = _Tracebacks(report.tracebacks)
    logging.getLogger().addHandler(handler)
    try:
        await _run(llm, report, quick=quick, qa_questions=qa_questions, qa_embedder=qa_embedder)
    finally:
        logging.getLogger().removeHandler(handler)
    return report


async def _run(
    llm: LLMSettings, report: Report, *, quick: bool, qa_questions: int,
    qa_embedder: Embedder | None,
) -> None:  # fmt: skip
    beam_file, locomo_file = SHARED / "beam-100k.json", SHARED / "locomo-dev.json"
    chat_turns = CHAT[:3] if quick else CHAT
    beam_limit, locomo_limit = (6, 6) if quick else (24, 36)
    with tempfile.TemporaryDirectory(prefix="kit-real-run-") as folder:
        clock = FakeClock(START)
        began = time.perf_counter()
        async with Kit.open(
            settings=_settings(Path(folder) / "chat", llm), embedder=HashingEmbedder(),
            clock=clock, background=False,
        ) as kit:  # fmt: skip
            for text in chat_turns:
                started = time.perf_counter()
                result = await kit.send(text)
                report.chat.append(
                    {"said": text, "reply": result.reply, "failed": result.failed,
                     "seconds": round(time.perf_counter() - started, 1)}
                )  # fmt: skip
                progress(f"chat turn {len(report.chat)}: {report.chat[-1]['seconds']} s")
                clock.advance(timedelta(minutes=2))
            report.steps["chat"] = time.perf_counter() - began
            clock.advance(timedelta(hours=1))
            await _home_steps(kit, "chat", clock, report, rem=True)
        # (home, sample, file, sessions, turns, REM, owner): BEAM's User is unnamed, as the chat's
        for home, sample, file, sessions, limit, rem, owner in (
            ("BEAM-100K-16", "beam-100K-16", beam_file, 1, beam_limit, True, ""),
            ("LoCoMo conv-26", "conv-26", locomo_file, 2, locomo_limit, False, "Caroline"),
        ):
            turns = _turns(sample, file, sessions, limit)
            clock = FakeClock(max(t.at for t in turns) + timedelta(hours=1))
            async with Kit.open(
                settings=_settings(Path(folder) / sample, llm, owner=owner),
                embedder=HashingEmbedder(), clock=clock, background=False,
            ) as kit:  # fmt: skip
                await kit.import_messages(turns, conversation=sample)
                await _home_steps(kit, home, clock, report, rem=rem, owner=owner)
        began = time.perf_counter()
        samples = [s for s in locomo.load(locomo_file) if s.sample_id == "conv-26"]
        qa_settings = _settings(Path(folder) / "qa", llm)
        embedder = qa_embedder or HashingEmbedder()
        run = await evaluate_qa(
            samples, settings=qa_settings, embedder=embedder,
            limit=3 if quick else qa_questions, short_answers=True,
        )  # fmt: skip
        judge = model_role(llm, "judge")
        report.qa = {
            "judge": f"{judge.model} at {judge.where}",
            "embedder": embedder.model_id,
            "stopped": run.stopped,
            "accuracy": {
                name: {
                    "n": a.questions,
                    "judge": round(a.accuracy, 3),
                    "exact": round(a.exact, 3),
                    "f1": round(a.f1, 3),
                }
                for name, a in accuracy(run.results).items()
            },
            "answers": [
                {
                    "q": r.question,
                    "gold": r.gold,
                    "answer": r.answer[:200],
                    "verdict": r.verdict,
                    "context_tokens": r.context_tokens,
                    "memory_tokens": r.memory_tokens,
                }
                for r in run.results
            ],
        }
        report.steps["kit eval qa"] = time.perf_counter() - began


def _print_homes(report: Report) -> None:
    """Each home on its own: one conversation, one owner; its passes, drops and facts."""
    print("\nPer home (each conversation in a Kit home of its own):")
    for home, held in report.homes.items():
        passes = [p for p in report.passes if p.source == home]
        statuses = Counter(p.status for p in passes)
        timed_out = sum(1 for p in passes if "did not answer within" in p.reason)
        drops = [d for p in passes for d in p.dropped]
        guard = sum(1 for d in drops if "not supported by its cited messages" in d)
        facts = sum(1 for f in report.facts if f["source"] == home)
        print(
            f"  {home} (owner {held['owner'] or 'unnamed'}; messages "
            + ", ".join(f"{n} {what}" for what, n in held["messages"].items())
            + f"): {len(passes)} passes, {statuses['applied'] + statuses['noop']} valid, "
            f"{statuses['rejected']} rejected, {timed_out} timed out; {facts} facts stored; "
            f"{len(drops)} dropped ({guard} by the guard); "
            f"{sum(len(p.asked) for p in passes)} asked"
        )


def print_report(report: Report) -> None:
    print(f"Real-model run (issue 29) against {report.endpoint}")
    print("\nWall time per step:")
    for step, seconds in report.steps.items():
        print(f"  {step:<30} {seconds:>8.0f} s")
    print("\nChat turns:")
    for turn in report.chat:
        reply = re.sub(r"\s+", " ", turn["reply"])[:160]
        print(f"  [{turn['seconds']:>5.0f} s] {turn['said']}\n      -> {reply}")
    statuses = Counter(p.status for p in report.passes)
    valid = statuses["applied"] + statuses["noop"]
    rejected = statuses["rejected"]
    timed_out = sum(1 for p in report.passes if "did not answer within" in p.reason)
    total = len(report.passes) or 1
    print(
        f"\nCuration passes: {len(report.passes)}: {valid} valid, {rejected} rejected with a "
        f"reason, {timed_out} timed out, {statuses['failed'] - timed_out} failed otherwise "
        f"({(valid + rejected) / total:.0%} valid or rejected with a reason)"
    )
    reasons = Counter(p.reason for p in report.passes if p.status in ("rejected", "failed"))
    for reason, n in reasons.most_common():
        print(f"  {n}x {reason[:160]}")
    print(f"\n  {'source':<22} {'category':<12} {'status':<9} {'s':>6} {'in':>7} {'out':>6}")
    for p in report.passes:
        print(
            f"  {p.source:<22} {p.category:<12} {p.status:<9} {p.seconds:>6.0f} "
            f"{p.input_tokens:>7} {p.output_tokens:>6}"
        )
    drops = [d for p in report.passes for d in p.dropped]
    guard = [d for d in drops if "not supported by its cited messages" in d]
    asked = [a for p in report.passes for a in p.asked]
    print(
        f"\nDropped operations: {len(drops)} ({len(guard)} by the grounding guard); "
        f"set aside as questions: {len(asked)}"
    )
    for d in drops:
        print(f"  - {d[:220]}")
    print(f"\nStored facts ({len(report.facts)}), each beside what it cites:")
    for f in report.facts:
        print(f"  * ({f['source']}, {f['category']}) {f['fact']}")
        for line in f["cites"]:
            print("      cites " + re.sub(r"\s+", " ", line)[:220])
    _print_homes(report)
    print("\nDay summaries:", "; ".join(report.summaries))
    print("REM:", "; ".join(report.rem))
    qa = report.qa
    print(f"\nkit eval qa (short answers), judged by {qa.get('judge')}, searched with "
          f"{qa.get('embedder')}:")  # fmt: skip
    for name, a in qa.get("accuracy", {}).items():
        print(f"  {name:<12} n={a['n']:>3} judge {a['judge']:.3f} exact {a['exact']:.3f} "
              f"F1 {a['f1']:.3f}")  # fmt: skip
    if qa.get("stopped"):
        print(f"  STOPPED: {qa['stopped']}")
    print(f"\nTracebacks logged: {len(report.tracebacks)}")
    for t in report.tracebacks[:10]:
        print(f"  {t}")
