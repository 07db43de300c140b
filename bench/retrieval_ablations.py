"""Retrieval ablations on two corpora: `kit eval retrieval` under different ranking parameters.

    python bench/retrieval_ablations.py [--corpus locomo beam] [--only NAME ...]
                                        [--holdout [folds|corpus]] [--levers NAME ...]
                                        [--set PARAM=VALUE ...] [--no-captions]
                                        [--no-passage-vectors] [--beam-conversations N]
                                        [--vector-cache DIR] [--json OUT] [--off-topic N]

Each variant runs the whole evaluation through Kit's own search (a fresh Kit per
conversation), with the embedding model the config would give (by default the MiniLM folder
in ../shared/models; `--model-path` names another ONNX folder). Vectors depend only on their
text and model, so they are computed once and kept in `--vector-cache` (default
~/.cache/kit-bench/vectors) for later runs. Long turns' passages have vectors of their own
(`embedding.passages`): BEAM-100K has ~49,000 of them, hours of CPU to embed once on a loaded
host; `--no-passage-vectors` imports without them, `--beam-conversations N` asks BEAM's first
N conversations only.

The corpora: LoCoMo's dev split (../shared/data/locomo-dev.json: two people chatting) and
BEAM-100K (../shared/data/beam-100k.json: an owner and an assistant, long assistant turns).
Every variant changes the defaults (or the `--set` base) in one way and is compared with them
question by question: per corpus, the change in recall@15 and its paired 95% bootstrap
interval (kit/eval/intervals.py), and a verdict: "helps" (interval above zero), "hurts"
(below) or "within" (the noise). A default changes only when the change helps one corpus and
hurts neither. The hand-written paraphrase set (bench/data/paraphrase-questions.json, over
LoCoMo's dev conversations) is asked too, as a regression check: it is never an objective.

`--holdout` is the rotated hold-out (kit/eval/folds.py): every lever of LEVERS (declared with
the VARIANTS in bench/ablation_variants.py) is chosen by a coordinate search on two thirds of
the conversations (LoCoMo's and BEAM's together, the mean of the two corpora's recall@15) and
scored on the third, in turn. `--holdout corpus` holds out a corpus instead: the levers are
chosen on LoCoMo alone and scored on BEAM, and the other way round. `--levers NAME ...`
searches only those levers. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from contextlib import AsyncExitStack
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/<name>.py` from anywhere
    sys.path.insert(0, str(ROOT))

from ablation_variants import LEVERS, VARIANTS, Changes, parse_set  # noqa: E402
from off_topic import off_topic, shown_when_nothing_answers  # noqa: E402

from kit.config import ScheduleSettings, Settings  # noqa: E402
from kit.embed.base import Embedder, Vectors  # noqa: E402
from kit.embedding_settings import EmbeddingSettings  # noqa: E402
from kit.eval import locomo  # noqa: E402
from kit.eval.folds import (  # noqa: E402
    Config,
    Scored,
    changes,
    format_holdout,
    rotated_holdout,
)
from kit.eval.intervals import Interval, keep, mean_interval, paired_change, verdict  # noqa: E402
from kit.eval.locomo import Sample  # noqa: E402
from kit.eval.metrics import by_category, recall_at, recall_shown, shown  # noqa: E402
from kit.eval.retrieval import (  # noqa: E402
    Imported,
    QuestionResult,
    RetrievalReport,
    by_conversation,
    opened,
)
from kit.eval.vector_cache import CachedEmbedder  # noqa: E402
from kit.retrieval.embedding_model import load_embedder  # noqa: E402
from kit.retrieval.ranking import RankingParams  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "locomo-dev.json"
BEAM = ROOT.parent / "shared" / "data" / "beam-100k.json"
CORPORA = {"locomo": DATA, "beam": BEAM}
MODEL_DIR = ROOT.parent / "shared" / "models" / "all-MiniLM-L6-v2-onnx"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "kit-bench" / "vectors"
PARAPHRASES = ROOT / "bench" / "data" / "paraphrase-questions.json"
KS = (5, 10, 15, 25, 50)
K = 15  # the cut-off levers are chosen on (memory.top_k)
BUDGET = 1200  # memory.context_budget_tokens: "shown" is what a turn's context would show


class TextCache:
    """Embeds each distinct text once per process (vectors depend on the text alone)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        self._vectors: dict[str, Vectors] = {}

    async def embed(self, texts: Sequence[str]) -> Vectors:
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing:
            for text, vector in zip(missing, await self.inner.embed(missing), strict=True):
                self._vectors[text] = vector
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._vectors[t] for t in texts])


