"""The grounding guard (kit/curator/grounding.py) against planted curation operations: how many
the cited messages do not support are kept out, how many they do are stored.

    python bench/grounding.py                        # the tuning split (the guard was built on;
                                                     # a set without one: all its cases)
    python bench/grounding.py --split held           # the third set aside, scored at the end
    python bench/grounding.py --split all --table    # everything, each miss with its messages
    python bench/grounding.py --data my-cases.json   # your own cases, same format
    python bench/grounding.py --data bench/data/grounding-fresh8.json
                                     # an unseen set (also -fresh6, -fresh7): never tuned on;
                                     # -fresh to -fresh5 became development sets
    python bench/grounding.py --meaning     # with the meaning check (kit/curator/meaning.py):
                                     # Kit's MiniLM from embedding.model_path (MODEL below)

The cases (bench/data/grounding-planted.json) cite turns of the LoCoMo dev and BEAM-100K
conversations in /work/shared/data by conversation and dia_id; each conversation is imported
into a fresh Kit (LoCoMo: every speaker's turns as people's messages, its first speaker the
owner; BEAM: the User's turns the owner's, the Assistant's Kit's own), and each operation is
applied as a curation pass applies a model's answer (`Curator.apply_ops(ground=True)`), as a
dry run: nothing of one case is left for the next. An operation is "stored" when it would be
written, "kept out" when it is dropped or set aside as a question for the owner.

Targets (issue 29): at least 95% of the unsupported kept out, 95% of the supported stored.
Numbers only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from common import ROOT

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import OwnerSettings, ScheduleSettings, Settings
from kit.curator import related
from kit.curator.grounding import Grounding
from kit.curator.meaning import Meanings
from kit.curator.ops import Insert, Operation, Update
from kit.embed.base import Embedder
from kit.embed.hashing import HashingEmbedder
from kit.embedding_settings import EmbeddingSettings
from kit.eval.locomo import parse_session_time
from kit.memory.fact_writer import Provenance
from kit.memory.messages import NewMessage
from kit.retrieval.embedding_model import load_embedder

DATA = ROOT / "bench" / "data" / "grounding-planted.json"
SHARED = ROOT.parent / "shared" / "data"
MODEL = ROOT.parent / "shared" / "models" / "all-MiniLM-L6-v2-onnx"
SOURCES = {"locomo": SHARED / "locomo-dev.json", "beam": SHARED / "beam-100k.json"}
USER = "owner"


@dataclass(frozen=True)
class Result:
    case: dict[str, Any]
    outcome: str  # stored | dropped | asked
    reason: str
    cited: tuple[str, ...]  # the cited turns, "speaker: text"

    @property
    def right(self) -> bool:
        return (self.outcome == "stored") == (self.case["expect"] == "stored")


def _turns(sample: dict[str, Any]) -> Iterable[tuple[str, dict[str, Any], Any]]:
    conversation = sample["conversation"]
    sessions = sorted(
        (k for k in conversation if re.fullmatch(r"session_\d+", k)), key=lambda k: int(k[8:])
    )
    for key in sessions:
        at = parse_session_time(conversation[f"{key}_date_time"], key)
        for turn in conversation[key]:
            yield key, turn, at


async def _conversation(
    sample: dict[str, Any],
    source: str,
    cases: list[dict[str, Any]],
    folder: Path,
    embedder: Embedder | None = None,
) -> list[Result]:
    owner = "" if source == "beam" else sample["conversation"]["speaker_a"]
    settings = Settings(
        data_dir=folder / sample["sample_id"],
        schedule=ScheduleSettings(timezone="UTC"),
        owner=OwnerSettings(name=owner),
    )
    turns = list(_turns(sample))
    last = max(at for _, _, at in turns)
    async with Kit.open(
        settings=settings,
        embedder=embedder or HashingEmbedder(),
        clock=FakeClock(last),
        background=False,
    ) as kit:
        await kit.import_messages(
            (
                NewMessage(
                    "assistant" if source == "beam" and t["speaker"] == "Assistant" else "user",
                    t["text"],
                    at,
                    "" if source == "beam" else t["speaker"],
                    t["dia_id"],
                )
                for _, t, at in turns
            ),
            conversation=sample["sample_id"],
        )
        rows = await kit.services.db.fetchall("SELECT id, ref, role FROM messages")
        ids = {ref: int(i) for i, ref, _ in rows}
        people = [int(i) for i, _, role in rows if role == "user"]
        texts = {t["dia_id"]: f"{t['speaker']}: {t['text']}" for _, t, _ in turns}
        return [await _one(kit, case, ids, people, texts) for case in cases]


async def _one(
    kit: Kit, case: dict[str, Any], ids: dict[str, int], people: list[int], texts: dict[str, str]
) -> Result:
    sources = tuple(ids[d] for d in case["cites"])
    op: Operation
    old_id = None
    if case["op"] == "UPDATE":
        (old,) = [
            await kit.services.facts.add(
                USER,
                category=case["category"],
                content=case["old"],
                subject=case["subject"],
                provenance=Provenance(actor="api", reason="bench setup"),
            )
        ]
        old_id = old.id
        op = Update(old.id, content=case["content"], sources=sources)
    else:
        op = Insert(case["content"], 0.9, case["subject"], sources=sources)
    outcome = await kit.services.curator.apply_ops(
        USER, case["category"], [op], kind="curate", source_message_ids=people,
        dry_run=True, ground=True,
    )  # fmt: skip
    if old_id is not None:
        await kit.services.owner_facts.retire(USER, old_id, "bench: next case")
    cited = tuple(texts[d] for d in case["cites"])
    if outcome.dropped:
        return Result(case, "dropped", outcome.dropped[0], cited)
    if outcome.asked:
        return Result(case, "asked", outcome.asked[0], cited)
    return Result(case, "stored", "", cited)


async def evaluate(cases: list[dict[str, Any]], meaning: bool = False) -> list[Result]:
    """`meaning`: Kit's MiniLM (embedding.model_path = MODEL) for the guard's meaning check;
    else the hashing embedder, with which the guard is the word-level one."""
    by_conversation: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for case in cases:
        by_conversation[(case["source"], case["conversation"])].append(case)
    samples = {
        source: {s["sample_id"]: s for s in json.loads(path.read_text(encoding="utf-8"))}
        for source, path in SOURCES.items()
        if any(s == source for s, _ in by_conversation)
    }
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="kit-bench-grounding-") as folder:
        embedder = None
        if meaning:
            model = EmbeddingSettings(model_path=str(MODEL))
            settings = Settings(data_dir=Path(folder) / "model", embedding=model)
            embedder, why = await load_embedder(settings, offline=True)
            if embedder is None:
                raise SystemExit(f"--meaning needs the model at {MODEL}: {why}")
        for (source, conversation), group in sorted(by_conversation.items()):
            results += await _conversation(
                samples[source][conversation], source, group, Path(folder), embedder
            )
    order = {c["id"]: n for n, c in enumerate(cases)}
    return sorted(results, key=lambda r: order[r.case["id"]])


def report(results: list[Result], label: str) -> None:
    supported = [r for r in results if r.case["expect"] == "stored"]
    unsupported = [r for r in results if r.case["expect"] != "stored"]
    stored = sum(r.outcome == "stored" for r in supported)
    kept = sum(r.outcome != "stored" for r in unsupported)
    print(f"{label}: {len(results)} operations")
    if supported:
        print(
            f"  supported stored:     {stored:>4} of {len(supported):>4} = "
            f"{stored / len(supported):6.1%}  (target >= 95%)"
        )
    if unsupported:
        dropped = sum(r.outcome == "dropped" for r in unsupported)
        asked = sum(r.outcome == "asked" for r in unsupported)
        print(
            f"  unsupported kept out: {kept:>4} of {len(unsupported):>4} = "
            f"{kept / len(unsupported):6.1%}  (target >= 95%; {dropped} dropped, {asked} asked)"
        )
    kinds: dict[str, Counter[str]] = defaultdict(Counter)
    for r in results:
        kinds[r.case["kind"]][r.outcome] += 1
    for kind, counts in sorted(kinds.items()):
        shown = ", ".join(f"{n} {what}" for what, n in sorted(counts.items()))
        print(f"    {kind:<15} {shown}")


def table(results: Iterable[Result]) -> None:
    """Each wrong verdict next to the text it cites: a table a person can check."""
    for r in results:
        if r.right:
            continue
        c = r.case
        print(f"- {c['id']} [{c['split']}] expected {c['expect']} ({c['kind']}), got {r.outcome}")
        print(f"    fact:  {c['content']}")
        if r.reason:
            print(f"    why:   {r.reason}")
        for line in r.cited:
            print(f"    cites: {line[:300]}")


def _timed() -> tuple[list[float], list[float], list[tuple[int, float]]]:
    """From now on (this process only): the wall time of each Grounding.check, of each
    Grounding.weigh (the meaning check's reading: the word-level check of each operation and
    the pass's one embedding call), and each embedding call's texts and wall time."""
    seconds: list[float] = []
    weighed: list[float] = []
    embedded: list[tuple[int, float]] = []
    check, weigh, read = Grounding.check, Grounding.weigh, Meanings.read

    def timed(self: Grounding, *args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return check(self, *args, **kwargs)
        finally:
            seconds.append(time.perf_counter() - began)

    async def timed_weigh(self: Grounding, *args: Any, **kwargs: Any) -> None:
        began = time.perf_counter()
        try:
            await weigh(self, *args, **kwargs)
        finally:
            weighed.append(time.perf_counter() - began)

    async def counted(self: Meanings, texts: Iterable[str]) -> None:
        texts = list(texts)
        began = time.perf_counter()
        await read(self, texts)
        if texts:
            embedded.append((len(set(texts)), time.perf_counter() - began))

    Grounding.check = timed  # type: ignore[method-assign]
    Grounding.weigh = timed_weigh  # type: ignore[method-assign]
    Meanings.read = counted  # type: ignore[method-assign]
    return seconds, weighed, embedded


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the planted cases (JSON)")
    parser.add_argument(
        "--split",
        choices=("tune", "held", "all"),
        help="tune (the default where the set has a tuning split), held, or all (the default "
        "for a set without one: the fresh sets)",
    )
    parser.add_argument("--table", action="store_true", help="list each miss with its messages")
    parser.add_argument("--quick", action="store_true", help="the first 40 cases (CI)")
    parser.add_argument(
        "--meaning", action="store_true", help="with the meaning check (Kit's MiniLM, MODEL)"
    )
    args = parser.parse_args(argv)
    missing = [str(p) for p in SOURCES.values() if not p.exists()]
    if missing:
        print(f"needs the evaluation data: {', '.join(missing)}", file=sys.stderr)
        return 2
    cases = json.loads(args.data.read_text(encoding="utf-8"))["cases"]
    if args.split is None:
        args.split = "tune" if any(c.get("split", "tune") == "tune" for c in cases) else "all"
    chosen = [c for c in cases if args.split == "all" or c.get("split", "tune") == args.split]
    if not chosen:
        print(f"{args.data.name} has no case in split {args.split}", file=sys.stderr)
        return 2
    if args.quick:
        chosen = chosen[:40]
    began = time.perf_counter()
    related.family("word")  # WordNet read once per process, on first use
    loaded = time.perf_counter() - began
    checks, weighed, embedded = _timed()
    results = asyncio.run(evaluate(chosen, args.meaning))
    report(results, f"{args.data.name}, split {args.split}")
    per = sum(checks) / len(checks) * 1e6 if checks else 0.0
    print(
        f"  {time.perf_counter() - began:.1f} s; the guard: {per:.0f} us per operation "
        f"({len(checks)} checks), WordNet read on first use in {loaded:.2f} s"
    )
    if args.meaning and weighed:  # each case is a pass of one operation
        print(
            f"  the meaning check's reading (Grounding.weigh, each case a pass): "
            f"{sum(weighed) / len(weighed) * 1e3:.1f} ms a pass ({len(weighed)}, with the "
            f"word-level reading check reuses); {len(embedded)} embedding calls, "
            f"{sum(n for n, _ in embedded) / max(1, len(embedded)):.1f} texts and "
            f"{sum(t for _, t in embedded) / max(1, len(embedded)) * 1e3:.1f} ms each"
        )
    if args.table:
        table(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
