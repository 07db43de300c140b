"""What a curation pass is shown as memory grows: prompt tokens per pass with 100, 2,000 and
20,000 facts in the category (before: the whole category; after: what fits
`curation.facts_budget_tokens`), and whether the fact a pass needs is among those shown.

    python bench/curation_context.py [--quick] [--budgets 2000 8000] [--sizes 2000]

Facts: LoCoMo's observations (../shared/data: 677 facts about the six people of three long
conversations, each with the turn it came from), deep in a `people` category filled up with the
same observations about other people (names swapped: the hardest distractors, the same stories
about someone else). Embedded with the real MiniLM model (vectors cached in
~/.cache/kit-bench, so only the first run pays for 20,000 of them). Each LoCoMo session is
curated as its own conversation, through the real curator with a scripted model. A batch's
needed facts:
- same session: the observations drawn from the batch's own turns (a pass reading them again
  must see the fact to UPDATE or merge it rather than INSERT a duplicate);
- later session: observations from an earlier session that a LoCoMo question links to a turn
  of this batch (its evidence spans both sessions): an update or correction, later on.
Then a scripted model UPDATEs and REPLACEs deep facts end to end: it acts when the facts are
shown and INSERTs a duplicate when they are not (what a model that cannot see them does).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import hashlib
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import numpy as np
from common import LOCOMO, Row, load_minilm, print_rows
from passes import prompt_of

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import BudgetSettings, CurationSettings, ScheduleSettings, Settings
from kit.embed.base import Embedder, Vectors
from kit.embed.hashing import HashingEmbedder
from kit.eval.locomo import Sample, normalise_evidence, parse
from kit.llm.base import LLMReply, LLMRequest, ToolUse, Usage
from kit.llm.fake import FakeLLM
from kit.llm.tokens import estimate_tokens
from kit.memory.fact_writer import Provenance
from kit.memory.messages import NewMessage


@dataclass(frozen=True)
class Plan:
    sizes: tuple[int, ...]
    samples: int  # LoCoMo conversations
    sessions: int  # of each, curated as batches
    cases: int  # scripted UPDATEs, and as many REPLACEs


FULL = Plan(sizes=(100, 2_000, 20_000), samples=3, sessions=99, cases=20)
QUICK = Plan(sizes=(100, 1_000), samples=1, sessions=4, cases=3)
BEFORE_SESSIONS = 7  # the whole-category prompt is measured on this many batches
UNLIMITED = 10**9  # a budget every category fits: the old behaviour
DEFAULT_BUDGET = CurationSettings().facts_budget_tokens
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kit-bench"
_FACT_LINE = re.compile(r"^#(\d+) \|", re.MULTILINE)
_MESSAGE = re.compile(r"^\[msg (\d+), ", re.MULTILINE)
# Other people's lives: each copy of the observations swaps both speakers for two of these.
NAMES = """Amara Bjorn Chidi Dalia Emeka Farah Goran Hana Idris Jana Kofi Leila Mateo Nadia Omar
Priya Quentin Rosa Sanjay Tariq Uma Viktor Wren Ximena Yusuf Zara Anika Bruno Celia Dmitri Elif
Felipe Greta Hugo Ines Jasper Kaia Lorenzo Mina Nikolai Olga Pavel Rania Soren Talia Ugo Vera
Wiktor Yara Zeno Astrid Basil Cosima Dario Esme Fintan Gaia Hamid Ilse Joaquin""".split()


@dataclass(frozen=True)
class Observation:
    sample: str
    speaker: str
    text: str
    session: int  # of the turn it came from
    ref: str  # that turn, "D3:12"


@dataclass(frozen=True)
class Data:
    samples: list[Sample]
    observations: list[Observation]
    # (sample, session) of a batch -> observations from an earlier session a question links to it
    later: dict[tuple[str, int], set[int]]


def load_data(samples: int) -> Data:
    raw = json.loads(LOCOMO.read_text())[:samples]
    parsed = parse(raw, str(LOCOMO))
    observations: list[Observation] = []
    for item in raw:
        for per_speaker in item["observation"].values():
            for speaker, entries in per_speaker.items():
                for text, evidence in entries:
                    for ref in normalise_evidence(str(evidence))[:1]:
                        session = int(ref[1:].split(":")[0])
                        observations.append(
                            Observation(item["sample_id"], speaker, text, session, ref)
                        )
    by_ref: dict[tuple[str, str], list[int]] = {}
    for n, o in enumerate(observations):
        by_ref.setdefault((o.sample, o.ref), []).append(n)
    later: dict[tuple[str, int], set[int]] = {}
    for sample in parsed:
        for question in sample.questions:
            sessions = {int(ref[1:].split(":")[0]) for ref in question.evidence}
            for ref in question.evidence:
                first = int(ref[1:].split(":")[0])
                for session in (s for s in sessions if s > first):
                    needed = by_ref.get((sample.sample_id, ref), [])
                    later.setdefault((sample.sample_id, session), set()).update(needed)
    return Data(parsed, observations, later)


def memory(data: Data, size: int) -> list[tuple[int | None, str, str]]:
    """`size` facts as (observation index or None for filler, subject, content), shuffled so
    the real ones lie anywhere in the category (ids follow this order)."""
    rng = random.Random(size)
    real: list[tuple[int | None, str, str]] = [
        (n, o.speaker, o.text) for n, o in enumerate(data.observations)
    ]
    if size <= len(real):
        return rng.sample(real, size)
    speakers = {s.sample_id: s.speakers for s in data.samples}
    filler: list[tuple[int | None, str, str]] = []
    copy = 0
    while len(real) + len(filler) < size:
        for sample, (a, b) in speakers.items():
            x, y = NAMES[(2 * copy) % len(NAMES)], NAMES[(2 * copy + 1) % len(NAMES)]
            swap = {a: x, b: y, a.split()[0]: x, b.split()[0]: y}
            pattern = re.compile(r"\b(" + "|".join(map(re.escape, swap)) + r")\b")
            for o in data.observations:
                if o.sample == sample:
                    text = pattern.sub(lambda m, swap=swap: swap[m.group(1)], o.text)
                    filler.append((None, swap[o.speaker], text))
        copy += 1
    facts = real + rng.sample(filler, size - len(real))
    rng.shuffle(facts)
    return facts


class CachedEmbedder:
    """The real model, with every vector it made kept on disk (keyed by model and text)."""

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        self._path = CACHE / f"{hashlib.sha1(inner.model_id.encode()).hexdigest()[:12]}.npz"
        self._known: dict[str, Vectors] = {}
        if self._path.exists():
            stored = np.load(self._path)
            self._known = dict(zip(stored["keys"].tolist(), stored["vectors"], strict=True))
        self._new = 0

    async def embed(self, texts: Sequence[str]) -> Vectors:
        keys = [hashlib.sha1(t.encode()).hexdigest() for t in texts]
        missing = list(dict.fromkeys(k for k in keys if k not in self._known))
        if missing:
            where = {k: t for k, t in zip(keys, texts, strict=True)}
            made = await self._inner.embed([where[k] for k in missing])
            self._known.update(zip(missing, made, strict=True))
            self._new += len(missing)
        return np.stack([self._known[k] for k in keys]).astype(np.float32)

    def save(self) -> None:
        if self._new:
            CACHE.mkdir(parents=True, exist_ok=True)
            keys = list(self._known)
            np.savez(self._path, keys=np.array(keys), vectors=np.stack(list(self._known.values())))
            self._new = 0


def settings_for(folder: Path, budget: int) -> Settings:
    return Settings(
        data_dir=folder,
        schedule=ScheduleSettings(timezone="UTC"),
        curation=dataclasses.replace(CurationSettings(), facts_budget_tokens=budget),
        budget=BudgetSettings(daily_tokens=10**12),  # hundreds of passes in one bench "day"
    )


def open_kit(
    folder: Path,
    budget: int,
    embedder: Embedder | None,
    llm: FakeLLM,
    samples: Sequence[Sample],
) -> AbstractAsyncContextManager[Kit]:
    """Kit on the bench's database, a day after the conversations ended."""
    return Kit.open(
        settings=settings_for(folder, budget),
        llm=llm,
        embedder=embedder,
        with_embedder=embedder is not None,
        clock=FakeClock(max(s.end for s in samples) + timedelta(days=1)),
        background=False,
    )


