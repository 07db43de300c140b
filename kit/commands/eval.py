"""`kit eval retrieval FILE...`: evidence recall@k, hit@k and MRR of Kit's search on LoCoMo-format
data, each file a corpus of its own with bootstrap intervals (`kit eval qa`, answer accuracy:
kit/commands/eval_qa.py)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from kit.choices import FILTERS
from kit.commands import eval_qa
from kit.commands.progress import progress
from kit.errors import ConfigError, InputError
from kit.eval import DEFAULT_KS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser("eval", help="evaluate Kit's memory on benchmark data")
    what = cmd.add_subparsers(dest="eval_command", required=True, metavar="WHAT")
    retrieval = what.add_parser(
        "retrieval",
        help="evidence recall of message search on LoCoMo-format files",
        description="Imports each conversation into a fresh temporary Kit and asks every "
        "question (categories 1-4 with evidence) through Kit's own search, as of the "
        "conversation's end. Each file is a corpus with rows of its own, recall at "
        "memory.top_k with a 95%% bootstrap interval over its questions. Uses "
        "embedding.model / embedding.model_path from the config.",
    )
    retrieval.add_argument(
        "file", type=Path, nargs="+", help="LoCoMo-format JSON (a list of samples), one per corpus"
    )
    retrieval.add_argument(
        "--k",
        default=",".join(map(str, DEFAULT_KS)),
        help="cut-offs, comma-separated (default %(default)s)",
    )
    retrieval.add_argument(
        "--json",
        type=Path,
        metavar="OUT",
        help="also write results here (several files: one object per corpus, by file name)",
    )
    retrieval.add_argument(
        "--vector-cache",
        type=Path,
        metavar="DIR",
        help="keep the vectors of every text embedded here and reuse them in later runs with "
        "the same model (indexing time then leaves out what came from it)",
    )
    retrieval.add_argument(
        "--lexical-only",
        action="store_true",
        help="no embedding model: lexical ranking alone (FTS5, or tsvector on PostgreSQL)",
    )
    retrieval.add_argument(
        "--store",
        metavar="URL",
        default="",
        help="run on this store instead of a temporary SQLite file: a postgresql:// URL of a "
        "scratch database (each conversation goes into a namespace of its own, eval-*, left "
        "there)",
    )
    retrieval.add_argument(
        "--questions",
        type=Path,
        metavar="SET",
        help="ask this question set instead of the file's own questions: JSON "
        '{"questions": [{"sample_id", "question", "evidence", "kind"}]} over the same '
        "conversations (bench/data/paraphrase-questions.json: hand-written paraphrases)",
    )
    retrieval.add_argument(
        "--no-captions",
        action="store_true",
        help="a turn is its text alone (by default the caption of a photo the turn shared, "
        "img_url, is part of it)",
    )
    retrieval.add_argument(
        "--filter",
        choices=FILTERS,
        default="none",
        help="'model': the background model filters the best memory.filter_candidates, "
        "through the endpoint the config names for it ([llm] / [llm.background]; its key from "
        "the environment): one call per question",
    )
    retrieval.set_defaults(func=run)
    eval_qa.register(what)  # `kit eval qa` (kit/commands/eval_qa.py)


async def run(args: argparse.Namespace) -> int:
    from kit.app_models import role_key
    from kit.config import load_settings
    from kit.eval import locomo
    from kit.eval.retrieval import evaluate, parse_ks
    from kit.eval.retrieval_report import format_report, report_json
    from kit.eval.vector_cache import CachedEmbedder
    from kit.model_settings import model_role
    from kit.retrieval.embedding_model import load_embedder
    from kit.storage_url import check_storage_url

    ks = parse_ks(args.k)
    files: list[Path] = args.file
    if len(set(files)) != len(files):
        raise InputError("kit eval retrieval: a file is named twice; name each corpus once")
    if args.questions is not None and len(files) > 1:
        raise InputError("--questions asks a set over one file's conversations: name one file")
    # check every file (and the question set) before loading any model
    corpora = []
    for path in files:
        samples = locomo.load(path, captions=not args.no_captions)
        if args.questions is not None:
            samples = locomo.load_questions(args.questions, samples)
        corpora.append((path, samples))
    if args.json is not None and not args.json.parent.exists():
        raise InputError(f"--json {args.json}: folder {args.json.parent} does not exist")
    settings = load_settings(args.config, args.data_dir)
    memory = dataclasses.replace(settings.memory, filter=args.filter)
    check_storage_url(args.store, "--store")
    storage = dataclasses.replace(settings.storage, url=args.store)
    settings = dataclasses.replace(settings, memory=memory, storage=storage)
    small = model_role(settings.llm, "background")
    if args.filter == "model" and role_key(small)[0] is None:
        raise ConfigError(
            f"--filter model calls {small.model} at {small.where}; export {small.key_env} first"
        )
    embedder = None
    cache = None
    if not args.lexical_only:
        embedder, problem = await load_embedder(settings)
        if embedder is None:
            raise ConfigError(
                f"{problem}; the evaluation needs the embedding model "
                "(or pass --lexical-only to measure FTS5 ranking alone)"
            )
        if args.vector_cache is not None:
            embedder = cache = CachedEmbedder(embedder, args.vector_cache)
    written = {}
    for number, (path, samples) in enumerate(corpora):
        questions = sum(len(s.questions) for s in samples)
        with progress(f"Evaluating {path.name}", total=questions, unit="questions") as bar:
            report = await evaluate(
                samples,
                settings=settings,
                embedder=embedder,
                ks=ks,
                progress=lambda what, done: bar.update(description=what, completed=done),
            )
        if cache is not None:
            cache.save()
        if len(corpora) > 1:
            print(f"{chr(10) if number else ''}== corpus {path.name} ==")
        print(format_report(report, ci_k=settings.memory.top_k))
        written[path.name] = report_json(report, ci_k=settings.memory.top_k)
    if cache is not None:
        print(f"vector cache: {cache.hits} texts from {args.vector_cache}, {cache.misses} embedded")
    if args.json is not None:
        data = written[files[0].name] if len(files) == 1 else {"corpora": written}
        args.json.write_text(json.dumps(data, ensure_ascii=False, indent=1))
        print(f"Wrote {args.json}.", file=sys.stderr)
    return 0
