"""The owner's long-term facts, as part of `Kit` (kit/api.py): reading them (now, or as they
stood on a day), writing one directly or as the chat's `remember` does, and the owner's own
changes (each one undoable pass of kind "owner", kit/curator/owner.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kit.api_base import KitBase
from kit.errors import InputError
from kit.memory.fact_rows import check_category
from kit.memory.fact_times import as_of_time
from kit.memory.fact_writer import Provenance
from kit.untrusted.clean import clean_text

if TYPE_CHECKING:
    from datetime import date, datetime

    from kit.curator.reports import OwnerChange
    from kit.memory.fact_rows import Fact, HistoryEntry


class FactKeeping(KitBase):
    async def facts(
        self,
        *,
        user: str | None = None,
        category: str | None = None,
        include_inactive: bool = False,
        as_of: date | datetime | None = None,
        recorded: bool = False,
    ) -> list[Fact]:
        """The facts Kit holds now; or, with `as_of` (a day: as it stood at that day's end in
        the owner's zone), those that held then, superseded ones included (valid time), or,
        with `recorded`, as Kit had them written down by then (record time; see
        kit/memory/fact_times.py)."""
        s = self.services
        if as_of is None:
            if recorded:
                raise InputError("`recorded` needs a moment: give as_of too")
            return await s.facts.listing(
                self._user(user), category=category, include_inactive=include_inactive
            )
        at = as_of_time(as_of, s.tz)
        if recorded:
            return await s.fact_times.recorded_by(self._user(user), at, category=category)
        return await s.fact_times.held_at(self._user(user), at, category=category)

    async def fact(self, fact_id: int, *, user: str | None = None) -> Fact:
        """One fact, active or not (NotFound if `user` has no such fact)."""
        return await self.services.facts.get(self._user(user), fact_id)

    async def fact_history(self, fact_id: int, *, user: str | None = None) -> list[HistoryEntry]:
        return await self.services.facts.history(self._user(user), fact_id)

    async def remember(
        self,
        content: str,
        *,
        category: str = "person",
        subject: str = "",
        confidence: float = 0.9,
        expires_at: datetime | None = None,
        pinned: bool = False,
        user: str | None = None,
    ) -> Fact:
        """Write a long-term fact directly (recorded in its history as written via the API).
        A secret is refused here as on every other way in (InputError names its kind)."""
        from kit.secrets import find_secret

        secret = find_secret(content) or find_secret(subject)
        if secret is not None:
            raise InputError(f"not stored: this looks like {secret}, and Kit never keeps secrets")
        fact = await self.services.facts.add(
            self._user(user),
            category=category,
            content=content,
            subject=subject,
            confidence=confidence,
            expires_at=expires_at,
            pinned=pinned,
            provenance=Provenance(actor="api", reason="written through the API"),
        )
        self.services.background.notify()
        return fact

    async def ask_to_remember(
        self, fact: str, *, category: str = "person", subject: str = "", user: str | None = None
    ) -> Fact:
        """Keep a fact the owner asked for, screened as the chat's `remember` tool does (one
        sentence, no secrets, a known category); the same text as an active fact returns that
        fact instead of a second one."""
        from kit.tools import REMEMBERED_CONFIDENCE, screen_fact

        content, subject = clean_text(fact).strip(), clean_text(subject).strip()
        if not content:
            raise InputError("Not stored: the fact is empty; say it in one sentence")
        screen_fact(content, subject)
        check_category(category)
        stored, added = await self.services.facts.add_unless_known(
            self._user(user),
            category=category,
            content=content,
            subject=subject,
            confidence=REMEMBERED_CONFIDENCE,
            provenance=Provenance(
                actor="remember", reason="the owner asked to remember it, through a Kit client"
            ),
        )
        if added:
            self.services.background.notify()  # embed it: searchable by meaning, not only words
        return stored

    # -- the owner's own changes: each one pass of kind "owner", undoable (kit/curator/owner.py)

    async def add_fact(
        self,
        content: str,
        *,
        category: str = "person",
        subject: str = "",
        pinned: bool = False,
        expires: date | None = None,
        since: date | None = None,
        until: date | None = None,
        user: str | None = None,
    ) -> OwnerChange:
        """Write a fact as the owner (confidence 1.0; the curator and REM never change it).
        `expires`: the last day it holds; `since`: the day it began to hold; `until`: the
        last day it held (it no longer does). Text is checked like `remember`'s."""
        change = await self.services.owner_facts.add(
            self._user(user),
            content,
            category=category,
            subject=subject,
            pinned=pinned,
            expires=expires,
            since=since,
            until=until,
        )
        self.services.background.notify()  # embed it
        return change

    async def edit_fact(
        self,
        fact_id: int,
        content: str | None = None,
        *,
        subject: str | None = None,
        expires: date | None = None,
        clear_expiry: bool = False,
        since: date | None = None,
        until: date | None = None,
        user: str | None = None,
    ) -> OwnerChange:
        """Rewrite a fact as the owner; from then on it is the owner's (see `add_fact`).
        New text with `since` says the world changed that day (the old text is kept as a
        closed fact); `until` says it stopped holding (it is retired as of that day)."""
        change = await self.services.owner_facts.edit(
            self._user(user),
            fact_id,
            content=content,
            subject=subject,
            expires=expires,
            clear_expiry=clear_expiry,
            since=since,
            until=until,
        )
        self.services.background.notify()  # embed the new text
        return change

    async def pin_fact(self, fact_id: int, *, user: str | None = None) -> OwnerChange:
        """Pin a fact: always in context, and the curator and REM leave it alone."""
        return await self.services.owner_facts.pin(self._user(user), fact_id, True)

    async def unpin_fact(self, fact_id: int, *, user: str | None = None) -> OwnerChange:
        return await self.services.owner_facts.pin(self._user(user), fact_id, False)

    async def forget_fact(
        self, fact_id: int, *, reason: str, user: str | None = None
    ) -> OwnerChange:
        """Retire a fact (kept, with a history row saying who and why; undoable). Not
        `kit forget`, which erases."""
        return await self.services.owner_facts.retire(self._user(user), fact_id, reason)