def session_messages(sample: Sample, session: int) -> list[NewMessage]:
    """A LoCoMo session as messages to import: every speaker is a person, not Kit."""
    turns = [t for t in sample.turns if t.session == session]
    return [NewMessage("user", t.text, t.at, t.speaker, t.ref) for t in turns]


def no_changes(request: LLMRequest) -> LLMReply:
    return _operations([])


def _operations(ops: list[dict[str, object]]) -> LLMReply:
    return LLMReply(
        (ToolUse("t", "apply_operations", {"operations": ops}),), "tool_use", Usage(1000, 10)
    )


@dataclass
class PassLog:
    """The `people` pass of each session: prompt tokens, facts shown, Kit's own time."""

    tokens: list[int] = dataclasses.field(default_factory=list)  # each per session
    shown: list[set[int]] = dataclasses.field(default_factory=list)
    seconds: list[float] = dataclasses.field(default_factory=list)

    def at(self, picked: Sequence[int]) -> PassLog:
        """Only the sessions at these positions."""
        return PassLog(
            [self.tokens[i] for i in picked],
            [self.shown[i] for i in picked],
            [self.seconds[i] for i in picked],
        )


async def curate_sessions(
    folder: Path,
    budget: int,
    embedder: Embedder | None,
    sessions: list[tuple[Sample, int]],
    tag: str,
) -> PassLog:
    """Curate each session as its own conversation; log every `people` pass."""
    log = PassLog()
    llm = FakeLLM(default=no_changes)
    async with open_kit(folder, budget, embedder, llm, [s for s, _ in sessions]) as kit:
        for sample, session in sessions:
            await kit.import_messages(
                session_messages(sample, session),
                conversation=f"{tag}-{sample.sample_id}-{session}",
            )
            llm.requests.clear()
            began = time.perf_counter()
            await kit.curate()
            log.seconds.append((time.perf_counter() - began) / max(len(llm.requests), 1))
            people = [r for r in llm.requests if r.purpose == "curate:people"]
            log.tokens.append(max(estimate_tokens(prompt_of(r)) for r in people))
            log.shown.append({int(i) for r in people for i in _FACT_LINE.findall(r.system[1].text)})
    return log


