"""`kit inbox`, `kit facts --as-of` and `--since/--until` through the real CLI, on both
stores: the issue's "done when" from the terminal (a pass that would rewrite a pinned fact
lands in the inbox; `kit inbox answer ID take-new` applies it; `kit facts --as-of` a day
before shows the old value), and bad input as one line on stderr, exit 2, nothing changed."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kit.api import Kit
from kit.cli import main
from kit.clock import FakeClock
from kit.config import load_settings
from kit.curator.ops import Update
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from tests.support.curation import say

pytestmark = pytest.mark.stores


@pytest.fixture(autouse=True)
def own_log_handlers() -> Iterator[None]:
    """Each `main()` adds a stderr handler bound to that moment's stderr (see
    tests/cli/test_fact_changes.py)."""
    root = logging.getLogger()
    before = list(root.handlers)
    root.handlers[:] = [h for h in before if type(h) is not logging.StreamHandler]
    yield
    root.handlers[:] = before


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, storage_url: str) -> Path:
    config = tmp_path / "config.toml"
    config.write_text(
        f'[embedding]\nmodel_path = "{tmp_path / "no-model"}"\n'
        '[schedule]\ntimezone = "UTC"\n'
        f'[storage]\nurl = "{storage_url}"\n'
    )
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def errors(err: str) -> list[str]:
    """The error lines (the log's warnings aside: no embedding model here)."""
    return [line for line in err.splitlines() if line.startswith("kit: ")]


# The CLI runs on the system clock; what the test prepares is dated from it, a few days back.
NOW = datetime.now(UTC).replace(microsecond=0)
BEFORE, CHANGED = NOW - timedelta(days=6), NOW - timedelta(days=3)


def _a_question() -> tuple[int, int]:
    """A pinned fact written a week ago, a message three days ago saying it changed, and the
    curation pass over it: (fact id, question id)."""
    return asyncio.run(_ask())


async def _ask() -> tuple[int, int]:
    settings = load_settings()
    clock = FakeClock(BEFORE)
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock,
        background=False,
    ) as kit:  # fmt: skip
        fact = (await kit.add_fact("Ana lives in Lisbon", category="people", pinned=True)).fact
        (said,) = await say(kit, "Ana moved to Porto", at=CHANGED)
        clock.set(NOW - timedelta(days=1))
        await kit.services.curator.apply_ops(
            "owner", "people", [Update(fact.id, content="Ana lives in Porto", sources=(said.id,))],
            kind="curate", source_message_ids=[said.id],
        )  # fmt: skip
        (question,) = await kit.inbox()
    return fact.id, question.id


@pytest.mark.usefixtures("env")
def test_the_inbox_from_the_terminal_and_facts_as_of_a_day(
    capsys: pytest.CaptureFixture[str],
) -> None:
    fact_id, question_id = _a_question()

    code, out, _ = run(capsys, "inbox")
    assert code == 0
    assert f"Question {question_id} (people, asked " in out
    assert f"now:  #{fact_id} Ana lives in Lisbon (pinned)" in out
    assert "new:  Ana lives in Porto" in out
    assert f"answer: kit inbox answer {question_id} keep-old|take-new|keep-both" in out

    code, out, err = run(capsys, "inbox", "answer", str(question_id), "take-new")
    assert code == 0, err
    assert out.startswith(f"Question {question_id}: Take new. UPDATE #{fact_id} (content).")
    assert "`kit facts undo" in out

    code, out, _ = run(capsys, "facts", "--category", "people")
    assert "Ana lives in Porto" in out and "Ana lives in Lisbon" not in out
    before = (CHANGED - timedelta(days=1)).date().isoformat()
    code, out, _ = run(capsys, "facts", "--as-of", before)
    assert code == 0
    assert out.splitlines()[0] == f"Facts that held on {before}:"
    assert "Ana lives in Lisbon" in out and f"(then #{fact_id})" in out
    assert "Ana lives in Porto" not in out
    code, out, _ = run(capsys, "facts", "--as-of", CHANGED.date().isoformat())
    assert "Ana lives in Porto" in out and "Ana lives in Lisbon" not in out

    code, out, _ = run(capsys, "facts", "history", str(fact_id))
    assert out.splitlines()[1] == f"  holds since {CHANGED.date()}"

    code, out, _ = run(capsys, "inbox", "--all", "--json")
    (answered,) = json.loads(out)
    assert (answered["status"], answered["answer"]) == ("answered", "take-new")
    code, out, _ = run(capsys, "inbox")
    assert out.strip() == "Nothing waits for you: no pass asked about a change."


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("facts", "--as-of", "2026-13-01"), "--as-of '2026-13-01' is not a date; use YYYY-MM-DD"),
        (("facts", "--as-of", "last march"), "--as-of 'last march' is not a date"),
        (("facts", "--recorded"), "--recorded needs --as-of DATE"),
        (("facts", "--as-of", "2026-03-01", "--all"), "drop --all"),
        (("inbox", "answer", "99", "take-new"), "inbox question 99 does not exist"),
        (("facts", "add", "x", "--since", "soon"), "--since 'soon' is not a date"),
        (("facts", "edit", "1", "--until", "2026-02-30"), "--until '2026-02-30' is not a date"),
    ],
    ids=["month-13", "words", "recorded-alone", "with-all", "unknown", "since", "until"],
)
@pytest.mark.usefixtures("env")
def test_bad_input_is_one_line_and_changes_nothing(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    _, question_id = _a_question()
    code, before, _ = run(capsys, "facts", "--all", "--json")
    code, err_out, err = run(capsys, *argv)
    assert code == 2 and err_out == ""
    (line,) = errors(err)
    assert message in line
    _, after, _ = run(capsys, "facts", "--all", "--json")
    assert json.loads(after) == json.loads(before)
    _, out, _ = run(capsys, "inbox", "--json")
    assert [q["id"] for q in json.loads(out)] == [question_id]


@pytest.mark.usefixtures("env")
def test_a_second_answer_is_one_line_and_changes_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, question_id = _a_question()
    code, _, _ = run(capsys, "inbox", "answer", str(question_id), "keep-old")
    assert code == 0
    _, before, _ = run(capsys, "facts", "--all", "--json")
    code, out, err = run(capsys, "inbox", "answer", str(question_id), "take-new")
    assert code == 2 and out == ""
    (line,) = errors(err)
    assert f"question {question_id} was already answered (keep-old, pass" in line
    _, after, _ = run(capsys, "facts", "--all", "--json")
    assert json.loads(after) == json.loads(before)
