"""The same stories on both providers (the real anthropic and openai SDKs against local fakes):
a reply and a curation pass work; bad model answers (wrong types, empty fields, looping to
the output limit, a stalled server) become recorded rejections, never a crash; a timed-out
background prompt is never resent at once and still counts against the daily budget."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from datetime import date, timedelta
from typing import Any

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import CATEGORIES, Settings
from kit.embed.hashing import HashingEmbedder
from kit.jobs.attempts import DAILY_SUMMARY
from tests.servers.providers import PROVIDERS, Endpoint
from tests.support.curation import shown_ids

pytestmark = [pytest.mark.parametrize("provider", PROVIDERS), pytest.mark.stores]

TIMEOUT = 0.5  # the model's timeout where the fault is a stall (of 2 s): `model_timeout`


@pytest.fixture
async def endpoint(provider: str) -> AsyncIterator[Endpoint]:
    async with Endpoint.start(provider) as running:
        yield running


@pytest.fixture
def model_timeout() -> float:
    """Generous: a loaded machine must never turn a normal answer from the local server into
    a timeout. The tests of a stalled server set TIMEOUT (`parametrize("model_timeout")`)."""
    return 60.0


@pytest.fixture
async def real_kit(
    settings: Settings,
    endpoint: Endpoint,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    model_timeout: float,
) -> AsyncIterator[Kit]:
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)  # a server on this machine needs no key
    # One retry allowed: a passing refusal would be tried again, a timed-out prompt never is.
    llm = endpoint.llm(timeout_seconds=model_timeout, max_retries=1)
    async with Kit.open(
        settings=dataclasses.replace(settings, llm=llm),
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as opened:
        yield opened


def _curator(endpoint: Endpoint, people: Any) -> None:
    """The model: `people(body)` answers the people pass; the others change nothing."""

    def answer(body: dict[str, Any]) -> Any:
        if "`people`" in endpoint.asked_of(body):
            return people(body)
        return endpoint.call("apply_operations", {"operations": []})

    endpoint.responder = answer


async def _said(kit: Kit, clock: FakeClock, text: str) -> None:
    s = kit.services
    chat = await s.messages.conversation("owner", "api", "c")
    await s.messages.add(chat, "user", text)
    clock.advance(timedelta(minutes=31))  # the conversation is over


async def test_a_reply_and_a_curation_pass_work(
    real_kit: Kit, endpoint: Endpoint, clock: FakeClock
) -> None:
    endpoint.queue(endpoint.text("Nice to meet you, Ana."))
    result = await real_kit.send("My sister Ana lives in Porto.")
    assert not result.failed and result.reply == "Nice to meet you, Ana."
    chat = endpoint.bodies()[-1]
    assert chat["model"] == "chat-model" and "My sister Ana" in endpoint.asked_of(chat)
    clock.advance(timedelta(minutes=31))

    def people(body: dict[str, Any]) -> Any:
        ids = shown_ids(endpoint.system_of(body))
        op = {"op": "INSERT", "subject": "Ana", "content": "Ana, the owner's sister, lives "
              "in Porto", "confidence": 0.9, "sources": ids[:1]}  # fmt: skip
        return endpoint.call("apply_operations", {"operations": [op]})

    _curator(endpoint, people)
    assert await real_kit.services.curator.sweep_idle(clock.now()) == len(CATEGORIES)
    (fact,) = await real_kit.facts()
    assert fact.content == "Ana, the owner's sister, lives in Porto"
    curation = [b for b in endpoint.bodies() if "apply_operations" in str(b)]
    assert {b["model"] for b in curation} == {"small-model"}


BAD_ANSWERS = {
    "wrong types": lambda e: e.call(
        "apply_operations",
        {"operations": [{"op": "INSERT", "content": ["x"], "confidence": "high", "sources": 1}]},
    ),
    "empty fields": lambda e: e.call(
        "apply_operations",
        {"operations": [{"op": "INSERT", "content": " ", "confidence": 0.9, "sources": []}]},
    ),
    "looping to the output limit": lambda e: e.cut_at_limit(
        e.call("apply_operations", {"operations": []})
    ),
    "an empty answer": lambda e: e.text(""),
}
WHY = {
    "wrong types": "'sources' must be a list",
    "empty fields": "'sources' is empty",
    "looping to the output limit": "cut off at max_tokens",
    "an empty answer": "the answer was empty",
}


@pytest.mark.parametrize("bad", list(BAD_ANSWERS))
async def test_a_bad_curation_answer_is_a_recorded_rejection(
    real_kit: Kit, endpoint: Endpoint, clock: FakeClock, bad: str
) -> None:
    await _said(real_kit, clock, "Ana moved to Lisbon.")
    _curator(endpoint, lambda body: BAD_ANSWERS[bad](endpoint))
    await real_kit.services.curator.sweep_idle(clock.now())
    assert await real_kit.facts() == []
    (record,) = [p for p in await real_kit.passes() if p.category == "people"]
    assert record.status == "rejected" and WHY[bad] in record.reason


@pytest.mark.parametrize("model_timeout", [TIMEOUT])
async def test_a_stalled_server_is_a_recorded_failure_not_resent_at_once_and_budgeted(
    real_kit: Kit, endpoint: Endpoint, clock: FakeClock
) -> None:
    """The model never answers in time: the pass is recorded as failed with the setting to
    raise, its attempt counts (backoff), the sweep stops (the other six passes would only
    wait as long), nothing is resent at the next tick, and the call counts in the budget."""
    await _said(real_kit, clock, "Ana moved to Lisbon.")
    endpoint.responder = lambda body: {"kind": "stall", "seconds": 4 * TIMEOUT}
    s = real_kit.services
    await s.curator.sweep_idle(clock.now())
    assert len(endpoint.bodies()) == 1  # no SDK retry of a timed-out background prompt
    (record,) = await real_kit.passes()
    assert record.status == "failed"
    assert f"did not answer within {TIMEOUT:g} s (llm.background.timeout_seconds)" in (
        record.reason
    )
    clock.advance(timedelta(minutes=5))
    await s.curator.sweep_idle(clock.now())
    first, second = (endpoint.asked_of(b) for b in endpoint.bodies())
    assert "`person`" in first and "`people`" in second  # the next one, not the same again
    midnight = clock.now().replace(hour=0, minute=0)
    assert await s.usage.background_tokens_since(midnight) > 0


async def test_bad_daily_summaries_are_recorded_never_stored(
    real_kit: Kit, endpoint: Endpoint, clock: FakeClock
) -> None:
    s = real_kit.services
    day = date(2026, 3, 1)
    chat = await s.messages.conversation("owner", "api", "c")
    await s.messages.add(
        chat, "user", "We decided to ship on Friday.", at=clock.now() - timedelta(days=1)
    )
    answers = [
        endpoint.text("I'm sorry, I cannot help with that."),
        endpoint.cut_at_limit(endpoint.text("- We decided to ship on Fri")),
        endpoint.text(""),
    ]
    reasons = []
    for answer in answers:
        endpoint.queue(answer)
        run = await s.summarizer.summarize_many("owner", [day])
        (rejected,) = run.rejected
        reasons.append(rejected[1])
    assert await s.days.get("owner", day) is None
    assert "refusal" in reasons[0] and "cut off" in reasons[1] and "empty" in reasons[2]
    assert (await s.attempts.held())[0].kind == DAILY_SUMMARY  # counted: held after three


@pytest.mark.parametrize("model_timeout", [TIMEOUT])
async def test_a_stalled_daily_summary_is_a_recorded_timeout_never_stored(
    real_kit: Kit, endpoint: Endpoint, clock: FakeClock
) -> None:
    s = real_kit.services
    day = date(2026, 3, 1)
    chat = await s.messages.conversation("owner", "api", "c")
    await s.messages.add(
        chat, "user", "We decided to ship on Friday.", at=clock.now() - timedelta(days=1)
    )
    endpoint.queue_stall(4 * TIMEOUT)
    run = await s.summarizer.summarize_many("owner", [day])
    assert run.timed_out and "did not answer within" in run.rejected[0][1]
    assert await s.days.get("owner", day) is None