async def fill(
    folder: Path, data: Data, facts: list[tuple[int | None, str, str]], embedder: Embedder | None
) -> dict[int, int]:
    """Write the facts (embedding them); returns observation index -> fact id."""
    ids: dict[int, int] = {}
    llm = FakeLLM(default=no_changes)
    async with open_kit(folder, DEFAULT_BUDGET, embedder, llm, data.samples) as kit:
        s = kit.services
        async with s.db.transaction() as tx:
            writer = s.facts.writer(tx, s.settings.owner.user_id)
            for index, subject, content in facts:
                fact = await writer.insert(
                    category="people",
                    content=content,
                    subject=subject,
                    confidence=0.8,
                    provenance=Provenance(actor="curator", reason="bench"),
                )
                if index is not None:
                    ids[index] = fact.id
        await kit.settle()
    return ids


def recall(
    data: Data, ids: dict[int, int], log: PassLog, sessions: list[tuple[Sample, int]]
) -> tuple[tuple[int, int], tuple[int, int]]:
    """(found, needed) for the same-session and the later-session needs."""
    same = [0, 0]
    later = [0, 0]
    for (sample, session), shown in zip(sessions, log.shown, strict=True):
        own = [
            n
            for n, o in enumerate(data.observations)
            if o.sample == sample.sample_id and o.session == session
        ]
        for counts, needed in ((same, own), (later, data.later.get((sample.sample_id, session)))):
            for n in needed or ():
                if n in ids:
                    counts[1] += 1
                    counts[0] += ids[n] in shown
    return (same[0], same[1]), (later[0], later[1])


@dataclass
class Scripted:
    """Acts on the case at hand: UPDATE (or REPLACE) its facts when shown, else INSERT."""

    targets: tuple[int, ...] = ()
    content: str = ""
    acted: int = 0
    duplicates: int = 0

    def __call__(self, request: LLMRequest) -> LLMReply:
        if request.purpose != "curate:people" or not self.targets:
            return no_changes(request)
        shown = {int(i) for i in _FACT_LINE.findall(request.system[1].text)}
        cited = [int(i) for i in _MESSAGE.findall(request.system[0].text)][:1]
        if not set(self.targets) <= shown:
            self.duplicates += 1
            op: dict[str, object] = {"op": "INSERT", "content": self.content, "confidence": 0.9}
        elif len(self.targets) == 1:
            self.acted += 1
            op = {"op": "UPDATE", "fact_id": self.targets[0], "content": self.content}
        else:
            self.acted += 1
            op = {"op": "REPLACE", "fact_ids": list(self.targets), "content": self.content,
                  "confidence": 0.9}  # fmt: skip
        return _operations([{**op, "sources": cited}])


