"""Reminders for front-ends: over the control socket (the same dataclasses as in-process),
`kit reminders`, and notices for local conversations in standalone mode."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import date, timedelta
from pathlib import Path

import pytest

from kit.api import Kit
from kit.cli import main
from kit.client import LocalClient
from kit.clock import FakeClock
from kit.commands.chat import show_reminders
from kit.daemon.socket_client import SocketClient
from kit.daemon.socket_server import ControlServer
from kit.embed.hashing import HashingEmbedder
from kit.errors import InputError, NotFound
from kit.forget.forgetter import Forgetter
from kit.forget.scope import ForgetScope
from kit.portability.export import export_document, to_json, to_markdown
from kit.portability.export_check import EXPORT_VERSION, validate
from kit.portability.restore import restore
from tests.support.receipts import at_restore
from tests.support.reminders import schedule_local
from tests.support.sockets import serve


@pytest.fixture
async def socket_client(kit: Kit, clock: FakeClock, tmp_path: Path) -> AsyncIterator[SocketClient]:
    async for control, _ in serve(ControlServer, kit, clock, tmp_path):
        yield SocketClient(control.path)


async def test_socket_lists_cancels_and_hands_out_notices(
    kit: Kit, clock: FakeClock, socket_client: SocketClient
) -> None:
    first = await schedule_local(kit, "stretch", 5)
    await schedule_local(kit, "tea", 60)
    listed = await socket_client.reminders()
    assert [r.text for r in listed] == ["stretch", "tea"]
    assert listed == await kit.services.reminders.active("owner")  # same dataclasses
    cancelled = await socket_client.cancel_reminder(listed[1].id)
    assert cancelled.status == "cancelled"
    with pytest.raises(InputError, match="already cancelled"):
        await socket_client.cancel_reminder(listed[1].id)
    with pytest.raises(NotFound):
        await socket_client.cancel_reminder(999)
    clock.advance(timedelta(minutes=5))
    await kit.services.reminders.dispatcher.run_due()
    (notice,) = await socket_client.reminder_notices("terminal")
    assert (notice.reminder_id, notice.text) == (first, "Reminder: stretch")
    assert await socket_client.reminder_notices("terminal") == []


async def test_standalone_front_end_fires_local_reminders_due_while_no_daemon_ran(
    kit: Kit, clock: FakeClock
) -> None:
    await schedule_local(kit, "stretch", 5, conversation="work")
    clock.advance(timedelta(hours=2))
    client = LocalClient(kit, clock.now())  # `kit chat` opening with no daemon
    assert await client.reminder_notices("terminal") == []  # another conversation's
    (notice,) = await client.reminder_notices("work")
    assert notice.late and notice.text.endswith(": stretch")


def test_kit_reminders_lists_in_the_owners_zone_and_cancels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    model = tmp_path / "no-model"  # lexical search only: the command needs no model
    config.write_text(
        f'[embedding]\nmodel_path = "{model}"\n[schedule]\ntimezone = "Europe/Berlin"\n'
    )
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))

    async def seed() -> None:
        async with Kit.open(embedder=HashingEmbedder(), background=False) as kit:
            await kit.services.reminders.schedule(
                "owner",
                channel="telegram",
                conversation="42",
                fields={"text": "call Ana", "at": "2031-05-04T09:00"},
            )

    asyncio.run(seed())
    assert main(["reminders"]) == 0
    assert capsys.readouterr().out == "#1 Sun 2031-05-04 09:00 (once, reminder): call Ana\n"
    assert main(["reminders", "cancel"]) == 2
    assert "kit reminders cancel ID" in capsys.readouterr().err
    assert main(["reminders", "cancel", "4"]) == 2
    assert "no reminder #4" in capsys.readouterr().err
    assert main(["reminders", "cancel", "1"]) == 0
    assert main(["reminders"]) == 0
    assert "No reminders" in capsys.readouterr().out.splitlines()[-1]


async def test_reminders_travel_through_export_and_restore_and_old_exports_still_restore(
    kit: Kit, clock: FakeClock
) -> None:
    reminders = kit.services.reminders
    await schedule_local(kit, "stretch", 30)
    weekly = await reminders.schedule(
        "owner",
        channel="telegram",
        conversation="42",
        fields={
            "text": "open items",
            "kind": "task",
            "repeat": "weekly",
            "time": "08:00",
            "weekday": "monday",
        },
    )
    await reminders.cancel("owner", weekly.reminder.id)
    s = kit.services
    document = json.loads(to_json(await export_document(s.db, "owner", clock.now())))
    assert document["version"] == EXPORT_VERSION and document["counts"]["reminders"] == 2
    assert "## Reminders and scheduled tasks" in "".join(to_markdown(document, s.tz))
    validate(document, "export.json")
    await restore(s.db, document, "copy", at_restore(s))
    assert [(r.text, r.status, r.next_fire) for r in await s.reminders.store.every("copy")] == [
        (r.text, r.status, r.next_fire) for r in await s.reminders.store.every("owner")
    ]
    older = {k: v for k, v in document.items() if k != "reminders"}
    older["version"] = 2
    validate(older, "v2.json")
    assert older["reminders"] == []
    broken = json.loads(to_json(document))
    broken["reminders"][0]["repeat"] = "monthly"
    with pytest.raises(InputError, match=r"reminders\[0\]\.repeat"):
        validate(broken, "edited.json")


async def test_kit_forget_takes_reminders_naming_the_person_or_asked_for_in_the_range(
    kit: Kit, clock: FakeClock
) -> None:
    s = kit.services
    await schedule_local(kit, "call Ana about the cabin", 60)
    clock.advance(timedelta(days=3))  # 2026-03-05
    await schedule_local(kit, "water the plants", 60)
    await schedule_local(kit, "buy bread", 120)
    forgetter = Forgetter(s.db, s.tz, s.forget_ledger)
    preview = await forgetter.forget(
        "owner", ForgetScope.named("Ana"), now=clock.now(), dry_run=True
    )
    assert preview.reminders_removed == 1
    report = await forgetter.forget("owner", ForgetScope.named("Ana"), now=clock.now())
    assert report.reminders_removed == 1
    range_ = ForgetScope.time(after=date(2026, 3, 4), before=date(2026, 3, 6))
    assert (await forgetter.forget("owner", range_, now=clock.now())).reminders_removed == 2
    assert await s.reminders.store.every("owner") == []


async def test_kit_chat_prints_reminders_delivered_to_its_conversation(
    kit: Kit, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    await schedule_local(kit, "stretch", 5)
    clock.advance(timedelta(minutes=5))
    client = LocalClient(kit, clock.now())
    await show_reminders(client, "terminal")
    await show_reminders(client, "terminal")  # shown once
    assert capsys.readouterr().out == "kit> Reminder: stretch\n"
