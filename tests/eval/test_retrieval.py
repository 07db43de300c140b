"""The evaluation runner through Kit's own search: a tiny dataset with known answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kit.cli import main
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.errors import InputError, LLMUnavailable
from kit.eval.locomo import parse
from kit.eval.retrieval import evaluate, parse_ks
from kit.eval.retrieval_report import format_report, report_json
from kit.llm.base import LLMReply, LLMRequest, ToolUse, Usage
from kit.llm.fake import FakeLLM
from kit.retrieval.filter import TOOL_NAME
from tests.conftest import with_memory
from tests.eval.tiny import tiny
from tests.servers.anthropic_api import FakeAnthropicServer, tool_use_reply
from tests.support.shared_model import MODEL_DIR, require_model


@pytest.mark.stores
async def test_known_answers_give_known_recall(settings: Settings) -> None:
    samples = parse(tiny(), "tiny.json")
    report = await evaluate(samples, settings=settings, embedder=HashingEmbedder(), ks=(1, 50))
    by_question = {r.question: r for r in report.results}
    assert list(by_question) == ["What greyhound?", "Which orchestra?", "Where is the marathon?"]
    assert by_question["What greyhound?"].ranked[0] == "D1:1"
    assert "D2:3" not in by_question["Which orchestra?"].ranked  # shares no word with it
    assert by_question["Where is the marathon?"].ranked[0] == "D1:1"
    overall = report.summaries["all"]
    # greyhound 1, orchestra 0, marathon 1/2 at k=1; by k=50 its reply "D1:2" is found too,
    # by the words of the turn it answers
    assert overall.recall[1] == pytest.approx((1 + 0 + 0.5) / 3)
    assert overall.recall[50] == pytest.approx((1 + 0 + 1) / 3)
    assert overall.hit[1] == pytest.approx(2 / 3)
    assert overall.mrr == pytest.approx(2 / 3)
    assert report.summaries["multi-hop"].recall[50] == 0.0
    assert report.skipped_questions == 3 and report.repaired_evidence == 1
    assert report.turns == 8 and report.samples == 2
    assert overall.tokens[1] <= overall.tokens[50]
    assert overall.seconds_p50 > 0
    # evidence sharing no content word with its question: "Which orchestra?" -> D2:3, and
    # the marathon's reply D1:2 ("Good luck with the training"), found only by k=50
    assert (overall.evidence_turns, overall.unshared_turns) == (4, 2)
    assert overall.unshared_recall == {1: 0.0, 50: 0.5}
    assert by_question["Which orchestra?"].outcome.unshared == ("D2:3",)
    text = format_report(report)
    assert "sharing no content word" in text
    assert "3 questions" in text and text.splitlines()[2].startswith("all")
    # per conversation too: a gain only one conversation shows is visible
    assert list(report.conversations) == ["tiny-1", "tiny-2"]
    assert report.conversations["tiny-2"].questions == 1
    assert any(line.startswith("tiny-2") for line in text.splitlines())
    data = report_json(report)
    assert data["summary"]["all"]["recall"]["1"] == pytest.approx(0.5, abs=1e-4)
    assert data["questions"][0]["ranked"][0] == "D1:1"
    assert data["summary"]["all"]["unshared_turns"] == 2
    assert data["questions"][1]["unshared"] == ["D2:3"]


@pytest.mark.stores
async def test_each_conversation_gets_a_fresh_memory(settings: Settings) -> None:
    """A turn of one conversation is never an answer in another."""
    data = tiny()
    data[1]["qa"][0]["question"] = "What greyhound?"  # the dog lives in tiny-1 only
    data[1]["qa"][0]["evidence"] = ["D1:1"]
    report = await evaluate(parse(data, "x"), settings=settings, embedder=None, ks=(5,))
    last = report.results[-1]
    assert last.sample_id == "tiny-2" and last.ranked == ()
    assert report.model_id == "none (lexical only)"


def test_cut_offs_are_checked() -> None:
    assert parse_ks("15,5,5,50") == (5, 15, 50)
    for bad in ("", "0,5", "five", "5,-1"):
        with pytest.raises(InputError, match="--k"):
            parse_ks(bad)


def test_cli_lexical_only_prints_the_table_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(tiny()), encoding="utf-8")
    out = tmp_path / "out.json"
    code = main(
        ["--data-dir", str(tmp_path / "unused"), "eval", "retrieval", str(data), "--k", "1,5",
         "--json", str(out), "--lexical-only"]
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "R@1" in printed and "R@5" in printed and "temporal" in printed
    assert json.loads(out.read_text())["summary"]["all"]["questions"] == 3
    assert not (tmp_path / "unused").exists()  # the evaluation never touches the data dir


@pytest.mark.stores("postgres")
def test_cli_store_runs_the_evaluation_on_postgresql(
    storage_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(tiny()), encoding="utf-8")
    out = tmp_path / "out.json"
    code = main(
        ["--data-dir", str(tmp_path / "unused"), "eval", "retrieval", str(data), "--k", "1,5",
         "--json", str(out), "--lexical-only", "--store", storage_url]
    )  # fmt: skip
    assert code == 0
    assert "store postgres" in capsys.readouterr().out
    report = json.loads(out.read_text())
    assert report["store"] == "postgres" and report["summary"]["all"]["questions"] == 3


def test_cli_store_with_a_password_is_refused_without_showing_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(tiny()), encoding="utf-8")
    url = "postgresql://kit:hunter2@localhost/kit"
    assert main(["eval", "retrieval", str(data), "--lexical-only", "--store", url]) == 2
    err = capsys.readouterr().err
    assert "--store holds a password" in err and "PGPASSWORD" in err and "hunter2" not in err


def test_cli_bad_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "bad.json"
    data.write_text(json.dumps([{"sample_id": "s", "conversation": {}, "qa": []}]))
    assert main(["eval", "retrieval", str(data), "--lexical-only"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "'speaker_a' must be a str" in err
    assert main(["eval", "retrieval", str(data), "--k", "0"]) == 2


@pytest.mark.integration
def test_cli_with_the_real_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require_model()
    config = tmp_path / "config.toml"
    config.write_text(f'[embedding]\nmodel_path = "{MODEL_DIR}"\n')
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(tiny()), encoding="utf-8")
    assert main(["--config", str(config), "eval", "retrieval", str(data), "--k", "1,5"]) == 0
    printed = capsys.readouterr().out
    assert "model sentence-transformers/all-MiniLM-L6-v2" in printed


def _keep_first(request: LLMRequest) -> LLMReply:
    """Keeps candidate 1; says the marathon question's model is down."""
    if "marathon" in str(request.messages[0].content):
        raise LLMUnavailable("overloaded")
    return LLMReply((ToolUse("t", TOOL_NAME, {"keep": [1]}),), "tool_use", Usage(300, 10))