class Lab:
    """The conversations imported once each and kept open; any ranking asks them any set."""

    def __init__(self, sets: dict[str, list[Sample]], base: Changes) -> None:
        self.sets = sets  # question set name -> its samples (the same conversations)
        self.base = dataclasses.replace(RankingParams(), **base)  # type: ignore[arg-type]
        self.imported: dict[str, Imported] = {}
        self._cache: dict[tuple[tuple[str, object], ...], dict[str, list[QuestionResult]]] = {}
        self.off: list[Sample] = []  # off-topic questions (bench/off_topic.py), if asked

    async def open(self, stack: AsyncExitStack, settings: Settings, embedder: Embedder) -> None:
        first = next(iter(self.sets.values()))
        for number, sample in enumerate(first):
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="kit-lab-")))
            here = dataclasses.replace(
                settings, data_dir=folder / str(number), schedule=ScheduleSettings(timezone="UTC")
            )
            self.imported[sample.sample_id] = await stack.enter_async_context(
                opened(sample, here, embedder)
            )

    async def results(self, changes: Changes) -> dict[str, list[QuestionResult]]:
        """Every question of every set under the base with `changes` (cached)."""
        key = tuple(sorted(changes.items()))
        if key not in self._cache:
            params = dataclasses.replace(self.base, **changes)  # type: ignore[arg-type]
            self._cache[key] = {
                name: [
                    result
                    for sample in samples
                    for result in await self.imported[sample.sample_id].ask(sample, params, KS)
                ]
                for name, samples in self.sets.items()
            }
        return self._cache[key]

    async def off_topic(self, changes: Changes) -> tuple[float, float]:
        """Mean hits and tokens a turn's context shows for the off-topic questions."""
        params = dataclasses.replace(self.base, **changes)  # type: ignore[arg-type]
        outcomes = [
            r.outcome
            for sample in self.off
            for r in await self.imported[sample.sample_id].ask(sample, params, KS)
        ]
        return shown_when_nothing_answers(outcomes, BUDGET)

    def report(self, results: list[QuestionResult]) -> RetrievalReport:
        return RetrievalReport(
            ks=KS,
            samples=len(self.imported),
            turns=0,
            skipped_questions=0,
            repaired_evidence=0,
            index_seconds=0.0,
            model_id="",
            summaries=by_category([r.outcome for r in results], KS),
            conversations=by_conversation(results, KS),
            results=tuple(results),
        )


class Labs:
    """One lab per corpus; a variant is asked of all of them."""

    def __init__(self, labs: dict[str, Lab]) -> None:
        self.labs = labs
        self.scored = 0
        self.levers = LEVERS  # what a hold-out's configurations choose among

    async def results(self, changes: Changes) -> dict[str, list[QuestionResult]]:
        out: dict[str, list[QuestionResult]] = {}
        for lab in self.labs.values():
            out.update(await lab.results(changes))
        return out

    async def score(self, configs: Sequence[Config]) -> dict[Config, dict[str, list[Scored]]]:
        """The hold-out's scorer: the corpora's own questions (never the paraphrases)."""
        out: dict[Config, dict[str, list[Scored]]] = {}
        for config in configs:
            found = await self.results(changes(self.levers, config))
            self.scored += 1
            out[config] = {
                name: [Scored(r.sample_id, r.outcome) for r in results]
                for name, results in found.items()
                if name in CORPORA
            }
        return out

    def by_corpus(self) -> dict[str, str]:
        """One fold per corpus: the levers chosen on one corpus, scored on the other."""
        return {s: corpus for corpus, lab in self.labs.items() for s in lab.imported}

    def folds(self, count: int = 3) -> dict[str, str]:
        """Every corpus's conversations dealt into `count` folds (fold i: the i-th, the
        (i+count)-th, ...), so each fold holds some of each corpus."""
        out: dict[str, str] = {}
        for lab in self.labs.values():
            for n, sample_id in enumerate(lab.imported):
                out[sample_id] = f"fold {n % count + 1}"
        return out


def recalls(results: Sequence[QuestionResult], k: int = K) -> list[float]:
    return [recall_at(r.ranked, r.evidence, k) for r in results]


def recalls_shown(results: Sequence[QuestionResult]) -> list[float]:
    """Per question: recall of what a turn's context would show (its top k for the question,
    as many as fit in the memory budget as shown)."""
    return [recall_shown(r.outcome, BUDGET) for r in results]


def shown_tokens(results: Sequence[QuestionResult]) -> float:
    """Mean tokens of what a turn's context would show."""
    total = 0
    for r in results:
        total += sum(r.outcome.costs[: shown(r.outcome, BUDGET)])
    return total / max(len(results), 1)