async def end_to_end(
    folder: Path, data: Data, ids: dict[int, int], embedder: Embedder | None, cases: int
) -> tuple[int, int, int, int, int]:
    """(cases, acted, duplicates, applied, rejected) over UPDATE and REPLACE cases."""
    rng = random.Random(7)
    samples = {s.sample_id: s for s in data.samples}
    present = sorted(ids)
    updates = [(n,) for n in rng.sample(present, min(cases, len(present)))]
    pairs: dict[tuple[str, str, int], list[int]] = {}
    for n in present:
        o = data.observations[n]
        pairs.setdefault((o.sample, o.speaker, o.session), []).append(n)
    merges = [tuple(v[:2]) for v in pairs.values() if len(v) >= 2]
    merges = rng.sample(merges, min(cases, len(merges)))
    model = Scripted()
    applied = rejected = 0
    llm = FakeLLM(default=model)
    async with open_kit(folder, DEFAULT_BUDGET, embedder, llm, data.samples) as kit:
        for number, case in enumerate([*updates, *merges]):
            first = data.observations[case[0]]
            items = session_messages(samples[first.sample], first.session)
            await kit.import_messages(items, conversation=f"case-{number}")
            model.targets = tuple(ids[n] for n in case)
            model.content = f"{first.text} (confirmed in case {number})"
            for outcome in await kit.curate():
                if outcome.category == "people":
                    applied += outcome.status == "applied"
                    rejected += outcome.status == "rejected"
    return len(updates) + len(merges), model.acted, model.duplicates, applied, rejected


async def measure(
    size: int, data: Data, embedder: Embedder | None, budgets: Sequence[int], cases: int,
    sessions: list[tuple[Sample, int]],
) -> list[Row]:  # fmt: skip
    rows: list[Row] = []
    facts = memory(data, size)
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as folder:
        base = Path(folder)
        ids = await fill(base, data, facts, embedder)
        # The same batches before and after: spread over the conversations.
        picked = list(range(0, len(sessions), -(-len(sessions) // BEFORE_SESSIONS)))
        chosen = [sessions[i] for i in picked]
        before = await curate_sessions(base, UNLIMITED, None, chosen, "full")
        for budget in budgets:
            log = await curate_sessions(base, budget, embedder, sessions, f"b{budget}")
            same, later = recall(data, ids, log, sessions)
            after = log.at(picked)
            shown = statistics.median(len(s) for s in after.shown)
            tag = "" if budget == DEFAULT_BUDGET else f", budget {budget:,}"
            rows.append(
                Row("curation context", f"prompt tokens/pass, {size:,} facts{tag}",
                    statistics.median(after.tokens), "tokens",
                    f"before {statistics.median(before.tokens):,.0f}; max {max(after.tokens):,}"
                    f" (before {max(before.tokens):,}) over the same {len(picked)} batches;"
                    f" median {shown:.0f} facts shown")
            )  # fmt: skip
            for name, (found, needed) in (("same session", same), ("later session", later)):
                if needed:
                    rows.append(
                        Row("curation context",
                            f"needed fact shown, {name}, {size:,} facts{tag}",
                            100 * found / needed, "%", f"{found}/{needed} over {len(sessions)}"
                            " batches")
                    )  # fmt: skip
            if budget == DEFAULT_BUDGET:
                rows.append(
                    Row("curation context", f"Kit's time per pass, {size:,} facts",
                        statistics.median(after.seconds) * 1000, "ms",
                        f"before {statistics.median(before.seconds) * 1000:.0f} ms"
                        " (search for the facts shown included; model instant)")
                )  # fmt: skip
        if size >= 1_000 and cases:
            total, acted, duplicates, applied, rejected = await end_to_end(
                base, data, ids, embedder, cases
            )
            rows.append(
                Row("curation context", f"scripted UPDATE/REPLACE deep in {size:,} facts",
                    acted, f"of {total}",
                    f"{duplicates} duplicates inserted instead; {applied} passes applied, "
                    f"{rejected} rejected")
            )  # fmt: skip
    return rows


async def run(
    quick: bool = False, budgets: Sequence[int] = (), sizes: Sequence[int] = ()
) -> list[Row]:
    plan = QUICK if quick else FULL
    if sizes:
        plan = dataclasses.replace(plan, sizes=tuple(sizes))
    if not LOCOMO.exists():
        print(f"curation_context: skipped, {LOCOMO} is not there", file=sys.stderr)
        return []
    data = load_data(plan.samples)
    real = None if quick else await load_minilm()
    embedder: Embedder = HashingEmbedder(384) if real is None else CachedEmbedder(real)
    sessions = [
        (sample, session)
        for sample in data.samples
        for session in sorted({t.session for t in sample.turns})[: plan.sessions]
    ]
    rows: list[Row] = []
    try:
        for size in plan.sizes:
            rows += await measure(
                size, data, embedder, [DEFAULT_BUDGET, *budgets], plan.cases, sessions
            )
    finally:
        if isinstance(embedder, CachedEmbedder):
            embedder.save()
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, hashing vectors (CI)")
    parser.add_argument("--budgets", nargs="*", type=int, default=[], help="also measure these")
    parser.add_argument("--sizes", nargs="*", type=int, default=[], help="facts in the category")
    options = parser.parse_args()
    print_rows(asyncio.run(run(options.quick, options.budgets, options.sizes)))