async def test_the_model_filter_is_measured_with_its_calls_fallbacks_and_tokens(
    settings: Settings,
) -> None:
    samples = parse(tiny(), "tiny.json")
    plain = await evaluate(samples, settings=settings, embedder=HashingEmbedder(), ks=(1, 50))
    assert plain.filter is None
    report = await evaluate(
        samples,
        settings=with_memory(settings, filter="model"),
        embedder=HashingEmbedder(),
        ks=(1, 50),
        llm=FakeLLM(default=_keep_first),
    )
    by_question = {r.question: r for r in report.results}
    unfiltered = {r.question: r for r in plain.results}
    # kept: the first candidate only
    assert by_question["What greyhound?"].ranked == unfiltered["What greyhound?"].ranked[:1]
    # the model was down for this one: Kit's own ranking, whole
    marathon = "Where is the marathon?"
    assert by_question[marathon].ranked == unfiltered[marathon].ranked
    f = report.filter
    assert f is not None
    asked = sum(1 for r in report.results if r.filter is not None and r.filter.asked)
    assert f.calls == asked and f.fallbacks == {"the model is unavailable": 1}
    assert f.kept_mean == 1.0
    # read back from the usage log: only the calls that answered cost tokens
    assert (f.input_tokens, f.output_tokens) == (300 * (asked - 1), 10 * (asked - 1))
    assert "model filter:" in format_report(report)
    assert report_json(report)["filter"]["calls"] == asked


def test_cli_filter_needs_a_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(tiny()), encoding="utf-8")
    args = ["eval", "retrieval", str(data), "--lexical-only", "--filter", "model"]
    assert main(["--data-dir", str(tmp_path / "d"), *args]) == 2
    assert "export ANTHROPIC_API_KEY" in capsys.readouterr().err


def test_cli_filter_calls_the_endpoint_the_config_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    with FakeAnthropicServer() as server:
        server.responder = lambda _body: tool_use_reply(TOOL_NAME, {"keep": [1]})
        config = tmp_path / "config.toml"
        # A generous filter deadline: the first call loads the SDK inside it.
        config.write_text(
            f'[llm]\nbase_url = "{server.url}"\nmax_retries = 0\n'
            "[memory]\nfilter_timeout_seconds = 120\n"
        )
        data = tmp_path / "tiny.json"
        data.write_text(json.dumps(tiny()), encoding="utf-8")
        args = ["--config", str(config), "--data-dir", str(tmp_path / "d"), "eval", "retrieval"]
        assert main([*args, str(data), "--lexical-only", "--filter", "model"]) == 0
        calls = [r for r in server.requests if r.json.get("tool_choice")]
    printed = capsys.readouterr().out
    assert "model filter: " in printed and "0 fell back" in printed
    assert calls and all(c.json["tool_choice"]["name"] == TOOL_NAME for c in calls)


def test_cli_two_corpora_each_get_rows_with_intervals_and_tokens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each file is a corpus of its own: its rows, recall at memory.top_k with a bootstrap
    interval, tokens at each k; --json holds both, by file name."""
    first, second = tmp_path / "one.json", tmp_path / "two.json"
    first.write_text(json.dumps(tiny()), encoding="utf-8")
    second.write_text(json.dumps(tiny()[:1]), encoding="utf-8")
    out = tmp_path / "out.json"
    code = main(
        ["--data-dir", str(tmp_path / "unused"), "eval", "retrieval", str(first), str(second),
         "--k", "1,15", "--json", str(out), "--lexical-only"]
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "== corpus one.json ==" in printed and "== corpus two.json ==" in printed
    assert printed.count("R@15 95% CI") == 2 and "tok@15" in printed
    row = next(line for line in printed.splitlines() if line.startswith("all"))
    assert "[" in row and "]" in row
    data = json.loads(out.read_text())["corpora"]
    assert set(data) == {"one.json", "two.json"}
    interval = data["one.json"]["summary"]["all"]["recall_interval"]
    assert interval["k"] == 15 and interval["low"] <= interval["high"]
    assert data["two.json"]["summary"]["all"]["questions"] == 2


def test_cli_a_question_set_needs_one_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(tiny()), encoding="utf-8")
    other = tmp_path / "other.json"
    other.write_text(json.dumps(tiny()), encoding="utf-8")
    args = ["eval", "retrieval", str(data), str(other), "--lexical-only", "--questions", str(data)]
    assert main(args) == 2
    assert "name one file" in capsys.readouterr().err
