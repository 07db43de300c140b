"""Forgetting for good, as part of `Kit` (kit/api.py): what a `kit forget` would erase, the
erasing itself, its receipts, and the check that nothing it erased is back (kit/forget/).
Not `Kit.forget_fact`, which retires one fact and can be undone."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kit.api_base import KitBase

if TYPE_CHECKING:
    from kit.forget.findings import Verification
    from kit.forget.plan import ForgetReport
    from kit.forget.receipts import ReceiptInfo
    from kit.forget.scope import ForgetScope


class Forgetting(KitBase):
    async def forget_preview(self, scope: ForgetScope, *, user: str | None = None) -> ForgetReport:
        """What `forget` would erase; reads only."""
        from kit.forget.forgetter import Forgetter  # the whole forgetting core: on first use

        s = self.services
        return await Forgetter(s.db, s.tz, s.forget_ledger).preview(self._user(user), scope)

    async def forget(self, scope: ForgetScope, *, user: str | None = None) -> ForgetReport:
        """Erase everything in `scope` for good, in one transaction; a record keeps only that
        it happened (counts), and the report's receipt salted hashes of what went, never the
        content. Not `forget_fact`, which retires one fact and can be undone."""
        from kit.forget.forgetter import Forgetter

        s = self.services
        user_id = self._user(user)
        report = await Forgetter(s.db, s.tz, s.forget_ledger).forget(
            user_id, scope, now=s.clock.now()
        )
        s.vectors.forget_cache(user_id)
        s.search.forget_cache(user_id)
        return report

    async def forget_receipts(self, *, user: str | None = None) -> list[ReceiptInfo]:
        """The receipts of every `kit forget` of the user, oldest first: when, what scope,
        counts and the hash of what was erased (never what)."""
        from kit.forget.receipts import ForgetReceipts

        s = self.services
        return await ForgetReceipts(s.db, s.forget_ledger).listing(self._user(user))

    async def verify_forget(self, receipt: str, *, user: str | None = None) -> Verification:
        """Check that nothing a forget erased is in memory again or still: rows, summaries,
        history, notes, records, search indexes, vectors. `receipt`: its id, or the path of a
        copy `kit forget --receipt-file` saved. Reads only."""
        return await self._verifier(receipt, user, repair=False)

    async def repair_forget(self, receipt: str, *, user: str | None = None) -> Verification:
        """Erase what a verification finds left in derived state (search-index entries and
        vectors of erased rows, saved graphs holding them), then verify again. Derived state
        is rebuilt from the rows, so nothing the owner keeps is lost. Rows and text that came
        back are not touched: they need `kit forget` again. Run it with no daemon up."""
        return await self._verifier(receipt, user, repair=True)

    async def _verifier(self, receipt: str, user: str | None, *, repair: bool) -> Verification:
        from kit.forget.index_audit import index_audit
        from kit.forget.receipts import ForgetReceipts
        from kit.forget.verify import Verifier

        s = self.services
        user_id = self._user(user)
        found = await ForgetReceipts(s.db, s.forget_ledger).resolve(user_id, receipt)
        verifier = Verifier(s.db, s.tz, index_audit(s.db), s.vectors.store)
        if repair:
            return await verifier.repair(user_id, found)
        return await verifier.verify(user_id, found)
