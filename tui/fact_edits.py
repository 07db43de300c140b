"""The owner's own changes to facts from the TUI: add, edit in place, pin and unpin. Each goes
through a form or a confirmation, is one undoable pass (kit/curator/owner.py), and shows in
the fact's history at once. Retiring a fact is `ask_deactivate` (changes.py)."""

from __future__ import annotations

from typing import cast

from textual.dom import DOMNode

from kit.curator.owner import last_day
from kit.curator.reports import OwnerChange
from kit.memory.fact_rows import Fact
from tui.base import KitHost, MemoryChanged, start_work
from tui.dialogs import Confirm
from tui.fact_form import FactDraft, FactForm
from tui.format import fact_details

_DONE = {"add": "added", "edit": "saved", "pin": "pinned", "unpin": "unpinned", "retire": "retired"}


def _app(node: DOMNode) -> KitHost:
    return cast(KitHost, node.app)


def stored(app: KitHost, change: OwnerChange | None) -> None:
    """Tell the owner what was stored and how to take it back; refresh what is shown."""
    if change is None:
        return
    app.notify(
        f"fact #{change.fact.id} {_DONE[change.operation]} (pass {change.pass_id}: its "
        "history can undo it)"
    )
    app.post_message(MemoryChanged())


def ask_add(node: DOMNode) -> None:
    app = _app(node)

    async def save(draft: FactDraft) -> OwnerChange:
        return await app.client.add_fact(
            draft.content,
            category=draft.category,
            subject=draft.subject,
            pinned=draft.pinned,
            expires=draft.expires,
        )

    app.push_screen(FactForm("Add a fact", save), lambda change: stored(app, change))


def ask_edit(node: DOMNode, fact: Fact) -> None:
    app = _app(node)
    if not fact.active:
        app.notify(f"fact #{fact.id} is retired; undo the pass that retired it first")
        return
    until = None if fact.expires_at is None else last_day(fact.expires_at, app.tz)
    before = FactDraft(fact.content, fact.subject, fact.category, fact.pinned, until)

    async def save(draft: FactDraft) -> OwnerChange:
        return await app.client.edit_fact(
            fact.id,
            None if draft.content == before.content else draft.content,
            subject=None if draft.subject == before.subject else draft.subject,
            expires=None if draft.expires == before.expires else draft.expires,
            clear_expiry=draft.expires is None and before.expires is not None,
        )

    form = FactForm(f"Edit fact #{fact.id} ({fact.category})", save, draft=before)
    app.push_screen(form, lambda change: stored(app, change))


def ask_pin(node: DOMNode, fact: Fact) -> None:
    """Pin an unpinned fact, unpin a pinned one: confirmed first."""
    app = _app(node)
    if not fact.active:
        app.notify(f"fact #{fact.id} is retired; undo the pass that retired it first")
        return
    if fact.pinned:
        title, action = f"Unpin fact #{fact.id}?", "Unpin"
        effect = (
            "It is no longer always in context. The curator and REM may change it again, "
            "unless you wrote it."
        )
    else:
        title, action = f"Pin fact #{fact.id}?", "Pin"
        effect = "It is always in Kit's context, and the curator and REM never change it."
    body = f"{fact_details(fact, app.tz)}\n\n{effect} Recorded in its history; undoable."
    dialog = Confirm(title, body, action=action, variant="primary")

    def confirmed(answer: str | None) -> None:
        if answer is not None:
            start_work(node, _pin, app, fact.id, not fact.pinned, group="change")

    app.push_screen(dialog, confirmed)


async def _pin(app: KitHost, fact_id: int, pinned: bool) -> None:
    with app.reporting():
        if pinned:
            change = await app.client.pin_fact(fact_id)
        else:
            change = await app.client.unpin_fact(fact_id)
        stored(app, change)