def line(name: str, report: RetrievalReport) -> str:
    total = report.summaries["all"]
    cats = " ".join(f"{c[:5]}={s.recall[K]:.3f}" for c, s in report.summaries.items() if c != "all")
    unshared = total.unshared_recall
    nw = "     -" if unshared is None else f"{unshared[K]:>6.3f}"
    results = report.results
    return (
        f"{name:<48} "
        + " ".join(f"{total.recall[k]:>6.3f}" for k in KS)
        + f" {total.mrr:>6.3f} {nw} {total.tokens[K]:>6.0f}"
        + f" {mean_interval(recalls_shown(results)).value:>7.3f} {shown_tokens(results):>6.0f}"
        + f"  {cats}"
    )


def header() -> str:
    return (
        f"{'variant [question set]':<48} "
        + " ".join(f"{'R@' + str(k):>6}" for k in KS)
        + f" {'MRR':>6} {'nw@' + str(K):>6} {'tok@' + str(K):>6} {'R shown':>7} {'tokens':>6}"
        + f"  R@{K} by category"
    )


def comparison(
    name: str, base: Mapping[str, list[QuestionResult]], variant: Mapping[str, list[QuestionResult]]
) -> tuple[str, dict[str, Interval]]:
    """One line: per question set, the variant's R@15, its change from the base with the
    paired interval and the verdict; and whether it would become the default."""
    found: dict[str, Interval] = {}
    cells = []
    for set_name, results in variant.items():
        change = paired_change(recalls(base[set_name]), recalls(results))
        found[set_name] = change
        level = mean_interval(recalls(results)).value
        seen = paired_change(recalls_shown(base[set_name]), recalls_shown(results))
        cells.append(
            f"{set_name} {level:.3f} {change.signed()} {verdict(change):<6}"
            f" shown {seen.value:+.3f} {verdict(seen):<6} {shown_tokens(results):>4.0f} tok"
        )
    corpora = {n: c for n, c in found.items() if n in CORPORA}
    decision = "BETTER than the base" if keep(corpora) else ""
    if any(verdict(c) == "hurts" for c in corpora.values()):
        decision = "worse"
    return f"{name:<40} " + " | ".join(cells) + f"  {decision}", found


