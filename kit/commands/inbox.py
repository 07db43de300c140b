"""`kit inbox`: the changes Kit set aside for you to decide (kit/inbox/).

`kit inbox` lists the questions waiting for an answer (`--all`: answered, expired and
withdrawn ones too); `kit inbox answer ID keep-old|take-new|keep-both` answers one. An answer
is one owner pass (`kit facts undo PASS_ID` takes it back). Like `kit facts add`, these go
through the running daemon when there is one.
"""

from __future__ import annotations

import argparse
import dataclasses
from datetime import tzinfo
from typing import TYPE_CHECKING, Any

from kit.clock import to_iso
from kit.commands.common import print_json
from kit.commands.fact_changes import client_for

if TYPE_CHECKING:
    from kit.curator.questions import Question

ANSWERS = ("keep-old", "take-new", "keep-both")
_QUIET = argparse.SUPPRESS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "inbox",
        help="changes Kit asks you about before making them: list, answer",
        description="Before a curation or REM pass rewrites or retires a fact you wrote or "
        "pinned, or one held with high confidence, or adds one that disagrees with what Kit "
        "holds about the same subject, it asks you here (and on Telegram): keep the old, take "
        "the new, or keep both. Unanswered questions change nothing and expire after "
        "inbox.expire_days.",
    )
    cmd.add_argument("--all", action="store_true", help="answered, expired, withdrawn ones too")
    cmd.add_argument("--json", action="store_true", help="JSON output")
    cmd.set_defaults(func=run_list)
    actions = cmd.add_subparsers(dest="inbox_command", metavar="ACTION")
    answer = actions.add_parser(
        "answer",
        help="answer a question: keep-old, take-new or keep-both",
        description="Answer a question: keep-old leaves the facts as they are, take-new makes "
        "the change, keep-both keeps the new statement beside the old. Recorded as a pass of "
        "yours: `kit facts undo PASS_ID` takes it back.",
    )
    answer.add_argument("question_id", type=int, metavar="ID")
    answer.add_argument("answer", choices=ANSWERS, metavar="|".join(ANSWERS))
    answer.add_argument("--json", action="store_true", default=_QUIET)
    answer.set_defaults(func=run_answer)


async def run_list(args: argparse.Namespace) -> int:
    async with client_for(args) as client:
        questions = await client.inbox(everything=args.all)
    if args.json:
        print_json([question_dict(q) for q in questions])
        return 0
    if not questions:
        print(
            "No questions." if args.all else "Nothing waits for you: no pass asked about a change."
        )
        return 0
    for question in questions:
        print("\n".join(describe(question, args.tz)))
    return 0


async def run_answer(args: argparse.Namespace) -> int:
    async with client_for(args) as client:
        answered = await client.answer_question(args.question_id, args.answer)
    if args.json:
        print_json(dataclasses.asdict(answered))
    else:
        print(answered.summary())
    return 0


def describe(question: Question, tz: tzinfo) -> list[str]:
    from kit.inbox.render import question_lines, state_line

    lines = question_lines(question, tz)
    if question.is_open:
        lines.append(f"  answer: kit inbox answer {question.id} {'|'.join(question.choices)}")
    lines.append(f"  {state_line(question, tz)}")
    return lines


def question_dict(question: Question) -> dict[str, Any]:
    data = dataclasses.asdict(question)
    for key in ("asked_at", "expires_at", "answered_at"):
        value = getattr(question, key)
        data[key] = None if value is None else to_iso(value)
    return data
