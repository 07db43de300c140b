"""A model with a small window (`llm.context_tokens`, the `local` preset): curation batches,
daily summaries, REM condensing and window folds are split to fit and say so; the seven
category passes over a batch share one prefix on both providers (Anthropic's cache_control,
the same leading bytes for OpenAI's and llama.cpp's prompt caches); the small tool set."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import CATEGORIES, Settings
from kit.curator.pass_fit import pass_fit
from kit.embed.hashing import HashingEmbedder
from kit.llm.base import LLMRequest
from kit.llm.fake import FakeLLM
from kit.llm.tokens import estimate_request
from kit.memory.messages import NewMessage
from kit.model_settings import LLMSettings, RoleSettings, model_role
from kit.prompts import Prompts
from kit.tools import SMALL_TOOLS
from tests.servers.providers import PROVIDERS, Endpoint
from tests.support.curation import tool_reply

LOCAL = LLMSettings(preset="local", context_tokens=4096)  # a 4k window, 1,024-token answers
DAY = date(2026, 3, 1)


def _local(settings: Settings) -> Settings:
    # The seven passes of the operation style (the extract style's window: test_extract.py)
    curation = dataclasses.replace(settings.curation, style="operations")
    return dataclasses.replace(settings, llm=LOCAL, curation=curation)


@pytest.fixture
async def local_kit(settings: Settings, clock: FakeClock) -> AsyncIterator[tuple[Kit, FakeLLM]]:
    model = FakeLLM()
    async with Kit.open(
        settings=_local(settings),
        llm=model,
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as kit:
        yield kit, model


async def _import(kit: Kit, count: int, chars: int) -> None:
    start = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    text = "about the garden project " * (chars // 25)
    await kit.import_messages(
        (
            NewMessage("user", f"Note {n}: {text}", start + timedelta(minutes=n), "Owner", f"r{n}")
            for n in range(count)
        ),
        conversation="long",
    )


def _within_window(request: LLMRequest) -> bool:
    return estimate_request(request) <= LOCAL_CONTEXT


LOCAL_CONTEXT = model_role(LOCAL, "background").context_tokens


async def test_curation_on_a_small_window_cuts_its_batches_and_records_why(
    local_kit: tuple[Kit, FakeLLM], clock: FakeClock
) -> None:
    kit, model = local_kit
    await _import(kit, 12, 500)  # ~6,000 characters: a hosted model's one batch
    model.default = lambda request: tool_reply()
    clock.advance(timedelta(days=2))
    await kit.services.curator.sweep_idle(clock.now())
    curation = model.requests_for("curate:")
    assert curation and all(_within_window(r) for r in curation)
    assert len(curation) > len(CATEGORIES)  # more than one batch
    records = await kit.passes(include_noop=True)
    cut = [p for p in records if p.detail.get("fit", {}).get("cut")]
    assert cut and "to fit llm.background.context_tokens = 4,096" in cut[0].detail["fit"]["note"]
    # Every message was curated in the end, by every category.
    assert not await kit.services.curator.progress.pending("owner")


def test_a_hosted_window_changes_nothing(settings: Settings) -> None:
    fit = pass_fit(Prompts(), model_role(settings.llm, "background"), settings, 4096)
    assert not fit.limited
    assert fit.facts_tokens == settings.curation.facts_budget_tokens


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_the_seven_category_passes_share_one_prefix_with_the_transcript(
    settings: Settings, clock: FakeClock, provider: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    async with Endpoint.start(provider) as endpoint:
        endpoint.responder = lambda body: endpoint.call("apply_operations", {"operations": []})
        llm = endpoint.llm(preset="local")
        async with Kit.open(
            settings=dataclasses.replace(_local(settings), llm=llm),  # the operation style
            embedder=HashingEmbedder(),
            clock=clock,
            background=False,
        ) as kit:
            await _import(kit, 3, 50)
            clock.advance(timedelta(days=2))
            await kit.services.curator.sweep_idle(clock.now())
        bodies = endpoint.bodies()
    assert len(bodies) == len(CATEGORIES)
    if provider == "anthropic":
        prefixes = [json.dumps([b["tools"], b["system"][0]]) for b in bodies]
        assert bodies[0]["system"][0]["cache_control"] == {"type": "ephemeral"}
    else:  # the leading bytes of the prompt: the system message starts with the transcript
        shared = bodies[0]["messages"][0]["content"].split("</conversation>")[0]
        prefixes = [b["messages"][0]["content"][: len(shared)] for b in bodies]
        assert all(json.dumps(b["tools"]) == json.dumps(bodies[0]["tools"]) for b in bodies)
    assert len(set(prefixes)) == 1 and "Note 2: about the garden" in prefixes[0]


async def test_a_long_day_is_summarised_in_parts_and_says_so(
    local_kit: tuple[Kit, FakeLLM],
) -> None:
    kit, model = local_kit
    await _import(kit, 40, 500)  # ~20,000 characters: far past a 4,096-token window
    part = iter(range(1, 100))
    model.default = lambda request: f"## Worked on\n- part {next(part)}\n## Decided\n- ship it"
    run = await kit.services.summarizer.summarize_many("owner", [DAY])
    asked = model.requests_for("daily_summary")
    assert run.written == [DAY] and len(asked) > 1 and all(_within_window(r) for r in asked)
    assert f"part 2 of {len(asked)}" in asked[1].messages[0].content[0].text  # type: ignore[union-attr]
    assert run.split[DAY] == (
        f"summarised in {len(asked)} parts to fit llm.background.context_tokens = 4,096"
    )
    day = await kit.services.days.get("owner", DAY)
    assert day is not None
    assert day.detailed.startswith("## Worked on\n- part 1\n- part 2")
    assert day.detailed.count("## Decided") == 1  # merged under each heading once


async def test_a_long_detailed_day_is_condensed_in_parts(
    local_kit: tuple[Kit, FakeLLM],
) -> None:
    kit, model = local_kit
    bullets = "\n".join(f"- [10:{n:02d}] decided detail {n} " + "x" * 300 for n in range(60))
    await kit.services.days.put_detailed("owner", DAY, f"## Decided\n{bullets}", 60)
    model.default = lambda request: "## Decided\n- a condensed point"
    report = await kit.services.rem.run("owner")
    asked = model.requests_for("rem_condense")
    assert len(asked) > 1 and all(_within_window(r) for r in asked)
    assert any(f"condensed in {len(asked)} parts to fit" in c for c in report.changes)


async def test_the_local_preset_gives_the_chat_model_the_small_tool_set(
    local_kit: tuple[Kit, FakeLLM],
) -> None:
    kit, model = local_kit
    await kit.send("Hello")
    (chat,) = model.requests_for("chat")
    assert tuple(t.name for t in chat.tools) == SMALL_TOOLS
    assert chat.max_tokens == 512


async def test_tools_can_be_named_and_a_wrong_name_is_a_config_error(
    settings: Settings, clock: FakeClock
) -> None:
    from kit.errors import ConfigError

    named = LLMSettings(tools="search_memory, schedule_reminder")
    chosen = dataclasses.replace(settings, llm=named)
    model = FakeLLM()
    async with Kit.open(
        settings=chosen, llm=model, embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        await kit.send("Hello")
    (chat,) = model.requests_for("chat")
    assert [t.name for t in chat.tools] == ["search_memory", "schedule_reminder"]
    wrong = dataclasses.replace(settings, llm=LLMSettings(tools="search_memory,fly"))
    with pytest.raises(ConfigError, match="'fly', not a tool of Kit's"):
        async with Kit.open(settings=wrong, llm=model, embedder=HashingEmbedder(), clock=clock):
            pass


def test_background_answers_are_capped_by_the_role() -> None:
    role = model_role(LLMSettings(background=RoleSettings(max_tokens=300)), "background")
    assert role.output(4096) == 300 and role.output(100) == 100
