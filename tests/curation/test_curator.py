"""The curator end to end, with a scripted model: what it is shown, what it writes, when it
runs, and how it copes with bad output, crashes and an unreachable model."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import CATEGORIES, Settings
from kit.curator.progress import BATCH_MAX_CHARS
from kit.embed.hashing import HashingEmbedder
from kit.errors import LLMOutputError, LLMUnavailable
from kit.llm.base import LLMReply, LLMRequest, TextSink
from kit.llm.fake import FakeLLM
from tests.support.crash import crash_on_insert, stop_crashing
from tests.support.curation import add_facts, all_facts, by_category, say, tool_reply

pytestmark = pytest.mark.stores

USER = "owner"


async def curated_through(kit: Kit, category: str) -> int:
    value = await kit.services.db.scalar(
        "SELECT curated_through FROM curation_state WHERE category = ?", (category,)
    )
    return 0 if value is None else int(value)


async def test_one_pass_per_category_with_its_rules_facts_and_the_transcript(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    (sister,) = await add_facts(kit, "people", ["Ana is the owner's sister"], subject="Ana")
    await say(kit, "My sister Ana moved to Porto last month.")
    await say(kit, "Noted! I'll remember that.", role="assistant")
    outcomes = await kit.services.curator.curate_user(USER)

    requests = fake_llm.requests_for("curate:")
    assert [r.purpose for r in requests] == [f"curate:{c}" for c in CATEGORIES]
    assert [o.category for o in outcomes] == list(CATEGORIES)
    people = requests[CATEGORIES.index("people")]
    shared, rules = people.system
    assert shared.cache and not rules.cache
    assert "Owner" not in shared.text  # no name configured: "the owner"
    said, reply = await kit.services.messages.span(1, 0, limit=2)
    assert f"[msg {said.id}, " in shared.text  # the id operations cite as their source
    assert "] the owner: My sister Ana moved to Porto last month." in shared.text
    assert "] Kit: Noted! I'll remember that." in shared.text
    assert f"[msg {reply.id}, " not in shared.text  # Kit's lines are never a source
    assert "dossier" in rules.text  # the people rules
    assert f"#{sister.id} | Ana | Ana is the owner's sister | 0.80" in rules.text
    assert "(none yet)" in requests[0].system[1].text  # no person facts yet
    assert all(r.model == kit.settings.llm.small_model for r in requests)
    assert all([t.name for t in r.tools] == ["apply_operations"] for r in requests)
    assert all(r.system[0] == shared for r in requests)  # one cacheable prefix for all seven


async def test_inserted_fact_cites_only_the_owners_messages(kit: Kit, fake_llm: FakeLLM) -> None:
    fake_llm.default = by_category(
        {"people": tool_reply({"op": "INSERT", "subject": "Ana", "confidence": 0.9,
                               "content": "Ana, the owner's sister, lives in Porto"})}
    )  # fmt: skip
    (said,) = await say(kit, "My sister Ana moved to Porto.")
    await say(kit, "Porto is lovely.", role="assistant")
    outcomes = await kit.services.curator.curate_user(USER)
    (applied,) = [o for o in outcomes if o.status == "applied"]
    (fact_id,) = applied.inserted_fact_ids
    (entry,) = await kit.fact_history(fact_id)
    assert entry.source_message_ids == (said.id,) and entry.pass_id == applied.pass_id
    assert {o.status for o in outcomes} == {"applied", "noop"}


async def test_curated_messages_are_not_curated_again(kit: Kit, fake_llm: FakeLLM) -> None:
    await say(kit, "I work at Acme.")
    await kit.services.curator.curate_user(USER)
    calls = len(fake_llm.requests)
    assert await kit.services.curator.curate_user(USER) == []
    assert len(fake_llm.requests) == calls
    await say(kit, "Actually I switched to Globex.")
    await kit.services.curator.curate_user(USER)
    (last,) = {r.system[0].text for r in fake_llm.requests[calls:]}
    assert "Globex" in last and "Acme" not in last  # only the new message


async def test_job_output_is_never_shown_to_the_curator(kit: Kit, fake_llm: FakeLLM) -> None:
    await say(kit, "Daily digest: the owner's sister is called Zelda.", source="job")
    assert await kit.services.curator.curate_user(USER) == []
    await say(kit, "Remind me to water the plants.")
    await kit.services.curator.curate_user(USER)
    assert fake_llm.requests_for("curate:")
    assert all("Zelda" not in r.system[0].text for r in fake_llm.requests)


async def test_replies_alone_are_stepped_over_without_a_model_call(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    (reply,) = await say(kit, "Good morning! Today you have two meetings.", role="assistant")
    assert await kit.services.curator.curate_user(USER) == []
    assert fake_llm.requests == []
    assert await curated_through(kit, "people") == reply.id


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("Ana moved to Porto, I would store that.", "neither a call of apply_operations"),
        ('{"operations": [{"op": "INSERT", "content": "x", "confidence": 0.9}', "valid JSON"),
        (tool_reply({"op": "FORGET", "fact_id": 1}), "unknown operation (a string of 6 characters"),
        (
            tool_reply(
                {"op": "INSERT", "content": "Ana lives in Porto", "confidence": 1, "sources": []}
            ),
            "'sources' is empty",
        ),
    ],
)
async def test_bad_output_at_each_stage_rejects_the_pass_and_keeps_messages_uncurated(
    kit: Kit, fake_llm: FakeLLM, answer: LLMReply | str, reason: str
) -> None:
    """An answer that cannot be read as operations (asked for once more when nothing could be
    read) rejects its pass whole."""
    await add_facts(kit, "projects", ["Kit"])
    fake_llm.default = by_category({"people": answer})
    await say(kit, "My sister Ana moved to Porto.")
    before = await all_facts(kit)
    outcomes = await kit.services.curator.curate_user(USER)
    (bad,) = [o for o in outcomes if o.category == "people"]
    assert bad.status == "rejected" and reason in bad.reason and bad.pass_id is not None
    assert await all_facts(kit) == before
    assert await curated_through(kit, "people") == 0  # retried later
    assert await curated_through(kit, "projects") > 0  # the other categories went on
    record = await kit.services.curator.passes.get(USER, bad.pass_id)
    assert record.status == "rejected" and reason in record.reason


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (tool_reply({"op": "DEACTIVATE", "fact_id": 4242, "reason": "x"}), "unknown fact id"),
        (
            tool_reply({"op": "INSERT", "content": "x", "confidence": 1, "sources": [4242]}),
            "cites message 4242",
        ),
        ("WRONG_CATEGORY", "not 'people'"),
    ],
)
async def test_one_bad_operation_is_dropped_and_the_rest_of_its_pass_applies(
    kit: Kit, fake_llm: FakeLLM, answer: LLMReply | str, reason: str
) -> None:
    """An operation naming a fact it may not, or citing a message outside the batch, is
    dropped with why; the pass's other operation lands and the batch is curated (issue 29:
    one bad operation never costs the pass)."""
    (project,) = await add_facts(kit, "projects", ["Kit"])
    good = {"op": "INSERT", "subject": "Ana", "confidence": 0.9,
            "content": "Ana, the owner's sister, moved to Porto"}  # fmt: skip
    if answer == "WRONG_CATEGORY":
        answer = tool_reply({"op": "UPDATE", "fact_id": project.id, "content": "Kit v2"})
    bad_op = answer.content[0].input["operations"][0]  # type: ignore[union-attr]
    fake_llm.default = by_category({"people": tool_reply(bad_op, good)})
    await say(kit, "My sister Ana moved to Porto.")
    outcomes = await kit.services.curator.curate_user(USER)
    (people,) = [o for o in outcomes if o.category == "people"]
    assert people.status == "applied" and len(people.inserted_fact_ids) == 1
    (dropped,) = people.dropped
    assert dropped.startswith("operation 1 (") and reason in dropped
    assert await curated_through(kit, "people") > 0
    assert [f.content for f in await kit.facts() if f.category == "projects"] == ["Kit"]


async def test_rejected_batch_is_retried_then_parked_after_max_attempts(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    fake_llm.default = by_category({"people": "not json"})
    (said,) = await say(kit, "My sister Ana moved to Porto.")
    curator = kit.services.curator
    for attempt in (1, 2):
        (bad,) = [o for o in await curator.curate_user(USER) if o.category == "people"]
        assert bad.status == "rejected" and "parked" not in bad.reason
        attempts = await kit.services.db.scalar(
            "SELECT attempts FROM curation_state WHERE category = 'people'"
        )
        assert attempts == attempt
    (last,) = await curator.curate_user(USER)  # the other categories are done already
    assert last.category == "people" and "gave up after 3 attempts" in last.reason
    assert await curator.curate_user(USER) == []
    (parked,) = await curator.progress.parked(USER)
    assert (parked.first_message_id, parked.last_message_id) == (said.id, said.id)

    fake_llm.default = by_category(
        {"people": tool_reply({"op": "INSERT", "content": "Ana lives in Porto", "confidence": 1})}
    )
    (retried,) = await curator.retry_parked(USER)
    assert retried.status == "applied" and retried.source_message_ids == (said.id,)
    assert await curator.progress.parked(USER) == []


async def test_failing_model_call_counts_an_attempt(kit: Kit, fake_llm: FakeLLM) -> None:
    fake_llm.queue(LLMOutputError("the reply had no content blocks"))
    await say(kit, "I live in Lisbon.")
    outcomes = await kit.services.curator.curate_user(USER)
    assert outcomes[0].category == "person" and outcomes[0].status == "failed"
    assert "no content blocks" in outcomes[0].reason
    assert await curated_through(kit, "person") == 0
    assert await curated_through(kit, "people") > 0


async def test_unreachable_model_pauses_curation_without_using_up_attempts(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    fake_llm.queue(LLMUnavailable("cannot reach the model API"))
    await say(kit, "I live in Lisbon.")
    (outcome,) = await kit.services.curator.curate_user(USER)
    assert outcome.status == "failed" and outcome.pass_id is None
    assert "cannot reach" in outcome.reason
    assert await kit.services.db.scalar("SELECT COUNT(*) FROM curation_state") == 0
    assert len(await kit.services.curator.curate_user(USER)) == len(CATEGORIES)


async def test_self_referential_fact_from_the_model_is_dropped(kit: Kit, fake_llm: FakeLLM) -> None:
    fake_llm.default = by_category(
        {"technical": tool_reply(
            {"op": "INSERT", "content": "I have a search_memory tool", "confidence": 0.9},
            {"op": "INSERT", "content": "The owner deploys with Ansible", "confidence": 0.9},
        )}
    )  # fmt: skip
    await say(kit, "Can you search your memory? Also, I deploy with Ansible.")
    await kit.services.curator.curate_user(USER)
    assert [f.content for f in await kit.facts()] == ["The owner deploys with Ansible"]


async def test_crash_mid_pass_leaves_facts_and_messages_as_before(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    facts = await add_facts(kit, "people", ["Ana", "Bob"])
    fake_llm.default = by_category(
        {"people": tool_reply(
            {"op": "UPDATE", "fact_id": facts[0].id, "content": "Ana, sister, in Porto"},
            {"op": "UPDATE", "fact_id": facts[1].id, "content": "Bob, colleague"},
        )}
    )  # fmt: skip
    await say(kit, "Ana is in Porto now; Bob is my colleague.")
    await crash_on_insert(
        kit.services.db,
        "fact_history",
        "disk on fire",
        when=f"NEW.operation = 'update' AND NEW.fact_id = {facts[1].id}",
    )
    before = await all_facts(kit)
    outcomes = await kit.services.curator.curate_user(USER)
    (crashed,) = [o for o in outcomes if o.category == "people"]
    assert crashed.status == "failed" and "nothing of the pass was applied" in crashed.reason
    assert "disk on fire" not in crashed.reason  # raw exception text is not shown
    assert await all_facts(kit) == before
    assert await curated_through(kit, "people") == 0
    await stop_crashing(kit.services.db, "fact_history")
    (again,) = await kit.services.curator.curate_user(USER)
    assert again.status == "applied"
    assert (await kit.services.facts.get(USER, facts[1].id)).content == "Bob, colleague"


async def test_a_pass_that_lost_the_race_applies_nothing(kit: Kit, fake_llm: FakeLLM) -> None:
    fake_llm.default = by_category(
        {"people": tool_reply({"op": "INSERT", "content": "Ana lives in Porto", "confidence": 1})}
    )
    await say(kit, "Ana lives in Porto.")
    curator = kit.services.curator
    stale = await curator.progress.next_batch(USER, 1, "people")
    assert stale is not None
    await curator.curate_user(USER)
    outcome = await curator.run_batch(stale)
    assert outcome is not None and outcome.status == "skipped"
    assert len(await kit.facts(category="people")) == 1


async def test_big_imports_are_curated_in_bounded_batches(kit: Kit, fake_llm: FakeLLM) -> None:
    line = "x" * 1000
    count = 2 * BATCH_MAX_CHARS // 1000 + 5
    await say(kit, *[f"{n} {line}" for n in range(count)], source="import")
    await kit.services.curator.curate_user(USER)
    requests = fake_llm.requests_for("curate:person")
    assert len(requests) == 3
    assert all(len(r.system[0].text) < BATCH_MAX_CHARS + 5500 for r in requests)  # + rules
    covered = "".join(r.system[0].text for r in requests)
    assert all(f"] the owner: {n} x" in covered for n in range(count))


async def test_curation_tokens_are_metered_per_category(kit: Kit) -> None:
    await say(kit, "I live in Lisbon.")
    await kit.services.curator.curate_user(USER)
    rows = await kit.services.db.fetchall(
        "SELECT purpose FROM llm_usage GROUP BY purpose ORDER BY MIN(id)"
    )
    assert [r[0] for r in rows] == [f"curate:{c}" for c in CATEGORIES]


async def test_sweep_waits_for_the_conversation_to_go_idle(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    await say(kit, "I live in Lisbon.")
    curator = kit.services.curator
    clock.advance(timedelta(minutes=29))
    assert await curator.sweep_idle(clock.now()) == 0
    assert fake_llm.requests == []
    clock.advance(timedelta(minutes=1))
    assert await curator.sweep_idle(clock.now()) == len(CATEGORIES)


async def test_sweep_curates_earlier_days_of_a_conversation_that_goes_on(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    await say(kit, "Late thought: I'm vegetarian.", at=datetime(2026, 3, 1, 23, 50, tzinfo=UTC))
    await say(kit, "Still up, planning Monday.", at=datetime(2026, 3, 2, 0, 4, tzinfo=UTC))
    clock.set(datetime(2026, 3, 2, 0, 5, tzinfo=UTC))
    assert await kit.services.curator.sweep_idle(clock.now()) == len(CATEGORIES)
    shown = fake_llm.requests[0].system[0].text
    assert "vegetarian" in shown and "planning Monday" not in shown
    assert await kit.services.curator.sweep_idle(clock.now()) == 0  # today's part waits


async def test_sweep_covers_every_user(kit: Kit, fake_llm: FakeLLM, clock: FakeClock) -> None:
    await say(kit, "I live in Lisbon.")
    await say(kit, "I live in Oslo.", user="bob")
    clock.advance(timedelta(hours=1))
    assert await kit.services.curator.sweep_idle(clock.now()) == 2 * len(CATEGORIES)
    assert {r.user_id for r in fake_llm.requests} == {"owner", "bob"}


class GatedLLM:
    """Holds every curation call until the test opens the gate; chat answers at once."""

    def __init__(self) -> None:
        self.inner = FakeLLM()
        self.entered = asyncio.Event()
        self.gate = asyncio.Event()

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        if request.purpose.startswith("curate:"):
            self.entered.set()
            await self.gate.wait()
        return await self.inner.complete(request, on_text)


@pytest.fixture
async def gated(settings: Settings, clock: FakeClock) -> AsyncIterator[tuple[Kit, GatedLLM]]:
    llm = GatedLLM()
    async with Kit.open(
        settings=settings, llm=llm, embedder=HashingEmbedder(), clock=clock, background=False
    ) as opened:
        yield opened, llm


async def test_curation_never_delays_a_reply(gated: tuple[Kit, GatedLLM], clock: FakeClock) -> None:
    """While a pass waits on the model, a turn stores its messages and answers."""
    kit, llm = gated
    await say(kit, "I live in Lisbon.", conversation="earlier")
    clock.advance(timedelta(hours=1))
    async with asyncio.TaskGroup() as group:
        sweep = group.create_task(kit.services.curator.sweep_idle(clock.now()))
        await llm.entered.wait()
        # A deadlock guard, not a speed check: the turn must not wait for the gate.
        result = await asyncio.wait_for(kit.send("What's the weather like?"), timeout=30)
        assert result.reply == "ok" and not result.failed
        assert not sweep.done()
        llm.gate.set()
    assert sweep.result() == len(CATEGORIES)


async def test_memory_injected_into_a_turn_never_reaches_the_curator(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    """Facts Kit put in the chat prompt live in the system prompt, not in messages."""
    await add_facts(kit, "person", ["The owner's passport expires in 2031"], pinned=True)
    await kit.send("Good morning!")
    (chat,) = fake_llm.requests_for("chat")
    assert "passport expires in 2031" in "".join(b.text for b in chat.system)
    await kit.services.curator.curate_user(USER)
    conversation = fake_llm.requests_for("curate:")[0].system[0].text
    assert "Good morning!" in conversation and "] Kit: ok" in conversation
    assert "passport" not in conversation


def _poisoned_for(user: str, answer: LLMReply) -> Callable[[LLMRequest], LLMReply | str]:
    normal = by_category({})

    def reply(request: LLMRequest) -> LLMReply | str:
        return answer if request.user_id == user else normal(request)

    return reply


async def test_a_poisoned_batch_is_counted_and_never_blocks_another_user(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    """`expires_at: 9999-12-31` raised OverflowError: every sweep died at that batch, nothing
    was counted or parked, and other users' conversations were never curated."""
    (oslo,) = await say(kit, "I live in Oslo.", user="bob")
    await say(kit, "I live in Lisbon.")
    poison = tool_reply(
        {"op": "INSERT", "content": "Bob lives in Oslo", "confidence": 1,
         "expires_at": "9999-12-31", "sources": [oslo.id]}
    )  # fmt: skip
    fake_llm.default = _poisoned_for("bob", poison)
    clock.advance(timedelta(hours=1))
    curator = kit.services.curator
    assert await curator.sweep_idle(clock.now()) == 2 * len(CATEGORIES)
    states = await kit.services.db.fetchall(
        "SELECT user_id, SUM(attempts), MIN(curated_through) FROM curation_state GROUP BY user_id"
    )
    by_user = {user: (attempts, through) for user, attempts, through in states}
    assert by_user["bob"][0] == len(CATEGORIES)  # each of bob's passes counted once
    errors = await kit.services.db.fetchall(
        "SELECT DISTINCT last_error FROM curation_state WHERE user_id = 'bob'"
    )
    assert [e for (e,) in errors] == [
        "operation 1 (INSERT): 'expires_at' 9999-12-31 is more than 10 years ahead; "
        "leave it out for a fact that does not expire"
    ]
    assert by_user["owner"] == (0, by_user["owner"][1]) and by_user["owner"][1] > 0
    for _ in range(3):  # backoff, then parked like any other bad answer
        clock.advance(timedelta(days=1))
        await curator.sweep_idle(clock.now())
    assert len(await curator.progress.parked("bob")) == len(CATEGORIES)


async def test_an_unforeseen_crash_reading_an_answer_is_counted_without_quoting_it(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    """A bug in the checks (simulated: the parser raises) rejects the pass; the log names
    the exception type and where, never its message, which may quote the model."""
    import kit.curator.passes as passes

    def broken(*args: object, **kwargs: object) -> list[object]:
        raise ValueError(f"the answer said: my PIN is {4400 + 71}")

    monkeypatch.setattr(passes, "operations_from_reply", broken)
    await say(kit, "I live in Lisbon.")
    outcomes = await kit.services.curator.curate_user(USER)
    assert {o.status for o in outcomes} == {"rejected"} and len(outcomes) == len(CATEGORIES)
    assert "reading the answer failed (ValueError)" in outcomes[0].reason
    assert "4471" not in caplog.text and "ValueError" in caplog.text
