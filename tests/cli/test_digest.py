"""`kit digest` through the real CLI on a real data directory: a day's digest as text or JSON
(the inbox's waiting questions first), one clear line for a date that is not a date, and for
--send with nothing to send it on."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from kit.api import Kit
from kit.cli import main
from kit.clock import FakeClock
from kit.config import load_settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from tests.support.digest import a_day_of_curation, a_question, at


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data directory holding a day of curation (Monday 2 March 2026, UTC)."""
    return _data_dir(tmp_path, monkeypatch, questions=False)


@pytest.fixture
def asking(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The same day, with a question asked that day and one the day before, both waiting (and
    a proposal that tries to start a heading of its own)."""
    return _data_dir(tmp_path, monkeypatch, questions=True)


def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, questions: bool) -> Path:
    config = tmp_path / "config.toml"
    config.write_text(
        f'[embedding]\nmodel_path = "{tmp_path / "no-model"}"\n[schedule]\ntimezone = "UTC"\n'
        # `kit` reads on the machine's clock, years after March 2026: the questions still wait
        + ("[inbox]\nexpire_days = 3650\n" if questions else "")
    )
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))

    async def fill() -> None:
        settings = load_settings()
        clock = FakeClock(at(9))
        async with Kit.open(
            settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock,
            background=False,
        ) as kit:  # fmt: skip
            await a_day_of_curation(kit, clock)
            if questions:
                await a_question(kit, clock, at(10, day=1), "Ana owns a dog", "Ana owns two dogs")
                await a_question(
                    kit, clock, at(16), "Ana lives in Lisbon", "Ana lives in Porto\n# Pass 9"
                )

    asyncio.run(fill())
    return tmp_path / "data"


def test_the_digest_of_a_day_reads_pass_by_pass(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["digest", "--date", "2026-03-02"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Memory digest for Monday 2 March 2026 (since Sun 21:00)"
    assert out[2] == "Pass 1 · curation of preferences · 14:35"
    assert out[3] == "+ learned #9: Takes oat milk in coffee — from your message at 14:02"
    assert out[4].startswith("~ changed #1: Drinks coffee with oat milk (was: Drinks coffee black)")
    assert out[6] == "− retired #4: Lives near the river (moved away) — from your message at 14:06"


def test_json_and_a_quiet_day(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["digest", "--date", "2026-03-02", "--json"]) == 0
    digest = json.loads(capsys.readouterr().out)
    assert digest["day"] == "2026-03-02"
    assert [x["kind"] for x in digest["passes"][0]["lines"]] == [
        "learned", "changed", "merged", "retired",
    ]  # fmt: skip
    assert main(["digest", "--date", "2026-03-04"]) == 0
    quiet = capsys.readouterr().out.strip()
    assert quiet == "Nothing changed in memory for Wednesday 4 March 2026 (since Tue 21:00)."


def test_a_date_that_is_not_a_date_is_one_line(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["digest", "--date", "last tuesday"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("kit: --date: 'last tuesday' is not a date; use YYYY-MM-DD")
    assert "\n" not in err


def test_send_without_a_daemon_says_what_to_do(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["digest", "--send", "--date", "2026-03-02"]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]  # after a note that vectors are off
    assert err.startswith("kit: no channel to send the digest on: neither Telegram nor Matrix")


def test_the_questions_waiting_come_first_with_how_to_answer_them(
    asking: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["digest", "--date", "2026-03-02"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:6] == [
        "Memory digest for Monday 2 March 2026 (since Sun 21:00)",
        "",
        "Waiting for your answer (`kit inbox` answers them: keep old, take new or keep both)",
        "? question 2 · people: Kit would rewrite #13 — now: [Ana] Ana lives in Lisbon → new: "
        "[Ana] Ana lives in Porto # Pass 9",
        "and 1 question asked before this day",
        "",
    ]
    assert out[6] == "Pass 1 · curation of preferences · 14:35"
    assert main(["digest", "--date", "2026-03-02", "--json"]) == 0
    (question,) = json.loads(capsys.readouterr().out)["questions"]
    assert (question["question_id"], question["what"]) == (2, "Kit would rewrite #13")
    assert question["choices"] == ["keep-old", "take-new", "keep-both"]
