"""A message or fact read back is the dataclass its constructor makes: their readers build them
without `__init__` (kit/memory/frozen.py, issue 33, round 16), so a field added to `Message`
or `Fact` and not to its reader fails here instead of being missing from rows read."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any

import pytest

from kit.api import Kit
from kit.memory.messages import NewMessage

pytestmark = pytest.mark.stores

AT = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def assert_made_whole(row: Any) -> None:
    """`row` equals the instance its class's constructor makes of its fields, holds every
    field and nothing else, and is still frozen."""
    cls = type(row)
    made = cls(**{f.name: getattr(row, f.name) for f in dataclasses.fields(cls)})
    assert row == made
    assert vars(row) == vars(made)
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.id = 0


async def test_a_message_read_back_has_every_field_its_constructor_sets(kit: Kit) -> None:
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "chat")
    said = await s.messages.add(conv, "user", "a party last Friday", at=AT, speaker="Ana")
    await kit.import_messages(
        [NewMessage("assistant", "noted", AT, forwarded_from="Bob", spoken=True, ref="r1")],
        conversation="a",
    )
    rows = await s.messages.get_many("owner", [said.id, said.id + 1])
    assert len(rows) == 2
    for row in rows:
        assert_made_whole(row)
    assert rows[0].speaker == "Ana" and rows[0].said_days and rows[0].says_time is True
    assert (rows[1].forwarded_from, rows[1].spoken, rows[1].ref) == ("Bob", True, "r1")


async def test_a_fact_read_back_has_every_field_its_constructor_sets(kit: Kit) -> None:
    kept = await kit.remember("The boat is called Matilda", category="entities")
    facts = await kit.services.facts.by_ids("owner", [kept.id])
    assert len(facts) == 1
    assert_made_whole(facts[0])
    assert facts[0].content == "The boat is called Matilda" and facts[0].active is True
