"""`kit eval qa FILE`: end-to-end answer accuracy on LoCoMo-format data (kit/eval/qa.py)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from kit.commands.progress import progress
from kit.errors import ConfigError, InputError

if TYPE_CHECKING:  # the evaluation loads when it runs, not with `kit --help`
    from kit.eval.qa import Key, QAResult


def register(what: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    qa = what.add_parser(
        "qa",
        help="end-to-end answer accuracy on a LoCoMo-format file (calls your models)",
        description="Imports each conversation into a fresh temporary Kit; for every question "
        "of categories 1-4 with a key, builds the context a turn would send, lets the chat "
        "model ([llm.chat]) answer from it, and has the judge model ([llm.judge], by default "
        "the background model) grade the answer against the key with Mem0's LoCoMo judge "
        "prompt (prompts/eval_judge.md), and scores it by exact match and token F1. Prints "
        "accuracy per category (named as Mem0 reports LoCoMo's), memory tokens per "
        "question, the models' tokens and cost. Each role may have its own base_url, key_env "
        "and temperature ([llm.chat] answers, [llm.judge] grades). A model that cannot be "
        "reached stops the run with what it measured (exit status 1); --resume goes on from "
        "there.",
    )
    qa.add_argument("file", type=Path, help="LoCoMo-format JSON (a list of samples)")
    qa.add_argument(
        "--json",
        type=Path,
        metavar="OUT",
        help="write every result here, after each question (what --resume reads)",
    )
    qa.add_argument("--limit", type=int, metavar="N", help="only the first N questions")
    qa.add_argument(
        "--resume",
        action="store_true",
        help="go on from the results in --json OUT (the same FILE): asks only the rest",
    )
    qa.add_argument(
        "--curate",
        action="store_true",
        help="let the background model curate each conversation and write its day summaries "
        "first, as a running Kit would (many more model calls)",
    )
    qa.add_argument(
        "--short-answers",
        action="store_true",
        help="ask for answers of a few words, as Mem0's LoCoMo harness does "
        "(prompts/eval_answer_short.md): for numbers set beside published ones",
    )
    qa.add_argument(
        "--lexical-only", action="store_true", help="no embedding model: lexical search alone"
    )
    qa.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    from kit.app_models import role_key
    from kit.config import load_settings
    from kit.eval import locomo
    from kit.eval.qa import QARun, evaluate_qa, selected
    from kit.eval.qa_report import file_digest, format_report, load_done, report_json
    from kit.model_settings import model_role
    from kit.retrieval.embedding_model import load_embedder

    if args.limit is not None and args.limit < 1:
        raise InputError(f"--limit must be at least 1 (got {args.limit})")
    if args.resume and args.json is None:
        raise InputError("--resume needs --json OUT: it goes on from what that run wrote")
    out: Path | None = args.json
    if out is not None:
        _check_out(out, args.resume)
    samples = locomo.load(args.file)  # the whole file is checked before any model is called
    digest = file_digest(args.file)
    done = load_done(out, digest) if args.resume and out is not None else {}
    settings = load_settings(args.config, args.data_dir)
    chat, judge = model_role(settings.llm, "chat"), model_role(settings.llm, "judge")
    for role in (chat, judge):
        if role_key(role)[0] is None:
            raise ConfigError(f"{role_key(role)[1]}; `kit eval qa` calls {role.model}")
    embedder = None
    if not args.lexical_only:
        embedder, problem = await load_embedder(settings)
        if embedder is None:
            raise ConfigError(f"{problem}; or pass --lexical-only")
    plan = selected(samples, args.limit)
    total = sum(len(indexes) for _, indexes in plan)
    order = {(s.sample_id, i): n for n, (s, ix) in enumerate(plan) for i in ix}
    kept: dict[Key, QAResult] = {k: r for k, r in done.items() if k in order}

    def save(result: QAResult | None = None, stopped: str | None = None) -> None:
        if result is not None:
            kept[result.key] = result
        if out is None:
            return
        ordered = sorted(kept.values(), key=lambda r: (order[r.key], r.index))
        report = report_json(
            QARun(ordered, stopped), chat, judge, source=args.file, digest=digest, total=total
        )
        partial = out.with_name(out.name + ".partial")
        partial.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(partial, out)  # a run killed mid-write leaves the last whole file

    if kept:
        print(f"Resuming: {len(kept)} of {total} questions done already.", file=sys.stderr)
    with progress("Answering", total=total, unit="questions") as bar:
        result = await evaluate_qa(
            samples,
            settings=settings,
            embedder=embedder,
            limit=args.limit,
            done=kept,
            curate=args.curate,
            short_answers=args.short_answers,
            on_result=save,
            progress=lambda what, n, _total: bar.update(description=what, completed=n),
        )
    save(stopped=result.stopped)
    print(format_report(result, chat, judge, source=str(args.file), total=total))
    if out is not None:
        print(f"Wrote {out}.", file=sys.stderr)
    return 1 if result.stopped else 0


def _check_out(out: Path, resume: bool) -> None:
    if not out.parent.exists():
        raise InputError(f"--json {out}: folder {out.parent} does not exist")
    if out.exists() and not resume:
        raise InputError(
            f"--json {out} exists; pass --resume to go on from it, or remove it to start over"
        )
