"""Changes to memory the owner can make from the TUI, each behind a confirmation:
deactivate a fact (kept, with a history row) and undo a whole pass (curation, REM or the
owner's own change)."""

from __future__ import annotations

from typing import cast

from textual.dom import DOMNode

from kit.memory.fact_rows import Fact
from kit.text import plural
from tui.base import KitHost, MemoryChanged, start_work
from tui.dialogs import Confirm
from tui.format import fact_details


def ask_deactivate(node: DOMNode, fact: Fact) -> None:
    app = cast(KitHost, node.app)
    if not fact.active:
        app.notify(f"fact #{fact.id} is already inactive", severity="warning")
        return
    body = (
        f"{fact_details(fact, app.tz)}\n\nKit stops using it. Nothing is deleted: the fact "
        "stays in memory as inactive, and its history records who deactivated it and why."
    )
    dialog = Confirm(
        f"Deactivate fact #{fact.id}?", body, action="Deactivate", reason="no longer true"
    )

    def confirmed(reason: str | None) -> None:
        if reason is not None:
            start_work(node, _deactivate, app, fact.id, reason, group="change")

    app.push_screen(dialog, confirmed)


async def _deactivate(app: KitHost, fact_id: int, reason: str) -> None:
    with app.reporting():
        change = await app.client.deactivate_fact(fact_id, reason)
        app.notify(
            f"fact #{fact_id} deactivated; its history keeps what it said "
            f"(pass {change.pass_id}: its history can undo it)"
        )
        app.post_message(MemoryChanged())


def ask_undo(node: DOMNode, pass_id: int) -> None:
    app = cast(KitHost, node.app)
    body = (
        f"Every change pass {pass_id} made is reverted: facts it changed or "
        "deactivated are restored, facts it added are deactivated. Each revert is recorded "
        "in the facts' history."
    )
    dialog = Confirm(f"Undo pass {pass_id}?", body, action="Undo pass")

    def confirmed(answer: str | None) -> None:
        if answer is not None:
            start_work(node, _undo, app, pass_id, group="change")

    app.push_screen(dialog, confirmed)


async def _undo(app: KitHost, pass_id: int) -> None:
    with app.reporting():
        result = await app.client.undo_pass(pass_id)
        app.notify(
            f"pass {result.pass_id} undone: {plural(len(result.restored_fact_ids), 'fact')} "
            f"restored, {plural(len(result.deactivated_fact_ids), 'fact')} it had added deactivated"
        )
        app.post_message(MemoryChanged())
