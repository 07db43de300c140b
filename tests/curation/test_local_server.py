"""Curation against a server as llama-cpp-python serves one (the real openai SDK against the
local fake in that dialect, tests/servers/openai_api.py): what broke in issue 29's first real
run, each as it now works. Its `response_format` is `json_object` with a `schema` (a
`json_schema` one is a 500), it turns the operation schema into a grammar (length limits in
it are a 500), and a small model's JSON comes fenced, with trailing commas, or not at all."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from tests.servers import openai_api
from tests.servers.providers import Endpoint
from tests.support.curation import shown_ids

pytestmark = pytest.mark.stores


@pytest.fixture
async def endpoint() -> AsyncIterator[Endpoint]:
    async with openai_api.FakeOpenAIServer(dialect="llama-cpp-python") as server:
        yield Endpoint("openai", server)


async def _kit(
    settings: Settings, endpoint: Endpoint, clock: FakeClock, structured: str
) -> AsyncIterator[Kit]:
    llm = endpoint.llm(
        timeout_seconds=60.0, max_retries=0, preset="local", structured_output=structured
    )
    # The operation style on purpose (the local preset's own is "extract": test_extract.py).
    curation = dataclasses.replace(settings.curation, style="operations")
    async with Kit.open(
        settings=dataclasses.replace(settings, llm=llm, curation=curation),
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as opened:
        yield opened


@pytest.fixture
async def json_kit(
    settings: Settings, endpoint: Endpoint, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Kit]:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    async for kit in _kit(settings, endpoint, clock, "json_object"):
        yield kit


@pytest.fixture
async def tool_kit(
    settings: Settings, endpoint: Endpoint, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Kit]:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    async for kit in _kit(settings, endpoint, clock, "tool"):
        yield kit


def _people(answer: Any) -> Any:
    """The model: `answer(body, ids)` for the people pass (text), nothing for the others."""

    def respond(body: dict[str, Any]) -> Any:
        system = "".join(m["content"] for m in body["messages"] if m["role"] == "system")
        asked = json.dumps(body["messages"][1:])
        if "`people`" in asked:
            return answer(body, shown_ids(system))
        if body.get("tool_choice"):
            return openai_api.tool_call_reply("apply_operations", {"operations": []})
        return '{"operations": []}'

    return respond


def _ana(ids: list[int]) -> dict[str, Any]:
    return {"op": "INSERT", "subject": "Ana", "content": "Ana, the owner's sister, lives in Porto",
            "confidence": 0.9, "sources": ids}  # fmt: skip


async def _said(kit: Kit, clock: FakeClock) -> None:
    chat = await kit.services.messages.conversation("owner", "api", "c")
    await kit.services.messages.add(chat, "user", "My sister Ana lives in Porto.")
    clock.advance(timedelta(minutes=31))


async def test_json_object_with_a_schema_is_the_dialect_that_curates(
    json_kit: Kit, endpoint: Endpoint, clock: FakeClock
) -> None:
    """structured_output = "json_object": the operation schema goes as llama-cpp-python takes
    it, without a length limit its grammar compiler cannot take, and the answer is stored."""
    endpoint.responder = _people(lambda body, ids: json.dumps({"operations": [_ana(ids)]}))
    await _said(json_kit, clock)
    outcomes = await json_kit.services.curator.curate_user("owner")
    assert {o.status for o in outcomes} == {"applied", "noop"}
    assert [f.content for f in await json_kit.facts()] == [
        "Ana, the owner's sister, lives in Porto"
    ]
    sent = endpoint.bodies()[0]
    assert sent["response_format"]["type"] == "json_object"
    assert "maxLength" not in json.dumps(sent["response_format"]["schema"])
    assert "tools" not in sent


async def test_a_forced_tool_whose_schema_the_server_compiles_into_a_grammar(
    tool_kit: Kit, endpoint: Endpoint, clock: FakeClock
) -> None:
    """structured_output = "tool": the server builds a grammar from the tool's schema too; the
    operation schema has no length limits (Kit checks lengths itself), so it can."""
    endpoint.responder = _people(
        lambda body, ids: openai_api.tool_call_reply(
            "apply_operations", {"operations": [_ana(ids)]}
        )
    )
    await _said(tool_kit, clock)
    outcomes = await tool_kit.services.curator.curate_user("owner")
    assert [o.status for o in outcomes if o.status not in ("applied", "noop")] == []
    assert len(await tool_kit.facts()) == 1


async def test_json_a_small_model_gets_wrong_is_read(
    json_kit: Kit, endpoint: Endpoint, clock: FakeClock
) -> None:
    """Fenced after a sentence, with trailing commas, the list without its object."""
    endpoint.responder = _people(
        lambda body, ids: (
            "Here are the operations:\n```json\n"
            + json.dumps([_ana(ids)]).replace("}]", "},]")
            + "\n```"
        )
    )
    await _said(json_kit, clock)
    await json_kit.services.curator.curate_user("owner")
    assert len(await json_kit.facts()) == 1


async def test_an_unreadable_answer_is_asked_for_once_more_and_only_once(
    json_kit: Kit, endpoint: Endpoint, clock: FakeClock
) -> None:
    answers = iter(["I would store that Ana lives in Porto.", "Sure!", "still no JSON"])
    endpoint.responder = _people(lambda body, ids: next(answers))
    await _said(json_kit, clock)
    outcomes = await json_kit.services.curator.curate_user("owner")
    (people,) = [o for o in outcomes if o.category == "people"]
    assert people.status == "rejected" and "nor valid JSON" in people.reason
    asked = [b for b in endpoint.bodies() if "`people`" in json.dumps(b["messages"][1:])]
    assert len(asked) == 2  # the first call and one more, never a third
    assert "could not be read" in json.dumps(asked[1]["messages"][-1])


async def test_asked_once_more_a_model_that_answers_right_is_applied(
    json_kit: Kit, endpoint: Endpoint, clock: FakeClock
) -> None:
    first = {"done": False}

    def answer(body: dict[str, Any], ids: list[int]) -> str:
        if not first["done"]:
            first["done"] = True
            return "Ana lives in Porto, I would store that."
        return json.dumps({"operations": [_ana(ids)]})

    endpoint.responder = _people(answer)
    await _said(json_kit, clock)
    outcomes = await json_kit.services.curator.curate_user("owner")
    (people,) = [o for o in outcomes if o.category == "people"]
    assert people.status == "applied" and len(people.inserted_fact_ids) == 1


async def test_json_schema_is_a_recorded_failure_on_this_server(
    settings: Settings, endpoint: Endpoint, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wrong dialect for the server: every pass fails with a reason, nothing crashes."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    async for kit in _kit(settings, endpoint, clock, "json"):
        await _said(kit, clock)
        outcomes = await kit.services.curator.curate_user("owner")
        assert outcomes and all(o.status == "failed" for o in outcomes)
        assert await kit.facts() == []
