"""`kit eval qa`: the plumbing (real context in, the chat model's answer, the judge's verdict
read from plain text), resume, grading, cost accounting, and a run that loses its endpoint,
with the scripted model (FakeLLM) and, end to end through the CLI, with the real openai SDK
against a local fake that plays the chat model and the judge."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest

from kit.cli import main
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.errors import LLMUnavailable
from kit.eval import locomo
from kit.eval.judge import read_verdict
from kit.eval.qa import QAResult, evaluate_qa
from kit.eval.qa_report import accuracy, format_report, totals
from kit.llm.base import LLMReply, LLMRequest, TextBlock, Usage
from kit.llm.fake import FakeLLM
from kit.model_settings import LLMSettings, RoleSettings, model_role
from tests.eval.tiny import tiny
from tests.servers.openai_api import FakeOpenAIServer, error_reply

GOLD = re.compile(r"Gold answer: (.*)\nGenerated answer: (.*)\n")


def _samples() -> list[locomo.Sample]:
    return locomo.parse(tiny(), "tiny")


def scripted(request: LLMRequest) -> LLMReply:
    """The chat model knows Biscuit and Lisbon from its context; the judge compares."""
    text = request.messages[-1].content[0].text  # type: ignore[union-attr]
    if request.purpose == "eval_judge":
        gold, answer = GOLD.search(text).groups()  # type: ignore[union-attr]
        label = "CORRECT" if gold.lower() in answer.lower() else "WRONG"
        reply = (
            f'The answer {"matches" if label == "CORRECT" else "misses"}.\n{{"label": "{label}"}}'
        )
        return LLMReply((TextBlock(reply),), "end_turn", Usage(200, 20), request.model)
    memory = "\n".join(b.text for b in request.system)
    known = {"greyhound": "Biscuit", "marathon": "Lisbon"}
    answer = next((a for q, a in known.items() if q in text and a in memory), "")
    answer = answer or "I don't know."
    return LLMReply((TextBlock(answer),), "end_turn", Usage(1000, 10, 800, 0), request.model)


def _priced(settings: Settings) -> Settings:
    chat = RoleSettings(price_input=3.0, price_output=15.0)
    judge = RoleSettings(price_input=1.0, price_output=5.0)
    return dataclasses.replace(settings, llm=LLMSettings(chat=chat, judge=judge))


async def test_answers_from_kits_context_are_graded_and_costed(settings: Settings) -> None:
    model = FakeLLM(default=scripted)
    run = await evaluate_qa(
        _samples(), settings=_priced(settings), embedder=HashingEmbedder(), llm=model
    )
    assert [(r.sample_id, r.question, r.verdict) for r in run.results] == [
        ("tiny-1", "What greyhound?", "CORRECT"),
        ("tiny-1", "Which orchestra?", "WRONG"),
        ("tiny-2", "Where is the marathon?", "CORRECT"),
    ]
    answers = model.requests_for("eval_answer")
    assert len(answers) == 3 and all(
        r.tools == () and r.model == "claude-sonnet-4-6" for r in answers
    )
    # The context a turn would send: Kit's system prompt with the retrieved turn in it.
    assert "greyhound called Biscuit" in "\n".join(b.text for b in answers[0].system)
    judged = model.requests_for("eval_judge")
    assert [r.model for r in judged] == ["claude-haiku-4-5"] * 3 and judged[0].tools == ()
    assert (
        "Gold answer: Biscuit\nGenerated answer: Biscuit" in judged[0].messages[0].content[0].text
    )  # type: ignore[union-attr]
    table = accuracy(run.results)
    assert (table["all"].questions, table["all"].correct) == (3, 2)
    assert table["single-hop"].accuracy == 1.0 and table["multi-hop"].accuracy == 0.0
    assert all(r.memory_tokens > 0 and r.context_tokens > r.memory_tokens for r in run.results)
    answer_usage, judge_usage = totals(run.results)
    assert answer_usage == Usage(3000, 30, 2400, 0) and judge_usage == Usage(600, 60)
    report = format_report(
        run,
        model_role(_priced(settings).llm, "chat"),
        model_role(_priced(settings).llm, "judge"),
        source="tiny.json",
        total=3,
    )
    # (3,000 + 0.1 x 2,400) x $3 + 30 x $15, per million; the judge 600 x $1 + 60 x $5.
    assert "cost $0.0102" in report and "cost $0.0009" in report
    assert re.search(r"all\s+3\s+2\s+0\.667", report)


async def test_a_lost_endpoint_stops_with_what_was_measured_and_resume_asks_only_the_rest(
    settings: Settings,
) -> None:
    saved: list[QAResult] = []
    model = FakeLLM(default=scripted)
    calls = 0

    def flaky(request: LLMRequest) -> LLMReply:
        nonlocal calls
        calls += 1
        if calls == 4:  # the second question's answer: the endpoint is gone
            raise LLMUnavailable("cannot reach the model API; check the network or llm.base_url")
        return scripted(request)

    model.default = flaky
    run = await evaluate_qa(
        _samples(), settings=settings, embedder=HashingEmbedder(), llm=model, on_result=saved.append
    )
    assert run.stopped and "cannot reach" in run.stopped
    assert [r.question for r in run.results] == ["What greyhound?"] == [r.question for r in saved]
    again = FakeLLM(default=scripted)
    resumed = await evaluate_qa(
        _samples(),
        settings=settings,
        embedder=HashingEmbedder(),
        llm=again,
        done={r.key: r for r in saved},
    )
    assert resumed.stopped is None and len(resumed.results) == 3
    assert [r.messages[0].content[0].text for r in again.requests_for("eval_answer")] == [  # type: ignore[union-attr]
        "Which orchestra?",
        "Where is the marathon?",
    ]


async def test_limit_takes_the_first_questions(settings: Settings) -> None:
    model = FakeLLM(default=scripted)
    run = await evaluate_qa(
        _samples(), settings=settings, embedder=HashingEmbedder(), llm=model, limit=2
    )
    assert [r.question for r in run.results] == ["What greyhound?", "Which orchestra?"]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ('The answer names the same dog.\n{"label": "CORRECT"}', "CORRECT"),
        ('```json\n{"label": "WRONG"}\n```', "WRONG"),
        ('Reasoning first. {"label": "correct"}', "CORRECT"),
        ("It refers to another city, so WRONG", "WRONG"),
        ("Both CORRECT and WRONG could apply", "unreadable"),
        ('{"label": "MAYBE"}', "unreadable"),
        ("", "unreadable"),
    ],
)
def test_the_verdict_is_read_from_plain_text(text: str, verdict: str) -> None:
    assert read_verdict(text) == verdict


def test_the_judge_prompt_is_mem0s_locomo_prompt_word_for_word() -> None:
    text = (Path(__file__).resolve().parents[2] / "prompts" / "eval_judge.md").read_text()
    assert text.startswith("Your task is to label an answer to a question as ’CORRECT’ or ’WRONG’.")
    assert (
        'Just return the label CORRECT or WRONG in a json format with the key as "label".' in text
    )
    assert (
        "Question: $question\nGold answer: $gold_answer\nGenerated answer: $generated_answer"
        in text
    )


# -- the CLI, end to end through the real openai SDK ----------------------------------------


def _judge_or_answer(body: dict[str, Any], fail_on: str | None = None) -> Any:
    text = body["messages"][-1]["content"]
    if "Gold answer:" in text:
        gold, answer = GOLD.search(text).groups()  # type: ignore[union-attr]
        label = "CORRECT" if gold.lower() in answer.lower() else "WRONG"
        return f'Compared.\n{{"label": "{label}"}}'
    if fail_on is not None and fail_on in text:
        return error_reply(500)
    system = body["messages"][0]["content"]
    return "Biscuit" if "Biscuit" in system and "greyhound" in text else "Lisbon"


def _cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: FakeOpenAIServer) -> Path:
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(tiny()))
    config = tmp_path / "config.toml"
    config.write_text(
        f'[llm]\nprovider = "openai"\nbase_url = "{server.url}"\nmax_retries = 0\n'
        'chat_model = "local-chat"\nsmall_model = "local-small"\n'
    )
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    return data


def test_kit_eval_qa_runs_end_to_end_writes_json_stops_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "qa.json"
    with FakeOpenAIServer() as server:
        data = _cli(tmp_path, monkeypatch, server)
        server.responder = lambda body: _judge_or_answer(body, fail_on="orchestra")
        code = main(["eval", "qa", str(data), "--json", str(out), "--lexical-only"])
        printed = capsys.readouterr().out
        assert code == 1 and "STOPPED after 1 of 3" in printed and "internal error" in printed
        first = json.loads(out.read_text())
        assert first["stopped"] and [r["verdict"] for r in first["results"]] == ["CORRECT"]
        assert main(["eval", "qa", str(data), "--json", str(out), "--lexical-only"]) == 2
        assert "pass --resume" in capsys.readouterr().err

        server.responder = _judge_or_answer
        asked = len(server.completions())
        code = main(["eval", "qa", str(data), "--json", str(out), "--lexical-only", "--resume"])
        printed = capsys.readouterr().out
        bodies = server.completions()[asked:]
    assert code == 0, printed
    assert len(bodies) == 4  # two answers and two grades: the first question was not asked again
    judge = next(b for b in bodies if "Gold answer:" in b["messages"][-1]["content"])
    assert (
        judge["model"] == "local-small" and "tools" not in judge and "response_format" not in judge
    )
    answer = next(b for b in bodies if b["model"] == "local-chat")
    assert "tools" not in answer
    result = json.loads(out.read_text())
    assert result["stopped"] is None and result["accuracy"]["all"]["questions"] == 3
    assert result["accuracy"]["all"]["correct"] == 2  # "Which orchestra?" -> Lisbon: WRONG
    assert result["cost_usd"] == {"answers": None, "grades": None}  # a local model: no price
    assert re.search(r"all\s+3\s+2\s+0\.667", printed)
    assert "cost unknown (set llm.chat.price_input and price_output)" in printed


async def test_answers_are_also_scored_by_exact_match_and_f1_and_the_judge_is_named(
    settings: Settings,
) -> None:
    """Numbers to set beside published ones: exact and F1 need no model; the report names the
    judge and the temperatures each role ran at."""
    llm = LLMSettings(
        chat=RoleSettings(temperature=0.0), judge=RoleSettings(model="judge-m", temperature=0.0)
    )
    model = FakeLLM(default=scripted)
    run = await evaluate_qa(
        _samples(), settings=dataclasses.replace(settings, llm=llm),
        embedder=HashingEmbedder(), llm=model, short_answers=True,
    )  # fmt: skip
    assert [r.exact for r in run.results] == [True, False, True]
    assert [round(r.f1, 2) for r in run.results] == [1.0, 0.0, 1.0]
    table = accuracy(run.results)
    assert round(table["all"].exact, 3) == 0.667 and round(table["all"].f1, 3) == 0.667
    answers, judged = model.requests_for("eval_answer"), model.requests_for("eval_judge")
    assert all(r.temperature == 0.0 for r in answers + judged)
    assert "Six\n  words at most" in answers[0].messages[0].content[0].text  # type: ignore[union-attr]
    report = format_report(
        run, model_role(llm, "chat"), model_role(llm, "judge"), source="tiny.json", total=3
    )
    assert "graded by judge-m" in report and "temperature 0" in report
    assert re.search(r"all\s+3\s+2\s+0\.667\s+0\.667\s+0\.667", report)
    assert "judge: judge-m (its verdicts are the 'judge' column)" in report


def test_exact_match_and_f1_normalise_as_locomo_does() -> None:
    from kit.eval.answer_score import exact_match, token_f1

    assert exact_match("The Lisbon.", "lisbon") and not exact_match("Lisbon, Portugal", "Lisbon")
    assert token_f1("in Lisbon, Portugal", "Lisbon") == pytest.approx(0.5)  # P 1/3, R 1
    assert token_f1("", "") == 1.0 and token_f1("Porto", "Lisbon") == 0.0


def _beam_shaped() -> list[locomo.Sample]:
    """A BEAM-shaped sample: an owner ("User") talking to an assistant ("Assistant")."""
    session = [
        {"speaker": "User", "dia_id": "D1:1", "text": "I keep a sourdough starter called Bubbles."},
        {
            "speaker": "Assistant",
            "dia_id": "D1:2",
            "text": "You should feed it rye flour every morning at 7.",
        },
    ]
    raw = {
        "sample_id": "beam-tiny",
        "conversation": {
            "speaker_a": "User",
            "speaker_b": "Assistant",
            "session_1_date_time": "10:00 am on 8 May, 2023",
            "session_1": session,
        },
        "qa": [
            {"question": "What is the starter called?", "answer": "Bubbles",
             "evidence": ["D1:1"], "category": 4},
        ],
    }  # fmt: skip
    return locomo.parse([raw], "beam-tiny")


async def test_beams_assistant_turns_are_kits_own_messages_not_the_owners(
    settings: Settings,
) -> None:
    """With --curate on BEAM, the Assistant's words reach the curator as Kit's lines (no message
    id to cite), never as something the owner said; the User's turns are the owner's."""
    model = FakeLLM(default=scripted)
    await evaluate_qa(
        _beam_shaped(), settings=settings, embedder=HashingEmbedder(), llm=model, curate=True
    )
    batches = "\n".join(b.text for r in model.requests_for("curate:") for b in r.system)
    assert re.search(r"\] Kit: You should feed it rye flour", batches)
    assert not re.search(r"msg \d+[^\]]*\] [^:]*: You should feed it rye flour", batches)
    assert re.search(r"\[msg \d+[^\]]*\] [^:]*: I keep a sourdough starter", batches)
    assert "Assistant:" not in batches and "User:" not in batches
