"""Helpers for the forget-receipt tests: forget as `kit forget` does, and read what a
verification found by place."""

from __future__ import annotations

import json

from kit.api import Kit
from kit.app import Services
from kit.forget.findings import Verification
from kit.forget.forgetter import Forgetter
from kit.forget.plan import ForgetReport
from kit.forget.receipt import Receipt
from kit.forget.scope import ForgetScope
from kit.portability.restore import Forgets


async def forget(kit: Kit, scope: ForgetScope, user: str = "owner") -> Receipt:
    s = kit.services
    report: ForgetReport = await Forgetter(s.db, s.tz, s.forget_ledger).forget(
        user, scope, now=s.clock.now()
    )
    s.vectors.forget_cache(user)
    s.search.forget_cache(user)
    assert report.receipt is not None
    return report.receipt


def found(result: Verification) -> dict[str, list[int]]:
    """What a verification found, as {"place: what": ids}."""
    return {f"{f.place}: {f.what}": list(f.ids) for f in result.leftovers}


def only(result: Verification, place: str) -> list[int]:
    """The ids of what was found in `place`, checking nothing was found anywhere else."""
    assert {f.place for f in result.leftovers} == {place}, found(result)
    return sorted(i for f in result.leftovers for i in f.ids)


async def dump(kit: Kit) -> str:
    """Every row of every table (to show that something changed nothing)."""
    db = kit.services.db
    if db.engine == "sqlite":
        names = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts%'"
    else:
        names = (
            "SELECT table_name FROM information_schema.tables WHERE table_schema ="
            " current_schema() AND table_type = 'BASE TABLE' AND table_name NOT LIKE '%fts%'"
        )
    out = []
    for name in sorted(str(r[0]) for r in await db.fetchall(names)):
        rows = await db.fetchall(f"SELECT * FROM {name}")
        out.append(name + json.dumps(sorted(str(tuple(r)) for r in rows)))
    return "\n".join(out)


def at_restore(services: Services) -> Forgets:
    """What a restore answers to in this Kit: its forget ledger, its zone, its clock's now."""
    return Forgets(services.forget_ledger, services.tz, services.clock.now())
