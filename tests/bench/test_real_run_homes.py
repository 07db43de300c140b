"""bench/real_model.py --full keeps each conversation in a Kit home of its own (issue 29, run 6:
the 10 chat turns, owner Sam, and BEAM-100K's conversation, whose User says "I'm Darryl", went
into one home, and the curator stored "the owner is Darryl" beside Sam's job in Leeds). Run
in quick mode through the real openai SDK against the local fake playing a plausible model."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.servers.plausible import plausible
from tests.servers.providers import Endpoint

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data"

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not (DATA / "beam-100k.json").exists() or not (DATA / "locomo-dev.json").exists(),
        reason=f"the run reads BEAM-100K and LoCoMo dev from {DATA}, which is not here",
    ),
]


async def test_no_model_call_sees_two_owners_and_each_home_holds_one_conversation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(REPO / "bench"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    from real_model import full_llm  # type: ignore[import-not-found]
    from real_run import run_full  # type: ignore[import-not-found]

    async with Endpoint.start("openai") as endpoint:
        plausible(endpoint)
        otherwise = endpoint.responder

        def who(body: dict[str, Any]) -> Any:
            """A model that takes "I'm NAME" as who the owner is, as the 1.5B did."""
            system = endpoint.system_of(body)
            if "the input of list_facts" not in system:
                return otherwise(body)
            facts = [
                {"message": int(n), "topic": "person", "fact": f"the owner is {name}"}
                for n, name in re.findall(r"^\[msg (\d+), [^\]]*\] the owner: .*?I'm (Sam|Darryl)",
                                          system, re.MULTILINE)
            ]  # fmt: skip
            return endpoint.text(json.dumps({"facts": facts}))

        endpoint.responder = who
        args = argparse.Namespace(
            base_url=endpoint.url,
            model="fake",
            judge_model="",
            structured_output="json_object",
            context=8192,
        )
        report = await run_full(full_llm(args), quick=True, qa_questions=3)
        bodies = [json.dumps(b) for b in endpoint.bodies()]
    owners: dict[str, set[str]] = {}
    for fact in report.facts:
        owners.setdefault(fact["source"], set()).add(fact["fact"][0].lower() + fact["fact"][1:])
    # each home's owner is one person: Sam in the chat's, Darryl in BEAM's
    assert owners == {"chat": {"the owner is Sam"}, "BEAM-100K-16": {"the owner is Darryl"}}
    assert [b[:300] for b in bodies if "I'm Sam" in b and "I'm Darryl" in b] == []
    held = {home: set(h["messages"]) for home, h in report.homes.items()}
    assert held == {
        "chat": {"default (user)", "default (assistant)"},
        "BEAM-100K-16": {"beam-100K-16 (user)", "beam-100K-16 (assistant)"},
        "LoCoMo conv-26": {"conv-26 (user)"},
    }
    assert {p.source for p in report.passes} == set(held)
    assert report.tracebacks == []
