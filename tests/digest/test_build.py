"""The digest of a day, read from the record: each fact one line, with what happened to it and
the messages it came from (in the owner's local time); refusals with their reasons; nothing of
the owner's own changes, nothing from outside the day's window."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.curator.ops import Deactivate, Insert, Update
from kit.digest.build import DigestBuilder
from kit.digest.model import DigestLine
from kit.memory.fact_writer import Provenance
from kit.memory.history import FactHistory
from tests.support.curation import say
from tests.support.digest import USER, a_day_of_curation, at

pytestmark = pytest.mark.stores


def lines(kit_lines: tuple[DigestLine, ...]) -> list[tuple[str, str, str, str]]:
    return [(x.kind, x.text, x.detail, x.source) for x in kit_lines]


async def test_a_pass_reads_as_learned_changed_merged_and_retired_with_its_sources(
    kit: Kit, clock: FakeClock
) -> None:
    day = await a_day_of_curation(kit, clock)
    clock.set(at(21))
    digest = await kit.services.digest.read(USER)
    assert digest.day == at(21).date() and digest.changed
    (curation,) = digest.passes
    assert (curation.pass_id, curation.kind, curation.category, curation.status) == (
        day.curation.pass_id, "curate", "preferences", "applied",
    )  # fmt: skip
    assert curation.undoable
    coffee, cats, tom, river, *_ = day.old
    learned, merged = day.curation.inserted_fact_ids
    assert lines(curation.lines) == [
        ("learned", "Takes oat milk in coffee", "", "from your message at 14:02"),
        ("changed", "Drinks coffee with oat milk", "was: Drinks coffee black",
         "from your message at 14:02"),
        ("merged", "Has two cats, Tom and Jerry", f"merged #{cats.id}, #{tom.id}",
         "from your message at 14:05"),
        ("retired", "Lives near the river", "moved away", "from your message at 14:06"),
    ]  # fmt: skip
    assert [x.fact_id for x in curation.lines] == [learned, coffee.id, merged, river.id]
    assert [x.live for x in curation.lines] == [True, True, True, False]


async def test_sources_are_told_in_the_owners_zone_and_other_voices_are_named(
    kit: Kit, clock: FakeClock
) -> None:
    clock.set(at(13))
    mine = await say(kit, "first", "second", "third", "fourth", at=at(13, 1))
    theirs = await say(kit, "forwarded", at=at(13, 2))
    async with kit.services.db.transaction() as tx:  # a message someone forwarded
        await tx.execute("UPDATE messages SET forwarded_from = 'Ana' WHERE id = ?", (theirs[0].id,))
    ids = [m.id for m in mine]
    await kit.services.curator.apply_ops(
        USER, "projects",
        [Insert("Project one", 0.9, sources=tuple(ids)),
         Insert("Project two", 0.9, sources=(theirs[0].id,))],
        kind="curate", source_message_ids=[*ids, theirs[0].id],
    )  # fmt: skip
    s = kit.services  # the same record, told in Berlin time (UTC+1 in March)
    berlin = DigestBuilder(
        s.curator.passes, FactHistory(s.db), s.facts, s.messages, s.inbox.store,
        s.settings.digest, clock, ZoneInfo("Europe/Berlin"),
    )  # fmt: skip
    digest = await berlin.build(USER, at(12).date())
    one, two = digest.passes[0].lines
    assert one.source == "from your messages at 14:01, 14:01, 14:01 and 1 more"
    assert two.source == "from a message you forwarded at 14:02"


async def test_refusals_and_left_out_operations_are_reported_with_their_reasons(
    kit: Kit, clock: FakeClock
) -> None:
    day = await a_day_of_curation(kit, clock)
    pinned, reads = day.old[4], day.old[5]
    await kit.services.owner_facts.pin(USER, pinned.id, True)
    clock.advance(timedelta(minutes=30))
    stray = day.messages[0].id  # a message of another batch: the operation is left out
    left = await kit.services.curator.apply_ops(
        USER, "preferences", [Update(reads.id, content="Walks to the bus", sources=(stray,))],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert left.status == "noop" and left.dropped
    active = [f for f in await kit.facts() if f.category == "preferences" and f.id != pinned.id]
    rejected = await kit.services.curator.apply_ops(  # too many retired: thrown out whole
        USER, "preferences", [Deactivate(f.id, "tidy") for f in active],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert rejected.status == "rejected"
    digest = await kit.services.digest.read(USER, at(12).date())
    # the pin is the owner's own: not reported; the pass that dropped its only operation is
    assert [p.pass_id for p in digest.passes] == [day.curation.pass_id, left.pass_id]
    (dropped,) = digest.passes[1].dropped
    assert f"cites message {stray}, which is not one of" in dropped
    (refused,) = digest.refused
    assert refused.pass_id == rejected.pass_id and "max_deactivate_fraction" in refused.reason


async def test_an_undone_pass_says_so_and_offers_no_undo(kit: Kit, clock: FakeClock) -> None:
    day = await a_day_of_curation(kit, clock)
    assert day.curation.pass_id is not None
    await kit.services.curator.undo(USER, day.curation.pass_id)
    digest = await kit.services.digest.read(USER, at(12).date())
    (curation,) = digest.passes
    assert curation.status == "undone" and not curation.undoable
    assert [p.kind for p in digest.passes] == ["curate"]  # the undo pass is the owner's


async def test_expired_and_remembered_facts_are_reported_too(kit: Kit, clock: FakeClock) -> None:
    clock.set(at(10))
    services = kit.services
    (message,) = await say(kit, "remember that Ana's birthday is on 3 May", at=at(10))
    await services.facts.add(
        USER, category="people", content="Ana's birthday is on 3 May",
        provenance=Provenance("remember", "the owner asked", source_message_ids=(message.id,)),
    )  # fmt: skip
    dentist = await services.facts.add(
        USER, category="projects", content="Dentist on 2 March", expires_at=at(11),
        provenance=Provenance("api", "test"),
    )  # fmt: skip
    for n in range(5):
        await services.facts.add(
            USER, category="projects", content=f"Project {n}", provenance=Provenance("api", "x")
        )
    clock.set(at(12))
    plan = await services.rem.expiry.plan(USER)
    await services.rem.expiry.retire(USER, plan.due)
    digest = await services.digest.read(USER, at(12).date())
    assert lines(digest.remembered) == [
        ("remembered", "Ana's birthday is on 3 May", "you asked me to remember it",
         "from your message at 10:00"),
    ]  # fmt: skip
    assert lines(digest.expired) == [("expired", "Dentist on 2 March", "past its expiry", "")]
    assert digest.expired[0].fact_id == dentist.id and not digest.expired[0].live
    assert digest.changed and not digest.passes


async def test_the_window_runs_from_the_day_befores_digest_time_to_the_days(
    kit: Kit, clock: FakeClock
) -> None:
    day = await a_day_of_curation(kit, clock)  # at 14:35 on the 2nd
    clock.set(at(21, 30))
    late = await kit.services.curator.apply_ops(
        USER, "projects", [Insert("Late project", 0.9)], kind="curate", source_message_ids=[]
    )
    digests = kit.services.digest
    second = await digests.read(USER, at(12).date())
    third = await digests.read(USER, at(12, day=3).date())
    assert [p.pass_id for p in second.passes] == [day.curation.pass_id]
    assert [p.pass_id for p in third.passes] == [late.pass_id]
    assert digests.open_day() == at(12, day=3).date()  # after 21:00 the next day is open
    assert not (await digests.read(USER, at(12, day=1).date())).changed


async def test_a_forgotten_fact_leaves_no_line(kit: Kit, clock: FakeClock) -> None:
    day = await a_day_of_curation(kit, clock)
    learned = day.curation.inserted_fact_ids[0]
    async with kit.services.db.transaction() as tx:  # what `kit forget` leaves in history
        await kit.services.facts.writer(tx, USER).forget(
            learned, provenance=Provenance("owner", "forget")
        )
    digest = await kit.services.digest.read(USER, at(12).date())
    assert learned not in [x.fact_id for x in digest.passes[0].lines]
