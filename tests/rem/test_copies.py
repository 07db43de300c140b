"""REM's copies step: a fact stored twice is kept once (kit/curator/copies.py). The defect it
answers: one fact, one row stops new copies, but copies written before it (or by two routes at
once) stayed, both shown to the model."""

from __future__ import annotations

import pytest

from kit.api import Kit
from kit.curator.copies import PASS_KIND, find_copies
from kit.curator.ops import Deactivate
from kit.curator.reports import RemProgress
from kit.memory.fact_writer import Provenance
from tests.support.curation import add_facts

pytestmark = pytest.mark.stores

USER = "owner"


async def test_a_fact_stored_twice_is_kept_once_and_the_copy_can_be_brought_back(
    kit: Kit,
) -> None:
    """The more confident row stays; the copy (held at 0.95, above the inbox's protection:
    nothing is lost, so nothing is asked) is retired in an undoable pass naming the twin."""
    (kept,) = await add_facts(kit, "people", ["Ana lives in Porto"], subject="Ana", confidence=1.0)
    (copy,) = await add_facts(
        kit, "entities", ["ana lives in Porto."], subject="Ana", confidence=0.95
    )
    (other,) = await add_facts(kit, "entities", ["Porto is by the sea"])

    report = await kit.services.rem.run(USER)

    assert report.steps[2] == RemProgress("copies", "done", "1 of 1 copies retired")
    assert not (await kit.services.facts.get(USER, copy.id)).active
    assert (await kit.services.facts.get(USER, kept.id)).active
    assert (await kit.services.facts.get(USER, other.id)).active
    assert await kit.inbox() == []
    last = (await kit.services.facts.history(USER, copy.id))[-1]
    why = f"a copy: it says what fact #{kept.id} (people) says"
    assert (last.actor, last.operation, last.reason) == ("rem", "deactivate", why)
    assert any(why in line for line in report.changes)

    passes = [p for p in await kit.services.curator.passes.recent(USER) if p.kind == PASS_KIND]
    assert [p.status for p in passes] == ["applied"]
    await kit.undo_pass(passes[0].id)
    assert (await kit.services.facts.get(USER, copy.id)).active


async def test_the_owners_row_stays_and_two_owner_rows_are_both_kept(kit: Kit) -> None:
    """An owner's fact is never retired as a copy: the curator's twin goes; two rows the owner
    wrote both stay (the owner's words change only when the owner says so)."""
    mine = await kit.add_fact("Bea is a nurse", category="people", subject="Bea")
    (theirs,) = await add_facts(kit, "entities", ["Bea is a nurse"], subject="Bea", confidence=1)
    one = await kit.add_fact("Rui runs on Sundays", category="people", subject="Rui")
    two = await kit.add_fact("Rui runs on Sundays.", category="workflows", subject="Rui")

    await kit.services.rem.run(USER)

    assert (await kit.services.facts.get(USER, mine.fact.id)).active
    assert not (await kit.services.facts.get(USER, theirs.id)).active
    assert (await kit.services.facts.get(USER, one.fact.id)).active
    assert (await kit.services.facts.get(USER, two.fact.id)).active


async def test_the_same_words_about_two_people_and_a_fact_saying_more_are_kept(
    kit: Kit,
) -> None:
    await add_facts(kit, "people", ["Lives in Porto"], subject="Ana")
    await add_facts(kit, "people", ["Lives in Porto"], subject="Rui")
    await add_facts(kit, "people", ["Ana lives in Porto with Rui"], subject="Ana")

    report = await kit.services.rem.run(USER)

    assert report.steps[2] == RemProgress("copies", "skipped", "no fact stored twice")
    assert len(await kit.facts()) == 3


async def test_a_dry_run_plans_the_retirement_and_changes_nothing(kit: Kit) -> None:
    await add_facts(kit, "people", ["Ana lives in Porto"], subject="Ana", confidence=0.9)
    (copy,) = await add_facts(kit, "people", ["Ana lives in Porto"], subject="Ana", confidence=0.8)

    report = await kit.services.rem.run(USER, dry_run=True)

    assert report.steps[2] == RemProgress("copies", "done", "1 of 1 copies would retire")
    assert (await kit.services.facts.get(USER, copy.id)).active


async def test_copies_retiring_most_of_a_category_are_held_by_the_guard(kit: Kit) -> None:
    """The same mass-retirement guard as any pass: three of four facts at once is too many."""
    await add_facts(kit, "people", ["Ana lives in Porto"], subject="Ana", confidence=1.0)
    copies = await add_facts(
        kit, "entities", ["Ana lives in Porto"] * 3, subject="Ana", confidence=0.5
    )
    await add_facts(kit, "entities", ["Porto is by the sea"])

    report = await kit.services.rem.run(USER)

    assert report.steps[2].detail == "0 of 3 copies retired, 1 category held (see the report)"
    assert [line.split(":")[0] for line in report.rejected] == ["copies entities"]
    assert all([(await kit.services.facts.get(USER, c.id)).active for c in copies])


async def test_a_copys_retirement_is_dropped_when_its_twin_no_longer_says_the_same(
    kit: Kit,
) -> None:
    """Checked when applied, not only when planned: the twin changed (or went) in between."""
    one, two = await add_facts(kit, "people", ["Ana lives in Porto"] * 2, subject="Ana")
    await kit.services.facts.update(USER, one.id, Provenance("owner"), content="Ana lives in Braga")
    outcome = await kit.services.curator.apply_ops(
        USER, "people", [Deactivate(two.id, "a copy", kept_by=one.id)],
        kind=PASS_KIND, source_message_ids=[],
    )  # fmt: skip
    assert outcome.dropped == (
        f"operation 1 (DEACTIVATE) dropped: fact #{one.id} no longer says what fact #{two.id} says",
    )
    assert (await kit.services.facts.get(USER, two.id)).active


def test_which_row_stays() -> None:
    """The owner's first, then the most confident, then the oldest."""

    class F:
        def __init__(self, id: int, confidence: float, owner: bool = False) -> None:
            self.id, self.confidence, self.owner_held = id, confidence, owner
            self.subject, self.content, self.created_at = "", "Owner is vegan", id

    found = find_copies([F(1, 0.6), F(2, 0.9), F(3, 0.9), F(4, 0.1, owner=True)])  # type: ignore[list-item]
    assert [(c.fact.id, c.kept.id) for c in found] == [(2, 4), (3, 4), (1, 4)]


async def test_the_digest_names_the_copies_pass_and_why(kit: Kit) -> None:
    await add_facts(kit, "people", ["Ana lives in Porto"], subject="Ana", confidence=1.0)
    (copy,) = await add_facts(kit, "people", ["Ana lives in Porto"], subject="Ana", confidence=0.5)
    await add_facts(kit, "people", ["Rui lives in Braga", "Bea is a nurse"])
    await kit.services.rem.run(USER)

    digest = await kit.services.digest.read(USER)
    (sweep,) = [p for p in digest.passes if p.kind == PASS_KIND]
    assert [(x.kind, x.fact_id, x.source) for x in sweep.lines] == [
        ("retired", copy.id, "REM: the same fact was stored twice")
    ]
