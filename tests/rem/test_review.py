"""REM's review of stale facts: what the model sees, what it may do, and bad answers rejected
whole, through the curator's guard, pass record and undo."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.llm.base import LLMReply, ToolUse, Usage
from kit.llm.fake import FakeLLM
from kit.memory.fact_rows import Fact

pytestmark = pytest.mark.stores


def review(*reviews: dict[str, Any], name: str = "review_facts") -> LLMReply:
    return LLMReply(
        (ToolUse("toolu_1", name, {"reviews": list(reviews)}),), "tool_use", Usage(9, 9)
    )


async def _stale_projects(kit: Kit, clock: FakeClock, n: int = 4) -> list[Fact]:
    facts = [
        await kit.remember(f"Owner works on project {i}", category="projects", confidence=0.8)
        for i in range(1, n + 1)
    ]
    clock.advance(timedelta(days=61))  # rem.stale_days is 60
    return facts


async def test_the_model_sees_only_stale_unpinned_facts_with_their_use(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    old = await kit.remember("Owner builds a shed", category="projects")
    pinned = await kit.remember("Owner's shed is green", category="projects", pinned=True)
    clock.advance(timedelta(days=61))
    fresh = await kit.remember("Owner learns Rust", category="projects")
    fake_llm.queue(review())

    report = await kit.services.rem.run("owner")

    (request,) = fake_llm.requests_for("rem_review")
    prompt = request.messages[0].content[0].text  # type: ignore[union-attr]
    assert f"#{old.id} (confidence 0.90; written 2026-03-02; last used never)" in prompt
    assert f"#{pinned.id} " not in prompt and f"#{fresh.id} " not in prompt
    assert "at least\n60 days" in prompt or "at least 60 days" in prompt
    assert '"projects"' in prompt and "$" not in prompt
    assert request.tool_choice == "review_facts" and request.model == "claude-haiku-4-5"
    assert report.reviewed_facts == 1 and report.changes == ()
    assert report.steps[1].status == "done"


async def test_the_owners_own_facts_are_never_reviewed(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    old = await kit.remember("Owner builds a shed", category="projects")
    mine = (await kit.add_fact("Owner's shed is blue", category="projects")).fact
    edited = await kit.remember("Owner plants tomatoes", category="projects")
    await kit.edit_fact(edited.id, "Owner plants cherry tomatoes")
    clock.advance(timedelta(days=61))
    fake_llm.queue(review())

    report = await kit.services.rem.run("owner")

    (request,) = fake_llm.requests_for("rem_review")
    prompt = request.messages[0].content[0].text  # type: ignore[union-attr]
    assert f"#{old.id} " in prompt
    assert f"#{mine.id} " not in prompt and f"#{edited.id} " not in prompt
    assert report.reviewed_facts == 1


async def test_lower_confidence_expiry_and_deactivation_apply_as_one_undoable_pass(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    a, b, c, d = await _stale_projects(kit, clock)
    fake_llm.queue(
        review(
            {"id": a.id, "action": "lower_confidence", "confidence": 0.4, "reason": "old plan"},
            {"id": b.id, "action": "set_expiry", "expires_at": "2026-06-30", "reason": "ends"},
            {"id": c.id, "action": "deactivate", "reason": "finished"},
            {"id": d.id, "action": "keep", "reason": ""},
        )
    )

    report = await kit.services.rem.run("owner")

    after = {f.id: f for f in await kit.facts(include_inactive=True)}
    assert after[a.id].confidence == 0.4
    assert after[b.id].expires_at is not None
    assert after[b.id].expires_at.date().isoformat() == "2026-07-01"  # holds through 30 June
    assert not after[c.id].active and after[d.id] == d
    assert len(report.changes) == 3 and report.rejected == ()
    history = await kit.fact_history(c.id)
    assert (history[-1].actor, history[-1].reason) == ("rem", "REM review: finished")
    pass_id = history[-1].pass_id
    assert pass_id is not None

    undone = await kit.services.curator.undo("owner", pass_id)
    assert set(undone.restored_fact_ids) == {a.id, b.id, c.id}
    restored = {f.id: f for f in await kit.facts(include_inactive=True)}
    assert [restored[x.id].snapshot() for x in (a, b, c)] == [x.snapshot() for x in (a, b, c)]


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ("All of these look fine to me.", "did not call review_facts"),
        (review(name="apply_operations"), "did not call review_facts"),
        (review({"id": 999, "action": "deactivate", "reason": "x"}), "fact #999 is not one of"),
        (review({"id": "two", "action": "keep", "reason": ""}), "fact (a string of 3 characters"),
        (
            review({"id": "FIRST", "action": "delete", "reason": "x"}),
            "unknown action (a string of 6 characters",
        ),
        (review({"id": "FIRST", "action": "deactivate", "reason": " "}), "needs a short 'reason'"),
        (
            review({"id": "FIRST", "action": "lower_confidence", "confidence": 0.9, "reason": "x"}),
            "is not lower than 0.80",
        ),
        (
            review({"id": "FIRST", "action": "lower_confidence", "confidence": 7, "reason": "x"}),
            "from 0 to 1",
        ),
        (
            review(
                {"id": "FIRST", "action": "set_expiry", "expires_at": "2026-01-01", "reason": "x"}
            ),
            "already past",
        ),
        (
            review(
                {"id": "FIRST", "action": "set_expiry", "expires_at": "9999-12-31", "reason": "x"}
            ),
            "more than 10 years ahead",  # was an OverflowError that crashed REM every night
        ),
        (
            review({"id": "FIRST", "action": "set_expiry", "expires_at": 20260501, "reason": "x"}),
            "must be a date like 2026-05-01 (got a number)",
        ),
        (
            review({"id": "FIRST", "action": "deactivate", "reason": "x" * 501}),
            "'reason' has 501 characters",
        ),
        (
            review({"id": "FIRST", "action": "set_expiry", "expires_at": "soon", "reason": "x"}),
            "is not a date like 2026-05-01 (got a string of 4",
        ),
        (
            review({"id": "FIRST", "action": "keep", "reason": "", "confidence": 0.1}),
            "['confidence'] cannot go with 'keep'",
        ),
        (
            review(
                {"id": "FIRST", "action": "deactivate", "reason": "x"},
                {"id": "FIRST", "action": "keep", "reason": ""},
            ),
            "reviewed twice",
        ),
        (LLMReply((ToolUse("t", "review_facts", {"facts": []}),), "tool_use"), "must be an object"),
    ],
)
async def test_a_bad_review_is_rejected_whole_and_nothing_changes(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock, answer: str | LLMReply, why: str
) -> None:
    facts = await _stale_projects(kit, clock)
    if isinstance(answer, LLMReply) and answer.tool_uses:
        use = answer.tool_uses[0]
        items = [
            {**item, "id": facts[1].id} if item.get("id") == "FIRST" else item
            for item in use.input.get("reviews", [])
        ]
        if "reviews" in use.input:
            answer = review(*items, name=use.name)
    fake_llm.queue(
        answer,
        review({"id": facts[0].id, "action": "deactivate", "reason": "later, a good answer"}),
    )

    report = await kit.services.rem.run("owner")

    assert len(report.rejected) == 1 and report.rejected[0].startswith("review projects: ")
    assert why in report.rejected[0]
    assert await kit.facts(include_inactive=True) == facts
    # Not marked as reviewed: the next night asks again, and a good answer then applies.
    clock.advance(timedelta(days=1))
    second = await kit.services.rem.run("owner")
    assert second.rejected == () and len(second.changes) == 1


async def test_the_mass_deletion_guard_throws_a_review_out_whole(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    facts = await _stale_projects(kit, clock)
    fake_llm.queue(
        review(*({"id": f.id, "action": "deactivate", "reason": "old"} for f in facts[:3]))
    )
    report = await kit.services.rem.run("owner")
    assert "would take 3 of 4 facts in use out of use (3 deactivated)" in report.rejected[0]
    assert all(f.active for f in await kit.facts())
    passes = await kit.services.curator.passes.recent("owner")
    assert passes[0].kind == "rem_review" and passes[0].status == "rejected"


async def test_a_kept_fact_is_not_reviewed_again_until_another_stale_period(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    await _stale_projects(kit, clock, n=2)
    fake_llm.queue(review())
    assert (await kit.services.rem.run("owner")).reviewed_facts == 2
    clock.advance(timedelta(days=1))
    assert (await kit.services.rem.run("owner")).reviewed_facts == 0
    clock.advance(timedelta(days=60))
    fake_llm.queue(review())
    assert (await kit.services.rem.run("owner")).reviewed_facts == 2


async def test_a_dry_run_review_plans_without_applying_or_marking(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    facts = await _stale_projects(kit, clock)
    deactivate = review({"id": facts[0].id, "action": "deactivate", "reason": "done"})
    fake_llm.queue(deactivate, deactivate)
    planned = await kit.services.rem.run("owner", dry_run=True)
    assert planned.changes == (f"projects: DEACTIVATE #{facts[0].id}: REM review: done",)
    assert all(f.active for f in await kit.facts())
    applied = await kit.services.rem.run("owner")  # the facts are still up for review
    assert applied.reviewed_facts == 4 and not (await kit.facts(include_inactive=True))[0].active


@pytest.mark.parametrize(
    "change",
    [
        {"action": "set_expiry", "expires_at": "2026-05-10"},  # within rem.stale_days (60)
        {"action": "lower_confidence", "confidence": 0.05},  # below the shown threshold
    ],
    ids=["expiry", "confidence"],
)
async def test_the_guard_throws_out_a_review_retiring_most_facts_by_expiry_or_confidence(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock, change: dict[str, Any]
) -> None:
    """Both used to be applied to 100% of a category, with no guard."""
    facts = await _stale_projects(kit, clock)
    fake_llm.queue(review(*({"id": f.id, "reason": "old", **change} for f in facts)))
    report = await kit.services.rem.run("owner")
    assert len(report.rejected) == 1 and "4 of 4 facts in use" in report.rejected[0]
    assert await kit.facts(include_inactive=True) == facts


async def test_a_review_rejection_never_quotes_the_model(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    facts = await _stale_projects(kit, clock)
    secret = "my PIN is 4471 and the key sk-ant-api03-0123456789abcdef"
    fake_llm.queue(review({"id": facts[0].id, "action": secret, "reason": "x"}))
    report = await kit.services.rem.run("owner")
    assert "unknown action (a string of" in report.rejected[0]
    stored = await kit.services.rem.last_report("owner")
    assert stored is not None and "4471" not in str(stored) and "4471" not in caplog.text


def _retire_everything(action: str, clock: FakeClock) -> Any:
    """A model that retires every fact it is shown (set_expiry: today, the finding's form)."""

    def answer(request: Any) -> LLMReply:
        prompt = request.messages[0].content[0].text
        ids = [int(line.split(" ", 1)[0][1:]) for line in prompt.splitlines() if line[:1] == "#"]
        extra = {"expires_at": clock.now().date().isoformat()} if action == "set_expiry" else {}
        return review(*({"id": i, "action": action, "reason": "stale", **extra} for i in ids))

    return answer


@pytest.mark.parametrize("action", ["set_expiry", "deactivate"])
async def test_one_run_cannot_retire_every_single_fact_category_one_by_one(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock, action: str
) -> None:
    """Each category alone may lose its only fact (the guard's floor of one), but not every
    category in one run: the run as a whole keeps to curation.max_deactivate_fraction."""
    from kit.config import CATEGORIES

    for category in CATEGORIES:
        await kit.remember(f"Owner's only {category} fact", category=category, confidence=0.8)
    clock.advance(timedelta(days=61))
    fake_llm.default = _retire_everything(action, clock)

    report = await kit.services.rem.run("owner")

    horizon = clock.now() + timedelta(days=60)
    lasting = [
        f
        for f in await kit.facts()
        if f.active and (f.expires_at is None or f.expires_at > horizon)
    ]
    assert len(CATEGORIES) - len(lasting) == 3  # floor(7 x 0.5)
    assert len(report.changes) == 3
    assert sum("across the whole run" in r for r in report.rejected) == len(CATEGORIES) - 3


async def test_one_category_in_many_batches_keeps_to_the_limit_across_them(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    for i in range(100):
        await kit.remember(f"Owner's project number {i}", category="projects", confidence=0.8)
    clock.advance(timedelta(days=61))
    fake_llm.default = _retire_everything("deactivate", clock)

    await kit.services.rem.run("owner")

    assert len(await kit.facts()) >= 50  # each batch of 40 alone would have allowed 20 each
