"""A small but complete memory for trust tests: messages in two conversations over several days,
facts with histories (insert, update, replace, deactivate, curation pass), day summaries
(detailed and condensed), a rolling window summary and embeddings."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from kit.api import Kit
from kit.clock import FakeClock, to_iso
from kit.memory.fact_writer import Provenance
from kit.memory.messages import NewMessage

START = datetime(2026, 2, 20, 9, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Seeded:
    message_ids: dict[str, int]  # a short key -> message id
    fact_ids: dict[str, int]
    pass_id: int


async def seed(kit: Kit, clock: FakeClock, user: str = "owner") -> Seeded:
    s = kit.services
    chat = await s.messages.conversation(user, "telegram", "42")
    day = timedelta(days=1)
    talk = [
        ("ana", "user", "My sister Ana is a cardiologist in Lisbon.", START),
        ("reply", "assistant", "Good to know about Ana!", START + timedelta(minutes=1)),
        ("kit", "user", "I am building Kit, a memory-first assistant in Python.", START + 2 * day),
        ("zebra", "user", "Remember the zebracode plan for the garden.", START + 2 * day),
        ("late", "user", "Lunch with Bruno on Friday, he likes ramen.", START + 5 * day),
    ]
    ids: dict[str, int] = {}
    for key, role, text, at in talk:
        clock.set(at)
        ids[key] = (await s.messages.add(chat, role, text, at=at)).id  # type: ignore[arg-type]
    imported = [NewMessage("user", "Old notes: Ana visited in 2025.", START - timedelta(days=30))]
    await kit.import_messages(imported, user=user, conversation="notes")

    clock.set(START + timedelta(days=6))
    facts = s.facts
    ana = await facts.add(
        user,
        category="people",
        subject="Ana",
        content="Ana is the owner's sister, a cardiologist in Lisbon.",
        provenance=Provenance("curator", "from the conversation", None, (ids["ana"],)),
    )
    kitp = await facts.add(
        user,
        category="projects",
        content="Building Kit, a memory-first assistant.",
        provenance=Provenance("remember", "asked", None, (ids["kit"],)),
    )
    await facts.update(
        user,
        kitp.id,
        Provenance("curator", "more detail", None, (ids["kit"],)),
        content="Building Kit, a memory-first assistant in Python.",
        confidence=0.9,
    )
    zebra = await facts.add(
        user,
        category="projects",
        content="Garden plan is called zebracode.",
        provenance=Provenance("curator", "", None, (ids["zebra"],)),
    )
    # A fact that named Ana once, then was rewritten not to: its history still names her.
    bruno = await facts.add(
        user,
        category="people",
        subject="Bruno",
        content="Bruno is Ana's colleague.",
        provenance=Provenance("curator", "", None, (ids["late"],)),
    )
    await facts.update(
        user,
        bruno.id,
        Provenance("curator", "", None, (ids["late"],)),
        content="Bruno likes ramen; lunch on Fridays.",
    )
    async with s.db.transaction() as tx:
        pass_id = await tx.insert(
            "INSERT INTO passes (user_id, kind, category, started_at, finished_at, status,"
            " reason, detail_json) VALUES (?, 'curation', 'projects', ?, ?, 'applied', '', ?)",
            (
                user,
                to_iso(clock.now()),
                to_iso(clock.now()),
                json.dumps({"ops": [{"op": "REPLACE", "content": "Kit and zebracode projects."}]}),
            ),
        )
        writer = s.facts.writer(tx, user)
        merged = await writer.insert(
            category="projects",
            content="Kit and zebracode projects.",
            provenance=Provenance("curator", "merge", pass_id, (ids["kit"], ids["zebra"])),
        )
        await writer.deactivate(
            zebra.id,
            provenance=Provenance("curator", "merged", pass_id, (ids["zebra"],)),
            replaced_by=merged.id,
        )
    await facts.deactivate(user, kitp.id, Provenance("owner", "not relevant"))

    day1, day3 = START.date(), (START + timedelta(days=2)).date()
    await s.days.put_detailed(user, day1, "- Talked about Ana, a cardiologist\n- Weather", 2)
    await s.days.put_condensed(user, day1, "- Ana is a cardiologist")
    await s.days.put_detailed(user, day3, "- Worked on Kit\n- Planned zebracode garden", 2)
    await s.days.put_detailed(user, date(2026, 2, 25), "- Ana called.", 1)
    await s.messages.advance_window(
        chat.id,
        expected_start_id=0,
        new_start_id=ids["kit"],
        summary="The owner told Kit about Ana, a cardiologist.\nThey like tea.",
    )
    await kit.settle()  # embeddings for everything
    return Seeded(
        ids,
        {"ana": ana.id, "kit": kitp.id, "zebra": zebra.id, "bruno": bruno.id, "merged": merged.id},
        pass_id,
    )
