"""A message read back is the dataclass its constructor makes: `_message` builds it without
`__init__` (issue 33, round 16), so a field added to `Message` and not to `_message` fails
here instead of being missing from rows read."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from kit.api import Kit
from kit.memory.messages import Message, NewMessage

pytestmark = pytest.mark.stores

AT = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


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
        made = Message(**{f.name: getattr(row, f.name) for f in dataclasses.fields(Message)})
        assert row == made
        assert vars(row) == vars(made)  # every field, and nothing else
        with pytest.raises(dataclasses.FrozenInstanceError):
            row.text = "changed"  # type: ignore[misc]
    assert rows[0].speaker == "Ana" and rows[0].said_days and rows[0].says_time is True
    assert (rows[1].forwarded_from, rows[1].spoken, rows[1].ref) == ("Bob", True, "r1")