async def run(args: argparse.Namespace) -> dict[str, object]:
    """Every variant asked; what `--json` writes."""
    base = parse_set(args.set)
    model_path = args.model_path or str(MODEL_DIR)
    settings = Settings(
        embedding=EmbeddingSettings(model_path=model_path, passages=args.passage_vectors)
    )
    if not args.passage_vectors:  # none indexed: none searched
        base = {**base, "passage_vectors": False}
    loaded, problem = await load_embedder(settings)
    if loaded is None:
        raise SystemExit(f"no embedding model: {problem}")
    cache = CachedEmbedder(loaded, Path(args.vector_cache))
    embedder = TextCache(cache)
    labs: dict[str, Lab] = {}
    for corpus in args.corpus:
        samples = locomo.load(CORPORA[corpus], captions=not args.no_captions)
        if corpus == "beam" and args.beam_conversations:
            samples = samples[: args.beam_conversations]
        sets = {corpus: samples}
        if corpus == "locomo" and args.paraphrases:
            sets["paraphrase"] = locomo.load_questions(PARAPHRASES, samples)
        labs[corpus] = Lab(sets, base)
    if args.off_topic:
        loaded = {c: locomo.load(CORPORA[c], captions=not args.no_captions) for c in labs}
        for corpus, lab in labs.items():
            others = [s for c, samples in loaded.items() if c != corpus for s in samples]
            mine = next(iter(lab.sets.values()))
            each = -(-args.off_topic // len(mine))
            lab.off = off_topic(mine, others, each) if others else []
    everything = Labs(labs)
    written: dict[str, object] = {"base": {k: str(v) for k, v in base.items()}, "variants": {}}
    async with AsyncExitStack() as stack:
        for corpus, lab in labs.items():
            started = time.perf_counter()
            await lab.open(stack, settings, embedder)
            saved = cache.save()
            print(
                f"imported {corpus}: {len(lab.imported)} conversations in "
                f"{time.perf_counter() - started:.0f}s ({cache.hits} vectors from the cache, "
                f"{saved} new ones saved); model {cache.model_id}",
                flush=True,
            )
        if base:
            print(f"base: defaults with {base}")
        load = os.getloadavg()
        print(f"load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}", flush=True)
        if not args.holdout or args.only:
            base_results = await everything.results({})
            print(header())
            for set_name, results in base_results.items():
                print(line(f"base [{set_name}]", labs_report(labs, results)), flush=True)
            await print_off_topic("base", labs, {})
            print(f"\nR@{K} per set, change from the base [95% paired bootstrap], verdict:")
            for name, variant in VARIANTS.items():
                if args.only and not any(o.lower() in name.lower() for o in args.only):
                    continue
                if all(
                    getattr(lab.base, k) == v for lab in labs.values() for k, v in variant.items()
                ):
                    continue  # the base itself
                found = await everything.results(variant)
                text, _ = comparison(name, base_results, found)
                print(text, flush=True)
                await print_off_topic(name, labs, variant)
                if args.detail:
                    for set_name, results in found.items():
                        print("   " + line(f"[{set_name}]", labs_report(labs, results)))
                written["variants"][name] = {  # type: ignore[index]
                    set_name: {
                        "changes": {k: str(v) for k, v in variant.items()},
                        "recall": recalls(results),
                        "shown": recalls_shown(results),
                        "tokens": [r.outcome.tokens[KS.index(K)] for r in results],
                    }
                    for set_name, results in found.items()
                }
            written["base_results"] = {
                set_name: {
                    "recall": recalls(results),
                    "shown": recalls_shown(results),
                    "questions": [r.question for r in results],
                    "categories": [r.category for r in results],
                    "conversations": [r.sample_id for r in results],
                    # each evidence turn's rank (1-based; None: not in the top 50)
                    "ranks": [
                        [r.ranked.index(e) + 1 if e in r.ranked else None for e in r.evidence]
                        for r in results
                    ],
                }
                for set_name, results in base_results.items()
            }
        if args.holdout:
            started = time.perf_counter()
            levers = {n: v for n, v in LEVERS.items() if not args.levers or n in args.levers}
            if not args.passage_vectors:
                levers.pop("passage vectors", None)  # none indexed: the lever cannot move
            everything.levers = levers
            by_corpus = args.holdout == "corpus"
            result = await rotated_holdout(
                everything.score,
                levers,
                K,
                rounds=2,
                progress=lambda note: print(note, flush=True),
                folds=everything.by_corpus() if by_corpus else everything.folds(),
            )
            kind = "cross-corpus" if by_corpus else "rotated"
            print(
                f"\n{kind} hold-out ({time.perf_counter() - started:.0f}s, "
                f"{everything.scored} configurations scored)"
            )
            print(format_holdout(result, levers), flush=True)
    cache.save()  # the questions' vectors too
    return written


async def print_off_topic(name: str, labs: Mapping[str, Lab], changes: Changes) -> None:
    """Per corpus, what the context shows for questions nothing answers (`--off-topic`)."""
    cells = []
    for corpus, lab in labs.items():
        if lab.off:
            hits, tokens = await lab.off_topic(changes)
            cells.append(f"{corpus} {hits:.1f} hits {tokens:.0f} tok")
    if cells:
        print(f"{'':<4}{name}, off-topic questions shown: " + " | ".join(cells), flush=True)


def labs_report(labs: Mapping[str, Lab], results: list[QuestionResult]) -> RetrievalReport:
    return next(iter(labs.values())).report(results)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--corpus", nargs="+", choices=list(CORPORA), default=list(CORPORA))
    parser.add_argument("--only", nargs="*", default=[], help="run variants whose name has this")
    parser.add_argument(
        "--holdout",
        nargs="?",
        const="folds",
        choices=["folds", "corpus"],
        help="the rotated hold-out of LEVERS over three folds, or across corpora (corpus: "
        "chosen on one corpus, scored on the other)",
    )
    parser.add_argument("--levers", nargs="*", default=[], help="the hold-out's levers (names)")
    parser.add_argument("--set", nargs="*", default=[], help="PARAM=VALUE for every variant")
    parser.add_argument("--no-captions", action="store_true", help="turn text without photos")
    parser.add_argument(
        "--no-passage-vectors",
        dest="passage_vectors",
        action="store_false",
        help="index no passage vectors (embedding.passages false): a long corpus imports faster",
    )
    parser.add_argument(
        "--beam-conversations", type=int, default=0, help="only BEAM's first N conversations"
    )
    parser.add_argument(
        "--off-topic",
        type=int,
        default=0,
        metavar="N",
        help="also ask N questions of the other corpus per corpus (nothing answers them) and "
        "print what the context shows for them: hits and tokens",
    )
    parser.add_argument("--model-path", default="", help="an ONNX model folder (default MiniLM)")
    parser.add_argument("--vector-cache", default=str(CACHE), help="where vectors are kept")
    parser.add_argument("--json", default="", help="write every question's recall here")
    parser.add_argument("--detail", action="store_true", help="every variant's full rows too")
    parser.add_argument(
        "--no-paraphrases",
        dest="paraphrases",
        action="store_false",
        help="leave out the paraphrase regression set",
    )
    args = parser.parse_args()
    written = asyncio.run(run(args))
    if args.json:
        Path(args.json).write_text(json.dumps(written, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
